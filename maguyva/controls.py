"""Control characters made visible before text reaches a terminal or a rendered file.

A cloned repository writes what our tables and changelogs show: a commit subject, a file name, a
registry description. An ESC there (``\\x1b[2J``, ``\\x1b]52;c;…`` writing the clipboard, a title
change), a carriage return that overwrites the line, or a C1 control is obeyed by the terminal
that prints it, and kept verbatim in a committed ``CHANGELOG.md``. :func:`visible` writes each such
character as its escape (``\\x1b``, ``\\r``, ``\\x9b``); tabs and newlines stay, and so does every
printable character. JSON output needs none of this: it escapes controls itself.
"""

from __future__ import annotations

import re

# C0 but tab and newline, DEL, and C1: what a terminal may act on rather than show
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def visible(text: str) -> str:
    """``text`` with every control character but tab and newline written as its ``\\xNN`` escape."""
    if _CONTROL.search(text) is None:  # nearly always: one scan, no copy
        return text
    return _CONTROL.sub(lambda match: repr(match[0])[1:-1], text)
