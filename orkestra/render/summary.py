"""What ``orkestra sync`` prints, written once: the CLI (``orkestra.cli.sync``) prints a report's
lines with :func:`sync_lines`, and the fast entry (``orkestra.entry``), which answers an unchanged
tree before the CLI or the report types are imported, prints :func:`summary` of nothing done.

Standard library only, and nothing imported at all: the fast entry's start-up pays for it.
"""

from __future__ import annotations


def summary(
    planned: bool,
    *,
    changes: int = 0,
    conflicts: int = 0,
    written: int = 0,
    deleted: int = 0,
    manifest_written: bool = False,
) -> str:
    """The last line: for ``--check``/``--dry-run`` (``planned``) whether anything is pending, else
    what was written. The defaults are a sync that found nothing to do."""
    if planned:
        return (
            "in sync"
            if not (changes or conflicts)
            else f"{changes} change(s), {conflicts} conflict(s) pending"
        )
    line = f"wrote {written} file(s), deleted {deleted}"
    if manifest_written:
        return line + "; manifest updated"
    return line + "; already in sync" if not written and not deleted else line


def sync_lines(report, planned: bool) -> list[str]:
    """One line per change and conflict of ``report`` (an ``orkestra.render.sync.SyncReport``), then
    :func:`summary`."""
    plan = report.plan
    lines = [
        f"{c.action:<7} {c.path}  ({c.reason}{'; from ' + ', '.join(c.sources) if c.sources else ''})"
        for c in plan.changes
    ]
    lines += [f"conflict {c.path}  ({c.reason})" for c in plan.conflicts]
    if planned:
        lines.append(summary(True, changes=len(plan.changes), conflicts=len(plan.conflicts)))
    else:
        applied = report.applied
        lines.append(
            summary(
                False,
                written=len(applied.written),
                deleted=len(applied.deleted),
                manifest_written=applied.manifest_written,
            )
        )
    return lines
