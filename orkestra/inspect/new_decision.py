"""`decisions new`: the next free id for a domain and a skeleton record to fill in."""

from __future__ import annotations

import datetime as _dt
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from orkestra.workspace import Workspace

SKELETON = """\
# Decision record skeleton written by `orkestra decisions new`; fill it in, then run `orkestra validate`.
id: {id}
title: 'TODO: the decision in one line'
domain: {domain}
status: proposed
created: '{created}'
summary: |
  TODO: what was decided, in two or three sentences.
context: |
  TODO: the forces that made this decision necessary.
rationale: []
impact: {{positive: [], negative: []}}
agent_guidance: {{do: [], avoid: []}}
source_commits: []
files: []
related: []
"""


def decision_skeleton(decision_id: str, domain: str, created: _dt.date) -> str:
    """The YAML text of a new, still-proposed decision record."""
    return SKELETON.format(id=decision_id, domain=domain, created=created.isoformat())


def create_decision(
    ws: Workspace, domain: str, dry_run: bool, today: _dt.date | None = None
) -> dict[str, Any]:
    """Pick the next free id in ``domain`` (name or code); unless ``dry_run``, write its skeleton record."""
    from orkestra.mining.decisions import next_decision_id

    decision_id = next_decision_id(ws, domain)  # NotFoundError for an unknown domain
    code = decision_id.split("-")[1]
    domain = next(name for name, entry in ws.decision_registry.domains.items() if entry.code == code)
    rel = f"{ws.config.paths.decisions}/records/{decision_id}.yaml"
    if not dry_run:  # the next free id under propose_decision's lock: concurrent runs never share one
        from orkestra.why.propose import claim_next_id

        created = today or _dt.date.today()
        decision_id, rel = claim_next_id(
            ws, domain, lambda new_id: decision_skeleton(new_id, domain, created), _create_guarded(ws.root)
        )
    return {"id": decision_id, "domain": domain, "path": rel, "written": not dry_run}


def _create_guarded(root):
    """A writer that creates a record only if it is absent, through no symlinked folder or link."""
    from orkestra.fs.guard import SafeTree

    def create(target, text: str) -> bool:
        rel = target.relative_to(root).as_posix()
        with SafeTree(root) as tree:
            if tree.exists(rel):
                return False
            tree.write(rel, text.encode("utf-8"))
        return True

    return create
