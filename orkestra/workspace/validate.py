"""Cross-reference checks and what Claude Code would silently drop → ``list[Diagnostic]``.

``validate(ws)`` returns the loader's diagnostics plus every rule below, sorted by place
(``orkestra.validation`` adds the facts git history made stale).
Errors block ``sync``; warnings (severity "warning") are shown with ``--show-warnings``.
"""

from __future__ import annotations

import datetime as dt
import re
from pathlib import PurePosixPath

from orkestra.errors import Diagnostic, did_you_mean
from orkestra.fs.links import Containment, has_git_part
from orkestra.workspace import models as m
from orkestra.workspace.compose import DELEGATION_TOOLS
from orkestra.workspace.load import Workspace

MAX_RELIABLE_AGENTS = 37  # Claude Code stops loading custom agents reliably beyond this
SKILL_DESCRIPTION_MAX = 1024  # agentskills.io spec: longer descriptions are rejected
LISTING_CUT = 1536  # Claude Code truncates a skill/command listing entry here
DESCRIPTION_RANGE = (50, 400)
TRIGGER = "use when"
STALE_DAYS = 180
NAME_MAX = 64
RESERVED_SKILL_NAMES = {"synced"}

COMMON_SECTIONS = ("When to use", "Success criteria", "Failure recovery")
TYPE_SECTIONS = {"workflow": ("Steps",), "discipline": ("Rules",), "checklist": ("Checklist",)}


def validate(ws: Workspace, today: dt.date | None = None) -> list[Diagnostic]:
    """Every problem in the registries: load diagnostics, cross-references, lifecycle, warnings, sorted by
    place. The facts git history made stale are added above this layer (``orkestra.validation``)."""
    from orkestra.workspace.lifecycle import check_lifecycle

    checker = _Checker(ws, today or dt.date.today())
    return ordered([*ws.diagnostics, *checker.run(), *check_lifecycle(ws)])


def ordered(found: list[Diagnostic]) -> list[Diagnostic]:
    """Diagnostics without repeats, sorted by place (file, line, column, field, message)."""
    unique = list(dict.fromkeys(found))
    return sorted(unique, key=lambda d: (d.path, d.line, d.col, d.field, d.message))


def _suggest(name: str, candidates) -> str:
    close = did_you_mean(name, candidates)
    return f" (did you mean {', '.join(repr(c) for c in close)}?)" if close else ""


def _is_url(text: str) -> bool:
    return "://" in text


def required_sections(skill_type: str) -> tuple[str, ...]:
    return COMMON_SECTIONS + TYPE_SECTIONS.get(skill_type, ())


def missing_sections(body: str, skill_type: str) -> list[str]:
    """Headings ``## <title>`` the body lacks for its type (case-insensitive)."""
    return [
        title
        for title in required_sections(skill_type)
        if not re.search(rf"^##\s+{re.escape(title)}\b", body, re.MULTILINE | re.IGNORECASE)
    ]


