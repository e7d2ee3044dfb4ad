"""The six client-facing tools of the ``orkestra`` MCP server: thin adapters over the library API.

Schemas stay within 1,200 tokens together (tested). Answers are bounded (``limit``, ``max_tokens``)
and cited: registry ids with the record file they come from, commit shas with dates. Errors the model
can fix (unknown id, bad path, unknown domain) are raised as tool errors, never returned as strings.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Field

MAX_RECORD_CHARS = 16_000
Kind = Literal["agent", "skill", "decision", "truth", "package"]
Items = Annotated[list[str] | None, Field(description="One item per entry.")]


@contextmanager
def fixable() -> Iterator[None]:
    from mcp.server.mcpserver.exceptions import ToolError

    from maguyva.errors import MaguyvaError
    from orkestra.errors import OrkestraError

    try:
        yield
    except (OrkestraError, MaguyvaError) as exc:
        raise ToolError(str(exc)) from exc


def _bounded_record(record: dict, kind: str) -> dict:
    """A registry record with its citation; long text fields are cut to keep the answer bounded."""
    record = {**record, "citation": f"{record.get('id')} ({record.get('path', '')})"}
    if len(json.dumps(record)) <= MAX_RECORD_CHARS:
        return record
    for key in ("context", "summary", "rationale", "statement", "notes"):
        if isinstance(record.get(key), str) and len(record[key]) > 2_000:
            record[key] = record[key][:2_000] + " …"
    return {**record, "truncated": True, "truncation_note": f"long fields cut; read the {kind} record file"}


def _one_line(text: str, limit: int = 140) -> str:
    line = " ".join((text or "").split())
    cut = line.find(". ")
    line = line[: cut + 1] if 0 < cut < limit else line
    return line if len(line) <= limit else line[: limit - 1] + "…"


MAX_CATALOG_CHARS = 32_000  # ~8,000 tokens


def _bounded_catalog(agents: list[dict], skills: list[dict]) -> dict[str, Any]:
    """Agents, then skills, until the answer would pass ~8,000 tokens; the rest is counted, not listed."""
    answer: dict[str, Any] = {
        "agents": [],
        "skills": [],
        "agent_count": len(agents),
        "skill_count": len(skills),
    }
    used = 100
    for key, items in (("agents", agents), ("skills", skills)):
        for item in items:
            used += len(item["name"]) + len(item["description"]) + 40
            if used > MAX_CATALOG_CHARS:
                shown = len(answer["agents"]) + len(answer["skills"])
                answer |= {
                    "truncated": True,
                    "truncation_note": f"{len(agents) + len(skills) - shown} more; "
                    "find them with search_registry",
                }
                return answer
            answer[key].append(item)
    return answer


def register(server: Any, root: Path | Callable[[], Path], *, read_only: bool = False) -> None:
    """Attach the six tools to ``server`` (five when ``read_only``), answering for the workspace at ``root``
    (or at what ``root()`` returns on each call: it raises, as a tool error, while there is none)."""
    from orkestra.inspect import api

    where = root if callable(root) else (lambda: root)

    @server.tool()
    def search_registry(
        query: Annotated[str, Field(description="Words, an id or a name.")],
        kinds: Annotated[list[Kind] | None, Field(description="Only these kinds.")] = None,
        limit: Annotated[int, Field(ge=1, le=50)] = 10,
    ) -> dict[str, Any]:
        """Ranked search over agents, skills, decisions, ground truths and packages."""
        with fixable():
            return api.search(where(), query, kinds, limit)

    @server.tool()
    def get_decision(decision_id: Annotated[str, Field(description="e.g. DEC-SR-001")]) -> dict[str, Any]:
        """A decision record: summary, rationale, do/avoid guidance, files, source commits."""
        with fixable():
            return _bounded_record(api.decision_info(where(), decision_id), "decision")

    @server.tool()
    def get_truth(truth_id: Annotated[str, Field(description="e.g. GT-ORK-014")]) -> dict[str, Any]:
        """A ground truth: statement, rationale, evidence, last_verified, do/avoid guidance."""
        with fixable():
            return _bounded_record(api.truth_info(where(), truth_id), "truth")

    @server.tool()
    def why(
        target: Annotated[str, Field(description="path, path:line, path:start-end, path::Symbol or symbol.")],
        limit: Annotated[int, Field(ge=1, le=100)] = 20,
        max_tokens: Annotated[int, Field(ge=200, le=25_000)] = 4_000,
    ) -> dict[str, Any]:
        """Why code is like this: decisions, truths, changelog entries, and the commits and PRs that shaped it."""
        from orkestra.why.answer import why as answer

        with fixable():
            return answer(where(), target, limit=limit, max_tokens=max_tokens)

    @server.tool()
    def list_agents_skills() -> dict[str, Any]:
        """Every agent and skill with a one-line description."""
        with fixable():
            agents = api.list_agents(where())["agents"]
            skills = api.list_skills(where())["skills"]
        return _bounded_catalog(
            [{"name": a["name"], "description": _one_line(a["description"])} for a in agents],
            [{"name": s["name"], "description": _one_line(s["description"])} for s in skills],
        )

    if read_only:
        return

    @server.tool()
    def propose_decision(
        domain: Annotated[str, Field(description="Decision domain name or code.")],
        title: str,
        summary: str,
        context: str = "",
        rationale: Items = None,
        do: Items = None,
        avoid: Items = None,
        files: Annotated[list[str] | None, Field(description="Repo paths it governs.")] = None,
        commits: Annotated[list[str] | None, Field(description="Commit shas it came from.")] = None,
    ) -> dict[str, Any]:
        """Write a draft decision record (status proposed, for a person to review); returns its id and path."""
        from orkestra.why.propose import propose_decision as propose

        with fixable():
            return propose(
                where(),
                domain,
                title,
                summary,
                context=context,
                rationale=rationale,
                do=do,
                avoid=avoid,
                files=files,
                commits=commits,
            )
