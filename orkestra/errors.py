"""One error tree and one diagnostic shape for the whole package.

Every problem the user can fix names the file, line, column and field it comes from:
``registries/agents/x.yaml:4:9: mindset: unknown mindset 'analitical' (did you mean 'analytical'?)``.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from typing import Literal

Severity = Literal["error", "warning"]


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One problem found in a workspace; validators return lists of these."""

    path: str
    line: int
    col: int
    field: str
    message: str
    severity: Severity = "error"
    code: str = ""

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}:{self.col}"
        what = f"{self.field}: {self.message}" if self.field else self.message
        prefix = "" if self.severity == "error" else "warning: "
        return f"{where}: {prefix}{what}"

    def to_dict(self) -> dict:
        return asdict(self)


class OrkestraError(Exception):
    """Base error of the orkestra package."""

    exit_code = 1


class UsageError(OrkestraError):
    """The caller asked for something that cannot be done as asked."""

    exit_code = 2


class LoadErrors(OrkestraError):
    """Registry files that did not load: an answer built without them would silently miss entries."""

    def __init__(self, lines: list[str]):
        self.lines = list(lines)
        super().__init__(
            f"{len(self.lines)} problem(s) loading the workspace, so this answer would miss "
            "what those files define (fix them; `orkestra validate` lists every problem):\n"
            + "\n".join(self.lines)
        )


class NoWorkspaceError(OrkestraError):
    """No ``orkestra.yaml`` where one was looked for (the CLI adds a hint to run ``orkestra init``)."""


class NotFoundError(OrkestraError):
    """An id or name that does not exist; carries close matches for a hint."""

    def __init__(self, kind: str, name: str, candidates: Iterable[str] = ()):
        self.kind, self.name = kind, name
        self.suggestions = did_you_mean(name, candidates)
        hint = f" (did you mean {', '.join(repr(s) for s in self.suggestions)}?)" if self.suggestions else ""
        super().__init__(f"unknown {kind} {name!r}{hint}")


@dataclass
class WorkspaceError(OrkestraError):
    """A workspace that failed to load or validate; holds every diagnostic found."""

    diagnostics: list[Diagnostic] = field(default_factory=list)

    def __post_init__(self) -> None:
        Exception.__init__(self, self.__str__())

    def __str__(self) -> str:
        errors = [d for d in self.diagnostics if d.severity == "error"]
        return "\n".join(str(d) for d in errors) or "workspace has errors"


def did_you_mean(name: str, candidates: Iterable[str], n: int = 3) -> list[str]:
    """Close matches for ``name`` among ``candidates``, best first."""
    return difflib.get_close_matches(name, list(candidates), n=n, cutoff=0.6)
