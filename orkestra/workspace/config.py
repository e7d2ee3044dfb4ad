"""The workspace config file, ``orkestra.yaml`` at the repository root, as one typed model.

Every section is typed, each by the subsystem that owns it: ``mining:`` by
``orkestra.mining.settings.MiningConfig``, ``telemetry:`` by ``orkestra.telemetry.settings``
(stdlib-only, so the hook handler shares it), ``maguyva:`` by ``maguyva.config.MaguyvaConfig``
(maguyva never imports orkestra; this module embeds its model). :func:`load_config` reads the
file once per process (again only when its bytes change) with the one YAML reader, and a bad
value is a ``WorkspaceError`` naming the file, line and field. ``Workspace.load`` parses the same
model from the document it reads, so ``ws.config`` is what every other caller is passed.

Importing this module imports pydantic; ``orkestra.workspace.root`` holds what a caller needs
before deciding to load anything (``CONFIG_FILE``, ``find_root``).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PlainValidator
from pydantic_core import PydanticCustomError

from maguyva.config import MaguyvaConfig
from orkestra.mining.settings import MiningConfig
from orkestra.telemetry.settings import SettingsError, TelemetrySettings, parse_settings
from orkestra.workspace.root import CONFIG_FILE, DECISIONS_DIR, OUTPUT_DIR, STATE_DIR, find_root

if TYPE_CHECKING:
    from orkestra.workspace.source import Document

__all__ = [
    "CONFIG_FILE",
    "OrkestraConfig",
    "Paths",
    "config_from_document",
    "find_root",
    "load_config",
    "read_config",
]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Paths(Strict):
    """Where sources live and where rendered output goes, relative to the repo root."""

    registries: str = "registries"
    templates: str = "templates"
    ai_assets: str = "ai_assets"
    output: str = OUTPUT_DIR
    mcp_config: str = ".mcp.json"
    # Every ground-truth registry is found with this glob (relative to the root).
    ground_truths_glob: str = "**/ai_assets/reference/ground_truths.yaml"
    decisions: str = DECISIONS_DIR
    domains: str = "ai_assets/domains"
    decisions_digest: str = "ai_assets/reference/DECISIONS.md"
    # Derived state (manifests, caches, indexes); git-ignored.
    state: str = STATE_DIR
    # The `plugin` target: a marketplace folder holding the Claude Code plugin built from the registries.
    marketplace: str = "marketplace"


class McpSettings(Strict):
    """``mcp:``: how the rendered MCP configurations start the bundled servers (``orkestra.launcher``)."""

    # project: a fixed sh launcher finding the project's own environment, then PATH (portable);
    # path: the bare program; absolute: this interpreter's path (machine-specific, uncommitted setups).
    launcher: Literal["project", "path", "absolute"] = "project"


def _telemetry(value: Any) -> TelemetrySettings:
    """``telemetry:`` through its one (stdlib-only) parser; the offending key goes into the error's
    context, so the diagnostic points at ``telemetry.loki.endpoint``, not just ``telemetry``."""
    if isinstance(value, TelemetrySettings):
        return value
    try:
        return parse_settings(value)
    except SettingsError as exc:
        raise PydanticCustomError(
            "telemetry", "{message}", {"message": exc.message, "key": exc.key}
        ) from None


def _memory(value: Any) -> dict[str, Any]:
    """``memory:`` checked by ``orkestra.why.settings`` (stdlib-only, shared with the hook) at load time,
    so a bad value is a located diagnostic, not a render error; the mapping itself is kept."""
    from orkestra.why.settings import hook_event

    try:
        hook_event(value)
    except ValueError as exc:
        key, _, message = str(exc).partition(": ")
        raise PydanticCustomError(
            "memory", "{message}", {"message": message or key, "key": key.removeprefix("memory").lstrip(".")}
        ) from None
    return dict(value or {})


class OrkestraConfig(Strict):
    """``orkestra.yaml``: every section typed or checked by the subsystem that owns it."""

    version: int = 1
    project: str = "project"
    paths: Paths = Field(default_factory=Paths)
    # Runtimes sync renders for (docs/targets.md); claude is .claude/ + .mcp.json + CLAUDE.md.
    targets: list[Literal["claude", "agents-md", "agent-skills", "cursor", "copilot", "plugin"]] = Field(
        default_factory=lambda: ["claude"]
    )
    # AGENTS.md and copilot-instructions.md end with the agent roster and registry commands (when there
    # is an orchestrator); `orkestra import` turns this off so an imported AGENTS.md renders unchanged.
    agents_md_roster: bool = True
    # Typed by orkestra.mining, maguyva and orkestra.telemetry respectively.
    mining: MiningConfig = Field(default_factory=MiningConfig)
    maguyva: MaguyvaConfig = Field(default_factory=MaguyvaConfig)
    telemetry: Annotated[TelemetrySettings, PlainValidator(_telemetry)] = Field(
        default_factory=TelemetrySettings
    )
    mcp: McpSettings = Field(default_factory=McpSettings)
    # Owned by orkestra.why.settings: {hook: true} renders the decision-guidance hook.
    memory: Annotated[dict[str, Any], PlainValidator(_memory)] = Field(default_factory=dict)
    # Files below these globs are never scanned for ground truths (vendored trees, fixtures).
    exclude: list[str] = Field(default_factory=lambda: ["tests/fixtures/**", "node_modules/**", ".venv/**"])


def config_from_document(doc: Document) -> OrkestraConfig:
    """The model of a parsed ``orkestra.yaml``; a ``WorkspaceError`` with one located diagnostic per
    refused field (file, line, column, dotted field)."""
    from pydantic import ValidationError

    from orkestra.errors import Diagnostic, WorkspaceError
    from orkestra.workspace.source import diagnostics_from_validation, locate

    data = doc.data if doc.data is not None else {}
    if not isinstance(data, dict):
        line, col = locate(doc, ())
        raise WorkspaceError(
            [
                Diagnostic(
                    doc.path,
                    line,
                    col,
                    "",
                    f"expected a mapping of sections, found {type(data).__name__}",
                    code="schema",
                )
            ]
        )
    try:
        return OrkestraConfig.model_validate(data)
    except ValidationError as exc:
        raise WorkspaceError(diagnostics_from_validation(doc, exc)) from None


# root -> (the file's bytes, its model): parsed again only when the bytes differ (a stat key would miss
# a same-size rewrite within one timestamp tick)
_LOADED: dict[Path, tuple[bytes, OrkestraConfig]] = {}


def load_config(root: str | os.PathLike[str]) -> OrkestraConfig:
    """``root/orkestra.yaml`` as the typed model, parsed once per process while its bytes are unchanged;
    the defaults when there is no such file. Raises ``WorkspaceError`` (file, line, field) for a file
    that cannot be read or parsed, or a value the model refuses."""
    from orkestra.errors import WorkspaceError
    from orkestra.workspace.source import SourceError, parse_text, parse_yaml, read_bytes

    root_path = Path(root)
    if not (root_path / CONFIG_FILE).is_file():
        return OrkestraConfig()
    try:
        data = read_bytes(root_path, CONFIG_FILE)
        cached = _LOADED.get(root_path)
        if cached is not None and cached[0] == data:
            return cached[1]
        config = config_from_document(parse_yaml(parse_text(data, CONFIG_FILE), CONFIG_FILE))
    except SourceError as exc:
        raise WorkspaceError([exc.diagnostic]) from exc
    _LOADED[root_path] = (data, config)
    return config


def read_config(root: Path) -> OrkestraConfig | None:
    """``orkestra.yaml`` parsed and validated, or None if it is missing or has any problem."""
    from orkestra.errors import WorkspaceError

    if not (Path(root) / CONFIG_FILE).is_file():
        return None
    try:
        return load_config(root)
    except WorkspaceError:
        return None
