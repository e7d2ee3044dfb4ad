"""Decision ids and the decision-record writer used by ``mine classify --decision``.

Records live at ``<decisions>/records/DEC-XX-NNN.yaml``; ``<decisions>/registry.yaml`` maps
domain names to codes. The writer edits only the ``source_commits`` and ``files`` blocks of an
existing record and leaves every other byte (comments, order, quoting) as it was.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from orkestra.errors import NotFoundError, OrkestraError, did_you_mean
from orkestra.fs.atomic import write_atomic
from orkestra.mining import guarded

if TYPE_CHECKING:
    from orkestra.mining.config import MiningPaths
    from orkestra.workspace.load import Workspace

DECISION_ID_RE = re.compile(r"^DEC-(?P<code>[A-Z]{2,4})-(?P<number>\d{3,})\Z")


def next_decision_id(ws: Workspace, domain: str) -> str:
    """The next free id of ``domain`` (a domain name like ``pipeline`` or its code ``PL``): ``DEC-PL-143``."""
    codes = {name: entry.code for name, entry in ws.decision_registry.domains.items()}
    code = codes.get(domain) or (domain if domain in codes.values() else None)
    if code is None:
        raise NotFoundError("decision domain", domain, list(codes) + list(codes.values()))
    records = ws.root / ws.config.paths.decisions / "records"
    files = {p.stem for p in records.glob("DEC-*.yaml")} if records.is_dir() else set()
    return _next_id(code, set(ws.decisions) | files)  # a record that failed to load still holds its id


def _next_id(code: str, ids) -> str:
    numbers = [int(m["number"]) for m in map(DECISION_ID_RE.match, ids) if m and m["code"] == code]
    return f"DEC-{code}-{max(numbers, default=0) + 1:03d}"


@dataclass(frozen=True, slots=True)
class DecisionCatalog:
    """What mining needs to know about decisions, read without parsing every record."""

    records_dir: Path
    domains: dict[str, str]  # code -> domain name
    ids: frozenset[str]
    generated: frozenset[str] = frozenset()  # repo-relative files a decision never lists as its own
    records_prefix: str = ""  # the records directory, repo-relative ("" when unknown)

    @classmethod
    def read(cls, decisions_dir: Path, paths: MiningPaths | None = None) -> DecisionCatalog:
        """The catalog under ``decisions_dir``; with ``paths``, what the repository generates too: the
        files `orkestra sync` owns (its manifest) and the manifest itself."""
        from orkestra.workspace.source import read_yaml

        registry = decisions_dir / "registry.yaml"
        data = read_yaml(decisions_dir, "registry.yaml").data if registry.is_file() else None
        entries = (data or {}).get("domains") or {}
        domains = {str(v.get("code")): str(k) for k, v in entries.items() if isinstance(v, dict)}
        records = decisions_dir / "records"
        ids = frozenset(p.stem for p in records.glob("DEC-*.yaml")) if records.is_dir() else frozenset()
        if paths is None:
            return cls(records, domains, ids)
        prefix = (
            f"{records.relative_to(paths.root).as_posix()}/" if records.is_relative_to(paths.root) else ""
        )
        return cls(records, domains, ids, _generated(paths), prefix)

    def problem(self, decision_id: str) -> str | None:
        """Why ``decision_id`` cannot be used, or None."""
        match = DECISION_ID_RE.match(decision_id)
        if not match:
            return f"{decision_id!r} is not a decision id like 'DEC-PL-142'"
        if decision_id not in self.ids and match["code"] not in self.domains:
            known = ", ".join(sorted(self.domains)) or "none (add them to registry.yaml)"
            close = did_you_mean(match["code"], self.domains)
            hint = f"did you mean {', '.join(repr(c) for c in close)}? " if close else ""
            return f"{decision_id!r}: unknown domain code {match['code']!r} ({hint}known codes: {known})"
        return None

    def own_files(self, files) -> list[str]:
        """A commit's files as a decision records them: none generated, no decision record."""
        return sorted(
            f
            for f in files
            if f not in self.generated and not (self.records_prefix and f.startswith(self.records_prefix))
        )


def _generated(paths: MiningPaths) -> frozenset[str]:
    """The sync manifest and every file it owns."""
    from orkestra.render.manifest import read_manifest_at

    try:
        manifest = read_manifest_at(paths.root, paths.sync_manifest) if paths.sync_manifest else None
    except OrkestraError:  # unreadable: `orkestra sync` reports it; nothing is left out here
        manifest = None
    return frozenset((set(manifest.files) if manifest else set()) | {paths.sync_manifest} - {""})


def upsert_decision_record(
    catalog: DecisionCatalog, decision_id: str, commit: dict, role: str, root: Path | None = None
) -> Path:
    """Create the record, or add ``commit`` to its ``source_commits`` (role primary/supporting) and ``files``;
    with ``root``, the record and its folder must lie inside it, no symlink on the way (``mining.guarded``)."""
    path = catalog.records_dir / f"{decision_id}.yaml"
    if root is not None:
        guarded.file_in_folder(root, path)
    source = {"sha": commit["sha"], "message": commit["subject"], "date": commit["date"][:10], "role": role}
    if not path.is_file():
        code = DECISION_ID_RE.match(decision_id)["code"]
        text = _new_record(decision_id, catalog, code, commit, source)
    else:
        text = _updated_record(path.read_text(encoding="utf-8"), catalog, commit, source)
    write_atomic(path, text)
    return path


def _dump(data: dict) -> str:
    import yaml

    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=1000, default_flow_style=False)


def _new_record(decision_id: str, catalog: DecisionCatalog, code: str, commit: dict, source: dict) -> str:
    return _dump(
        {
            "id": decision_id,
            "title": commit["description"] or commit["subject"],
            "domain": catalog.domains[code],
            "status": "proposed",
            "created": commit["date"][:10],
            "summary": "",
            "context": "",
            "source_commits": [source],
            "files": catalog.own_files(commit["files_changed"]),
        }
    )


def _updated_record(text: str, catalog: DecisionCatalog, commit: dict, source: dict) -> str:
    from orkestra.workspace.source import load_yaml

    data = load_yaml(text) or {}
    commits = [c for c in data.get("source_commits") or [] if c.get("sha") != source["sha"]]
    files = sorted(set(data.get("files") or []) | set(catalog.own_files(commit["files_changed"])))
    text = _replace_block(text, "source_commits", _dump({"source_commits": [*commits, source]}))
    return _replace_block(text, "files", _dump({"files": files}))


def _replace_block(text: str, key: str, block: str) -> str:
    """Replace the top-level ``key:`` block of a YAML text (or append it), keeping other lines."""
    lines = text.splitlines(keepends=True)
    start = next((i for i, line in enumerate(lines) if line.startswith(f"{key}:")), None)
    if start is None:
        return text + ("" if not text or text.endswith("\n") else "\n") + block
    end = start + 1
    while end < len(lines) and (not lines[end].strip() or lines[end][0] in " -\t"):
        end += 1
    while end > start + 1 and not lines[end - 1].strip():  # keep blank lines that separate blocks
        end -= 1
    return "".join(lines[:start]) + block + "".join(lines[end:])
