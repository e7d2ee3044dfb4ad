"""One function per inspection command: find the workspace, open the catalog, answer.

The catalog comes from the load cache when no watched path changed (a few ms, no pydantic
import), otherwise from a fresh ``Workspace.load`` whose result is cached for next time.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from orkestra.inspect import views
from orkestra.inspect.cache import SectionCache
from orkestra.workspace.root import find_root

CACHE_NAME = "catalog"
RootArg = str | Path | None  # None: the nearest ancestor of the cwd holding orkestra.yaml


def open_sections(root: RootArg, names: Iterable[str], strict: bool = True) -> dict[str, Any]:
    """The named catalog sections, from the cache when it is fresh.

    ``strict``: raise LoadErrors when a registry file failed to load, rather than answer from
    a workspace with entries silently missing.
    """
    root, names = find_root(root, must_exist=True), [*names, "load_errors"]
    cache = SectionCache(root, CACHE_NAME)
    sections = cache.read(names)
    if sections is None:
        sections = {name: section for name, section in _rebuild(root, cache).items() if name in names}
    if strict and sections.get("load_errors"):
        from orkestra.errors import LoadErrors  # difflib; only on the error path

        raise LoadErrors(sections["load_errors"])
    return sections


def section(root: RootArg, name: str) -> Any:
    """One catalog section (``open_sections`` for a single name)."""
    return open_sections(root, (name,))[name]


def _rebuild(root: Path, cache: SectionCache) -> dict[str, Any]:
    from orkestra.inspect.catalog import build_catalog
    from orkestra.inspect.watch import catalog_watch
    from orkestra.workspace import Workspace

    started = cache.start()
    ws = Workspace.load(root)
    catalog = build_catalog(ws)
    cache.write(catalog, catalog_watch(ws, cache.relative_folder), started)
    return catalog


# --- level 1 --------------------------------------------------------------------------------


def system_status(root: RootArg) -> dict[str, Any]:
    from orkestra.inspect.index_health import index_health

    root = find_root(root, must_exist=True)
    sections = open_sections(root, ("status", "health"), strict=False)
    report = views.status_report(sections["status"], sections["health"], index_health(root))
    if sections.get("load_errors"):
        report["load_errors"] = sections["load_errors"]
    return report


# --- agents and skills ----------------------------------------------------------------------


def list_agents(
    root: RootArg, category: str | None = None, model: str | None = None, scope: str | None = None
) -> dict[str, Any]:
    return views.agent_rows(section(root, "agent_rows"), category, model, scope)


def agent_info(root: RootArg, name: str) -> dict[str, Any]:
    return views.record(section(root, "agents"), "agent", name, "name")


def search_agents(root: RootArg, query: str, limit: int | None = None) -> dict[str, Any]:
    from orkestra.inspect import finder

    return finder.search_kind(section(root, "agents"), "agent", query, limit)


def list_skills(
    root: RootArg,
    tier: str | None = None,
    type: str | None = None,
    scope: str | None = None,
    source: str | None = None,
) -> dict[str, Any]:
    return views.skill_rows(section(root, "skills"), tier, type, scope, source)


def skill_info(root: RootArg, name: str) -> dict[str, Any]:
    skills = section(root, "skills")
    by_ref = {s["ref"].lower(): s for s in skills}
    return by_ref.get(name.lower()) or views.record(skills, "skill", name, "name")


def search_skills(root: RootArg, query: str, limit: int | None = None) -> dict[str, Any]:
    from orkestra.inspect import finder

    return finder.search_kind(section(root, "skills"), "skill", query, limit)


# --- decisions and truths -------------------------------------------------------------------


def list_decisions(
    root: RootArg, limit: int | None = None, domain: str | None = None, status: str | None = None
) -> dict[str, Any]:
    return views.decision_rows(section(root, "decisions"), limit, domain, status)


def decision_info(root: RootArg, decision_id: str) -> dict[str, Any]:
    return views.record(section(root, "decisions"), "decision", decision_id, "id")


def search_decisions(root: RootArg, query: str, limit: int | None = None) -> dict[str, Any]:
    from orkestra.inspect import finder

    return finder.search_kind(section(root, "decisions"), "decision", query, limit)


def new_decision(root: RootArg, domain: str, dry_run: bool) -> dict[str, Any]:
    from orkestra.inspect.new_decision import create_decision
    from orkestra.workspace import Workspace

    return create_decision(Workspace.load(find_root(root, must_exist=True)), domain, dry_run)


def list_truths(
    root: RootArg, status: str | None = None, tag: str | None = None, scope: str | None = None
) -> dict[str, Any]:
    return views.truth_rows(section(root, "truths"), status, tag, scope)


def truth_info(root: RootArg, truth_id: str) -> dict[str, Any]:
    return views.record(section(root, "truths"), "truth", truth_id, "id")


def search_truths(
    root: RootArg, query: str | None, tag: str | None = None, limit: int | None = None
) -> dict[str, Any]:
    from orkestra.inspect import finder

    return finder.search_truths(section(root, "truths"), query, tag, limit)


# --- unified search -------------------------------------------------------------------------


def search(
    root: RootArg,
    query: str,
    kinds: Iterable[str] | None = None,
    limit: int | None = None,
    summary: bool = False,
) -> dict[str, Any]:
    """Search agents, skills, decisions, truths and packages at once."""
    from orkestra.inspect import finder

    wanted = list(kinds or finder.SECTION)
    sections = open_sections(root, (finder.SECTION[kind][0] for kind in wanted))
    return finder.search_all(finder.build_index(sections, wanted), query, wanted, limit, summary)
