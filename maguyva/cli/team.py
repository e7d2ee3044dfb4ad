"""``maguyva repos`` and ``maguyva keys create|list|revoke``: the team server on a PostgreSQL store.

A team store is a PostgreSQL URL (``--store`` or $MAGUYVA_STORE); ``--workspace`` overrides the
URL's ``workspace=`` parameter.
"""

from __future__ import annotations

from typing import Annotated

import typer

from maguyva.cli.options import AliasedCommand, FormatOption
from maguyva.cli.output import emit_table, plain, run, show, show_report

TeamStoreOption = Annotated[
    str | None,
    typer.Option(
        "--store",
        help="Team store: postgresql://…?workspace=W (default: $MAGUYVA_STORE, maguyva.store in orkestra.yaml).",
    ),
]
WorkspaceOption = Annotated[str | None, typer.Option("--workspace", help="Workspace (default: the URL's).")]
KEY_COLUMNS = ("id", "workspace", "name", "created_at", "revoked_at")

keys = typer.Typer(
    help="API keys for a PostgreSQL team store (stored hashed).", no_args_is_help=True, rich_markup_mode=None
)


def repos(store: TeamStoreOption = None, workspace: WorkspaceOption = None, fmt: FormatOption = None) -> None:
    """List a team workspace's repositories and snapshots.

    \b
    Example:
      maguyva repos --store "$MAGUYVA_STORE" --format table
    """

    def action() -> None:
        from maguyva.server.auth import team_store
        from maguyva.workspace import workspace_status

        status = workspace_status(team_store(".", store, workspace))
        show_report(
            status,
            fmt,
            lambda: emit_table(
                f"workspace {status['workspace']}",
                ("repo", "commit", "indexed at"),
                [
                    [r["repo"], (r["snapshot"] or {}).get("commit"), (r["snapshot"] or {}).get("created_at")]
                    for r in status["repositories"]
                ],
            ),
        )

    run(action)


@keys.command("create", cls=AliasedCommand)
def create(
    name: Annotated[str, typer.Argument(help="Who or what the key is for (e.g. ci, alice-laptop).")],
    store: TeamStoreOption = None,
    workspace: WorkspaceOption = None,
    fmt: FormatOption = None,
) -> None:
    """Create a key; the token is printed once, only its hash kept.

    \b
    Example:
      maguyva keys create ci --store postgresql://maguyva@db/maguyva --workspace acme --format json | jq -r .token
    """

    def action() -> None:
        from maguyva.server.auth import create_key, team_store

        show(create_key(team_store(".", store, workspace), name), fmt)

    run(action)


@keys.command("list", cls=AliasedCommand)
def list_(store: TeamStoreOption = None, workspace: WorkspaceOption = None, fmt: FormatOption = None) -> None:
    """List a workspace's keys, oldest first (no secrets).

    \b
    Example:
      maguyva keys list --workspace acme --format table
    """

    def action() -> None:
        from maguyva.server.auth import list_keys, team_store

        location = team_store(".", store, workspace)
        found = {"workspace": location.workspace, "keys": [plain(k) for k in list_keys(location)]}
        show(found, fmt, rows="keys", columns=KEY_COLUMNS, title=f"API keys of {location.workspace}")

    run(action)


@keys.command("revoke", cls=AliasedCommand)
def revoke(
    key_id: Annotated[str, typer.Argument(metavar="ID", help="The key's id (from `keys list`).")],
    store: TeamStoreOption = None,
    workspace: WorkspaceOption = None,
    fmt: FormatOption = None,
) -> None:
    """Revoke a key: the server refuses it from the next request.

    Requests with it get 401.

    Exit 1 for an unknown id (with the closest ids as a hint).

    \b
    Example:
      maguyva keys revoke 3f2a9c1b7d4e --workspace acme
    """

    def action() -> None:
        from maguyva.server.auth import revoke_key, team_store

        show(revoke_key(team_store(".", store, workspace), key_id), fmt)

    run(action)
