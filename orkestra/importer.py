"""``orkestra import``: hand-written agents, skills, commands and rules → registries.

Reads ``.claude/agents/*.md``, ``.claude/skills/*/`` (SKILL.md and every file beside it),
``.claude/commands/*.md``, ``CLAUDE.md``, ``AGENTS.md``, ``.cursor/rules/*.mdc`` and
``.agents/skills/*/``. Agents keep their frontmatter and their body as the agent's own
``prompt``; skills land in the tier tree (``skills/project/``, ``source: imported``, metadata
inferred, flagged for review); rules and project files become ``instructions/``.

Before anything is written, the planned registries are rendered in a scratch copy and each
original is compared with what sync will produce: ``identical`` (bytes), ``whitespace`` (same
frontmatter values, same text up to whitespace) or ``differs``. Identical and whitespace files
are recorded in ``.orkestra/import/adopt.json`` so the next sync takes them over (rewriting
whitespace-only ones); originals are never deleted or edited here.
"""

from __future__ import annotations

import datetime as dt
import errno
import hashlib
import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from orkestra.adoptions import ADOPT_FILE, read_adoptions
from orkestra.errors import OrkestraError, UsageError
from orkestra.frontmatter import parse_markdown, split_tools
from orkestra.fs.links import Containment, read_regular
from orkestra.fs.scan import tree_paths
from orkestra.import_plan import ImportPlan, Item
from orkestra.import_verify import verify
from orkestra.registry_yaml import dump_yaml
from orkestra.scaffolding import SCAFFOLD
from orkestra.workspace.config import CONFIG_FILE, OrkestraConfig
from orkestra.workspace.source import load_yaml, read_yaml

SOURCES = ("claude", "agents-md", "cursor", "codex")
MAX_FILE_BYTES = 1_000_000
MAX_FILES = 5_000
_NAME = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*\Z")
_AGENT_KEYS = {"name", "description", "tools", "model"}
_COMMAND_KEYS = {"description": "description", "argument-hint": "argument_hint", "model": "model"}


# --- reading originals ----------------------------------------------------------------------


def _read_bytes(root: Path, rel: str, links: Containment) -> bytes:
    """The bytes of the original ``rel``, read only when no folder on the way is a link leaving the
    repository (``Containment``), the file itself is no link (``O_NOFOLLOW``) and is a regular file of at
    most MAX_FILE_BYTES (a FIFO is refused, not waited on); ValueError says why not."""
    problem = links.problem(rel.rpartition("/")[0]) if "/" in rel else None
    if problem is not None:
        link, message = problem
        raise ValueError(f"{link!r}: {message}; nothing below it is imported")
    try:
        return read_regular(root / rel, MAX_FILE_BYTES, follow=False)
    except OSError as exc:
        if os.path.islink(root / rel):
            raise ValueError("is a symbolic link (left alone)") from None
        if exc.errno == errno.EFBIG:
            raise ValueError(f"larger than {MAX_FILE_BYTES} bytes") from None
        raise ValueError(f"cannot read: {exc.strerror}") from None


# --- planning -------------------------------------------------------------------------------


