"""`orkestra code lang-report`: the per-language quality gate (owned by the language work)."""

from __future__ import annotations

from typing import Annotated, List, Optional

import typer

from orkestra.cli.output import Format

FIXTURES = "tests/fixtures/languages"
MANIFEST = "tests/quality/lang_manifest.json"


def mount(app: typer.Typer) -> None:
    """Register the language-quality commands on the ``code`` group."""
    app.command("lang-report")(lang_report)


def lang_report(
    language: Annotated[Optional[List[str]], typer.Option(
        "--language", "-l", help="Score only this language (repeatable).")] = None,
    write_manifest: Annotated[bool, typer.Option(
        "--write-manifest", help="Record the scores as the new baseline in the manifest.")] = False,
    fixtures: Annotated[str, typer.Option(
        "--fixtures", help="Folder of <language>/{src,expected.yaml}.")] = FIXTURES,
    manifest: Annotated[str, typer.Option("--manifest", help="Manifest of recorded scores.")] = MANIFEST,
    fmt: Annotated[Format, typer.Option(
        "--format", help="json (default, for tools) or table (for people).")] = Format.json,
    as_json: Annotated[bool, typer.Option("--json", help="Same as --format json.")] = False,
) -> None:
    """Score extraction per language against hand-written fixtures: edge precision, recall, F1.

    GREEN needs P >= 0.95, R >= 0.99, F1 >= 0.97 over >= 20 expected edges; YELLOW F1 >= 0.80;
    else RED. Every mismatching edge is classified (FALSE_POSITIVE, MISSING, SCOPE_ERROR,
    TYPE_ERROR, METADATA_ERROR). Exits 1 when a language fell below its recorded manifest entry.

    JSON: {"fixtures", "manifest", "summary": {"languages", "green", "yellow", "red"},
    "regressions": [str], "manifest_written", "languages": [{"language", "status",
    "edges": {"expected", "found", "matched", "precision", "recall", "f1"}, "definitions": {…},
    "edges_by_kind", "mismatches": [{"category", "kind", "src", "dst", "expected_dst", "name",
    "detail"}], "definition_misses", "errors"}]}.

    \b
    Example:
      orkestra code lang-report --format table
      orkestra code lang-report --language rust | jq '.languages[0].mismatches'
      orkestra code lang-report --write-manifest
    """
    from orkestra.cli.output import emit_json, emit_table, run

    def action() -> int:
        from pathlib import Path

        from maguyva.quality import lang_report as build

        report = build(Path(fixtures), Path(manifest), language or (), write_manifest)
        if fmt is Format.table and not as_json:
            emit_table(f"language quality ({report.counts['GREEN']}/{len(report.languages)} GREEN)",
                       ("language", "status", "precision", "recall", "f1", "edges", "found", "mismatches"),
                       [[r.language, r.status, f"{r.edges.precision:.3f}", f"{r.edges.recall:.3f}",
                         f"{r.edges.f1:.3f}", r.edges.expected, r.edges.found, len(r.mismatches)]
                        for r in report.languages])
            for line in report.regressions:
                typer.echo(f"regression: {line}", err=True)
        else:
            emit_json(report)
        return 1 if report.regressions else 0

    run(action)
