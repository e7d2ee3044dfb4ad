"""Conventional Commits 1.0 parser; pure.

Rules (https://www.conventionalcommits.org/en/v1.0.0/) and how they are read here:

* header ``<type>[(<scope>)][!]: <description>``; the type is a word, matched and reported
  case-insensitively (lower-cased); the scope is a non-empty noun in parentheses; the
  description follows the colon and one space and must not be empty.
* the body starts one blank line after the header and may hold any number of paragraphs.
* footers start at the first paragraph after the header whose first line is a git-trailer
  footer: ``Token: value`` or ``Token #value``; tokens use ``-`` for spaces, except
  ``BREAKING CHANGE``. A footer value runs (blank lines included) until the next footer token.
* breaking: ``!`` before the colon, or a ``BREAKING CHANGE:`` / ``BREAKING-CHANGE:`` footer,
  which must be upper-case. With ``!`` and no footer the description describes the break.
* anything that does not match is kept: ``type`` is None and ``description`` is the subject.
* reverts (``revert:`` type or git's ``Revert "…"`` subject) report the reverted sha when the
  message names one; merge subjects (``Merge branch …``, ``Merge pull request …``) are flagged.
  For git's ``Revert "<subject>"`` the type stays None and ``reverted_type`` is the type of
  the quoted subject.
* a description that is release-please's version instruction (``feat!: Release as 3.0.0``)
  is not a breaking change; ``release_as`` holds the version (also from a ``Release-As:`` footer).

:func:`message_parts` splits a squash commit the way release-please does: every paragraph
that starts with a Conventional Commits header of a known type, every later line that is one
(a list of squashed subjects), and every ``BEGIN_NESTED_COMMIT`` … ``END_NESTED_COMMIT`` block
is a commit of its own.
"""

from __future__ import annotations

import re
from typing import NamedTuple

HEADER_RE = re.compile(
    r"^(?P<type>[A-Za-z][A-Za-z0-9_-]*)(?:\((?P<scope>[^()\r\n]*)\))?(?P<bang>!)?: (?P<description>.*)$"
)
FOOTER_RE = re.compile(r"^(?P<token>BREAKING CHANGE|[A-Za-z][A-Za-z0-9-]*)(?:: | #)(?P<value>.*)$")
FOOTER_START_RE = re.compile(
    r"(?:BREAKING CHANGE|[A-Za-z][A-Za-z0-9-]*)(?:: | #)"
)  # FOOTER_RE on a first line
# a line of whitespace that is not empty, first line included (``\s`` is what ``str.strip`` strips)
BLANKISH_LINE_RE = re.compile(r"\n[^\S\n]+(?=\n|\Z)")
BLANKISH_FIRST_RE = re.compile(r"[^\S\n]+(?=\n|\Z)")
BREAKING_TOKENS = ("BREAKING CHANGE", "BREAKING-CHANGE")
REVERT_SHA_RE = re.compile(r"\b(?:This reverts commit|Reverts?:?|Refs:)\s+([0-9a-fA-F]{7,40})\b")
GIT_REVERT_RE = re.compile(r'^Revert "(?P<subject>.+)"')
RELEASE_AS_RE = re.compile(r"^release[- ]as:?\s+v?(?P<version>\d[0-9A-Za-z.+-]*)\s*$", re.IGNORECASE)
PART_TYPES = (
    "feat",
    "feature",
    "fix",
    "docs",
    "style",
    "refactor",
    "perf",
    "test",
    "build",
    "ci",
    "chore",
    "revert",
    "deps",
    "security",
)
PART_SPLIT_RE = re.compile(r"\r?\n\r?\n(?=(?:{})(?:\([^()\r\n]*\))?!?: )".format("|".join(PART_TYPES)))
# a later line that starts with a known type, case-insensitively (the rest of the pattern has no letters, so a
# global flag is the scoped one; without the nested-commit branch the search runs on its "\n" prefix, 3x faster)
PART_HINT_RE = re.compile(r"\n(?:{})(?:\([^()\r\n]*\))?!?: ".format("|".join(PART_TYPES)), re.IGNORECASE)
NESTED = "BEGIN_NESTED_COMMIT"
MERGE_RE = re.compile(r"^Merge (?:branch|branches|remote-tracking branch|pull request|tag|commit) ")


class Footer(NamedTuple):
    token: str
    value: str
    separator: str  # ": " or " #"


class ParsedCommit(NamedTuple):
    """One commit message read as a Conventional Commit (or kept as plain text).

    A named tuple, immutable and cheap to build: a full sync parses one per commit."""

    subject: str
    type: str | None
    scope: str | None
    description: str
    body: str
    footers: tuple[Footer, ...] = ()
    breaking: bool = False
    breaking_description: str | None = None
    is_revert: bool = False
    reverts: str | None = None
    is_merge: bool = False
    reverted_type: str | None = None
    release_as: str | None = None

    @property
    def conventional(self) -> bool:
        return self.type is not None


def _split_paragraphs(lines: list[str]) -> list[tuple[int, list[str]]]:
    """Paragraphs as (index of their first line, lines)."""
    paragraphs: list[tuple[int, list[str]]] = []
    for index, line in enumerate(lines):
        if not line.strip():
            continue
        if index and lines[index - 1].strip() and paragraphs:
            paragraphs[-1][1].append(line)
        else:
            paragraphs.append((index, [line]))
    return paragraphs