class _Planner:
    def __init__(self, root: Path, config: OrkestraConfig, sources: tuple[str, ...], today: dt.date):
        self.root, self.config, self.sources, self.today = root, config, sources, today
        self.reg = config.paths.registries
        self.plan = ImportPlan(str(root))
        self.links = Containment(root)
        self.tools_doc = self._tools()
        self.builtin_known = set(self.tools_doc.get("builtin") or [])
        self.servers = self.tools_doc.setdefault("mcp_servers", {}) or {}
        self.tools_doc["mcp_servers"] = self.servers
        self.tools_changed = False
        self.commands: dict[str, dict] = {}
        self.targets: list[str] = []

    def _tools(self) -> dict:
        path = self.root / self.reg / "tools.yaml"
        if path.is_file():
            data = read_yaml(self.root, path.relative_to(self.root).as_posix()).data or {}
            return data if isinstance(data, dict) else {}
        return read_yaml(SCAFFOLD, "tools.yaml").data

    def write(self, rel: str, data: bytes | str) -> bool:
        """Queue a registry file; False (and a skip) when one already exists there."""
        if (self.root / rel).exists() or rel in self.plan.writes:
            self.plan.skip(rel, "a registry file already exists there (not overwritten)")
            return False
        self.plan.writes[rel] = data if isinstance(data, bytes) else data.encode("utf-8")
        return True

    def target(self, name: str) -> None:
        if name not in self.targets:
            self.targets.append(name)

    def run(self) -> ImportPlan:
        if "claude" in self.sources:
            self.agents()
            self.skills(self.config.paths.output + "/skills", "claude")
            self.command_files()
        if "codex" in self.sources:
            self.skills(".agents/skills", "agent-skills")
        self.project_files()
        if "cursor" in self.sources:
            self.cursor_rules()
        self.finish()
        return self.plan

    def _markdown(self, rel: str) -> tuple[dict, str] | None:
        """(frontmatter, body) of a Markdown file, or None after recording why it is skipped."""
        try:
            data = _read_bytes(self.root, rel, self.links)
            front, body = parse_markdown(data.decode("utf-8"))
        except (ValueError, UnicodeDecodeError, OSError) as exc:
            self.plan.skip(rel, str(exc))
            return None
        self.plan.originals[rel] = data
        return front or {}, body

    def _folder(self, rel: str) -> Path | None:
        """``root/rel`` when it is a folder no link on the way leads out of the repository (else None,
        and a skip naming the link when there is one)."""
        problem = self.links.folder_problem(rel)
        if problem is not None:
            link, message = problem
            if not any(s["path"] == link for s in self.plan.skipped):
                self.plan.skip(link, f"{message}; nothing below it is imported")
            return None
        folder = self.root / rel
        return folder if folder.is_dir() else None

    def _top_level(self, rel: str, pattern: str, nested: str) -> Iterator[tuple[Path, str]]:
        """(path, repository-relative path) of each file matching ``pattern`` right in the folder ``rel``;
        one in a subfolder is skipped with the reason ``nested``."""
        folder = self._folder(rel)
        for path in tree_paths(folder, pattern) if folder else []:
            file_rel = path.relative_to(self.root).as_posix()
            if path.parent == folder:
                yield path, file_rel
            else:
                self.plan.skip(file_rel, nested)

    # agents -----------------------------------------------------------------------------

    def agents(self) -> None:
        nested = "agents in subfolders are not imported (sync renders agents/<name>.md)"
        for path, rel in self._top_level(f"{self.config.paths.output}/agents", "*.md", nested):
            parsed = self._markdown(rel)
            if parsed is None:
                continue
            front, body = parsed
            name = str(front.get("name") or path.stem)
            if name != path.stem or not _NAME.match(name):
                self.plan.skip(rel, f"name {name!r} is not kebab-case or differs from the file name")
                continue
            if (self.root / self.reg / "agents" / f"{name}.yaml").exists():
                self.plan.skip(rel, f"agent {name!r} is already in the registries")
                continue
            doc: dict[str, Any] = {
                "name": name,
                "category": "imported",
                "description": str(front.get("description") or f"Imported from {rel}."),
            }
            if "model" in front:
                doc["model"] = str(front["model"])
            if front.get("tools"):
                builtin, mcp = self.classify_tools(split_tools(front["tools"]), rel)
                doc["tools"] = {k: v for k, v in (("builtin", builtin), ("mcp_tools", mcp)) if v}
            extra = {k: v for k, v in front.items() if k not in _AGENT_KEYS}
            if "tools" in front and not split_tools(front["tools"]):
                extra["tools"] = front[
                    "tools"
                ]  # `tools: []` (no tools) is not the same as no key (all tools)
            if extra:
                doc["frontmatter"] = extra
            doc["prompt"] = body.strip() + "\n" if body.strip() else f"Imported from {rel}.\n"
            registry = f"{self.reg}/agents/{name}.yaml"
            header = f"# Imported by `orkestra import` from {rel}; edit here, then `orkestra sync`.\n"
            if self.write(registry, header + dump_yaml(doc)):
                self.plan.items.append(Item("agent", name, rel, registry, rel))

    def classify_tools(self, tools: list[str], rel: str) -> tuple[list[str], list[str]]:
        builtin, mcp = [], []
        for tool in tools:
            base = tool.split("(", 1)[0].strip()
            parts = base.split("__")
            if parts[0] == "mcp" and len(parts) >= 2:
                mcp.append(tool)
                server = self.servers.setdefault(parts[1], None) or {
                    "description": f"Imported from {rel}: add a transport to have sync configure it.",
                    "tools": {},
                }
                self.servers[parts[1]] = server
                if len(parts) == 3 and parts[2] != "*" and parts[2] not in (server.get("tools") or {}):
                    server.setdefault("tools", {})[parts[2]] = {"description": f"Used by {rel} (imported)."}
                    self.note_tool(base)
                elif len(parts) == 2 and server.get("tools") == {}:
                    self.note_tool(base)
            else:
                builtin.append(tool)
                if base not in self.builtin_known:
                    self.tools_doc.setdefault("builtin", []).append(base)
                    self.builtin_known.add(base)
                    self.note_tool(base)
        return builtin, mcp

    def note_tool(self, name: str) -> None:
        self.tools_changed = True
        if name not in self.plan.tools_added:
            self.plan.tools_added.append(name)

    # skills -----------------------------------------------------------------------------

    def skills(self, base: str, target: str) -> None:
        folder = self._folder(base)
        for skill_md in sorted(folder.glob("*/SKILL.md")) if folder else []:
            source_dir = skill_md.parent
            rel = skill_md.relative_to(self.root).as_posix()
            if source_dir.is_symlink() or not source_dir.resolve().is_relative_to(self.root):
                self.plan.skip(rel, "skill folder is a symbolic link (left alone)")
                continue
            parsed = self._markdown(rel)
            if parsed is None:
                continue
            front, body = parsed
            name = source_dir.name
            if not _NAME.match(name) or len(name) > 64:
                self.plan.skip(rel, f"folder name {name!r} is not a kebab-case skill name")
                continue
            dest = f"{self.reg}/skills/project/{name}"
            taken = list((self.root / self.reg / "skills").glob(f"*/{name}/SKILL.md"))
            if (
                taken
                or (self.root / dest).exists()
                or any(i.kind == "skill" and i.name == name for i in self.plan.items)
            ):
                self.plan.skip(rel, f"skill {name!r} is already in the registries")
                continue
            description = front.get("description")
            extra = {k: v for k, v in front.items() if k not in ("name", "description")}
            if front.get("name") not in (None, name):
                self.plan.skip(
                    rel, f"frontmatter name {front.get('name')!r} differs from its folder {name!r}"
                )
                continue
            doc = {
                "metadata": {
                    "identifier": name,
                    "name": name,
                    "description": str(description or f"Imported from {rel}; describe it. Use when …"),
                    "type": infer_type(body),
                    "layer": "K4",
                    "semantic_folder": "project",
                    "source": "imported",
                    "last_updated": self.today.isoformat(),
                }
            }
            if extra:
                doc["frontmatter"] = {"extra": extra}
            if not self.write(f"{dest}/SKILL.md", "---\n" + dump_yaml(doc) + "---\n" + body):
                continue
            files = [p for p in tree_paths(source_dir) if p != skill_md and (p.is_symlink() or p.is_file())][
                :MAX_FILES
            ]
            for path in files:
                sub = path.relative_to(source_dir).as_posix()
                try:
                    data = _read_bytes(self.root, path.relative_to(self.root).as_posix(), self.links)
                except ValueError:
                    self.plan.skip(path.relative_to(self.root).as_posix(), "symbolic link or too large")
                    continue
                self.plan.originals[path.relative_to(self.root).as_posix()] = data
                self.write(f"{dest}/{sub}", data)
                self.plan.items.append(
                    Item(
                        "skill-file",
                        name,
                        path.relative_to(self.root).as_posix(),
                        f"{dest}/{sub}",
                        path.relative_to(self.root).as_posix(),
                    )
                )
            self.plan.items.append(
                Item(
                    "skill",
                    name,
                    rel,
                    f"{dest}/SKILL.md",
                    rel,
                    note="metadata inferred (type, tier K4); review it",
                )
            )
            self.target(target)

    # commands ---------------------------------------------------------------------------

    def command_files(self) -> None:
        existing = self._existing_commands()
        nested = "namespaced commands in subfolders are not imported"
        for path, rel in self._top_level(f"{self.config.paths.output}/commands", "*.md", nested):
            name = path.stem
            if not _NAME.match(name) or name in existing:
                self.plan.skip(rel, f"command {name!r} is not kebab-case or already in the registries")
                continue
            parsed = self._markdown(rel)
            if parsed is None:
                continue
            front, body = parsed
            entry: dict[str, Any] = {}
            for key, field_name in _COMMAND_KEYS.items():
                if isinstance(front.get(key), str):
                    entry[field_name] = front[key]
            extra = {k: v for k, v in front.items() if k not in _COMMAND_KEYS or not isinstance(v, str)}
            if extra:
                entry["extra"] = extra
            entry["body"] = body.strip() + "\n"
            self.commands[name] = entry
            self.plan.items.append(Item("command", name, rel, f"{self.reg}/commands.yaml", rel))

    def _existing_commands(self) -> set[str]:
        path = self.root / self.reg / "commands.yaml"
        if not path.is_file():
            return set()
        data = read_yaml(self.root, path.relative_to(self.root).as_posix()).data or {}
        return set((data.get("commands") or {}) if isinstance(data, dict) else ())

    # instructions -----------------------------------------------------------------------

    def project_files(self) -> None:
        found = {}
        for rel, source in (("CLAUDE.md", "claude"), ("AGENTS.md", "agents-md")):
            wanted = source in self.sources or (source == "agents-md" and "codex" in self.sources)
            if wanted and os.path.lexists(self.root / rel):
                try:
                    data = _read_bytes(self.root, rel, self.links)
                    found[rel] = data.decode("utf-8")
                except (ValueError, UnicodeDecodeError, OSError) as exc:
                    self.plan.skip(rel, str(exc))
                else:
                    self.plan.originals[rel] = data
        same = len(found) == 2 and _words(found["CLAUDE.md"]) == _words(found["AGENTS.md"])
        for rel, text in found.items():
            target = "claude" if rel == "CLAUDE.md" else "agents-md"
            self.target(target)
            if same and rel == "AGENTS.md":
                self.plan.items.append(
                    Item(
                        "instruction",
                        "project",
                        rel,
                        f"{self.reg}/instructions/project.md",
                        rel,
                        note="same text as CLAUDE.md: one instruction for both",
                    )
                )
                continue
            shared = len(found) == 1 or same
            name = "project" if shared else rel.removesuffix(".md").lower() + "-md"
            front = {} if shared else {"targets": [target]}
            registry = f"{self.reg}/instructions/{name}.md"
            if self.write(registry, _front_md(front, text)):
                self.plan.items.append(Item("instruction", name, rel, registry, rel))

    def cursor_rules(self) -> None:
        unfit = "rules in subfolders or with non-kebab-case names are not imported"
        for path, rel in self._top_level(".cursor/rules", "*.mdc", unfit):
            name = path.stem.lower()
            if not _NAME.match(name) or name != path.stem:
                self.plan.skip(rel, unfit)
                continue
            parsed = self._markdown(rel)
            if parsed is None:
                continue
            front, body = parsed
            unknown = sorted(set(front) - {"description", "globs", "alwaysApply"})
            if unknown:
                self.plan.skip(rel, f"unknown frontmatter key(s) {', '.join(unknown)}")
                continue
            doc: dict[str, Any] = {}
            if "description" in front:
                doc["description"] = "" if front["description"] is None else str(front["description"])
            if "globs" in front:
                doc["globs"] = front["globs"]
            if "alwaysApply" in front:
                doc["always_apply"] = bool(front["alwaysApply"])
            doc["targets"] = ["cursor"]
            registry = f"{self.reg}/instructions/{name}.md"
            if self.write(registry, _front_md(doc, body)):
                self.plan.items.append(Item("instruction", name, rel, registry, rel))
                self.target("cursor")

    # finishing --------------------------------------------------------------------------

    def finish(self) -> None:
        if self.commands:
            self._merge_commands()
        if self.tools_changed:
            rel = f"{self.reg}/tools.yaml"
            path = self.root / rel
            old = path.read_text(encoding="utf-8") if path.is_file() else ""
            header = (
                "".join(line + "\n" for line in old.splitlines()[:20] if line.startswith("#"))
                or "# Every tool an agent, skill or command may declare.\n"
            )
            self.plan.writes[rel] = (
                header
                + "# (rewritten by `orkestra import`, which added: "
                + ", ".join(self.plan.tools_added)
                + ")\n"
                + dump_yaml(self.tools_doc)
            ).encode("utf-8")
        missing = [t for t in self.targets if t not in self.config.targets]
        no_roster = self.config.agents_md_roster and any(i.source == "AGENTS.md" for i in self.plan.items)
        if missing or no_roster:
            self.plan.targets_added = missing
            text = _with_targets(self.root / CONFIG_FILE, [*self.config.targets, *missing])
            if no_roster:  # the imported AGENTS.md is the team's text; no generated roster below it
                text = text.rstrip("\n") + "\nagents_md_roster: false\n"
            self.plan.writes[CONFIG_FILE] = text.encode("utf-8")

    def _merge_commands(self) -> None:
        rel = f"{self.reg}/commands.yaml"
        path = self.root / rel
        block = dump_yaml({"commands": self.commands})
        if not path.is_file():
            self.plan.writes[rel] = block.encode("utf-8")
            return
        text = path.read_text(encoding="utf-8")
        data = load_yaml(text, rel) or {}
        if not (data.get("commands") or {}):
            merged = re.sub(r"^commands:.*$", "", text, flags=re.MULTILINE).rstrip("\n") + "\n" + block
        else:
            entries = block.split("\n", 1)[1]  # drop the "commands:" line; entries stay indented
            merged = text.rstrip("\n") + "\n" + entries
        check = load_yaml(merged, rel) or {}
        if any((check.get("commands") or {}).get(k) != v for k, v in self.commands.items()):
            raise OrkestraError(
                f"{rel}: could not append the imported commands (is `commands:` its last key?)"
            )
        self.plan.writes[rel] = merged.encode("utf-8")


