"""`orkestra skills …`: inspection (list/info/search) plus the trust review (audit/evaluate/ingest/vendor).

Inspection commands live here; the trust-review commands live in ``skills_trust.py`` and are
mounted below, so each module stays small.
"""

from __future__ import annotations

import typer

from orkestra.cli import skills_trust

app = typer.Typer(help="Skills: list, inspect, search, audit, evaluate and ingest.", no_args_is_help=True)
skills_trust.mount(app)
