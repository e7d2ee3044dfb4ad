"""Encoded payloads: long base64 / hex blobs that decode to instructions or shell commands."""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Callable

from orkestra.trust.context import line_of, line_text
from orkestra.trust.findings import Finding, excerpt
from orkestra.trust.patterns import DANGER_WORDS, SENSITIVE_PATH

Rescan = Callable[[str], bool]  # decoded text -> any high finding under the full rules

_BASE64 = re.compile(r"(?<![A-Za-z0-9+/=_-])[A-Za-z0-9+/_-]{40,}={0,2}(?![A-Za-z0-9+/=_-])")
_HEX = re.compile(r"(?<![0-9A-Fa-f])(?:[0-9A-Fa-f]{2}){20,}(?![0-9A-Fa-f])|(?:\\x[0-9A-Fa-f]{2}){12,}")
# base64 wrapped over several lines (76 columns, as `base64` prints it), optionally indented
_WRAPPED = re.compile(r"(?:^[ \t>]*[A-Za-z0-9+/]{16,}[ \t]*\n){2,}[ \t>]*[A-Za-z0-9+/]*={0,2}[ \t]*$", re.M)
MIN_TEXT = 16
PRINTABLE_SHARE = 0.9


def decode_blob(blob: str) -> str | None:
    """The text a base64 or hex blob encodes, or None when it is not mostly printable text."""
    raw: bytes | None = None
    try:
        if blob.startswith("\\x") or re.fullmatch(r"[0-9A-Fa-f]+", blob):
            raw = bytes.fromhex(blob.replace("\\x", ""))
        else:
            padded = blob + "=" * (-len(blob) % 4)
            raw = base64.b64decode(padded, altchars=b"-_" if ("-" in blob or "_" in blob) else None)
    except (binascii.Error, ValueError):
        return None
    if len(raw) < MIN_TEXT:
        return None
    printable = sum(32 <= b < 127 or b in (9, 10, 13) for b in raw)
    if printable / len(raw) < PRINTABLE_SHARE:
        return None
    return raw.decode("ascii", errors="replace")


def is_dangerous_text(text: str, rescan: Rescan | None = None) -> bool:
    """Decoded text that is code or instructions: danger words, a secret path, or — rescanned with
    the full phrase and shell rules (``rescan``, which ``injection`` passes), on its confusable-folded
    form — any high finding."""
    if DANGER_WORDS.search(text) or SENSITIVE_PATH.search(text):
        return True
    return rescan is not None and rescan(text)


def _decoded_danger(blob: str, rescan: Rescan | None, depth: int = 3) -> tuple[str, bool] | None:
    text = decode_blob(blob)
    if text is None:
        return None
    if is_dangerous_text(text, rescan):
        return text, True
    if depth > 1:
        for inner in _BASE64.findall(text) + _HEX.findall(text):
            nested = _decoded_danger(inner, rescan, depth - 1)
            if nested is not None and nested[1]:
                return nested
    return text, False


def scan_encoded(text: str, file: str, base_line: int = 1, rescan: Rescan | None = None) -> list[Finding]:
    """Findings for encoded blobs: high when the decoded text is code or instructions, else low.

    ``rescan``: the full rule set for decoded text (``injection.scan_encoded_text`` passes it; this
    module never imports ``injection``, which imports it)."""
    findings: list[Finding] = []
    if len(text) < 40:
        return findings
    for pattern in (_BASE64, _HEX, _WRAPPED) if "\n" in text else (_BASE64, _HEX):
        for match in pattern.finditer(text):
            if "/" in match.group(0) and not re.search(r"[0-9+=]", match.group(0)):
                continue  # a path such as docs/reference/architecture/overview/index
            if pattern is _WRAPPED:
                blob = re.sub(r"[\s>]+", "", match.group(0))
                if (
                    findings
                    and findings[-1].line >= line_of(text, match.start(), base_line)
                    and findings[-1].severity == "high"
                ):
                    continue  # its first line alone already decoded to something dangerous
            else:
                blob = match.group(0)
            decoded = _decoded_danger(blob, rescan)
            if decoded is None:
                continue
            plain, dangerous = decoded
            line = line_of(text, match.start(), base_line)
            findings.append(
                Finding(
                    "injection.encoded-payload",
                    "high" if dangerous else "low",
                    file,
                    line,
                    excerpt(line_text(text, match.start())),
                    f"encoded blob decodes to {'code or instructions' if dangerous else 'text'}: {excerpt(plain)[:80]!r}",
                )
            )
    return findings