def _words(text: str) -> list[str]:
    return text.split()


def _front_md(front: dict, body: str) -> str:
    return ("---\n" + dump_yaml(front) + "---\n" if front else "") + body


def _with_targets(config_path: Path, targets: list[str]) -> str:
    text = config_path.read_text(encoding="utf-8")
    line = f"targets: [{', '.join(targets)}]"
    if re.search(r"^targets:", text, re.MULTILINE):
        replaced = re.sub(r"^targets:.*(\n[ \t]+-.*)*", line, text, count=1, flags=re.MULTILINE)
    else:
        replaced = text.rstrip("\n") + f"\n# runtimes sync renders for (docs/targets.md)\n{line}\n"
    data = load_yaml(replaced, CONFIG_FILE)
    if not isinstance(data, dict) or data.get("targets") != targets:
        raise OrkestraError(f"{CONFIG_FILE}: could not set targets to {targets}; add them by hand")
    return replaced


def infer_type(body: str) -> str:
    if re.search(r"^\s*[-*] \[[ xX]\]", body, re.MULTILINE) or re.search(
        r"^##+\s+checklist", body, re.MULTILINE | re.IGNORECASE
    ):
        return "checklist"
    if re.search(r"^##+\s+(rules|principles|guidelines)\b", body, re.MULTILINE | re.IGNORECASE):
        return "discipline"
    return "workflow"


