"""`orkestra mcp …`: wiring MCP clients to the bundled Maguyva server."""

from __future__ import annotations

import typer

from orkestra.cli.options import Format, FormatOption, group

app = group("MCP client configuration for the Maguyva server.")


@app.command("config")
def config(
    client: str = typer.Option(..., "--client", help="claude | cursor | codex | vscode | windsurf"),
    url: str = typer.Option(
        None, "--url", help="A team server's streamable-HTTP URL (…/mcp) instead of stdio."
    ),
    key_env: str = typer.Option(
        "MAGUYVA_API_KEY", "--key-env", help="Env var holding the bearer token (HTTP)."
    ),
    repo: str = typer.Option(
        None,
        "--repo",
        help="Absolute repository path for stdio (default: the client's "
        "project-dir variable; required for codex and windsurf).",
    ),
    server: str = typer.Option(
        "maguyva", "--server", help="maguyva (code) or orkestra (registries and why)."
    ),
    launcher: str = typer.Option(
        "project",
        "--launcher",
        help="How the server starts without an activated venv: project (the project's .venv, "
        "then PATH), path (bare orkestra) or absolute (this Python; machine-specific). docs/mcp.md.",
    ),
    fmt: FormatOption = None,
) -> None:
    """Print the MCP configuration a client needs to reach Maguyva.

    Prints the client's own file text (also when piped); --format json prints {client, path,
    format, text}. An unknown --client or --server exits 2 with "did you mean ...".

    Example: orkestra mcp config --client cursor > .cursor/mcp.json
    Example: orkestra mcp config --client claude --server orkestra
    Example: orkestra mcp config --client codex --url https://maguyva.example/mcp >> ~/.codex/config.toml
    Example: orkestra mcp config --client claude --launcher absolute   (this machine only)
    """
    import os
    import sys

    from orkestra.cli.output import emit_json, fail
    from orkestra.errors import UsageError
    from orkestra.mcp_config import client_config, server_spec

    try:
        spec = server_spec(
            client, server, url=url, key_env=key_env, repo=repo, cwd=os.getcwd(), launcher=launcher
        )
    except UsageError as exc:
        fail(str(exc), exc.exit_code)
    result = client_config(client, spec)
    if fmt is Format.json:
        emit_json(
            {"client": result.client, "path": result.path, "format": result.format, "text": result.text}
        )
    else:
        sys.stdout.write(result.text)
