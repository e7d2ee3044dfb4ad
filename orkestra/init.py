"""``orkestra init``: scaffold a minimal working workspace into a repository.

Never overwrites: a file that exists is reported as skipped, so running init twice is a
no-op. Templates are not copied: sync falls back to the ones packaged with orkestra, and a
team overrides one by adding a file of the same name to ``templates/``.
"""

from __future__ import annotations

import os
from dataclasses import asdict, dataclass
from pathlib import Path

from orkestra.errors import UsageError

SCAFFOLD = Path(__file__).resolve().parent / "scaffold"
# target path in the new workspace -> scaffold file shipped with the package
FILES: dict[str, str] = {
    "orkestra.yaml": "orkestra.yaml",
    "registries/identities.yaml": "identities.yaml",
    "registries/mindsets.yaml": "mindsets.yaml",
    "registries/styles.yaml": "styles.yaml",
    "registries/values.yaml": "values.yaml",
    "registries/scopes.yaml": "scopes.yaml",
    "registries/tools.yaml": "tools.yaml",
    "registries/metadata.yaml": "metadata.yaml",
    "registries/agents/orchestrator.yaml": "orchestrator.yaml",
    "registries/skills/foundations/evidence-based-completion/SKILL.md": "evidence-based-completion.SKILL.md",
}
GITIGNORE_ENTRY = ".orkestra/"


@dataclass(frozen=True, slots=True)
class InitResult:
    root: str
    created: list[str]
    skipped: list[str]
    gitignore_updated: bool
    gitattributes_updated: bool

    def to_dict(self) -> dict:
        return asdict(self)


def init_workspace(target: str | os.PathLike[str]) -> InitResult:
    """Create the scaffold files missing under ``target``, git-ignore ``.orkestra/`` and mark the ledgers
    ``merge=union`` in ``.gitattributes``."""
    root = Path(target).resolve()
    if root.exists() and not root.is_dir():
        raise UsageError(f"{root}: not a directory")
    created, skipped = [], []
    for rel, source in FILES.items():
        path = root / rel
        if path.exists():
            skipped.append(rel)
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes((SCAFFOLD / source).read_bytes())
        created.append(rel)
    from orkestra.mining.ledger import ensure_gitattributes

    # the changelog ledgers are append-only JSONL: union merges let several agents classify at once
    return InitResult(str(root), created, skipped, _ignore_state(root / ".gitignore"), ensure_gitattributes(root))


def _ignore_state(gitignore: Path) -> bool:
    """Append ``.orkestra/`` to .gitignore unless an equivalent line is there; True if appended."""
    text = gitignore.read_text(encoding="utf-8") if gitignore.is_file() else ""
    if any(line.strip().strip("/") == GITIGNORE_ENTRY.strip("/") for line in text.splitlines()):
        return False
    prefix = "" if not text or text.endswith("\n") else "\n"
    with gitignore.open("a", encoding="utf-8") as handle:
        handle.write(f"{prefix}# orkestra derived state (caches, indexes)\n{GITIGNORE_ENTRY}\n")
    return True
