"""Pydantic models of every registry kind.

Shapes follow docs/registries.md (and SPEC §2). Models forbid unknown keys so a typo in a
registry is an error that names the field, never a silently ignored setting.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

NAME_RE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*\Z")  # \Z: `$` would let "name\n" pass
GT_ID_RE = re.compile(r"^GT-[A-Z][A-Z0-9]{1,9}-\d{3,}\Z")
DECISION_ID_RE = re.compile(r"^DEC-[A-Z]{2,4}-\d{3,}\Z")
DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}\Z")

Tier = Literal["K0", "K1", "K2", "K3", "K4"]
SkillType = Literal["workflow", "discipline", "checklist"]
SemanticFolder = Literal["foundations", "identities", "domains", "stacks", "project"]
Lifecycle = Literal["active", "deprecated"]

TIER_FOLDER: dict[str, str] = {
    "K0": "foundations",
    "K1": "identities",
    "K2": "domains",
    "K3": "stacks",
    "K4": "project",
}


class Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=False)


def _kebab(value: str) -> str:
    if not NAME_RE.match(value):
        raise ValueError(
            f"{value!r} must be lowercase letters, digits and single hyphens (e.g. 'code-reviewer')"
        )
    return value


def _matching(pattern: re.Pattern[str], what: str) -> Callable[[str | None], str | None]:
    """A field check: the value is None or ``pattern`` matches it; otherwise a ValueError saying it is not
    ``what``."""

    def check(value: str | None) -> str | None:
        if value is not None and not pattern.match(value):
            raise ValueError(f"{value!r} is not {what}")
        return value

    return check


_date = _matching(DATE_RE, "a date in YYYY-MM-DD form")


# --- persona primitives ---------------------------------------------------------------------


class Primitive(Model):
    """An identity, mindset or style: what it is and the prompt text it contributes."""

    description: str = Field(min_length=1)
    prompt: str = Field(min_length=1)


class Value(Model):
    """One entry of the values layer, rendered into every agent."""

    id: str
    title: str
    text: str

    _check_id = field_validator("id")(_kebab)


# --- agents ---------------------------------------------------------------------------------


class AgentTools(Model):
    builtin: list[str] = Field(default_factory=list)
    mcp_tools: list[str] = Field(default_factory=list)


class ContextComposition(Model):
    """Knowledge an agent is pointed to: registry files and domain folders."""

    domain_knowledge: list[str] = Field(default_factory=list)


class Agent(Model):
    name: str
    category: str
    model: str = "inherit"
    description: str = Field(min_length=1)
    identity: list[str] = Field(default_factory=list)  # required (≥1) unless ``prompt`` is set
    mindset: str = ""
    style: str = ""
    scopes: list[str] = Field(default_factory=list)
    domains: list[str] = Field(default_factory=list)
    skills: list[str] = Field(default_factory=list)
    tools: AgentTools = Field(default_factory=AgentTools)
    tool_guides: list[str] = Field(default_factory=list)
    context_composition: ContextComposition = Field(default_factory=ContextComposition)
    orchestrator: bool = False
    instructions: str = ""
    color: Literal["red", "blue", "green", "yellow", "purple", "orange", "pink", "cyan"] | None = None
    permission_mode: str | None = None
    max_turns: int | None = Field(default=None, ge=1)
    status: Lifecycle = "active"
    # An agent's own text (``orkestra import`` keeps a hand-written agent's body here): rendered
    # verbatim as the body instead of the composed persona, and ``frontmatter`` keys as given.
    prompt: str = ""
    frontmatter: dict[str, Any] = Field(default_factory=dict)

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        if ":" in value:
            raise ValueError(f"{value!r} contains ':', which Claude Code reserves for plugin scoping")
        return _kebab(value)

    @model_validator(mode="after")
    def _persona_or_prompt(self) -> Agent:
        if not self.prompt.strip():
            missing = [f for f in ("identity", "mindset", "style") if not getattr(self, f)]
            if missing:
                raise ValueError(
                    f"{', '.join(missing)} required (a composed agent needs identity, mindset and "
                    "style; an agent with its own `prompt` does not)"
                )
        return self

    @property
    def is_verbatim(self) -> bool:
        """True for an agent rendered from its own ``prompt`` (typically imported)."""
        return bool(self.prompt.strip())


# --- skills ---------------------------------------------------------------------------------


class SkillMetadata(Model):
    identifier: str
    name: str
    description: str = Field(min_length=1)
    type: SkillType
    layer: Tier
    semantic_folder: SemanticFolder
    # "imported": brought in by `orkestra import`, metadata inferred, to be reviewed
    source: Literal["core", "vendor", "imported"] = "core"
    last_updated: str
    scope: str | None = None
    status: Lifecycle = "active"
    replaced_by: str | None = None
    requires: list[str] = Field(default_factory=list)
    license: str | None = None
    compatibility: str | None = Field(default=None, max_length=500)

    _check_name = field_validator("name", "identifier")(_kebab)
    _check_date = field_validator("last_updated")(_date)


class SkillFrontmatter(Model):
    tags: list[str] = Field(default_factory=list)
    allowed_tools: list[str] = Field(default_factory=list)
    # Rendered SKILL.md frontmatter keys kept as given (imported skills keep their own here).
    extra: dict[str, Any] = Field(default_factory=dict)


class SkillSource(Model):
    """The YAML frontmatter of a source ``registries/skills/<folder>/<name>/SKILL.md``."""

    metadata: SkillMetadata
    frontmatter: SkillFrontmatter = Field(default_factory=SkillFrontmatter)


class Skill(Model):
    """A loaded skill, internal or vendor, with where it came from."""

    ref: str  # "<semantic_folder>/<name>" or "vendor/<provider>/<name>"
    name: str  # the rendered directory name (vendor skills: "<provider>-<name>")
    metadata: SkillMetadata
    frontmatter: SkillFrontmatter
    body: str
    source_dir: str  # repo-relative directory holding SKILL.md, references/, scripts/, assets/
    provider: str | None = None


# --- scopes ---------------------------------------------------------------------------------


class Scope(Model):
    description: str
    primary_skills: list[str] = Field(default_factory=list)
    dormant: bool = False

    @property
    def is_dormant(self) -> bool:
        """Dormant scopes load the skills registered under them, and only for agents that declare them."""
        return self.dormant or not self.primary_skills


class ScopesFile(Model):
    scopes: dict[str, Scope]


# --- tools ----------------------------------------------------------------------------------


class McpTool(Model):
    description: str
    status: Lifecycle = "active"
    replacement: str | None = None
    deprecation_note: str | None = None
    tags: list[str] = Field(default_factory=list)


class McpTransport(Model):
    type: Literal["stdio", "http"] = "stdio"
    command: str | None = None
    args: list[str] = Field(default_factory=list)
    url: str | None = None
    env: dict[str, str] = Field(default_factory=dict)


class McpServer(Model):
    description: str
    status: Lifecycle = "active"
    transport: McpTransport = Field(default_factory=McpTransport)
    guide: str = ""
    tags: list[str] = Field(default_factory=list)
    tools: dict[str, McpTool] = Field(default_factory=dict)


class ToolsFile(Model):
    builtin: list[str]
    mcp_servers: dict[str, McpServer] = Field(default_factory=dict)

    def mcp_tool_names(self) -> dict[str, McpTool]:
        """Every MCP tool by its Claude Code name ``mcp__<server>__<tool>``."""
        return {
            f"mcp__{server}__{tool}": spec
            for server, entry in self.mcp_servers.items()
            for tool, spec in entry.tools.items()
        }


# --- commands -------------------------------------------------------------------------------


class Command(Model):
    description: str = ""
    argument_hint: str | None = None
    allowed_tools: list[str] = Field(default_factory=list)
    model: str | None = None
    body: str
    extra: dict[str, Any] = Field(default_factory=dict)  # frontmatter keys kept as given (imported)


# --- instructions ---------------------------------------------------------------------------

TARGETS = ("claude", "agents-md", "agent-skills", "cursor", "copilot", "plugin")
Target = Literal["claude", "agents-md", "agent-skills", "cursor", "copilot", "plugin"]


class InstructionFront(Model):
    """Frontmatter of ``registries/instructions/<name>.md``: project instructions and rules."""

    description: str = ""
    globs: list[str] | str | None = None  # files the rule applies to (none: the whole project)
    always_apply: bool | None = None  # Cursor's alwaysApply; rendered only when set
    targets: list[Target] = Field(default_factory=list)  # restrict to these targets (empty: all)


class Instruction(Model):
    name: str
    front: InstructionFront
    body: str
    source: str  # repo-relative registry file

    @property
    def glob_list(self) -> list[str]:
        globs = self.front.globs
        if not globs:
            return []
        return [g.strip() for g in globs.split(",") if g.strip()] if isinstance(globs, str) else list(globs)

    @property
    def project_wide(self) -> bool:
        """Loaded for every request (CLAUDE.md, AGENTS.md, copilot-instructions.md)."""
        return not self.glob_list and self.front.always_apply is not False

    def renders_to(self, target: str) -> bool:
        return not self.front.targets or target in self.front.targets


class CommandsFile(Model):
    commands: dict[str, Command] = Field(default_factory=dict)


# --- metadata -------------------------------------------------------------------------------


class VendorRoot(Model):
    path: str
    provider: str

    _check_provider = field_validator("provider")(_kebab)


class MetadataFile(Model):
    project: str = ""
    description: str = ""
    vendor_roots: list[VendorRoot] = Field(default_factory=list)


# --- ground truths --------------------------------------------------------------------------


class RenderGroup(Model):
    title: str
    tags: list[str]


class RenderSettings(Model):
    include_statuses: list[Literal["current", "tentative", "deprecated"]] = Field(
        default_factory=lambda: ["current", "tentative"]
    )
    show_deprecated: bool = True
    groups: list[RenderGroup] = Field(default_factory=list)


class TruthsMetadata(Model):
    title: str
    summary: str = ""
    last_updated: str
    owner: str = ""
    render: RenderSettings = Field(default_factory=RenderSettings)

    _check_date = field_validator("last_updated")(_date)


class AgentGuidance(Model):
    do: list[str] = Field(default_factory=list)
    avoid: list[str] = Field(default_factory=list)


class GroundTruth(Model):
    id: str
    status: Literal["current", "tentative", "deprecated"]
    source: str | None = None
    scope: Literal["platform", "package", "domain"] = "package"
    statement: str = Field(min_length=1)
    rationale: str = ""
    evidence: list[str] = Field(default_factory=list)
    last_verified: str | None = None
    tags: list[str] = Field(default_factory=list)
    agent_guidance: AgentGuidance = Field(default_factory=AgentGuidance)
    superseded_by: str | None = None
    notes: str = ""

    _check_id = field_validator("id", "superseded_by")(
        _matching(GT_ID_RE, "a ground-truth id like 'GT-MAG-015'")
    )

    _check_date = field_validator("last_verified")(_date)


class TruthsFile(Model):
    metadata: TruthsMetadata
    statements: list[GroundTruth] = Field(default_factory=list)


# --- decisions ------------------------------------------------------------------------------


class DecisionDomain(Model):
    code: str = Field(pattern=r"^[A-Z]{2,4}$")
    description: str = ""


class DecisionRegistry(Model):
    """``decisions/registry.yaml``: the domain → code map (records live in ``records/``)."""

    domains: dict[str, DecisionDomain]


class Impact(Model):
    positive: list[str] = Field(default_factory=list)
    negative: list[str] = Field(default_factory=list)


class SourceCommit(Model):
    sha: str = Field(pattern=r"^[0-9a-f]{7,40}$")
    message: str = ""
    date: str | None = None
    role: Literal["primary", "supporting"] = "primary"


class Decision(Model):
    id: str
    title: str = Field(min_length=1)
    domain: str
    status: Literal["proposed", "active", "superseded", "deprecated"] = "active"
    created: str
    summary: str = ""
    context: str = ""
    rationale: list[str] = Field(default_factory=list)
    impact: Impact = Field(default_factory=Impact)
    agent_guidance: AgentGuidance = Field(default_factory=AgentGuidance)
    source_commits: list[SourceCommit] = Field(default_factory=list)
    files: list[str] = Field(default_factory=list)
    related: list[str] = Field(default_factory=list)
    superseded_by: str | None = None
    tags: list[str] = Field(default_factory=list)

    _check_id = field_validator("id", "superseded_by")(
        _matching(DECISION_ID_RE, "a decision id like 'DEC-PL-142'")
    )

    _check_date = field_validator("created")(_date)


# --- domain knowledge -----------------------------------------------------------------------

DOMAIN_FILES = ("decisions.md", "patterns.md", "anti-patterns.md", "evolution.md")


class DomainKnowledge(Model):
    """A folder of the four-file pattern under ``ai_assets/domains/``."""

    name: str  # "security" or "development/architecture"
    path: str  # repo-relative folder
    files: dict[str, str]  # file name -> repo-relative path, for the files that exist