def _parse_footers(lines: list[str]) -> tuple[Footer, ...]:
    footers: list[list] = []  # [token, separator, value lines]
    for line in lines:
        match = FOOTER_RE.match(line)
        if match:
            separator = ": " if line[len(match["token"])] == ":" else " #"
            footers.append([match["token"], separator, [match["value"]]])
        elif footers:
            footers[-1][2].append(line)
    return tuple(Footer(token, "\n".join(value).strip(), sep) for token, sep, value in footers)


def _body_and_footer_lines(rest: str) -> tuple[str, list[str]]:
    """The body (paragraphs before the first footer, one blank line apart) and the footer lines after it.

    ``rest`` is the message after its subject line. A paragraph is a run of lines that are not blank (all
    whitespace, as ``str.strip`` sees it). When every blank line is empty, which is nearly always, the
    paragraphs are the pieces between ``"\\n\\n"``; a line of spaces or tabs takes the line-by-line path."""
    if BLANKISH_FIRST_RE.match(rest) or BLANKISH_LINE_RE.search(rest):
        lines = rest.split("\n")
        paragraphs = _split_paragraphs(lines)
        start = next((i for i, (_, p) in enumerate(paragraphs) if FOOTER_RE.match(p[0])), len(paragraphs))
        body = "\n\n".join("\n".join(p) for _, p in paragraphs[:start])
        return body, lines[paragraphs[start][0] :] if start < len(paragraphs) else []
    pieces = rest.split("\n\n")
    body = []
    for number, piece in enumerate(pieces):
        paragraph = piece.strip("\n")
        if not paragraph:
            continue
        if FOOTER_START_RE.match(paragraph):  # the footers run from here to the end, blank lines and all
            return "\n\n".join(body), "\n\n".join(pieces[number:]).lstrip("\n").split("\n")
        body.append(paragraph)
    return "\n\n".join(body), []


def parse_message(message: str) -> ParsedCommit:
    """Parse a full commit message (subject, body, footers)."""
    subject, _, rest = message.replace("\r\n", "\n").strip("\n").partition("\n")
    subject = subject.strip()
    body, footer_lines = _body_and_footer_lines(rest)
    footers = _parse_footers(footer_lines)

    header = HEADER_RE.match(subject)
    if header:
        ctype, scope, bang, description = header.groups()
        description = description.strip()
    if header and description and (scope is None or scope.strip()):
        ctype, bang = ctype.lower(), bang is not None
    else:
        ctype, scope, description, bang = None, None, subject, False

    release_as = RELEASE_AS_RE.match(description) if ctype else None
    if release_as:  # release-please's version instruction, not a change of the API
        bang = False
    footer_version = breaking_footer = None
    if footers:
        footer_version = next(
            (f.value.split()[0] for f in footers if f.token.lower() == "release-as" and f.value), None
        )
        breaking_footer = next(
            (f for f in footers if f.token in BREAKING_TOKENS and f.separator == ": "), None
        )
    breaking = bang or breaking_footer is not None
    breaking_description = breaking_footer.value if breaking_footer else (description if bang else None)

    is_revert = ctype == "revert" or subject.startswith('Revert "')
    reverted = REVERT_SHA_RE.search(message) if is_revert else None
    git_revert = GIT_REVERT_RE.match(subject) if ctype is None and is_revert else None
    reverted_header = HEADER_RE.match(git_revert["subject"]) if git_revert else None
    return ParsedCommit(  # positionally: the field order of ParsedCommit
        subject,
        ctype,
        scope,
        description,
        body,
        footers,
        breaking,
        breaking_description,
        is_revert,
        reverted.group(1).lower() if reverted else None,
        subject.startswith("Merge ") and MERGE_RE.match(subject) is not None,
        reverted_header["type"].lower() if reverted_header else None,
        release_as["version"] if release_as else footer_version,
    )


def message_parts(message: str) -> tuple[str, list[ParsedCommit]]:
    """(the message without its embedded commits, the embedded commits parsed), as release-please splits them."""
    if NESTED not in message and not PART_HINT_RE.search(message):  # the common case: no embedded commit
        return message, []
    text = message.replace("\r\n", "\n")
    nested = []
    if "BEGIN_NESTED_COMMIT" in text:
        head, *blocks = text.split("BEGIN_NESTED_COMMIT")
        for block in blocks:
            inner, _, after = block.partition("END_NESTED_COMMIT")
            nested.append(inner.strip())
            head += after
        text = head
    main, *split = PART_SPLIT_RE.split(text)
    main, *inline = _split_lines(main)
    chunks = [*inline, *(piece for chunk in (*split, *nested) for piece in _split_lines(chunk))]
    parts = [parse_message(chunk) for chunk in chunks if chunk.strip()]
    return main, [p for p in parts if p.conventional]


def _split_lines(chunk: str) -> list[str]:
    """A chunk cut before every later line that is a header of a known type (release-please reads such
    lines, e.g. a list of squashed subjects, as commits of their own)."""
    pieces: list[list[str]] = []
    for number, line in enumerate(chunk.split("\n")):
        header = HEADER_RE.match(line) if number else None
        if number == 0 or (header and header["type"].lower() in PART_TYPES and header["description"].strip()):
            pieces.append([line])
        else:
            pieces[-1].append(line)
    return ["\n".join(piece) for piece in pieces]
