"""`orkestra skills audit|evaluate|ingest|vendor`: the skills trust review."""

from __future__ import annotations

from typing import Annotated

import typer

from orkestra.cli.options import DryRunOption, Format, FormatOption, RepoOption, group, pick_format
from orkestra.cli.output import emit_json, emit_lines, emit_table, run, show_record

vendor_app = group("Vendor skill roots declared in registries/metadata.yaml.")


def mount(app: typer.Typer) -> None:
    """Register the trust-review commands on the ``skills`` group."""
    app.command("audit")(audit)
    app.command("evaluate")(evaluate)
    app.command("ingest")(ingest)
    app.add_typer(vendor_app, name="vendor")


def audit(
    paths: Annotated[
        list[str] | None,
        typer.Argument(metavar="PATH...", help="Skill folders, SKILL.md files or trees of skills."),
    ] = None,
    all_skills: Annotated[
        bool, typer.Option("--all", help="Audit every skill of the workspace (internal and vendor).")
    ] = False,
    repo: RepoOption = None,
    fmt: FormatOption = None,
) -> None:
    """Trust review: prompt injection, script audit, spec conformance.

    Exit 1 on any high finding. JSON: {"summary": {"skills", "flagged", "findings": {high, medium, low, info}},
    "skills": [{"name", "path", "summary", "findings": [{"rule", "severity", "file", "line", "excerpt", "message"}]}]}

    \b
    Example:
      orkestra skills audit vendor/aws-agent-skills/s3-sync
      orkestra skills audit --all --format table
    """

    def action() -> int:
        from orkestra.trust import api

        report = api.audit(paths or [], all_skills, repo)
        chosen = pick_format(fmt, Format.table)
        rows = [
            [a.name, f.severity, f.rule, f"{f.file}:{f.line}", f.message]
            for a in report.audits
            for f in a.findings
            if f.severity != "info"
        ]
        if chosen is Format.text:
            emit_lines(["\t".join(map(str, row)) for row in rows])
        elif chosen is Format.table:
            emit_table(
                f"audit: {sum(a.flagged for a in report.audits)} of {len(report.audits)} skills flagged",
                ("skill", "severity", "rule", "where", "message"),
                rows,
            )
        else:
            emit_json(report.to_dict())
        return 1 if report.flagged else 0

    run(action)


def evaluate(
    path: Annotated[
        str, typer.Argument(metavar="PATH", help="The candidate skill folder (or its SKILL.md).")
    ],
    repo: RepoOption = None,
    fmt: FormatOption = None,
) -> None:
    """Adoption rubric and depth (1-5) for a candidate skill.

    Criteria: fills_real_gap, well_structured, actively_maintained, portable, tested. JSON: {"name", "path", "adopt", "criteria": {<criterion>: {"pass": true|false|null, "reasons",
    "similar"?}}, "depth": {"level", "signals"}}

    \b
    Example:
      orkestra skills evaluate vendor/aws-agent-skills/s3-sync | jq '.depth.level'
    """

    def action() -> None:
        from orkestra.trust import api

        show_record(api.evaluate(path, repo).to_dict(), fmt, f"evaluate {path}")

    run(action)


def ingest(
    path: Annotated[
        str, typer.Argument(metavar="PATH", help="The candidate skill folder (or its SKILL.md).")
    ],
    tier: Annotated[str, typer.Option("--tier", help="Knowledge tier K0..K4 (sets the semantic folder).")],
    scope: Annotated[
        str, typer.Option("--scope", help="Scope the skill registers under (must exist in scopes.yaml).")
    ],
    provider: Annotated[
        str | None, typer.Option("--provider", help="Vendor name: marks the skill source: vendor.")
    ] = None,
    accept_risk: Annotated[
        bool, typer.Option("--accept-risk", help="Ingest even with high audit findings.")
    ] = False,
    dry_run: DryRunOption = False,
    repo: RepoOption = None,
    fmt: FormatOption = None,
) -> None:
    """Copy a vetted skill into the registries, normalised.

    It lands in registries/skills/<folder>/<name>/. Exit 1 when the audit refuses it. JSON: {"status": "written"|"dry-run"|"refused", "similar": [...], "name", "ref", "target", "audit",
    "depth", "metadata", "frontmatter", "scope": {"name", "dormant"}, "sections_added", "files",
    "not_copied", "unmapped_tools", "warnings", "next_steps"}

    \b
    Example:
      orkestra skills ingest ~/candidates/genome-qc --tier K3 --scope bioinformatics --provider kdense --dry-run
    """

    def action() -> int:
        from orkestra.trust import api

        result = api.ingest(path, tier, scope, provider, accept_risk=accept_risk, dry_run=dry_run, root=repo)
        show_record(result.to_dict(), fmt, f"ingest {path}")
        return 1 if result.refused else 0

    run(action)


@vendor_app.command("list")
def vendor_list(repo: RepoOption = None, fmt: FormatOption = None) -> None:
    """Vendor roots and their skills with audit summaries.

    JSON: {"roots": [{"provider", "path", "exists", "skills": [{"name", "ref", "description",
    "audit": {"flagged", "high", "medium", "low", "info"}}]}]}

    \b
    Example:
      orkestra skills vendor list | jq '.roots[].skills[] | select(.audit.flagged)'
    """

    def action() -> None:
        from orkestra.trust import api

        roots = api.vendor_roots(repo)
        if pick_format(fmt, Format.table) is not Format.json:
            emit_table(
                "vendor skills",
                ("provider", "skill", "ref", "flagged", "high", "medium"),
                [
                    [r.provider, s.name, s.ref, s.audit["flagged"], s.audit["high"], s.audit["medium"]]
                    for r in roots
                    for s in r.skills
                ],
            )
        else:
            emit_json({"roots": [r.to_dict() for r in roots]})

    run(action)
