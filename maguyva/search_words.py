"""BM25's words: each identifier of a text lower-cased, plus its parts when it is compound. Pure.

The one tokeniser of the text index: extraction workers compute a chunk's words
(``maguyva.index.workers``), the stores index and query them (``maguyva.store``) and the ranker
splits questions with it (``maguyva.retrieve.query``). A leaf: it imports nothing of Maguyva.
"""

from __future__ import annotations

import re

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|[0-9]+")
# a run of identifier characters (``[0-9A-Z_a-z]+``): an identifier when it starts with a letter or
# ``_``, else digits then _IDENT's tokens (``0x1F`` → ``0``, ``x1F``), split on its first use. The
# runs are cut from the UTF-8 bytes: every other byte becomes a space (a multi-byte character is
# all bytes >= 0x80, never an identifier character) and ``bytes.split`` cuts at them, 3x faster
# than a ``findall`` of the runs over the text.
_SEPARATORS = bytes(
    c if chr(c).isascii() and (chr(c).isalnum() or c == ord("_")) else ord(" ") for c in range(256)
)
_PARTS = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")


def search_words(text: str) -> str:
    """Words for the BM25 index: each identifier lower-cased, plus its parts when it is compound.

    ``getUserName`` → ``getusername get user name``; ``HTTPServer_v2`` → ``httpserver_v2 http server v 2``.
    """
    runs = text.encode("utf-8", "surrogatepass").translate(_SEPARATORS).split()
    return " ".join(map(_WORDS.__getitem__, runs))


def _identifier_words(ident: str) -> str:
    if ident[0].isdigit():  # a run of digits, then maybe an identifier (``_IDENT``'s tokens)
        tokens = _IDENT.findall(ident)
        if len(tokens) > 1:
            return " ".join(map(_identifier_words, tokens))
    lower = ident.lower()
    if lower == ident and ident.isalpha():
        return lower
    parts = _PARTS.findall(ident)
    return " ".join([lower, *(part.lower() for part in parts)]) if len(parts) > 1 else lower


class _IdentifierWords(dict):
    """run (ASCII bytes) → its words, computed on first use (a dict lookup per run, cheaper than an
    ``lru_cache`` call); bounded: emptied when it holds ``_WORDS_MAX`` runs."""

    def __missing__(self, run: bytes) -> str:
        words = _identifier_words(run.decode("ascii"))
        if len(self) >= _WORDS_MAX:
            self.clear()
        self[run] = words
        return words


_WORDS_MAX = 1 << 17
_WORDS = _IdentifierWords()
