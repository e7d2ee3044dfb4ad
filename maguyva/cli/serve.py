"""``maguyva serve``: the Maguyva MCP server over stdio or streamable HTTP."""

from __future__ import annotations

from typing import Annotated

import typer

from maguyva.cli.options import RepoOption, SessionIdleTimeout, StoreOption
from maguyva.cli.output import run


def serve(
    repo: RepoOption = ".",
    store: StoreOption = None,
    http: Annotated[bool, typer.Option("--http", help="Streamable HTTP at /mcp instead of stdio.")] = False,
    host: Annotated[str, typer.Option("--host", help="Bind address (loopback by default).")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="HTTP port.")] = 8765,
    no_auth: Annotated[
        bool, typer.Option("--no-auth", help="Serve a non-loopback --host without a key (warns on start).")
    ] = False,
    session_idle_timeout: SessionIdleTimeout = 1800,
) -> None:
    """Run the MCP server (stdio, or HTTP with --http).

    Over HTTP a SQLite index binds 127.0.0.1 by default. With $MAGUYVA_API_KEY set every request
    needs 'Authorization: Bearer <key>'. Any other --host needs that key, or --no-auth (which
    warns on start); otherwise it exits 2. A PostgreSQL team store always needs workspace keys.
    Without a key, a request whose Host or Origin names another site is refused (DNS rebinding).

    \b
    Example:
      maguyva serve --http --port 8765   (clients connect to http://127.0.0.1:8765/mcp)
    """

    def action() -> None:
        import os
        import sys

        from maguyva.server.app import serve as serve_repo
        from maguyva.server.auth import KEY_ENV

        serve_repo(
            repo,
            store,
            http=http,
            host=host,
            port=port,
            key=os.environ.get(KEY_ENV),
            no_auth=no_auth,
            warn=lambda message: print(message, file=sys.stderr, flush=True),
            session_idle_timeout=session_idle_timeout,
        )

    run(action)
