"""The only YAML reader of orkestra: fast loading, with line/column marks computed when they are needed.

Files are read by ``maguyva.capped.read_text`` (a regular file only, capped unread, UTF-8) and load
with libyaml's C loader, through ``maguyva.safe_yaml`` (the one checked loader both packages share:
caps, alias bombs, duplicate keys, scalars their tag cannot hold); this module turns their refusals
into diagnostics naming the file. Only when something must be reported (a schema error, a dangling
reference) is the file composed again into nodes to find where a field sits (``safe_yaml.position``):
a clean workspace pays nothing for locations.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from maguyva.capped import Unreadable, decode
from maguyva.capped import read_bytes as _read_bytes
from maguyva.safe_yaml import CheckedLoader as _Loader
from maguyva.safe_yaml import Limits, YamlProblem, position
from maguyva.safe_yaml import load as _load
from orkestra.errors import Diagnostic

Loc = tuple  # a field path: ("tools", "builtin", 0)

# Caps for untrusted YAML (a cloned repository's registries): far above any real registry file.
MAX_YAML_BYTES = 16 << 20
MAX_DEPTH = 100
MAX_EXPANDED_NODES = 1_000_000
LIMITS = Limits(max_chars=MAX_YAML_BYTES, max_depth=MAX_DEPTH, max_nodes=MAX_EXPANDED_NODES)


class SourceError(Exception):
    """A file that cannot be read or parsed; carries the diagnostic that says where."""

    def __init__(self, diagnostic: Diagnostic):
        super().__init__(str(diagnostic))
        self.diagnostic = diagnostic


@dataclass(frozen=True, slots=True)
class Document:
    """Parsed YAML plus where it came from (``line_offset`` > 0 for Markdown frontmatter)."""

    path: str  # repo-relative, POSIX
    data: Any
    text: str
    line_offset: int = 0


def parse_yaml(text: str, rel: str, line_offset: int = 0) -> Document:
    """Parse YAML text (``maguyva.safe_yaml``: capped, checked); anything refused becomes a SourceError
    naming file, line, column and, when known, the field."""
    try:
        data, _ = _load(text, LIMITS)
    except YamlProblem as exc:
        line, col = (exc.line or 1) + line_offset, exc.col or 1
        raise SourceError(Diagnostic(rel, line, col, exc.field, exc.message, code="yaml")) from None
    return Document(rel, data, text, line_offset)


def load_yaml(text: str, rel: str = "<text>") -> Any:
    """The data of a YAML text, through the same caps (a SourceError naming ``rel`` when refused)."""
    return parse_yaml(text, rel).data


def read_yaml(root: Path, rel: str, hashes: dict[str, bytes] | None = None) -> Document:
    """Read and parse a YAML file below ``root``."""
    return parse_yaml(read_text(root, rel, hashes), rel)


def read_text(root: Path, rel: str, hashes: dict[str, bytes] | None = None) -> str:
    """A UTF-8 text file with newlines normalised; its sha256 (of the bytes) goes into ``hashes``."""
    data = read_bytes(root, rel)
    if hashes is not None:
        hashes[rel] = hashlib.sha256(data).digest()
    return parse_text(data, rel)


def read_bytes(root: Path, rel: str) -> bytes:
    """The bytes of ``root/rel``; a SourceError naming the file when it cannot be read.

    Only a regular file is read (a FIFO committed where a registry file stands is refused, never
    waited on), and one larger than MAX_YAML_BYTES is refused unread (``maguyva.capped``)."""
    try:
        return _read_bytes(root / rel, MAX_YAML_BYTES)
    except Unreadable as exc:
        raise _unreadable(exc, rel) from exc.__cause__


def parse_text(data: bytes, rel: str) -> str:
    """UTF-8 bytes → text with newlines normalised; a SourceError naming the file when not UTF-8."""
    try:
        return decode(data).replace("\r\n", "\n").replace("\r", "\n")
    except Unreadable as exc:
        raise _unreadable(exc, rel) from exc.__cause__


def _unreadable(exc: Unreadable, rel: str) -> SourceError:
    return SourceError(Diagnostic(rel, 1, 1, "", exc.message, code=exc.kind))


def split_frontmatter(text: str, rel: str) -> tuple[Document, str]:
    """Split ``---`` YAML frontmatter from a Markdown body; the frontmatter is parsed."""
    if not text.startswith("---"):
        raise SourceError(
            Diagnostic(
                rel, 1, 1, "", "missing YAML frontmatter (file must start with '---')", code="frontmatter"
            )
        )
    lines = text.split("\n")
    for index in range(1, len(lines)):
        if lines[index].rstrip() == "---":
            front = "\n".join(lines[1:index])
            body = "\n".join(lines[index + 1 :])
            return parse_yaml(front, rel, line_offset=1), body.lstrip("\n")
    raise SourceError(
        Diagnostic(rel, 1, 1, "", "frontmatter is not closed by a '---' line", code="frontmatter")
    )


# --- locations ------------------------------------------------------------------------------


def locate(doc: Document, loc: Iterable[Any]) -> tuple[int, int]:
    """Line and column (1-based) of the deepest node on ``loc`` that exists in ``doc``.

    A missing key points at its parent mapping, which is where the user must add it.
    """
    try:
        found = position(yaml.compose(doc.text, Loader=_Loader), loc)
    except yaml.YAMLError:
        found = None
    line, col = found or (1, 1)
    return line + doc.line_offset, col


def diagnostics_from_validation(
    doc: Document, exc: Any, base: Loc = (), code: str = "schema"
) -> list[Diagnostic]:
    """Pydantic ValidationError → one Diagnostic per error, each located in the file."""
    result = []
    for error in exc.errors(include_url=False):
        # a section parsed by its own validator names the offending key in the error's context
        inner = (error.get("ctx") or {}).get("key")
        loc = tuple(base) + tuple(error["loc"]) + (tuple(str(inner).split(".")) if inner else ())
        line, col = locate(doc, loc)
        field = ".".join(str(part) for part in loc)
        message = error["msg"]
        if error["type"] in ("extra_forbidden", "unexpected_keyword_argument"):  # a model's, a dataclass's
            message = "unknown field (not part of the schema)"
        elif error["type"] == "missing":
            message = "required field is missing"
        result.append(Diagnostic(doc.path, line, col, field, message, code=code))
    return result
