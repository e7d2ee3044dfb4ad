"""`orkestra code keys create|list|revoke` and `orkestra code repos`: the Maguyva team server.

A team store is a PostgreSQL URL (``--store`` or $MAGUYVA_STORE); ``--workspace`` overrides the
URL's ``workspace=`` parameter.
"""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from orkestra.cli.output import Format, emit_json, emit_table, run

StoreOption = Annotated[Optional[str], typer.Option(
    "--store", help="Team store: postgresql://…?workspace=W (default: $MAGUYVA_STORE, maguyva.store in orkestra.yaml).")]
WorkspaceOption = Annotated[Optional[str], typer.Option("--workspace", help="Workspace (default: the URL's).")]
FormatOption = Annotated[Format, typer.Option("--format", help="json (default, for tools) or table (for people).")]
_KEY_COLUMNS = ("id", "workspace", "name", "created_at", "revoked_at")


def mount(app: typer.Typer) -> None:
    """Register `keys` (create, list, revoke) and `repos` on the `code` group."""
    keys = typer.Typer(help="API keys for `code serve --http` on a PostgreSQL team store (stored hashed).",
                       no_args_is_help=True, rich_markup_mode=None)
    app.add_typer(keys, name="keys")

    @keys.command("create")
    def create(name: Annotated[str, typer.Argument(help="Who or what the key is for (e.g. ci, alice-laptop).")],
               store: StoreOption = None, workspace: WorkspaceOption = None) -> None:
        """Create a key for a workspace; the token is printed once and only its hash is stored.

        JSON: {"id", "workspace", "name", "created_at", "revoked_at": null, "token"}.

        \b
        Example:
          orkestra code keys create ci --store postgresql://maguyva@db/maguyva --workspace acme | jq -r .token
        """

        def action() -> None:
            from maguyva.server.auth import create_key, team_store

            emit_json(create_key(team_store(".", store, workspace), name))

        run(action)

    @keys.command("list")
    def list_(store: StoreOption = None, workspace: WorkspaceOption = None, fmt: FormatOption = Format.json) -> None:
        """List a workspace's keys, oldest first (secrets are never shown again).

        JSON: {"workspace", "keys": [{"id", "workspace", "name", "created_at", "revoked_at"}]}.

        \b
        Example:
          orkestra code keys list --workspace acme --format table
        """

        def action() -> None:
            from maguyva.server.auth import list_keys, team_store

            location = team_store(".", store, workspace)
            found = list_keys(location)
            if fmt is Format.table:
                emit_table(f"API keys of {location.workspace}", _KEY_COLUMNS,
                           [[getattr(k, c) for c in _KEY_COLUMNS] for k in found])
            else:
                emit_json({"workspace": location.workspace, "keys": found})

        run(action)

    @keys.command("revoke")
    def revoke(key_id: Annotated[str, typer.Argument(metavar="ID", help="The key's id (from `keys list`).")],
               store: StoreOption = None, workspace: WorkspaceOption = None) -> None:
        """Revoke a key: the server refuses it (401) from the next request on. Exit 1 for an unknown id.

        JSON: {"id", "workspace", "name", "created_at", "revoked_at"}.

        \b
        Example:
          orkestra code keys revoke 3f2a9c1b7d4e --workspace acme
        """

        def action() -> None:
            from maguyva.server.auth import revoke_key, team_store

            emit_json(revoke_key(team_store(".", store, workspace), key_id))

        run(action)

    @app.command("repos")
    def repos(store: StoreOption = None, workspace: WorkspaceOption = None, fmt: FormatOption = Format.json) -> None:
        """The repositories of a team workspace, each with the commit and time of its published snapshot.

        JSON: {"workspace", "repositories": [{"repo", "store", "snapshot": {"commit", "created_at", "dirty"},
        "languages": [{"language", "files", "symbols", "edges"}]}]}.

        \b
        Example:
          orkestra code repos --store "$MAGUYVA_STORE" --format table
        """

        def action() -> None:
            from maguyva.server.auth import team_store
            from maguyva.workspace import workspace_status

            status = workspace_status(team_store(".", store, workspace))
            if fmt is Format.table:
                emit_table(f"workspace {status['workspace']}", ("repo", "commit", "indexed at"),
                           [[r["repo"], (r["snapshot"] or {}).get("commit"), (r["snapshot"] or {}).get("created_at")]
                            for r in status["repositories"]])
            else:
                emit_json(status)

        run(action)
