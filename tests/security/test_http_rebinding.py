"""Issue 31 class 3: DNS rebinding on `code serve --http` and `serve --http` without a key, and idle sessions.

A page on another site that rebinds its name to the server's address makes the browser send that
name as ``Host`` (and its origin as ``Origin``). Without a key, both servers answer only requests that
name the bound host, in any spelling of it; the loopback test and the Host test agree because one
parser (``maguyva.server.hosts``) does both. Real servers in subprocesses, real MCP client sessions.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from conftest import git
from local_http import INITIALIZE, free_port, mcp_calls
from maguyva_project import index_project, make_project
from memory_repo import make_memory_repo

from maguyva.server.hosts import BoundHost, is_loopback, origin_host, split_host

HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
FOREIGN = ("evil.example", "127.0.0.1.evil.example", "localhost.evil.example", "evil.localhost", "0x7f.1")


def _ipv6() -> bool:
    try:
        with socket.socket(socket.AF_INET6) as sock:
            sock.bind(("::1", 0))
        return True
    except OSError:
        return False


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> tuple[Path, Path]:
    base = tmp_path_factory.mktemp("rebind")
    root = make_project(base / "repo")
    store = base / "index.db"
    index_project(root, store)
    return root, store


@pytest.fixture(scope="module")
def workspace(tmp_path_factory) -> Path:
    repo = tmp_path_factory.mktemp("rebind-orkestra") / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    make_memory_repo(repo)
    return repo


def _env() -> dict:
    return {k: v for k, v in os.environ.items() if k != "MAGUYVA_API_KEY"}


def _start(args: list[str]) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "orkestra", *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=_env(),
    )


def _wait(address: str, port: int, process: subprocess.Popen, seconds: float = 60) -> bool:
    family = socket.AF_INET6 if ":" in address else socket.AF_INET
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and process.poll() is None:
        with socket.socket(family) as sock:
            if sock.connect_ex((address, port)) == 0:
                return True
        time.sleep(0.1)
    return False


def _stop(process: subprocess.Popen) -> str:
    if process.poll() is None:
        process.terminate()
    try:
        return process.communicate(timeout=15)[1].decode(errors="replace")
    except subprocess.TimeoutExpired:
        process.kill()
        return process.communicate()[1].decode(errors="replace")


def _status(url: str, host: str | None = None, origin: str | None = None) -> int:
    headers = dict(HEADERS)
    if host is not None:
        headers["Host"] = host
    if origin is not None:
        headers["Origin"] = origin
    return httpx.post(url, json=INITIALIZE, headers=headers, timeout=10).status_code


# (--host as typed, the address it listens on, Host spellings that name it)
BINDS = [
    ("127.0.0.2", "127.0.0.2", ["127.0.0.2"]),
    ("LOCALHOST", "127.0.0.1", ["localhost", "LOCALHOST", "LocalHost.", "127.0.0.1", "[::1]"]),
    ("0:0:0:0:0:0:0:1", "::1", ["[::1]", "[0:0:0:0:0:0:0:1]", "[0::1]", "localhost", "LOCALHOST"]),
    ("127.0.0.1", "127.0.0.1", ["127.0.0.1", "localhost", "Localhost", "[::ffff:127.0.0.1]"]),
]


@pytest.mark.parametrize(("bind", "address", "names"), BINDS, ids=[b[0] for b in BINDS])
def test_code_serve_without_a_key_answers_only_its_own_names(project, bind, address, names):
    """Before: `--host 127.0.0.2`, `LOCALHOST` and `0:0:0:0:0:0:0:1` counted as loopback (no key needed)
    but the SDK's Host check knew only three exact spellings, so it was off: `Host: evil.example` was served."""
    if ":" in address and not _ipv6():
        pytest.skip("no IPv6 loopback here")
    root, store = project
    port = free_port()
    process = _start(
        [
            "code",
            "serve",
            "--http",
            "--host",
            bind,
            "--port",
            str(port),
            "--repo",
            str(root),
            "--store",
            str(store),
        ]
    )
    netloc = f"[{address}]:{port}" if ":" in address else f"{address}:{port}"
    url = f"http://{netloc}/mcp"
    try:
        assert _wait(address, port, process), _stop(process)
        for name in FOREIGN:
            assert _status(url, host=f"{name}:{port}") == 421, name
            assert _status(url, host=name) == 421, name
        assert _status(url, host="") == 421
        assert _status(url, host=f"{address}:{port}:1") == 421  # not a host[:port]
        for name in names:
            assert _status(url, host=f"{name}:{port}") == 200, name
            assert _status(url, host=f"{name}:{port}", origin=f"http://{name}:{port}") == 200, name
            for origin in ("http://evil.example", f"http://evil.example:{port}", "null", f"file://{name}"):
                assert _status(url, host=f"{name}:{port}", origin=origin) == 403, origin
        (found,) = mcp_calls(url, None, [("find_symbol", {"symbol_name": "cart_total"})])
        assert found.structured_content["count"] == 1
    finally:
        _stop(process)


