"""The workspace config file, ``orkestra.yaml`` at the repository root."""

from __future__ import annotations

from typing import Any

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


class OrkestraConfig(Strict):
    """``orkestra.yaml``. Sections owned by other subsystems are kept raw and parsed there."""

    version: int = 1
    project: str = "project"
    paths: Paths = Field(default_factory=Paths)
    # Owned by orkestra.mining, maguyva and orkestra.telemetry respectively.
    mining: dict[str, Any] = Field(default_factory=dict)
    maguyva: dict[str, Any] = Field(default_factory=dict)
    telemetry: dict[str, Any] = Field(default_factory=dict)
    # Files below these globs are never scanned for ground truths (vendored trees, fixtures).
    exclude: list[str] = Field(default_factory=lambda: ["tests/fixtures/**", "node_modules/**", ".venv/**"])
