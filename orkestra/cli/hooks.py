"""`orkestra hooks` commands: record agent hook events into the local telemetry store."""

from __future__ import annotations

import typer

from orkestra.cli.options import group

app = group("Record Claude Code and Codex hook events (telemetry).")

STORE_DIR = typer.Option(None, "--store-dir", help="Store directory (default .orkestra/telemetry).")
OTLP = typer.Option(None, "--otlp-endpoint", help="Also export to this OTLP/HTTP collector.")
LOKI = typer.Option(None, "--loki-endpoint", help="Also push to this Loki (credential from the environment).")


def _options(
    store_dir: str | None, otlp_endpoint: str | None, loki_endpoint: str | None, **extra: str
) -> dict[str, str]:
    given = {
        "store_dir": store_dir,
        "otlp_endpoint": otlp_endpoint,
        "loki_endpoint": loki_endpoint,
        "loki_flush": "detach",
        **extra,
    }
    return {key: value for key, value in given.items() if value}


@app.command("handle")
def handle(
    store_dir: str | None = STORE_DIR,
    otlp_endpoint: str | None = OTLP,
    loki_endpoint: str | None = LOKI,
    agent_tool: str = typer.Option(
        "claude-code", "--agent-tool", help="claude-code or codex-cli (Codex hooks)."
    ),
) -> None:
    """Record the hook event read from stdin (always exits 0).

    Prints nothing on stdout.

    `.claude/settings.json` runs the faster twin `orkestra-hook`; this is the same handler.

    Example: echo '{"hook_event_name":"Stop","session_id":"s1","cwd":"."}' | orkestra hooks handle
    """
    from orkestra.telemetry.hook import read_stdin, record_safely

    record_safely(read_stdin(), **_options(store_dir, otlp_endpoint, loki_endpoint, agent_tool=agent_tool))


@app.command("codex-notify")
def codex_notify(
    payload: str = typer.Argument("", help="The JSON string Codex appends to its notify command."),
    store_dir: str | None = STORE_DIR,
    otlp_endpoint: str | None = OTLP,
    loki_endpoint: str | None = LOKI,
) -> None:
    """Record a Codex `notify` payload (always exits 0).

    The payload is Codex's agent-turn-complete JSON.

    Codex config: notify = ["orkestra-hook", "codex-notify"]

    Example: orkestra hooks codex-notify '{"type":"agent-turn-complete","thread-id":"t1","cwd":"."}'
    """
    from orkestra.telemetry.hook import record_safely

    record_safely(payload, **_options(store_dir, otlp_endpoint, loki_endpoint, agent_tool="codex-cli"))
