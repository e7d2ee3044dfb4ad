"""Look-alike letters: NFKC plus Unicode's confusables map (TR39, via ``confusable_homoglyphs``).

``skeleton`` folds text so that "Ιgnore аll prеvious" (Greek Ι, Cyrillic а and е) and
fullwidth or mathematical letters read as plain Latin before the phrase rules run. Line
breaks are kept, so line numbers of findings do not move. ``scan_homoglyphs`` reports words
that mix Latin letters with look-alikes from another script — nobody types those by accident.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from orkestra.trust.context import line_of, line_text
from orkestra.trust.findings import Finding, excerpt

_WORD = re.compile(r"\w+")
_NON_ASCII = re.compile(r"[^\x00-\x7f]")


@lru_cache(maxsize=1)
def confusable_map() -> dict[int, str]:
    """Non-ASCII character → the ASCII letter it imitates (``str.translate`` table)."""
    from confusable_homoglyphs.confusables import confusables_data

    table: dict[int, str] = {}
    for char, glyphs in confusables_data.items():
        if len(char) != 1 or char.isascii() or not char.isalpha():
            continue
        letters = [g["c"] for g in glyphs if len(g["c"]) == 1 and g["c"].isascii() and g["c"].isalpha()]
        if not letters:
            continue
        target = letters[0]
        if target == "l" and "CAPITAL" in unicodedata.name(char, ""):
            target = "I"  # TR39 folds capital I into l; as a letter of a word it is an I
        table[ord(char)] = target
    return table


def skeleton(text: str) -> str:
    """NFKC, then look-alike letters replaced by the Latin ones they imitate; ASCII text is returned as is."""
    if text.isascii():
        return text
    folded = unicodedata.normalize("NFKC", text)
    table = confusable_map()
    return _NON_ASCII.sub(lambda m: table.get(ord(m.group()), m.group()), folded)


def _is_latin(char: str) -> bool:
    return char.isascii() and char.isalpha()


def scan_homoglyphs(text: str, file: str, base_line: int = 1) -> list[Finding]:
    """A medium finding per word mixing Latin letters with look-alikes from other scripts."""
    if text.isascii():
        return []
    table = confusable_map()
    findings = []
    for match in _WORD.finditer(text):
        word = match.group(0)
        if word.isascii():
            continue
        latin = sum(_is_latin(c) for c in word)
        fake = [c for c in word if not c.isascii() and ord(c) in table]
        if latin and fake:
            shown = ", ".join(f"{c!r} {unicodedata.name(c, '?').title()}" for c in dict.fromkeys(fake))
            findings.append(
                Finding(
                    "injection.homoglyph",
                    "medium",
                    file,
                    line_of(text, match.start(), base_line),
                    excerpt(line_text(text, match.start())),
                    f"word {word!r} mixes Latin letters with look-alikes ({shown})",
                )
            )
    return findings
