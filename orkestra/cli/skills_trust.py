"""`orkestra skills audit|evaluate|ingest|vendor`: the skills trust review."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from orkestra.cli.output import Format, emit_json, emit_table, run

RootOption = Annotated[
    Optional[str],
    typer.Option(
        "--root", help="Workspace root (default: nearest directory upwards from the cwd with orkestra.yaml)."
    ),
]
FormatOption = Annotated[
    Format, typer.Option("--format", help="json (default, for tools) or table (for people).")
]

vendor_app = typer.Typer(
    help="Vendor skill roots declared in registries/metadata.yaml.",
    no_args_is_help=True,
    rich_markup_mode=None,
)


def mount(app: typer.Typer) -> None:
    """Register the trust-review commands on the ``skills`` group."""
    app.command("audit")(audit)
    app.command("evaluate")(evaluate)
    app.command("ingest")(ingest)
    app.add_typer(vendor_app, name="vendor")


def audit(
    paths: Annotated[
        Optional[list[str]],
        typer.Argument(metavar="PATH...", help="Skill folders, SKILL.md files or trees of skills."),
    ] = None,
    all_skills: Annotated[
        bool, typer.Option("--all", help="Audit every skill of the workspace (internal and vendor).")
    ] = False,
    as_json: Annotated[
        bool, typer.Option("--json", help="JSON output (the default; kept for scripts).")
    ] = False,
    root: RootOption = None,
    fmt: FormatOption = Format.json,
) -> None:
    """Trust review: prompt-injection scan, script audit and spec conformance. Exit 1 on any high finding.

    JSON: {"summary": {"skills", "flagged", "findings": {high, medium, low, info}},
    "skills": [{"name", "path", "summary", "findings": [{"rule", "severity", "file", "line", "excerpt", "message"}]}]}

    \b
    Example:
      orkestra skills audit vendor/aws-agent-skills/s3-sync
      orkestra skills audit --all --format table
    """

    def action() -> int:
        from orkestra.skills import api

        report = api.audit(paths or [], all_skills, root)
        if fmt is Format.table and not as_json:
            rows = [
                [a.name, f.severity, f.rule, f"{f.file}:{f.line}", f.message]
                for a in report.audits
                for f in a.findings
                if f.severity != "info"
            ]
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
    root: RootOption = None,
) -> None:
    """Adoption rubric (fills_real_gap, well_structured, actively_maintained, portable, tested) and depth 1-5.

    JSON: {"name", "path", "adopt", "criteria": {<criterion>: {"pass": true|false|null, "reasons",
    "similar"?}}, "depth": {"level", "signals"}}

    \b
    Example:
      orkestra skills evaluate vendor/aws-agent-skills/s3-sync | jq '.depth.level'
    """

    def action() -> None:
        from orkestra.skills import api

        emit_json(api.evaluate(path, root).to_dict())

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
        Optional[str], typer.Option("--provider", help="Vendor name: marks the skill source: vendor.")
    ] = None,
    accept_risk: Annotated[
        bool, typer.Option("--accept-risk", help="Ingest even with high audit findings.")
    ] = False,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Show the plan; write nothing.")] = False,
    root: RootOption = None,
) -> None:
    """Normalise a vetted skill into registries/skills/<folder>/<name>/. Exit 1 when the audit refuses it.

    JSON: {"status": "written"|"dry-run"|"refused", "similar": [...], "name", "ref", "target", "audit",
    "depth", "metadata", "frontmatter", "scope": {"name", "dormant"}, "sections_added", "files",
    "not_copied", "unmapped_tools", "warnings", "next_steps"}

    \b
    Example:
      orkestra skills ingest ~/candidates/genome-qc --tier K3 --scope bioinformatics --provider kdense --dry-run
    """

    def action() -> int:
        from orkestra.skills import api

        result = api.ingest(path, tier, scope, provider, accept_risk=accept_risk, dry_run=dry_run, root=root)
        emit_json(result.to_dict())
        return 1 if result.refused else 0

    run(action)


@vendor_app.command("list")
def vendor_list(root: RootOption = None, fmt: FormatOption = Format.json) -> None:
    """Vendor roots and their skills with audit summaries.

    JSON: {"roots": [{"provider", "path", "exists", "skills": [{"name", "ref", "description",
    "audit": {"flagged", "high", "medium", "low", "info"}}]}]}

    \b
    Example:
      orkestra skills vendor list | jq '.roots[].skills[] | select(.audit.flagged)'
    """

    def action() -> None:
        from orkestra.skills import api

        roots = api.vendor_roots(root)
        if fmt is Format.table:
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
