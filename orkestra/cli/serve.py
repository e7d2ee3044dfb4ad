"""`orkestra serve`: the `orkestra` MCP server (registries and `why`) over stdio or streamable HTTP."""

from __future__ import annotations

from typing import Annotated

import typer

from maguyva.cli.options import SessionIdleTimeout
from orkestra.cli.options import RepoOption


def command(
    http: Annotated[bool, typer.Option("--http", help="Streamable HTTP at /mcp instead of stdio.")] = False,
    host: Annotated[str, typer.Option("--host", help="HTTP bind address.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="HTTP port.")] = 8766,
    read_only: Annotated[
        bool,
        typer.Option(
            "--read-only",
            help="No propose_decision: never write (required for --http on a non-loopback --host).",
        ),
    ] = False,
    session_idle_timeout: SessionIdleTimeout = 1800,
    repo: RepoOption = None,
) -> None:
    """Run the orkestra MCP server (stdio, or HTTP with --http).

    Tools: search_registry, get_decision, get_truth, why, list_agents_skills, propose_decision.
    Stdio by default; --http serves streamable HTTP at http://HOST:PORT/mcp, answering only
    requests whose Host (and Origin) name HOST (DNS rebinding).

    \b
    Example:
      orkestra serve --repo .
      orkestra serve --http --port 8766
      orkestra serve --http --host 0.0.0.0 --read-only
    """
    from orkestra.cli.output import run

    def action() -> int:
        from orkestra.server.app import serve

        serve(
            repo,
            http=http,
            host=host,
            port=port,
            read_only=read_only,
            session_idle_timeout=session_idle_timeout,
        )
        return 0

    run(action)
