"""Command-line arguments are text: one that is not valid UTF-8 is refused before any command runs.

On POSIX, Python hands an argument's undecodable bytes to the program as lone surrogates
(``'fix\\udcff'`` for ``fix\\xff``). No query, name or path the CLIs take can hold one: SQLite,
git and YAML all want UTF-8, so such an argument used to end in a ``UnicodeEncodeError`` traceback
deep in a store query. Both console scripts (``maguyva`` and ``orkestra``, and so ``orkestra code``)
check their arguments here first and exit 2 with the argument named. MCP clients cannot send one:
JSON with a lone surrogate fails to parse before any tool runs.

The same surrogates can come back out: a file name that is not UTF-8 (``caf\\xe9.py``), named
in a diagnostic or a listing. Under a UTF-8 locale stdout is strict, and printing one raised
``UnicodeEncodeError``; under the C locale it wrote the raw byte, which is not UTF-8 and breaks a
JSON reader. :func:`text_streams` has both streams write such a character as its escape
(``\\udce9``), so the output is always valid UTF-8.
"""

from __future__ import annotations

import sys  # and nothing else: every command line passes through here, the no-op sync's included

USAGE_EXIT = 2  # as click's usage errors and maguyva.errors.UsageError


def undecodable(arguments: list[str]) -> tuple[int, str] | None:
    """(1-based position, the argument as its bytes would print) of the first argument that is not UTF-8."""
    for position, argument in enumerate(arguments, 1):
        try:
            argument.encode("utf-8")
        except UnicodeEncodeError:
            if _escapable(argument):  # the bytes as given: fix\xff
                return position, repr(argument.encode("utf-8", "surrogateescape"))[2:-1]
            return position, ascii(argument)[1:-1]
    return None


def text_streams() -> None:
    """stdout and stderr write what UTF-8 cannot encode as a backslash escape, never failing."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)  # a replaced stream (a test's) may lack it
        if reconfigure is not None and stream.errors != "backslashreplace":
            reconfigure(errors="backslashreplace")


def refuse_undecodable(arguments: list[str], prog: str) -> None:
    """Exit 2 with a one-line error when an argument is not valid UTF-8; return otherwise."""
    text_streams()
    found = undecodable(arguments)
    if found is not None:
        position, shown = found
        sys.stderr.write(f"error: {prog}: argument {position} ('{shown}') is not valid UTF-8 text\n")
        raise SystemExit(USAGE_EXIT)


def _escapable(argument: str) -> bool:
    """Whether every surrogate is one ``surrogateescape`` made (an undecodable byte, U+DC80–U+DCFF)."""
    return all(not 0xD800 <= ord(c) <= 0xDFFF or 0xDC80 <= ord(c) <= 0xDCFF for c in argument)
