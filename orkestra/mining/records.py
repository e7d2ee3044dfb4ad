"""One typed record per ledger line: every reader of the two ledgers goes through :func:`read_ledger`.

A ledger is committed, so a cloned repository writes it: a line nested 5,000 deep, a 5,000-digit
number (Python refuses to convert it), a ``sha`` that is a list, a missing ``packages``, a
non-string ``summary`` or a lone surrogate used to crash ``mine validate``, ``mine status``,
``registry changelog render`` and ``why`` with a traceback. Here each line is decoded with bounds
(depth, number length, strict JSON, text UTF-8 can encode) and validated into its model
(:class:`Classification` for ``commits_processed.jsonl``,
:class:`ReleaseNote` for ``release_notes.jsonl``); a line that fails is a :class:`Diagnostic`
naming the file, line and field, and is skipped by every reader. ``mine validate`` lists them.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, model_validator

from orkestra.errors import Diagnostic
from orkestra.mining.ledger_names import RELEASE_NOTES_FILE

MAX_LEDGER_BYTES = 128 << 20  # ~400,000 classifications; a larger (or sparse 3 GB) ledger is not read
MAX_DIGITS = 40  # no field holds a number; a count or a date stamp fits in far fewer digits
Category = Literal["added", "changed", "deprecated", "removed", "fixed", "security"]
CATEGORIES = ("added", "changed", "deprecated", "removed", "fixed", "security")


class Classification(BaseModel):
    """One line of ``mine commit --input`` (and what ``mine classify`` builds from its flags)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    sha: str = Field(pattern=r"^[0-9a-fA-F]{7,40}$")
    domain: Literal["changelog", "decisions"]
    action: Literal["release", "skip", "extract"]
    category: Literal["added", "changed", "deprecated", "removed", "fixed", "security"] | None = None
    summary: str | None = None
    decision_id: str | None = None
    role: Literal["primary", "supporting"] | None = None
    reason: str | None = None
    correction: bool = False
    by: Literal["auto"] | None = None  # written by `mine auto`; any other classification replaces it

    @model_validator(mode="after")
    def _shape(self) -> Classification:
        allowed = {"changelog": ("release", "skip"), "decisions": ("extract", "skip")}[self.domain]
        if self.action not in allowed:
            raise ValueError(
                f"action {self.action!r} is not valid for domain {self.domain!r} (use {allowed})"
            )
        if self.action == "release" and self.category is None:
            raise ValueError(f"a changelog release needs a category ({', '.join(CATEGORIES)})")
        if self.action == "extract" and not self.decision_id:
            raise ValueError("a decisions extract needs a decision_id (see `orkestra decisions new`)")
        if self.action == "skip" and not (self.reason or "").strip():
            raise ValueError("a skip needs a reason")
        return self


class NotePart(BaseModel):
    """A further entry of the same commit (a Conventional Commit embedded in a squash body)."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    type: str | None = None
    scope: str | None = None
    summary: str
    breaking: bool = False
    category: Category


class ReleaseNote(BaseModel):
    """One line of ``release_notes.jsonl``."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    sha: str
    date: str
    category: Category
    summary: str
    scope: str | None = None
    breaking: bool = False
    packages: list[str]
    correction: bool = False
    type: str | None = None
    parts: list[NotePart] | None = None
    by: Literal["auto"] | None = None


class _BadLine(ValueError):
    """A line that is not a JSON object this module will read (the message says why)."""


@dataclass(frozen=True, slots=True)
class LedgerRead:
    """Every valid line of a ledger as a record dict (validated, in file order), with its line number,
    and a diagnostic for each line left out."""

    records: tuple[dict, ...]
    lines: tuple[int, ...]
    problems: tuple[Diagnostic, ...]
    total: int  # non-empty lines


def _model(path: Path) -> type[BaseModel]:
    if path.name == RELEASE_NOTES_FILE:
        return ReleaseNote
    return Classification


