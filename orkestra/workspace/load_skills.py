"""Loading the skills: the workspace's own ``SKILL.md`` files and those of the vendor roots
(agentskills.io frontmatter, normalised into our source schema, and refused when they would carry
hooks or servers into a session). ``SkillLoading`` is the part of the workspace loader
(``orkestra.workspace.load``) that reads them; it uses the loader's reading and reporting methods."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from orkestra.errors import Diagnostic
from orkestra.fs.links import has_git_part, skill_asset_problems
from orkestra.fs.scan import tree_paths
from orkestra.workspace import models as m
from orkestra.workspace.origin import Origin
from orkestra.workspace.source import SourceError, locate, read_text, split_frontmatter


class SkillLoading:
    """The skill-reading methods of ``orkestra.workspace.load._Loader``."""

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
            self._flag(doc, (), f"frontmatter must be a mapping of fields, found {kind_of(data)}", "schema")
            return
        if provider is not None:
            problems = vendor_problems(data)
            for loc, message in problems:
                self._flag(doc, loc, message, "schema")
            if problems:
                return
            data = vendor_source(data, provider)
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
        active = sorted(k for k in source.frontmatter.extra if k in VENDOR_FORBIDDEN_EXTRA)
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


def kind_of(value: Any) -> str:
    """What a YAML value is, in words (for "found …" in a diagnostic)."""
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


def vendor_problems(data: dict) -> list[tuple[tuple[str, ...], str]]:
    """Fields of an agentskills.io frontmatter with the wrong shape, as (field path, message)."""
    if "metadata" in data and isinstance(data["metadata"], dict) and "identifier" in data["metadata"]:
        return []  # written in our own source schema: the model validates it
    problems = []
    for key in _VENDOR_TEXT:
        if key in data and isinstance(data[key], (dict, list)):
            problems.append(((key,), f"must be text, found {kind_of(data[key])}"))
    tools = data.get("allowed-tools")
    if tools is not None and not (
        isinstance(tools, str) or (isinstance(tools, list) and all(isinstance(t, str) for t in tools))
    ):
        problems.append(
            (
                ("allowed-tools",),
                f"must be a space-separated string or a list of tool names, found {kind_of(tools)}",
            )
        )
    meta = data.get("metadata")
    if meta is not None and not isinstance(meta, dict):
        problems.append((("metadata",), f"must be a mapping of text values, found {kind_of(meta)}"))
    elif isinstance(meta, dict):
        for key in _VENDOR_META_TEXT:
            if key in meta and meta[key] is not None and not isinstance(meta[key], str):
                hint = (
                    " (agentskills.io metadata values are strings: write tags as 'a,b')"
                    if key == "tags"
                    else ""
                )
                problems.append((("metadata", key), f"must be text, found {kind_of(meta[key])}{hint}"))
    return problems


VENDOR_FORBIDDEN_EXTRA = frozenset({"hooks", "statusLine", "apiKeyHelper", "mcpServers", "mcp_servers"})


def vendor_source(data: dict, provider: str) -> dict:
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
