"""The workspace config file, ``orkestra.yaml`` at the repository root."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

CONFIG_FILE = "orkestra.yaml"


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Paths(Strict):
    """Where sources live and where rendered output goes, relative to the repo root."""

    registries: str = "registries"
    templates: str = "templates"
    ai_assets: str = "ai_assets"
    output: str = ".claude"
    mcp_config: str = ".mcp.json"
    # Every ground-truth registry is found with this glob (relative to the root).
    ground_truths_glob: str = "**/ai_assets/reference/ground_truths.yaml"
    decisions: str = "ai_assets/reference/decisions"
    domains: str = "ai_assets/domains"
    decisions_digest: str = "ai_assets/reference/DECISIONS.md"
    # Derived state (manifests, caches, indexes); git-ignored.
    state: str = ".orkestra"
    # The `plugin` target: a marketplace folder holding the Claude Code plugin built from the registries.
    marketplace: str = "marketplace"


class OrkestraConfig(Strict):
    """``orkestra.yaml``. Sections owned by other subsystems are kept raw and parsed there."""

    version: int = 1
    project: str = "project"
    paths: Paths = Field(default_factory=Paths)
    # Runtimes sync renders for (docs/targets.md); claude is .claude/ + .mcp.json + CLAUDE.md.
    targets: list[Literal["claude", "agents-md", "agent-skills", "cursor", "copilot", "plugin"]] = Field(
        default_factory=lambda: ["claude"])
    # AGENTS.md and copilot-instructions.md end with the agent roster and registry commands (when there
    # is an orchestrator); `orkestra import` turns this off so an imported AGENTS.md renders unchanged.
    agents_md_roster: bool = True
    # Owned by orkestra.mining, maguyva and orkestra.telemetry respectively.
    mining: dict[str, Any] = Field(default_factory=dict)
    maguyva: dict[str, Any] = Field(default_factory=dict)
    telemetry: dict[str, Any] = Field(default_factory=dict)
    # Owned by orkestra.why.settings: {hook: true} renders the decision-guidance hook.
    memory: dict[str, Any] = Field(default_factory=dict)
    # Files below these globs are never scanned for ground truths (vendored trees, fixtures).
    exclude: list[str] = Field(default_factory=lambda: ["tests/fixtures/**", "node_modules/**", ".venv/**"])


def find_root(root: str | Path | None = None) -> Path:
    """``root`` if given, else the nearest directory from the cwd upwards holding ``orkestra.yaml``."""
    from orkestra.errors import NoWorkspaceError

    if root is not None:
        return Path(root).resolve()
    start = Path.cwd().resolve()
    for folder in (start, *start.parents):
        if (folder / CONFIG_FILE).is_file():
            return folder
    raise NoWorkspaceError(f"no {CONFIG_FILE} in {start} or any parent directory")


def read_config(root: Path) -> OrkestraConfig | None:
    """``orkestra.yaml`` parsed and validated, or None if it is missing or has any problem."""
    from pydantic import ValidationError

    from orkestra.workspace.source import SourceError, read_yaml

    try:
        return OrkestraConfig.model_validate(read_yaml(root, CONFIG_FILE).data or {})
    except (SourceError, ValidationError):
        return None
