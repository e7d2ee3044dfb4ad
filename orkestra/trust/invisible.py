"""Invisible and direction-changing characters: text a reviewer cannot see but a model reads."""

from __future__ import annotations

import re

from orkestra.trust.findings import Finding, Severity, excerpt

ZERO_WIDTH = "\u200b\u200c\u200d\u2060\u2061\u2062\u2063\u2064\ufeff\u180e\u034f\u00ad"
BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
MARKS = "\u200e\u200f\u061c"
_TAGS = "\U000e0000-\U000e007f"
_ANY = re.compile(f"[{ZERO_WIDTH}{BIDI}{MARKS}{_TAGS}]")
_TAG_RUN = re.compile(f"[{_TAGS}]+")
ZERO_WIDTH_HIGH = 3  # this many zero-width characters in a file can carry a hidden message


# Variation selectors carry bytes after any visible character ("emoji smuggling": byte b < 16 is
# U+FE00 + b, else U+E0100 + b - 16). One after an emoji is ordinary; a run of them, or any
# supplementary selector outside a CJK ideograph sequence, is a message nobody sees.
_VS_RUN = re.compile(
    "[\ufe00-\ufe0f\U000e0100-\U000e01ef]{2,}|(?<![\u3400-\u9fff\U00020000-\U0002fa1f])[\U000e0100-\U000e01ef]"
)


def strip_invisible(text: str) -> str:
    """``text`` without invisible characters (newlines untouched, so line numbers still hold)."""
    text = _VS_RUN.sub("", text) if not text.isascii() else text
    return _ANY.sub("", text) if _ANY.search(text) else text


def _legitimate(text: str, index: int, first_line: bool) -> bool:
    """A zero-width joiner between two pictographs (👩‍💻) or a BOM at the very start is legitimate."""
    if text[index] == "\ufeff":
        return first_line and index == 0
    if text[index] != "\u200d":
        return False
    before = text[index - 1] if index else ""
    after = text[index + 1] if index + 1 < len(text) else ""
    return bool(before and after and ord(before) >= 0x2190 and ord(after) >= 0x2190)


def _selector_bytes(run: str) -> bytes:
    return bytes(
        (ord(c) - 0xFE00) if ord(c) <= 0xFE0F else (ord(c) - 0xE0100 + 16)
        for c in run
        if ord(c) - 0xE0100 < 240
    )


def _invisible(severity: Severity, file: str, number: int, line: str, message: str) -> Finding:
    """An ``injection.invisible-char`` finding on line ``number`` (whose text is ``line``)."""
    return Finding("injection.invisible-char", severity, file, number, excerpt(line), message)


def _selectors(text: str, file: str) -> list[Finding]:
    findings = []
    for match in _VS_RUN.finditer(text):
        hidden = _selector_bytes(match.group(0)).decode("utf-8", errors="replace")
        number = text.count("\n", 0, match.start()) + 1
        findings.append(
            _invisible(
                "high",
                file,
                number,
                text.split("\n")[number - 1],
                f"{len(match.group(0))} variation selectors hide data: {hidden[:80]!r}",
            )
        )
    return findings


def scan_invisible(text: str, file: str) -> list[Finding]:
    """One finding per line with invisible characters; tag characters are decoded into the message."""
    selectors = _selectors(text, file) if not text.isascii() else []
    if not _ANY.search(text):
        return selectors
    findings: list[Finding] = selectors
    zero_width: list[int] = []
    for number, line in enumerate(text.split("\n"), start=1):
        hits = [ch for i, ch in enumerate(line) if _ANY.match(ch) and not _legitimate(line, i, number == 1)]
        if not hits:
            continue
        chars = set(hits)
        if chars & set(BIDI):
            findings.append(
                Finding(
                    "injection.bidi",
                    "high",
                    file,
                    number,
                    excerpt(line),
                    "bidirectional control characters reorder what the reader sees",
                )
            )
        tags = _TAG_RUN.findall(line)
        if tags:
            hidden = "".join(
                chr(ord(ch) - 0xE0000) for run in tags for ch in run if 0x20 <= ord(ch) - 0xE0000 < 0x7F
            )
            findings.append(
                _invisible("high", file, number, line, f"Unicode tag characters hide text: {hidden[:80]!r}")
            )
        if chars & set(MARKS):
            findings.append(
                _invisible("low", file, number, line, "directional marks (usually from right-to-left text)")
            )
        zero_width.extend(number for ch in hits if ch in ZERO_WIDTH)
    if zero_width:
        severity = "high" if len(zero_width) >= ZERO_WIDTH_HIGH else "medium"
        for number in sorted(set(zero_width)):
            findings.append(
                _invisible(
                    severity,
                    file,
                    number,
                    text.split("\n")[number - 1],
                    f"zero-width characters ({len(zero_width)} in the file) can hide text "
                    "or split words past filters",
                )
            )
    return findings