def _number(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise _BadLine(
            f"a number of {len(text.lstrip('-')):,} digits (a ledger holds none over {MAX_DIGITS})"
        )
    return int(text)


def _constant(name: str):
    raise _BadLine(f"{name} is not JSON")


def _decode(text: str):
    """``json.loads`` with bounds: a ValueError (never RecursionError or a bare ValueError from int())."""
    try:
        value = json.loads(text, parse_int=_number, parse_constant=_constant)
    except _BadLine:
        raise
    except json.JSONDecodeError:
        raise _BadLine("corrupt or truncated JSON line") from None
    except RecursionError:
        raise _BadLine("nested too deeply (a ledger line is a flat object)") from None
    except ValueError as error:  # the float converter on absurd input, whatever else int-like refuses
        raise _BadLine(f"not a JSON value this ledger can hold ({error})") from None
    if "\\u" in text or "\\U" in text:  # only an escape can make a lone surrogate: the file is UTF-8
        try:
            json.dumps(value, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:
            raise _BadLine("a lone surrogate escape (\\ud800-\\udfff) that no UTF-8 text can hold") from None
        except RecursionError:
            raise _BadLine("nested too deeply (a ledger line is a flat object)") from None
    return value


def read_text(path: Path) -> str:
    """The ledger's text ("" when absent); a hand-edited file's bad bytes become U+FFFD. Read with the
    capped reader: a FIFO, or a file over MAX_LEDGER_BYTES (a sparse 3 GB one), raises NotRegularFile."""
    from orkestra.fs.links import read_regular

    if not path.exists():
        return ""
    text = read_regular(path, MAX_LEDGER_BYTES).decode("utf-8", errors="replace")
    return text.removeprefix("\ufeff")  # an editor's byte-order mark is not part of the first line


def split_lines(text: str) -> list[str]:
    """Lines as the writer ends them (``\\n``; a CRLF edit's ``\\r`` dropped): never at U+2028 or another
    separator ``str.splitlines`` knows, which JSON strings may hold raw."""
    return [line.removesuffix("\r") for line in text.split("\n")]


def read_ledger(path: Path, rel: str | None = None, text: str | None = None) -> LedgerRead:
    """Decode and validate every non-empty line of the ledger at ``path`` (``rel``: its name in
    diagnostics; ``text``: its content when already read). One decode and one validation for the whole
    file when it is clean."""
    rel = rel or str(path)
    if text is None:
        try:
            text = read_text(path)
        except OSError as error:  # not a regular file, too large, unreadable: every line is left out
            return LedgerRead(
                (), (), (Diagnostic(rel, 1, 1, "", f"cannot read: {error.strerror}", code="io"),), 0
            )
    model = _model(path)
    numbered = [(n, line) for n, line in enumerate(split_lines(text), start=1) if line.strip()]
    if not numbered:
        return LedgerRead((), (), (), 0)
    fast = _read_whole(model, [line for _, line in numbered])
    if fast is not None:
        return LedgerRead(fast, tuple(n for n, _ in numbered), (), len(numbered))
    records, lines, problems = [], [], []
    for number, line in numbered:
        record, found = validate_line(model, line, rel, number)
        if record is None:
            problems.extend(found)
        else:
            records.append(record)
            lines.append(number)
    return LedgerRead(tuple(records), tuple(lines), tuple(problems), len(numbered))


def _read_whole(model: type[BaseModel], lines: list[str]) -> tuple[dict, ...] | None:
    """Every line at once when the file is clean (None as soon as anything is off)."""
    try:
        values = _decode("[" + ",".join(lines) + "]")
    except _BadLine:
        return None
    if len(values) != len(lines):  # a line holding "1, 2" decodes as two values
        return None
    adapter = _adapter(model)
    try:
        records = adapter.validate_python(values)
    except ValidationError:
        return None
    return tuple(adapter.dump_python(records, exclude_unset=True))


_ADAPTERS: dict[type, TypeAdapter] = {}


def _adapter(model: type[BaseModel]) -> TypeAdapter:
    if model not in _ADAPTERS:
        _ADAPTERS[model] = TypeAdapter(list[model])
    return _ADAPTERS[model]


def validate_line(
    model: type[BaseModel], line: str, rel: str, number: int
) -> tuple[dict | None, list[Diagnostic]]:
    """(the record, []) for a valid line, else (None, its diagnostics: file, line, field)."""
    try:
        value = _decode(line)
    except _BadLine as error:
        return None, [Diagnostic(rel, number, 1, "", str(error), code="json")]
    if not isinstance(value, dict):
        return None, [
            Diagnostic(rel, number, 1, "", f"a JSON {type(value).__name__}, not an object", code="json")
        ]
    try:
        record = model.model_validate(value)
    except ValidationError as exc:
        return None, [
            Diagnostic(
                rel, number, 1, ".".join(str(part)[:80] for part in e["loc"]), _message(e), code="schema"
            )
            for e in exc.errors(include_url=False, include_input=False)
        ]
    return record.model_dump(exclude_unset=True), []


def _message(error: dict) -> str:
    return error["msg"] if len(error["msg"]) <= 200 else error["msg"][:200] + "…"


def ledger_rel(root: Path, path: Path) -> str:
    """``path`` relative to the repository for diagnostics."""
    try:
        return Path(os.path.relpath(path, root)).as_posix() if path.is_relative_to(root) else str(path)
    except ValueError:
        return str(path)
