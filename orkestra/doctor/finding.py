"""One doctor finding (check, severity, message, fix) and the names of the checks, below every check module."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

CHECKS = ("gitignore", "server", "index", "hooks", "plugin")


@dataclass(frozen=True)
class Finding:
    check: str  # one of CHECKS
    severity: str  # error | warning | info
    message: str
    fix: str  # what to do about it, in words and commands
    path: str = ""  # the file it concerns, repo-relative when inside the repository
    fixable: bool = False  # `orkestra doctor --fix` repairs it

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def __str__(self) -> str:
        where = f"{self.path}: " if self.path else ""
        return f"{where}{self.message}; fix: {self.fix}"
