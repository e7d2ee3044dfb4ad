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
from orkestra.fs.links import Containment, has_git_part, tree_problems
from orkestra.fs.scan import glob_files, tree_paths
from orkestra.memory import paused_gc
from orkestra.workspace import models as m
from orkestra.workspace.config import CONFIG_FILE, OrkestraConfig, config_from_document
from orkestra.workspace.load_skills import SkillLoading
from orkestra.workspace.origin import Origin
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


class _Loader(SkillLoading):
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
