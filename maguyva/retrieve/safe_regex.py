"""User regexes compiled for RE2, an engine that runs in time linear in the text (no backtracking).

A pattern like ``(a+)+$`` takes Python's ``re`` exponential time and holds the GIL meanwhile, which
stops every tool of the server; RE2 answers it in microseconds. RE2 has no backreferences and no
lookaround: such patterns, and patterns too long or too large to compile, are refused with a
message saying what to do instead.
"""

from __future__ import annotations

from dataclasses import dataclass

import re2

from maguyva.errors import MaguyvaError

MAX_PATTERN_CHARS = 2_000
MAX_PROGRAM_BYTES = 8 << 20  # RE2's compile budget: a pattern needing more is refused, never run
HINT = (
    "RE2 syntax: no backreferences (\\1) and no lookaround ((?=…), (?<!…)); "
    "or search for a literal with regex=false"
)


@dataclass(frozen=True, slots=True)
class SafeRegex:
    """One user pattern: ``line`` matches a single line; ``text`` (multi-line mode) finds files worth reading."""

    line: object
    text: object


def compile_safe(pattern: str, *, case_sensitive: bool) -> SafeRegex:
    """Compile ``pattern`` for RE2, or raise a ``MaguyvaError`` the caller can act on."""
    if len(pattern) > MAX_PATTERN_CHARS:
        raise MaguyvaError(
            f"invalid regular expression: {len(pattern)} characters, the limit is "
            f"{MAX_PATTERN_CHARS}; shorten it"
        )
    options = re2.Options()
    options.case_sensitive = case_sensitive
    options.log_errors = False
    options.max_mem = MAX_PROGRAM_BYTES
    try:
        return SafeRegex(re2.compile(pattern, options), re2.compile(f"(?m){pattern}", options))
    except re2.error as exc:
        reason = (
            exc.args[0].decode(errors="replace") if exc.args and isinstance(exc.args[0], bytes) else str(exc)
        )
        raise MaguyvaError(f"invalid regular expression {pattern[:80]!r}: {reason} ({HINT})") from None
    except (ValueError, TypeError, OverflowError, RecursionError) as exc:
        raise MaguyvaError(f"invalid regular expression {pattern[:80]!r}: {exc} ({HINT})") from None
