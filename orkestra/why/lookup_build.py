"""The guidance hook's lookup table built from a loaded workspace at sync time (its shape, name and
reading: ``orkestra.why.lookup``)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from orkestra.why.lookup import LOOKUP_VERSION

if TYPE_CHECKING:
    from orkestra.workspace.load import Workspace
    from orkestra.workspace.models import AgentGuidance

MAX_GUIDANCE = 3  # do/avoid lines kept per record
MAX_TITLE = 200


def _entry_path(entry: str, package_dir: str = "") -> str:
    path = entry.split("::", 1)[0].strip().replace("\\", "/")
    if not path or "://" in path or path.startswith("/") or ".." in path.split("/"):
        return ""  # URLs, and paths leaving the repository, cover nothing in it
    if package_dir and package_dir not in (".", ""):
        path = f"{package_dir.rstrip('/')}/{path}"
    return path


def _short(text: str) -> str:
    text = " ".join((text or "").split())
    return text if len(text) <= MAX_TITLE else text[: MAX_TITLE - 1] + "…"


def _record(kind: str, status: str, title: str, guidance: AgentGuidance) -> dict:
    return {
        "kind": kind,
        "status": status,
        "title": _short(title),
        "do": list(guidance.do[:MAX_GUIDANCE]),
        "avoid": list(guidance.avoid[:MAX_GUIDANCE]),
    }


def build_lookup(ws: Workspace) -> dict:
    """The lookup table of ``ws`` (pure but for ``is_dir`` checks on folder-like entries)."""
    files: dict[str, set[str]] = {}
    folders: dict[str, set[str]] = {}
    records: dict[str, dict] = {}

    def add(entry: str, key: str) -> None:
        if not entry:
            return
        if entry.endswith("/") or (ws.root / entry).is_dir():
            folders.setdefault(entry.rstrip("/"), set()).add(key)
        else:
            files.setdefault(entry, set()).add(key)

    for decision in ws.decisions.values():
        if decision.status != "active":
            continue
        records[decision.id] = _record("decision", decision.status, decision.title, decision.agent_guidance)
        for rel in decision.files:
            add(_entry_path(rel), decision.id)
    for registry, truth in ws.all_truths():
        if truth.status != "current":
            continue
        records[truth.id] = _record("truth", truth.status, truth.statement, truth.agent_guidance)
        for evidence in truth.evidence:
            add(_entry_path(evidence, registry.package_dir), truth.id)
    return {
        "version": LOOKUP_VERSION,
        "files": {k: sorted(v) for k, v in sorted(files.items())},
        "folders": {k: sorted(v) for k, v in sorted(folders.items())},
        "records": dict(sorted(records.items())),
    }


def lookup_text(ws: Workspace) -> str:
    return json.dumps(build_lookup(ws), indent=1, ensure_ascii=False, sort_keys=False) + "\n"
