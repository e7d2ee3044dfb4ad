"""Which names an HTTP server answers to when no key protects it: loopback detection and the
Host/Origin check, one parser for both (both MCP servers, maguyva's and orkestra's, use it).

A page on any web site can make a browser send requests to ``http://127.0.0.2:8765`` once its
own name resolves there (DNS rebinding); the browser then sends that site's name as ``Host`` and
``Origin``. A server without a key therefore answers only requests naming it as it was bound: the
bind address in any spelling of it (``ipaddress`` normalises ``0:0:0:0:0:0:0:1`` and ``[::1]``),
and ``localhost`` (any case) when the bind address is one ``localhost`` stands for. A wildcard
bind (``0.0.0.0``, ``::``) answers IP literals and ``localhost``: no page can rebind those.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
LOCALHOST = "localhost"
LOCALHOST_ADDRESSES = (ipaddress.ip_address("127.0.0.1"), ipaddress.ip_address("::1"))
MAX_HEADER_CHARS = 300


def _address(text: str) -> IPAddress | None:
    """``text`` as an IP address (brackets, a zone and IPv4-mapped IPv6 normalised away), else None."""
    text = text.strip()
    if text.startswith("[") and text.endswith("]"):
        text = text[1:-1]
    try:
        found = ipaddress.ip_address(text)
    except ValueError:
        return None
    if isinstance(found, ipaddress.IPv6Address):
        if found.scope_id:
            found = ipaddress.IPv6Address(text.partition("%")[0])
        if found.ipv4_mapped is not None:
            return found.ipv4_mapped
    return found


def _name(text: str) -> str:
    """A host name compared as DNS does: case-insensitive, a final dot dropped."""
    text = text.strip().lower()
    return text[:-1] if text.endswith(".") else text


def is_loopback(host: str) -> bool:
    """Whether ``host`` (as given to ``--host``) is a loopback address: ``localhost`` in any case,
    127.0.0.0/8, ``::1`` in any spelling. Other names count as public: they may resolve to anything."""
    if _name(host) == LOCALHOST:
        return True
    address = _address(host)
    return address is not None and address.is_loopback


@dataclass(frozen=True, slots=True)
class BoundHost:
    """The names a server bound to ``host`` answers to without a key."""

    host: str

    @property
    def address(self) -> IPAddress | None:
        return _address(self.host)

    def accepts(self, hostname: str) -> bool:
        """Whether ``hostname`` (a ``Host`` or ``Origin`` host, port removed) names this server."""
        bound, asked = self.address, _address(hostname)
        if bound is None:  # a name: itself, and for localhost what it stands for
            if _name(self.host) == LOCALHOST:
                return _name(hostname) == LOCALHOST or asked in LOCALHOST_ADDRESSES
            return asked is None and _name(hostname) == _name(self.host)
        if bound.is_unspecified:  # 0.0.0.0 or ::, every interface: any address literal, and localhost
            return asked is not None or _name(hostname) == LOCALHOST
        if asked is not None:
            return asked == bound
        return _name(hostname) == LOCALHOST and bound in LOCALHOST_ADDRESSES

    def describe(self) -> str:
        """The accepted names, for a refusal's message."""
        address = self.address
        if address is not None and address.is_unspecified:
            return "an IP address or localhost"
        if _name(self.host) == LOCALHOST:
            return "localhost, 127.0.0.1 or [::1]"
        return f"{self.host} or localhost" if address in LOCALHOST_ADDRESSES else self.host


def base_url(host: str, port: int) -> str:
    """``http://host:port`` for a ``--host`` value, an IPv6 address in brackets (``http://[::1]:8765``)."""
    name = host.strip()
    name = name[1:-1] if name.startswith("[") and name.endswith("]") else name
    return f"http://[{name}]:{port}" if ":" in name else f"http://{name}:{port}"


def split_host(value: str) -> str | None:
    """The host of a ``Host`` header value (``name``, ``name:port``, ``[v6]:port``), else None."""
    value = value.strip()
    if value.startswith("["):
        inside, bracket, rest = value[1:].partition("]")
        if not bracket or (rest and not (rest.startswith(":") and _port(rest[1:]))):
            return None
        return inside if _address(inside) is not None else None
    if value.count(":") > 1:  # an unbracketed IPv6 literal, never with a port
        return value if _address(value) is not None else None
    host, colon, port = value.partition(":")
    if colon and not _port(port):
        return None
    return host or None


def origin_host(origin: str) -> str | None:
    """The host of an ``Origin`` header (``scheme://host[:port]``), else None (``null`` included)."""
    scheme, sep, rest = origin.strip().partition("://")
    if not sep or scheme.lower() not in ("http", "https") or "/" in rest or "@" in rest:
        return None
    return split_host(rest)


def _port(text: str) -> bool:
    return text.isascii() and text.isdigit() and 0 < len(text) <= 5 and int(text) <= 65535


class HostGuard:
    """ASGI middleware: answer 421 to a ``Host`` and 403 to an ``Origin`` that does not name the server.

    A request without ``Origin`` (any non-browser client) passes on its ``Host`` alone.
    """

    def __init__(self, app, bound: BoundHost):
        self.app = app
        self.bound = bound

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http":
            refusal = self.refusal(scope.get("headers") or [])
            if refusal is not None:
                status, text = refusal
                await _plain(send, status, text)
                return
        await self.app(scope, receive, send)

    def refusal(self, headers: list[tuple[bytes, bytes]]) -> tuple[int, str] | None:
        """(status, message) for headers that do not name this server, else None."""
        host = _header(headers, b"host") or ""
        if not self._accepts(split_host(host)):
            return 421, (
                f"Host {host[:MAX_HEADER_CHARS]!r} is not this server's name: without a key it answers only "
                f"to {self.bound.describe()} (a guard against DNS rebinding; set a key to serve other names)"
            )
        origin = _header(headers, b"origin")
        if origin is not None and not self._accepts(origin_host(origin)):
            return 403, (
                f"Origin {origin[:MAX_HEADER_CHARS]!r} is not this server: without a key it answers only "
                f"pages of {self.bound.describe()}"
            )
        return None

    def _accepts(self, name: str | None) -> bool:
        return name is not None and self.bound.accepts(name)


def _header(headers: list[tuple[bytes, bytes]], key: bytes) -> str | None:
    """The value of header ``key`` (lower case); "" when it is sent more than once, so that it names
    nothing; None when it is not sent."""
    values = [value for name, value in headers if name.lower() == key]
    if not values:
        return None
    return values[0].decode("latin-1") if len(values) == 1 else ""


async def _plain(send, status: int, text: str) -> None:
    body = text.encode("utf-8", "replace")
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"text/plain; charset=utf-8"),
                (b"content-length", b"%d" % len(body)),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