class _Checker:
    def __init__(self, ws: Workspace, today: dt.date):
        self.ws = ws
        self.today = today
        self.out: list[Diagnostic] = []
        self.mcp_tools = ws.tools.mcp_tool_names()
        self.skill_refs = ws.skill_by_ref()

    def run(self) -> list[Diagnostic]:
        self._config()
        self._agents()
        self._skills()
        self._scopes()
        self._commands()
        self._truths()
        self._decisions()
        self._domains()
        return self.out

    def error(self, kind: str, key: str, loc: tuple, message: str, code: str) -> None:
        self.out.append(self.ws.diagnostic(kind, key, loc, message, code=code))

    def warn(self, kind: str, key: str, loc: tuple, message: str, code: str) -> None:
        self.out.append(self.ws.diagnostic(kind, key, loc, message, severity="warning", code=code))

    def _known(self, kind: str, key: str, loc: tuple, what: str, name: str, known) -> None:
        """An ``unknown-ref`` error when ``name`` (a ``what``: scope, skill, style …) is not among ``known``."""
        if name not in known:
            self.error(kind, key, loc, f"unknown {what} {name!r}{_suggest(name, known)}", "unknown-ref")

    # --- config -----------------------------------------------------------------------------

    def _config(self) -> None:
        root = self.ws.root.resolve()
        links = Containment(root)
        for name, value in self.ws.config.paths.model_dump().items():
            problem = None if name == "ground_truths_glob" else links.problem(value.removeprefix("./"))
            if PurePosixPath(value).is_absolute() or ".." in PurePosixPath(value).parts:
                message = f"{value!r} leaves the workspace root; paths must be relative and stay inside it"
            elif has_git_part(value):
                message = (
                    f"{value!r} points into .git/; orkestra never reads sources from or writes "
                    "output into a .git folder"
                )
            elif problem is not None:
                message = f"{value!r} goes through {problem[0]!r}: {problem[1]}"
            elif not (root / value).resolve().is_relative_to(root):
                message = f"{value!r} leaves the workspace root; paths must be relative and stay inside it"
            else:
                continue
            self.error("config", "", ("paths", name), message, "path")

    # --- tools ------------------------------------------------------------------------------

    def _check_tool(self, kind: str, key: str, loc: tuple, tool: str) -> None:
        """Report an unknown tool (error) or a deprecated MCP tool/server (warning)."""
        base = tool.split("(", 1)[0].strip()
        if base in self.ws.tools.builtin:
            return
        servers = self.ws.tools.mcp_servers
        parts = base.split("__")
        if base in self.mcp_tools:
            spec, server = self.mcp_tools[base], servers[parts[1]]
            if spec.status == "deprecated" or server.status == "deprecated":
                note = f"; use {spec.replacement!r} instead" if spec.replacement else ""
                self.warn(kind, key, loc, f"MCP tool {base!r} is deprecated{note}", "deprecated-tool")
            return
        if (
            parts[0] == "mcp"
            and len(parts) in (2, 3)
            and parts[1] in servers
            and parts[-1] in ("*", parts[1])
        ):
            return  # mcp__server or mcp__server__*: every tool of a known server
        known = [*self.ws.tools.builtin, *self.mcp_tools]
        self.error(
            kind,
            key,
            loc,
            f"unknown tool {tool!r}{_suggest(base, known)} (declare it in the tools registry)",
            "unknown-tool",
        )

    # --- agents -----------------------------------------------------------------------------

    def _agents(self) -> None:
        ws = self.ws
        orchestrators = [name for name, agent in sorted(ws.agents.items()) if agent.orchestrator]
        for extra in orchestrators[1:]:
            self.error(
                "agent",
                extra,
                ("orchestrator",),
                f"a second orchestrator (first is "
                f"{orchestrators[0]!r}); flat orchestration allows exactly one",
                "orchestrator",
            )
        names = sorted(ws.agents)
        if len(names) > MAX_RELIABLE_AGENTS:
            self.warn(
                "agent",
                names[MAX_RELIABLE_AGENTS],
                ("name",),
                f"{len(names)} agents: Claude Code loads about {MAX_RELIABLE_AGENTS} custom agents "
                "reliably; merge or retire some",
                "agent-count",
            )
        for name, agent in sorted(ws.agents.items()):
            self._agent(name, agent)

    def _agent(self, name: str, agent: m.Agent) -> None:
        ws = self.ws
        for index, identity in enumerate(agent.identity):
            self._known("agent", name, ("identity", index), "identity", identity, ws.identities)
        if agent.mindset:
            self._known("agent", name, ("mindset",), "mindset", agent.mindset, ws.mindsets)
        if agent.style:
            self._known("agent", name, ("style",), "style", agent.style, ws.styles)
        for index, scope in enumerate(agent.scopes):
            self._known("agent", name, ("scopes", index), "scope", scope, ws.scopes)
        for index, ref in enumerate(agent.skills):
            self._known("agent", name, ("skills", index), "skill", ref, self.skill_refs)
        for group in ("builtin", "mcp_tools"):
            for index, tool in enumerate(getattr(agent.tools, group)):
                self._check_tool("agent", name, ("tools", group, index), tool)
                if not agent.orchestrator and tool in DELEGATION_TOOLS:
                    report = self.warn if agent.is_verbatim else self.error  # imported: the team's choice
                    report(
                        "agent",
                        name,
                        ("tools", group, index),
                        f"specialists cannot delegate ({tool!r}): flat orchestration gives the "
                        "delegation tools to the orchestrator only",
                        "delegation",
                    )
        for index, server in enumerate(agent.tool_guides):
            if server not in ws.tools.mcp_servers:
                self.error(
                    "agent",
                    name,
                    ("tool_guides", index),
                    f"unknown tool guide {server!r}"
                    f"{_suggest(server, ws.tools.mcp_servers)} (guides come from mcp_servers)",
                    "unknown-ref",
                )
        for index, rel in enumerate(agent.context_composition.domain_knowledge):
            if not (ws.root / rel).exists():
                self.error(
                    "agent",
                    name,
                    ("context_composition", "domain_knowledge", index),
                    f"context file {rel!r} does not exist",
                    "missing-file",
                )

    # --- skills -----------------------------------------------------------------------------

    def _skills(self) -> None:
        for name, skill in sorted(self.ws.skills.items()):
            self._skill(name, skill)

    def _skill(self, name: str, skill: m.Skill) -> None:
        meta = skill.metadata
        if len(name) > NAME_MAX:
            self.error(
                "skill",
                name,
                ("metadata", "name"),
                f"rendered name {name!r} is longer than {NAME_MAX} characters",
                "name",
            )
        if name in RESERVED_SKILL_NAMES:
            self.error("skill", name, ("metadata", "name"), f"{name!r} is reserved by Claude Code", "name")
        self._description("skill", name, ("metadata", "description"), meta.description)
        if meta.scope is not None:
            self._known("skill", name, ("metadata", "scope"), "scope", meta.scope, self.ws.scopes)
        for index, tool in enumerate(skill.frontmatter.allowed_tools):
            self._check_tool("skill", name, ("frontmatter", "allowed_tools", index), tool)
        if meta.source == "imported":
            self.warn(
                "skill",
                name,
                ("metadata", "source"),
                "imported skill: type and tier were inferred; review them, then set source: core",
                "imported",
            )
        if meta.source == "core":
            missing = missing_sections(skill.body, meta.type)
            if missing:
                listed = ", ".join(f"'## {title}'" for title in missing)
                self.error(
                    "skill",
                    name,
                    ("metadata", "type"),
                    f"{meta.type} skill body is missing section(s) {listed}",
                    "sections",
                )

    def _description(self, kind: str, key: str, loc: tuple, text: str) -> None:
        size = len(text)
        if size > SKILL_DESCRIPTION_MAX:
            self.error(
                kind,
                key,
                loc,
                f"description is {size} characters; the Agent Skills limit is {SKILL_DESCRIPTION_MAX}",
                "description",
            )
            return
        low, high = DESCRIPTION_RANGE
        if not low <= size <= high:
            self.warn(
                kind, key, loc, f"description is {size} characters; aim for {low}-{high}", "description"
            )
        if TRIGGER not in text.lower():
            self.warn(kind, key, loc, "description has no trigger phrase ('Use when ...')", "trigger")

    # --- scopes -----------------------------------------------------------------------------

    def _scopes(self) -> None:
        ws = self.ws
        refs = self.skill_refs
        declared = {scope for agent in ws.agents.values() for scope in agent.scopes}
        registries = ws.config.paths.registries
        for name, scope in sorted(ws.scopes.items()):
            for index, ref in enumerate(scope.primary_skills):
                if ref not in refs:
                    where = (
                        f"vendor skill {ref!r}"
                        if ref.startswith("vendor/")
                        else f"{registries}/skills/{ref}/SKILL.md"
                    )
                    self.error(
                        "scope",
                        name,
                        ("primary_skills", index),
                        f"skill file missing at its declared path: {where}{_suggest(ref, refs)}",
                        "missing-file",
                    )
            if scope.is_dormant and name not in declared:
                self.warn(
                    "scope", name, (), f"dormant scope {name!r} is not declared by any agent", "dormant"
                )

    # --- commands ---------------------------------------------------------------------------

    def _commands(self) -> None:
        for name, command in sorted(self.ws.commands.items()):
            if len(command.description) > LISTING_CUT:
                self.warn(
                    "command",
                    name,
                    ("description",),
                    f"description is {len(command.description)} "
                    f"characters; Claude Code cuts the listing at {LISTING_CUT}",
                    "description",
                )
            for index, tool in enumerate(command.allowed_tools):
                self._check_tool("command", name, ("allowed_tools", index), tool)
            if name in self.ws.skills:
                self.warn(
                    "command",
                    name,
                    (),
                    f"skill {name!r} has the same name and wins over this command",
                    "shadowed",
                )

    # --- ground truths ----------------------------------------------------------------------

    def _truths(self) -> None:
        ws = self.ws
        ids = {gt.id for _, gt in ws.all_truths()}
        horizon = self.today - dt.timedelta(days=STALE_DAYS)
        for _, gt in ws.all_truths():
            if gt.superseded_by and gt.superseded_by not in ids:
                self.error(
                    "truth",
                    gt.id,
                    ("superseded_by",),
                    f"superseded_by {gt.superseded_by!r} points to "
                    f"no ground truth{_suggest(gt.superseded_by, ids)}",
                    "dangling",
                )
            if gt.last_verified and dt.date.fromisoformat(gt.last_verified) < horizon:
                self.warn(
                    "truth",
                    gt.id,
                    ("last_verified",),
                    f"last verified {gt.last_verified}, more than {STALE_DAYS} days ago",
                    "stale",
                )
        # evidence paths, symbols and changes since last_verified: orkestra.why.stale, via orkestra.validation

    # --- decisions --------------------------------------------------------------------------

    def _decisions(self) -> None:
        ws = self.ws
        domains = ws.decision_registry.domains
        for key, decision in sorted(ws.decisions.items()):
            domain = domains.get(decision.domain)
            if domain is None:
                self.error(
                    "decision",
                    key,
                    ("domain",),
                    f"unknown decision domain {decision.domain!r}"
                    f"{_suggest(decision.domain, domains)} (add it to registry.yaml)",
                    "unknown-ref",
                )
            elif decision.id.split("-")[1] != domain.code:
                self.error(
                    "decision",
                    key,
                    ("id",),
                    f"id code {decision.id.split('-')[1]!r} does not match "
                    f"domain {decision.domain!r} (code {domain.code!r})",
                    "id",
                )
            if decision.superseded_by and decision.superseded_by not in ws.decisions:
                self.error(
                    "decision",
                    key,
                    ("superseded_by",),
                    f"superseded_by {decision.superseded_by!r} points to no decision",
                    "dangling",
                )
            for index, related in enumerate(decision.related):
                if related not in ws.decisions:
                    self.error(
                        "decision",
                        key,
                        ("related", index),
                        f"related decision {related!r} does not exist{_suggest(related, ws.decisions)}",
                        "dangling",
                    )

    # --- domain knowledge -------------------------------------------------------------------

    def _domains(self) -> None:
        for folder in self.ws.domains:
            missing = [name for name in m.DOMAIN_FILES if name not in folder.files]
            if missing:
                self.out.append(
                    Diagnostic(
                        folder.path,
                        1,
                        1,
                        "",
                        f"domain folder lacks {', '.join(missing)} (four-file pattern)",
                        severity="warning",
                        code="domain-files",
                    )
                )
