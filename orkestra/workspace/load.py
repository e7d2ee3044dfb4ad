"""``Workspace.load(root)``: every registry read once into typed models.

Loading never stops at the first problem: each file that fails to parse or to match its
schema adds located diagnostics and the rest still loads, so one run reports everything.
Cross-reference checks (unknown mindset, dangling superseded_by, …) live in validate.py.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from orkestra.errors import Diagnostic, NoWorkspaceError, Severity, WorkspaceError
from orkestra.memory import paused_gc
from orkestra.workspace import models as m
from orkestra.workspace.config import CONFIG_FILE, OrkestraConfig, config_from_document
from orkestra.workspace.links import Containment, has_git_part, skill_asset_problems, tree_problems
from orkestra.workspace.scan import glob_files, tree_paths
from orkestra.workspace.source import (
    Document,
    SourceError,
    diagnostics_from_validation,
    locate,
    parse_yaml,
    read_text,
    read_yaml,
    split_frontmatter,
)

T = TypeVar("T", bound=BaseModel)


@dataclass(frozen=True, slots=True)
class Origin:
    """Where an entity was defined: its document and the field path inside it."""

    doc: Document
    loc: tuple = ()


@dataclass(frozen=True, slots=True)
class TruthsRegistry:
    """One ``ground_truths.yaml`` (there is one per package or domain)."""

    path: str
    data: m.TruthsFile

    @property
    def package_dir(self) -> str:
        """The directory that owns ``ai_assets/`` — where GROUND_TRUTHS.md is rendered."""
        parts = Path(self.path).parts
        index = len(parts) - 1 - parts[::-1].index("ai_assets") if "ai_assets" in parts else 0
        return Path(*parts[:index]).as_posix() if index else ""


@dataclass
class Workspace:
    """All registries of one repository, loaded once. Read-only after ``load``."""

    root: Path
    config: OrkestraConfig
    identities: dict[str, m.Primitive] = field(default_factory=dict)
    mindsets: dict[str, m.Primitive] = field(default_factory=dict)
    styles: dict[str, m.Primitive] = field(default_factory=dict)
    values: list[m.Value] = field(default_factory=list)
    agents: dict[str, m.Agent] = field(default_factory=dict)
    skills: dict[str, m.Skill] = field(default_factory=dict)  # by rendered name
    scopes: dict[str, m.Scope] = field(default_factory=dict)
    tools: m.ToolsFile = field(default_factory=lambda: m.ToolsFile(builtin=[]))
    commands: dict[str, m.Command] = field(default_factory=dict)
    metadata: m.MetadataFile = field(default_factory=m.MetadataFile)
    truths: list[TruthsRegistry] = field(default_factory=list)
    decision_registry: m.DecisionRegistry = field(default_factory=lambda: m.DecisionRegistry(domains={}))
    decisions: dict[str, m.Decision] = field(default_factory=dict)
    domains: list[m.DomainKnowledge] = field(default_factory=list)
    instructions: dict[str, m.Instruction] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    origins: dict[tuple[str, str], Origin] = field(default_factory=dict)
    source_files: list[str] = field(default_factory=list)
    input_hashes: dict[str, bytes] = field(default_factory=dict, repr=False)  # sha256 of each file read
    _memo: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    # --- construction -----------------------------------------------------------------------

    @classmethod
    def load(cls, root: str | os.PathLike[str]) -> Workspace:
        """Load the workspace rooted at ``root`` (the directory holding ``orkestra.yaml``)."""
        root_path = Path(root).resolve()
        if not (root_path / CONFIG_FILE).is_file():
            raise NoWorkspaceError(f"{root_path}: no {CONFIG_FILE} here")
        with paused_gc():
            return _Loader(root_path).run()

    # --- queries ----------------------------------------------------------------------------

    def memo(self, key: str, build: Callable[[], Any]) -> Any:
        """A derived index computed once (the workspace is read-only after ``load``)."""
        if key not in self._memo:
            self._memo[key] = build()
        return self._memo[key]

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "error"]

    def path(self, rel: str) -> Path:
        return self.root / rel

    def skill_by_ref(self) -> dict[str, m.Skill]:
        """Skills by every name they can be referenced with: ref, rendered name, identifier."""
        index: dict[str, m.Skill] = {}
        for skill in self.skills.values():
            index[skill.ref] = skill
            index[skill.name] = skill
        return index

    def all_truths(self) -> list[tuple[TruthsRegistry, m.GroundTruth]]:
        return [(reg, gt) for reg in self.truths for gt in reg.data.statements]

    def where(self, kind: str, key: str, loc: tuple = ()) -> tuple[str, int, int]:
        """(path, line, col) of a field of an entity, e.g. ``where("agent", "x", ("mindset",))``."""
        origin = self.origins.get((kind, key))
        if origin is None:
            return ("", 0, 0)
        line, col = locate(origin.doc, origin.loc + tuple(loc))
        return origin.doc.path, line, col

    def diagnostic(
        self, kind: str, key: str, loc: tuple, message: str, *, severity: Severity = "error", code: str = ""
    ) -> Diagnostic:
        """A diagnostic located at a field of an entity."""
        path, line, col = self.where(kind, key, loc)
        origin = self.origins.get((kind, key))
        field_path = ".".join(str(p) for p in ((origin.loc if origin else ()) + tuple(loc)))
        return Diagnostic(path, line, col, field_path, message, severity=severity, code=code)


class _Loader:
    """Reads every registry file once; collects diagnostics instead of raising."""

    def __init__(self, root: Path):
        self.root = root
        self.diagnostics: list[Diagnostic] = []
        self.origins: dict[tuple[str, str], Origin] = {}
        self.files: list[str] = []
        self.hashes: dict[str, bytes] = {}
        self.registries = "registries"
        self.links = Containment(root)
        self.reported_links: set[str] = set()

    def run(self) -> Workspace:
        config_doc = self._read(CONFIG_FILE)
        config = OrkestraConfig()
        if config_doc is not None:
            try:  # the same model and diagnostics as every other reader (orkestra.workspace.config)
                config = config_from_document(config_doc)
            except WorkspaceError as exc:
                self.diagnostics.extend(exc.diagnostics)
            self.origins[("config", "")] = Origin(config_doc, ())
        paths = config.paths
        reg = self.registries = paths.registries
        ws = Workspace(root=self.root, config=config)
        ws.identities = self._primitives(f"{reg}/identities.yaml", "identities", "identity")
        ws.mindsets = self._primitives(f"{reg}/mindsets.yaml", "mindsets", "mindset")
        ws.styles = self._primitives(f"{reg}/styles.yaml", "styles", "style")
        ws.values = self._values(f"{reg}/values.yaml")
        ws.agents = self._agents(f"{reg}/agents")
        ws.scopes = self._mapping_file(f"{reg}/scopes.yaml", m.ScopesFile, "scopes", "scope")
        tools = self._single(f"{reg}/tools.yaml", m.ToolsFile, "tools")
        ws.tools = tools or ws.tools
        ws.commands = self._mapping_file(
            f"{reg}/commands.yaml", m.CommandsFile, "commands", "command", required=False
        )
        metadata = self._single(f"{reg}/metadata.yaml", m.MetadataFile, "metadata", required=False)
        ws.metadata = metadata or ws.metadata
        ws.skills = self._skills(f"{reg}/skills", ws.metadata)
        ws.truths = self._truths(paths.ground_truths_glob, config.exclude)
        registry = self._single(
            f"{paths.decisions}/registry.yaml", m.DecisionRegistry, "decision_registry", required=False
        )
        ws.decision_registry = registry or ws.decision_registry
        ws.decisions = self._decisions(f"{paths.decisions}/records")
        ws.domains = self._domains(paths.domains)
        ws.instructions = self._instructions(f"{reg}/instructions")
        for folder in (
            paths.registries,
            paths.templates,
            paths.ai_assets,
            paths.decisions,
            paths.domains,
            *(v.path for v in ws.metadata.vendor_roots if _plain_relative(v.path)),
        ):
            self._report_links(tree_problems(self.root, folder, self.links))
        ws.diagnostics = self.diagnostics
        ws.origins = self.origins
        ws.source_files = sorted(set(self.files))
        ws.input_hashes = self.hashes
        return ws

    # --- primitives -------------------------------------------------------------------------

    def _report_links(self, problems: list[tuple[str, str]]) -> bool:
        """A diagnostic on each escaping symlink (once per link); True if there were any."""
        for link, message in problems:
            if link not in self.reported_links:
                self.reported_links.add(link)
                self.diagnostics.append(
                    Diagnostic(
                        link,
                        1,
                        1,
                        "",
                        f"{message}; orkestra reads no source from outside the repository or from .git",
                        code="symlink",
                    )
                )
        return bool(problems)

    def _escapes(self, rel: str) -> bool:
        """True (and reported) when ``rel`` reaches outside the workspace or into .git through a symlink."""
        problem = self.links.problem(rel)
        return self._report_links([problem] if problem else [])

    def _read(self, rel: str, required: bool = True) -> Document | None:
        if self._escapes(rel):
            return None
        if not (self.root / rel).is_file():
            if required:
                self.diagnostics.append(
                    Diagnostic(rel, 1, 1, "", "required registry file is missing", code="missing")
                )
            return None
        self.files.append(rel)
        try:
            return read_yaml(self.root, rel, self.hashes)
        except SourceError as exc:
            self.diagnostics.append(exc.diagnostic)
            return None

    def _validate(self, doc: Document, model: type[T], data: Any, loc: tuple = ()) -> T | None:
        try:
            return model.model_validate(data)
        except ValidationError as exc:
            self.diagnostics.extend(diagnostics_from_validation(doc, exc, loc))
            return None

    def _parsed(self, rels: Iterable[str], model: type[T]) -> Iterator[tuple[str, Document, T]]:
        """Each file of ``rels`` that reads and validates as ``model``; the others leave their diagnostics."""
        for rel in rels:
            doc = self._read(rel)
            if doc is None:
                continue
            parsed = self._validate(doc, model, doc.data if doc.data is not None else {})
            if parsed is not None:
                yield rel, doc, parsed

    def _flag(self, doc: Document, loc: tuple, message: str, code: str) -> None:
        """A diagnostic at ``loc`` in ``doc``: its line and column, and the dotted field."""
        line, col = locate(doc, loc)
        self.diagnostics.append(Diagnostic(doc.path, line, col, ".".join(map(str, loc)), message, code=code))

    def _expect_mapping(self, doc: Document, data: Any, loc: tuple, what: str) -> dict | None:
        if isinstance(data, dict):
            return data
        line, col = locate(doc, loc)
        found = "nothing" if data is None else type(data).__name__
        self.diagnostics.append(
            Diagnostic(
                doc.path,
                line,
                col,
                ".".join(map(str, loc)),
                f"expected a mapping of {what}, found {found}",
                code="schema",
            )
        )
        return None

    def _keyed(
        self,
        doc: Document,
        table: dict,
        loc: tuple,
        model: type[T],
        kind: str,
        key_check: Callable[[str], str] | None = m._kebab,
    ) -> dict[str, T]:
        result: dict[str, T] = {}
        for key, value in table.items():
            key = str(key)
            entry_loc = (*loc, key)
            if key_check is not None:
                try:
                    key_check(key)
                except ValueError as exc:
                    self._flag(doc, entry_loc, str(exc), "name")
                    continue
            parsed = self._validate(doc, model, value if value is not None else {}, entry_loc)
            if parsed is not None:
                result[key] = parsed
                self.origins[(kind, key)] = Origin(doc, entry_loc)
        return result

    def _primitives(self, rel: str, top: str, kind: str) -> dict[str, m.Primitive]:
        doc = self._read(rel)
        if doc is None:
            return {}
        data = self._expect_mapping(doc, doc.data, (), "sections")
        if data is None:
            return {}
        table = self._expect_mapping(doc, data.get(top), (top,), kind + " definitions")
        return self._keyed(doc, table, (top,), m.Primitive, kind) if table is not None else {}

    def _values(self, rel: str) -> list[m.Value]:
        doc = self._read(rel)
        if doc is None:
            return []
        parsed = self._validate(doc, _ValuesFile, doc.data or {})
        if parsed is None:
            return []
        for index, value in enumerate(parsed.values):
            self.origins[("value", value.id)] = Origin(doc, ("values", index))
        return parsed.values

    def _single(self, rel: str, model: type[T], kind: str, required: bool = True) -> T | None:
        doc = self._read(rel, required=required)
        if doc is None:
            return None
        parsed = self._validate(doc, model, doc.data if doc.data is not None else {})
        if parsed is not None:
            self.origins[(kind, "")] = Origin(doc, ())
        return parsed

    def _mapping_file(self, rel: str, model: type[T], top: str, kind: str, required: bool = True) -> dict:
        doc = self._read(rel, required=required)
        if doc is None:
            return {}
        data = self._expect_mapping(doc, doc.data if doc.data is not None else {top: {}}, (), "sections")
        if data is None:
            return {}
        extra = sorted(set(data) - {top})
        for key in extra:
            self._flag(doc, (key,), "unknown field (not part of the schema)", "schema")
        table = self._expect_mapping(doc, data.get(top, {}), (top,), kind + " definitions")
        if table is None:
            return {}
        entry_model = model.model_fields[top].annotation.__args__[1]  # dict[str, X] -> X
        return self._keyed(doc, table, (top,), entry_model, kind)

    # --- per-file registries ----------------------------------------------------------------

    def _yaml_files(self, rel_dir: str) -> list[str]:
        folder = self.root / rel_dir
        if not folder.is_dir():
            return []
        return sorted(
            p.relative_to(self.root).as_posix() for p in tree_paths(folder, "*.yaml") if p.is_file()
        )

    def _agents(self, rel_dir: str) -> dict[str, m.Agent]:
        agents: dict[str, m.Agent] = {}
        for _rel, doc, agent in self._parsed(self._yaml_files(rel_dir), m.Agent):
            if agent.name in agents:
                first = self.origins[("agent", agent.name)].doc.path
                self._flag(
                    doc, ("name",), f"duplicate agent name {agent.name!r} (also in {first})", "duplicate"
                )
                continue
            agents[agent.name] = agent
            self.origins[("agent", agent.name)] = Origin(doc, ())
        return agents

    def _skills(self, rel_dir: str, metadata: m.MetadataFile) -> dict[str, m.Skill]:
        skills: dict[str, m.Skill] = {}
        folder = self.root / rel_dir
        sources = tree_paths(folder, "SKILL.md") if folder.is_dir() else []
        for path in sources:
            self._skill(path, skills, provider=None)
        for index, root in enumerate(metadata.vendor_roots):
            if not self._vendor_root_ok(index, root.path):
                continue
            vendor = self.root / root.path
            if not vendor.is_dir():
                self.diagnostics.append(
                    Diagnostic(
                        f"{self.registries}/metadata.yaml",
                        1,
                        1,
                        "vendor_roots",
                        f"vendor root {root.path!r} does not exist",
                        code="missing",
                    )
                )
                continue
            for path in tree_paths(vendor, "SKILL.md"):
                self._skill(path, skills, provider=root.provider)
        return skills

    def _vendor_root_ok(self, index: int, path: str) -> bool:
        """A vendor root must be a relative folder inside the workspace (not via a link, not in .git)."""
        rel = f"{self.registries}/metadata.yaml"
        parts = Path(path).parts
        problem = None
        if Path(path).is_absolute() or path.startswith(("/", "\\")):
            problem = f"vendor root {path!r} is absolute; it must be a folder relative to the workspace root"
        elif ".." in parts:
            problem = f"vendor root {path!r} climbs out of the workspace with '..'"
        elif has_git_part(path):
            problem = f"vendor root {path!r} lies inside .git/"
        if problem is None:
            return not self._report_links([found] if (found := self.links.folder_problem(path)) else [])
        origin = self.origins.get(("metadata", ""))
        line, col = locate(origin.doc, ("vendor_roots", index, "path")) if origin else (1, 1)
        self.diagnostics.append(
            Diagnostic(rel, line, col, f"vendor_roots.{index}.path", problem, code="path")
        )
        return False

    def _skill(self, path: Path, skills: dict[str, m.Skill], provider: str | None) -> None:
        rel = path.relative_to(self.root).as_posix()
        if self._escapes(rel):
            return
        self.files.append(rel)
        try:
            doc, body = split_frontmatter(read_text(self.root, rel, self.hashes), rel)
        except SourceError as exc:
            self.diagnostics.append(exc.diagnostic)
            return
        data = doc.data if doc.data is not None else {}
        if not isinstance(data, dict):
            self._flag(doc, (), f"frontmatter must be a mapping of fields, found {_kind(data)}", "schema")
            return
        if provider is not None:
            problems = _vendor_problems(data)
            for loc, message in problems:
                self._flag(doc, loc, message, "schema")
            if problems:
                return
            data = _vendor_source(data, provider)
        source = self._validate(doc, m.SkillSource, data)
        if source is None:
            return
        meta = source.metadata
        source_dir = Path(rel).parent.as_posix()
        if provider is None:
            ref = f"{meta.semantic_folder}/{meta.name}"
            name = meta.name
            if Path(source_dir).name != meta.name:
                folder = Path(source_dir).name
                self._flag(
                    doc,
                    ("metadata", "name"),
                    f"name {meta.name!r} must equal its folder name {folder!r}",
                    "name",
                )
                return
        else:
            ref = f"vendor/{provider}/{meta.name}"
            name = f"{provider}-{meta.name}"
        if name in skills:
            first = skills[name].source_dir
            self._flag(
                doc, ("metadata", "name"), f"duplicate skill name {name!r} (also in {first})", "duplicate"
            )
            return
        active = sorted(k for k in source.frontmatter.extra if k in _VENDOR_FORBIDDEN_EXTRA)
        if provider is not None and active:
            # rendered into the SKILL.md frontmatter, these run commands whenever the skill is active
            self._flag(
                doc,
                ("frontmatter", "extra", active[0]),
                f"a vendor skill may not carry {', '.join(active)} in its rendered frontmatter: they run "
                "commands in every session that loads it; ingest and review it as an internal skill instead",
                "schema",
            )
            return
        renamed = source.frontmatter.extra.get("name")
        if renamed is not None and renamed != name:
            # the rendered SKILL.md is named by its folder; a second `name:` would make two skills of one name
            shadowed = (
                f"; it would shadow the skill {renamed!r} ({skills[renamed].source_dir})"
                if renamed in skills
                else ""
            )
            self._flag(
                doc,
                ("frontmatter", "extra", "name"),
                f"{renamed!r} would rename skill {name!r} in its rendered SKILL.md{shadowed}; "
                "remove it (a skill is named by its folder, a vendor skill by <provider>-<name>)",
                "duplicate",
            )
            return
        if self._report_links(skill_asset_problems(self.root, source_dir, self.links)):
            return
        skills[name] = m.Skill(
            ref=ref,
            name=name,
            metadata=meta,
            frontmatter=source.frontmatter,
            body=body,
            source_dir=source_dir,
            provider=provider,
        )
        self.origins[("skill", name)] = Origin(doc, ())

    def _instructions(self, rel_dir: str) -> dict[str, m.Instruction]:
        """``instructions/<name>.md``: Markdown with optional frontmatter (description, globs, …)."""
        folder = self.root / rel_dir
        found: dict[str, m.Instruction] = {}
        for path in sorted(folder.glob("*.md")) if folder.is_dir() else []:
            rel = path.relative_to(self.root).as_posix()
            if self._escapes(rel):
                continue
            self.files.append(rel)
            try:
                text = read_text(self.root, rel, self.hashes)
                doc, body = (
                    split_frontmatter(text, rel) if text.startswith("---") else (parse_yaml("", rel), text)
                )
            except SourceError as exc:
                self.diagnostics.append(exc.diagnostic)
                continue
            try:
                m._kebab(path.stem)
            except ValueError as exc:
                self.diagnostics.append(Diagnostic(rel, 1, 1, "", f"file name: {exc}", code="name"))
                continue
            front = self._validate(doc, m.InstructionFront, doc.data if doc.data is not None else {})
            if front is not None:
                found[path.stem] = m.Instruction(name=path.stem, front=front, body=body, source=rel)
                self.origins[("instruction", path.stem)] = Origin(doc, ())
        return found

    def _truths(self, pattern: str, exclude: list[str]) -> list[TruthsRegistry]:
        registries = []
        for rel, doc, parsed in self._parsed(glob_files(self.root, pattern, exclude), m.TruthsFile):
            seen: dict[str, int] = {}
            for index, truth in enumerate(parsed.statements):
                if truth.id in seen or ("truth", truth.id) in self.origins:
                    self._flag(
                        doc,
                        ("statements", index, "id"),
                        f"duplicate ground-truth id {truth.id!r}",
                        "duplicate",
                    )
                    continue
                seen[truth.id] = index
                self.origins[("truth", truth.id)] = Origin(doc, ("statements", index))
            registries.append(TruthsRegistry(rel, parsed))
        return registries

    def _decisions(self, rel_dir: str) -> dict[str, m.Decision]:
        decisions: dict[str, m.Decision] = {}
        for rel, doc, decision in self._parsed(self._yaml_files(rel_dir), m.Decision):
            if decision.id in decisions:
                self._flag(doc, ("id",), f"duplicate decision id {decision.id!r}", "duplicate")
                continue
            if Path(rel).stem != decision.id:
                self._flag(
                    doc, ("id",), f"id {decision.id!r} must match the file name {Path(rel).stem!r}", "name"
                )
            decisions[decision.id] = decision
            self.origins[("decision", decision.id)] = Origin(doc, ())
        return decisions

    def _domains(self, rel_dir: str) -> list[m.DomainKnowledge]:
        base = self.root / rel_dir
        if not base.is_dir():
            return []
        found = []
        for folder in sorted({p.parent for name in m.DOMAIN_FILES for p in tree_paths(base, name)}):
            files = {
                name: (folder / name).relative_to(self.root).as_posix()
                for name in m.DOMAIN_FILES
                if (folder / name).is_file()
            }
            files = {name: rel for name, rel in files.items() if not self._escapes(rel)}
            self.files.extend(files.values())
            found.append(
                m.DomainKnowledge(
                    name=folder.relative_to(base).as_posix(),
                    path=folder.relative_to(self.root).as_posix(),
                    files=files,
                )
            )
        return found


class _ValuesFile(m.Model):
    values: list[m.Value]


def _plain_relative(path: str) -> bool:
    return not (Path(path).is_absolute() or ".." in Path(path).parts or has_git_part(path))


def _kind(value: Any) -> str:
    return {
        dict: "a mapping",
        list: "a list",
        str: "a string",
        type(None): "nothing",
        bool: "true/false",
        int: "a number",
        float: "a number",
    }.get(type(value), type(value).__name__)


_VENDOR_TEXT = ("name", "description", "license", "compatibility")
_VENDOR_META_TEXT = ("tags", "tier", "layer", "type", "semantic_folder", "scope", "last_updated")


def _vendor_problems(data: dict) -> list[tuple[tuple[str, ...], str]]:
    """Fields of an agentskills.io frontmatter with the wrong shape, as (field path, message)."""
    if "metadata" in data and isinstance(data["metadata"], dict) and "identifier" in data["metadata"]:
        return []  # written in our own source schema: the model validates it
    problems = []
    for key in _VENDOR_TEXT:
        if key in data and isinstance(data[key], (dict, list)):
            problems.append(((key,), f"must be text, found {_kind(data[key])}"))
    tools = data.get("allowed-tools")
    if tools is not None and not (
        isinstance(tools, str) or (isinstance(tools, list) and all(isinstance(t, str) for t in tools))
    ):
        problems.append(
            (
                ("allowed-tools",),
                f"must be a space-separated string or a list of tool names, found {_kind(tools)}",
            )
        )
    meta = data.get("metadata")
    if meta is not None and not isinstance(meta, dict):
        problems.append((("metadata",), f"must be a mapping of text values, found {_kind(meta)}"))
    elif isinstance(meta, dict):
        for key in _VENDOR_META_TEXT:
            if key in meta and meta[key] is not None and not isinstance(meta[key], str):
                hint = (
                    " (agentskills.io metadata values are strings: write tags as 'a,b')"
                    if key == "tags"
                    else ""
                )
                problems.append((("metadata", key), f"must be text, found {_kind(meta[key])}{hint}"))
    return problems


_VENDOR_FORBIDDEN_EXTRA = frozenset({"hooks", "statusLine", "apiKeyHelper", "mcpServers", "mcp_servers"})


def _vendor_source(data: dict, provider: str) -> dict:
    """A vendor SKILL.md (agentskills.io frontmatter) normalised into our source schema."""
    if "metadata" in data and isinstance(data["metadata"], dict) and "identifier" in data["metadata"]:
        return data
    meta = data.get("metadata") if isinstance(data.get("metadata"), dict) else {}
    tools = data.get("allowed-tools", [])
    if isinstance(tools, str):
        tools = [t for t in tools.replace(",", " ").split() if t]
    name = str(data.get("name", ""))
    return {
        "metadata": {
            "identifier": name,
            "name": name,
            "description": data.get("description", ""),
            "type": meta.get("type", "workflow"),
            "layer": meta.get("tier", meta.get("layer", "K3")),
            "semantic_folder": meta.get("semantic_folder", "stacks"),
            "source": "vendor",
            "last_updated": str(meta.get("last_updated", "1970-01-01")),
            "scope": meta.get("scope"),
            "license": data.get("license"),
            "compatibility": data.get("compatibility"),
        },
        "frontmatter": {
            "tags": meta["tags"].split(",") if isinstance(meta.get("tags"), str) and meta["tags"] else [],
            "allowed_tools": tools,
        },
    }