# --- verification and apply -----------------------------------------------------------------


def plan_import(
    root: str | Path, sources: tuple[str, ...] | None = None, today: dt.date | None = None
) -> ImportPlan:
    """What ``import`` would write, with each original's round-trip status; writes nothing."""
    from orkestra.workspace.config import read_config

    root_path = Path(root).resolve()
    if not (root_path / CONFIG_FILE).is_file():
        raise UsageError(
            f"{root_path}: no {CONFIG_FILE}; run `orkestra init --minimal` (or `orkestra init`) first"
        )
    config = read_config(root_path)
    if config is None:
        raise UsageError(f"{CONFIG_FILE}: does not validate; run `orkestra validate`")
    unknown = [s for s in sources or () if s not in SOURCES]
    if unknown:
        raise UsageError(f"unknown --from {unknown[0]!r} (choose from {', '.join(SOURCES)})")
    plan = _Planner(root_path, config, tuple(sources or SOURCES), today or dt.date.today()).run()
    verify(root_path, plan)
    return plan


def apply_import(plan: ImportPlan) -> ImportPlan:
    """Write the planned registry files (atomically, each) and the adoption list for sync."""
    from orkestra.fs.guard import SafeTree
    from orkestra.workspace.config import read_config

    root = Path(plan.root)
    config = read_config(root) or OrkestraConfig()
    adopt = {
        i.output: hashlib.sha256(plan.originals[i.source]).hexdigest()
        for i in plan.items
        if i.round_trip in ("identical", "whitespace")
    }
    previous = read_adoptions(root, config)
    with SafeTree(root) as tree:  # no symlinked folder, no .git, nothing outside the repository
        for rel, data in sorted(plan.writes.items()):
            tree.write(rel, data)
        state = f"{config.paths.state.strip('/')}/{ADOPT_FILE}"
        tree.write(state, (json.dumps({**previous, **adopt}, indent=2, sort_keys=True) + "\n").encode())
    plan.applied = True
    return plan
