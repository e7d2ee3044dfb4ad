"""``orkestra init``: scaffold a workspace into a repository, from what the repository says.

The default reads the project (``orkestra.project_info``) and writes a starter a team keeps:
the 27/11/10 persona primitives, an orchestrator and 4–6 specialists picked for the languages,
framework, tests and CI it found and told the repository's own commands, hub files and entry points, the five K0 foundation skills wired to scopes, ground truths with
evidence paths that exist, a decisions registry with one domain per top-level package, and
the changelog ledgers. ``minimal=True`` writes the bare scaffold. Telemetry hooks stay off
unless ``telemetry=True``.

Never overwrites: a file that exists is reported as skipped, so running init twice is a
no-op. Templates are not copied: sync falls back to the ones packaged with orkestra, and a
team overrides one by adding a file of the same name to ``templates/``.
"""

from __future__ import annotations

import datetime as dt
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path

from orkestra.errors import UsageError
from orkestra.scaffolding import SCAFFOLD, telemetry_block

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
    project: dict = field(default_factory=dict)
    agents: list[str] = field(default_factory=list)
    telemetry: bool = False
    next_steps: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        return asdict(self)


def init_workspace(
    target: str | os.PathLike[str],
    *,
    minimal: bool = False,
    telemetry: bool = False,
    today: dt.date | None = None,
) -> InitResult:
    """Create the scaffold files missing under ``target``, git-ignore ``.orkestra/`` and mark the ledgers
    ``merge=union`` in ``.gitattributes``."""
    root = Path(target).resolve()
    if root.exists() and not root.is_dir():
        raise UsageError(f"{root}: not a directory")
    stamp = (today or dt.date.today()).isoformat()
    if minimal:
        files = {rel: (SCAFFOLD / source).read_text(encoding="utf-8") for rel, source in FILES.items()}
        from orkestra.project_info import read_manifest

        name = read_manifest(root).name if root.is_dir() else root.name
        for rel in ("orkestra.yaml", "registries/metadata.yaml"):
            files[rel] = files[rel].replace("my-project", name)
        files["orkestra.yaml"] += telemetry_block(telemetry)
        info, agents = None, ["orchestrator"]
    else:
        from orkestra.project_info import inspect_project
        from orkestra.starter import starter_files

        info = inspect_project(root)
        files, agents = starter_files(
            info,
            telemetry=telemetry,
            existing_agents=_hand_written(root, "agents"),
            existing_skills=_hand_written(root, "skills"),
        )
    from orkestra.fs.guard import SafeTree

    created, skipped = [], []
    root.mkdir(parents=True, exist_ok=True)
    with SafeTree(root) as tree:  # a cloned repository's links never redirect a scaffold file
        standing = {rel for rel in files if tree.exists(rel)}  # refused before anything is written
        for rel, text in files.items():
            if rel in standing:  # kept as it is, a link included (CLAUDE.md -> AGENTS.md)
                skipped.append(rel)
                continue
            tree.write(rel, text.replace("@TODAY@", stamp).encode("utf-8"))
            created.append(rel)
    from orkestra.mining.ledger import ensure_gitattributes

    # the changelog ledgers are append-only JSONL: union merges let several agents classify at once
    return InitResult(
        str(root),
        created,
        skipped,
        _ignore_state(root / ".gitignore"),
        ensure_gitattributes(root),
        info.to_dict() if info else {},
        agents,
        telemetry,
        next_steps(root, telemetry),
    )


def _hand_written(root: Path, kind: str) -> set[str]:
    """Names already taken in ``.claude/agents`` (files) or ``.claude/skills`` (folders)."""
    folder = root / ".claude" / kind
    if not folder.is_dir():
        return set()
    return (
        {p.stem for p in folder.glob("*.md")}
        if kind == "agents"
        else {p.parent.name for p in folder.glob("*/SKILL.md")}
    )


def next_steps(root: Path, telemetry: bool) -> list[str]:
    """What to run after init, in order (README "Use it in your repository" lists the same)."""
    steps = []
    if any(
        (root / p).exists()
        for p in (
            ".claude/agents",
            ".claude/skills",
            ".claude/commands",
            "CLAUDE.md",
            "AGENTS.md",
            ".cursor/rules",
        )
    ):
        steps.append(
            "orkestra import --dry-run   # bring your hand-written .claude/, CLAUDE.md, AGENTS.md, "
            "cursor rules in; then `orkestra import`"
        )
    steps += [
        "orkestra validate   # check the registries",
        "orkestra sync   # render .claude/, .mcp.json and GROUND_TRUTHS.md",
        "orkestra code index   # build the Maguyva code map the agents search",
        "edit orkestra.yaml `targets:` for AGENTS.md, .agents/skills, Cursor, Copilot or a plugin",
        "orkestra init --reference   # the registry format reference",
    ]
    steps.append(
        "telemetry is ON: set `telemetry: {enabled: false}` in orkestra.yaml and sync to turn it off"
        if telemetry
        else "telemetry is off: `telemetry: {enabled: true}` in orkestra.yaml turns it on"
    )
    return steps


def registry_reference() -> str:
    """The registry format reference shipped with the package (docs/registries.md)."""
    return (SCAFFOLD / "REGISTRIES.md").read_text(encoding="utf-8")


def _ignore_state(gitignore: Path) -> bool:
    """Append ``.orkestra/`` to .gitignore unless an equivalent line is there; True if appended. A
    ``.gitignore`` that is a symlink is refused, never read or written through."""
    from orkestra.fs.guard import SafeTree

    with SafeTree(gitignore.parent) as tree:
        tree.check(gitignore.name)
        text = (tree.read(gitignore.name) or b"").decode("utf-8", "replace")
        if any(line.strip().strip("/") == GITIGNORE_ENTRY.strip("/") for line in text.splitlines()):
            return False
        prefix = "" if not text or text.endswith("\n") else "\n"
        entry = f"{prefix}# orkestra derived state (caches, indexes)\n{GITIGNORE_ENTRY}\n"
        tree.write(gitignore.name, (text + entry).encode("utf-8"))
    return True