def test_code_serve_on_a_wildcard_bind_answers_address_literals_but_no_name(project):
    """`--no-auth` on 0.0.0.0: any IP literal or localhost (no page can rebind those), never a site's name."""
    root, store = project
    port = free_port()
    process = _start(
        [
            *("code", "serve", "--http", "--host", "0.0.0.0", "--no-auth", "--port", str(port)),
            *("--repo", str(root), "--store", str(store)),
        ]
    )
    url = f"http://127.0.0.1:{port}/mcp"
    try:
        assert _wait("127.0.0.1", port, process), _stop(process)
        for name in FOREIGN:
            assert _status(url, host=f"{name}:{port}") == 421, name
        for name in ("127.0.0.1", "10.1.2.3", "localhost", "[::1]"):
            assert _status(url, host=f"{name}:{port}") == 200, name
        (found,) = mcp_calls(url, None, [("find_symbol", {"symbol_name": "cart_total"})])
        assert found.structured_content["count"] == 1
    finally:
        _stop(process)


def test_a_keyed_server_serves_any_host_name(project):
    """With a key a rebinding page has nothing to send: proxies may present any name (documented)."""
    root, store = project
    port = free_port()
    key = "rebinding-test-key-0123456789"
    process = subprocess.Popen(
        [
            *(sys.executable, "-m", "orkestra", "code", "serve", "--http", "--port", str(port)),
            *("--repo", str(root), "--store", str(store)),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env={**_env(), "MAGUYVA_API_KEY": key},
    )
    url = f"http://127.0.0.1:{port}/mcp"
    try:
        assert _wait("127.0.0.1", port, process), _stop(process)
        headers = {**HEADERS, "Host": "code.example.org", "Authorization": f"Bearer {key}"}
        assert httpx.post(url, json=INITIALIZE, headers=headers, timeout=10).status_code == 200
        headers.pop("Authorization")
        assert httpx.post(url, json=INITIALIZE, headers=headers, timeout=10).status_code == 401
    finally:
        _stop(process)


@pytest.mark.parametrize(
    ("args", "address"),
    [(["--host", "127.0.0.2"], "127.0.0.2"), (["--host", "0.0.0.0", "--read-only"], "127.0.0.1")],
    ids=["127.0.0.2", "0.0.0.0-read-only"],
)
def test_orkestra_serve_uses_the_same_check(workspace, args, address):
    """Before: `serve --http --host 127.0.0.2` was refused as non-loopback (the two servers disagreed),
    and `--host 0.0.0.0 --read-only` served `Host: evil.example`."""
    port = free_port()
    process = _start(["serve", "--http", "--port", str(port), "--root", str(workspace), *args])
    url = f"http://{address}:{port}/mcp"
    try:
        assert _wait(address, port, process), _stop(process)
        for name in FOREIGN:
            assert _status(url, host=f"{name}:{port}") == 421, name
        assert _status(url, host=f"{address}:{port}", origin="http://evil.example") == 403
        (listed,) = mcp_calls(url, None, [("list_agents_skills", {})])
        assert not listed.is_error
    finally:
        _stop(process)


def test_orkestra_serve_refuses_a_writable_public_bind_in_every_spelling(workspace):
    for host in ("0.0.0.0", "::", "10.0.0.1", "127.0.0.1.example", "localhost.example"):
        done = subprocess.run(
            [sys.executable, "-m", "orkestra", "serve", "--http", "--host", host, "--root", str(workspace)],
            capture_output=True,
            text=True,
            timeout=120,
            env=_env(),
        )
        assert done.returncode == 2, (host, done.stderr)
        assert "--read-only" in done.stderr, (host, done.stderr)


SPELLINGS = {
    "127.0.0.1": [
        "127.0.0.1",
        "localhost",
        "LOCALHOST",
        "localhost.",
        "::ffff:127.0.0.1",
        "[::ffff:127.0.0.1]",
    ],
    "127.0.0.2": ["127.0.0.2", "::ffff:127.0.0.2"],
    "::1": ["::1", "[::1]", "0:0:0:0:0:0:0:1", "[0000:0000::0001]", "localhost"],
}


def test_loopback_detection_and_the_host_check_agree_on_every_spelling():
    for spellings in SPELLINGS.values():
        for bind in spellings:
            assert is_loopback(bind), bind
            guard = BoundHost(bind)
            assert {s for s in spellings if not guard.accepts(s)} == set(), bind
            for foreign in (*FOREIGN, "127.0.0.3", "::2", "localhost.localdomain", "127.1", "2130706433"):
                assert not guard.accepts(foreign), (bind, foreign)
    for public in (
        "0.0.0.0",
        "::",
        "10.0.0.1",
        "example.org",
        "127.1",
        "2130706433",
        "localhost.evil.example",
    ):
        assert not is_loopback(public), public


@pytest.mark.parametrize(
    ("header", "host"),
    [
        ("127.0.0.1:8765", "127.0.0.1"),
        ("LOCALHOST", "LOCALHOST"),
        ("[::1]:80", "::1"),
        ("::1", "::1"),
        ("[::1", None),
        ("[::1]x", None),
        ("[evil.example]:80", None),
        ("evil:80:80", None),
        ("127.0.0.1:", None),
        ("127.0.0.1:99999", None),
        ("127.0.0.1:８０", None),
        ("", None),
    ],
)
def test_host_headers_are_parsed_strictly(header, host):
    assert split_host(header) == host


def test_origins_are_parsed_strictly():
    assert origin_host("http://127.0.0.1:8765") == "127.0.0.1"
    assert origin_host("HTTPS://[::1]") == "::1"
    for bad in (
        "null",
        "file://localhost",
        "http://localhost/x",
        "http://user@localhost",
        "localhost:80",
        "",
    ):
        assert origin_host(bad) is None, bad


def _session(url: str) -> str:
    response = httpx.post(url, json=INITIALIZE, headers=HEADERS, timeout=10)
    assert response.status_code == 200
    session = response.headers["mcp-session-id"]
    notified = httpx.post(
        url,
        json={"jsonrpc": "2.0", "method": "notifications/initialized"},
        headers={**HEADERS, "mcp-session-id": session, "mcp-protocol-version": "2025-06-18"},
        timeout=10,
    )
    assert notified.status_code == 202
    return session


def _ping(url: str, session: str) -> int:
    return httpx.post(
        url,
        json={"jsonrpc": "2.0", "id": 7, "method": "ping"},
        headers={**HEADERS, "mcp-session-id": session, "mcp-protocol-version": "2025-06-18"},
        timeout=10,
    ).status_code


@pytest.mark.parametrize("server", ["code", "orkestra"])
def test_an_abandoned_http_session_is_closed_after_the_idle_timeout(project, workspace, server):
    """Before: no option; a session a client never closed stayed for the SDK's fixed 30 minutes.
    Now `--session-idle-timeout` closes it: its id answers 404 (the client opens a new one)."""
    root, store = project
    port = free_port()
    args = (
        ["code", "serve", "--http", "--repo", str(root), "--store", str(store)]
        if server == "code"
        else ["serve", "--http", "--root", str(workspace)]
    )
    process = _start([*args, "--port", str(port), "--session-idle-timeout", "2"])
    url = f"http://127.0.0.1:{port}/mcp"
    try:
        assert _wait("127.0.0.1", port, process), _stop(process)
        kept, abandoned = _session(url), _session(url)
        statuses = []
        for wait in (4, 8):  # a check is a request and restarts the countdown: wait well past it again
            until = time.monotonic() + wait
            while time.monotonic() < until:
                assert _ping(url, kept) == 200  # a session in use stays open
                time.sleep(0.5)
            statuses.append(_ping(url, abandoned))
            if statuses[-1] == 404:
                break
        assert statuses[-1] == 404, statuses
        assert _ping(url, kept) == 200
    finally:
        _stop(process)


@pytest.mark.parametrize("value", ["0", "-5", "inf", "nan", "1e9"])
def test_an_idle_timeout_that_is_no_number_of_seconds_is_refused(workspace, value):
    done = subprocess.run(
        [
            *(sys.executable, "-m", "orkestra", "serve", "--http", "--root", str(workspace)),
            *("--port", str(free_port()), "--session-idle-timeout", value),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        env=_env(),
    )
    assert done.returncode == 2, (value, done.stderr)
    assert "session-idle-timeout" in done.stderr, (value, done.stderr)


@pytest.mark.parametrize("bind", ["0:0:0:0:0:0:0:1", "[::1]"])
def test_a_keyed_server_on_an_ipv6_loopback_starts_and_serves(project, bind):
    """Before: the bearer-auth settings built `http://0:0:0:0:0:0:0:1:PORT` and start-up died on it."""
    if not _ipv6():
        pytest.skip("no IPv6 loopback here")
    root, store = project
    port = free_port()
    key = "rebinding-test-key-0123456789"
    process = subprocess.Popen(
        [
            *(
                sys.executable,
                "-m",
                "orkestra",
                "code",
                "serve",
                "--http",
                "--host",
                bind,
                "--port",
                str(port),
            ),
            *("--repo", str(root), "--store", str(store)),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env={**_env(), "MAGUYVA_API_KEY": key},
    )
    try:
        assert _wait("::1", port, process), _stop(process)
        (found,) = mcp_calls(
            f"http://[::1]:{port}/mcp", key, [("find_symbol", {"symbol_name": "cart_total"})]
        )
        assert found.structured_content["count"] == 1
    finally:
        _stop(process)
