"""`orkestra mcp …`: wiring MCP clients to the bundled Maguyva server."""

from __future__ import annotations

import typer

app = typer.Typer(help="MCP client configuration for the Maguyva server.", no_args_is_help=True)


@app.command("config")
def config(
    client: str = typer.Option(..., "--client", help="claude | cursor | codex | vscode | windsurf"),
    url: str = typer.Option(None, "--url", help="A team server's streamable-HTTP URL (…/mcp) instead of stdio."),
    key_env: str = typer.Option("MAGUYVA_API_KEY", "--key-env", help="Env var holding the bearer token (HTTP)."),
    repo: str = typer.Option(None, "--repo", help="Absolute repository path for stdio (default: the client's "
                                                  "project-dir variable; required for codex and windsurf)."),
    as_json: bool = typer.Option(False, "--json", help="Print {client, path, format, text} as JSON."),
    server: str = typer.Option("maguyva", "--server", help="maguyva (code) or orkestra (registries and why)."),
) -> None:
    """Print the MCP configuration a client needs to reach Maguyva.

    Example: orkestra mcp config --client cursor > .cursor/mcp.json
    Example: orkestra mcp config --client claude --server orkestra
    Example: orkestra mcp config --client codex --url https://maguyva.example/mcp >> ~/.codex/config.toml
    """
    import os
    import sys

    from orkestra.cli.output import emit_json, fail
    import dataclasses

    from orkestra.mcp_config import BUNDLED_SERVERS, CLIENTS, client_config

    if client not in CLIENTS:
        fail(f"unknown client {client!r} (choose one of {', '.join(CLIENTS)})", 2)
    if server not in BUNDLED_SERVERS:
        fail(f"unknown server {server!r} (choose one of {', '.join(BUNDLED_SERVERS)})", 2)
    if not url and not repo and client in ("codex", "windsurf"):
        repo = os.getcwd()  # these clients have no project-dir variable: pin the current repository
    spec = dataclasses.replace(BUNDLED_SERVERS[server], url=url, key_env=key_env, repo=repo)
    result = client_config(client, spec)
    if as_json:
        emit_json({"client": result.client, "path": result.path, "format": result.format, "text": result.text})
    else:
        sys.stdout.write(result.text)
