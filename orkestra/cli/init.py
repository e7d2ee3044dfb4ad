"""`orkestra init`: scaffold a workspace from what the repository holds."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from orkestra.cli.options import Format, FormatOption, pick_format
from orkestra.cli.output import fail, run, show_record


def command(
    path: Annotated[str | None, typer.Argument(hidden=True, show_default=False)] = None,
    repo: Annotated[
        str | None,
        typer.Option(
            "--repo",
            metavar="PATH",
            show_default=False,
            help="Repository to scaffold (default: the current directory).",
        ),
    ] = None,
    minimal: Annotated[
        bool, typer.Option("--minimal", help="Only the bare scaffold: one orchestrator, one skill.")
    ] = False,
    telemetry: Annotated[
        bool, typer.Option("--telemetry", help="Turn the local telemetry hooks on (off by default).")
    ] = False,
    reference: Annotated[
        bool, typer.Option("--reference", help="Print the registry format reference and exit.")
    ] = False,
    fmt: FormatOption = None,
) -> None:
    """Create orkestra.yaml and starter registries (safe to re-run).

    Never overwrites a file; runs nothing from the repository. Reads the name, version and authors
    (pyproject.toml, setup.cfg, setup.py parsed, package.json, Cargo.toml, go.mod, __version__, git
    tags); the test, lint and build commands the repository states (CLAUDE.md, AGENTS.md,
    CONTRIBUTING, package.json scripts, Makefile, tox/nox, CI run steps); the framework, the source
    packages, hub files and entry points (the Maguyva index when there is one, else a scan); the
    languages and CI files. Writes the 27/11/10 persona primitives, an orchestrator and 4-6
    specialists told those commands and files, the five K0 foundation skills wired to scopes,
    ai_assets/ ground truths and decision domains, and the changelog ledgers. JSON:
    {"root", "created", "skipped", "gitignore_updated", "gitattributes_updated", "project", "agents",
    "telemetry", "next_steps", "warnings"}; the next steps also go to stderr, and so do the warnings
    of `orkestra doctor` (outputs git ignores, a server command a bare PATH cannot start).

    \b
    Example:
      orkestra init && orkestra validate && orkestra sync
      orkestra init --repo ../other-repo
      orkestra init --minimal
      orkestra init --reference | less
    """

    if path is not None and repo is not None and path != repo:
        fail(f"give the repository once: PATH {path!r} or --repo {repo!r}", 2)
    target = repo or path or "."

    def action() -> None:
        from orkestra.init import init_workspace, registry_reference

        if reference:
            sys.stdout.write(registry_reference())
            return
        result = init_workspace(target, minimal=minimal, telemetry=telemetry)
        from orkestra.doctor import warnings_for  # ignored outputs, server commands (orkestra doctor)

        warnings = warnings_for(Path(result.root), checks=("gitignore", "server"))
        record = result.to_dict()
        if pick_format(fmt, Format.text) is Format.json:  # people read them once, on stderr below
            record["warnings"] = [w.to_dict() for w in warnings]
        show_record(record, fmt, f"init {target}")
        print("Next steps:\n" + "\n".join(f"  {step}" for step in result.next_steps), file=sys.stderr)
        for warning in warnings:
            print(f"warning: {warning}", file=sys.stderr)

    run(action)
