"""MCP client configuration for the bundled servers (Maguyva; orkestra, see ``BUNDLED_SERVERS``), in each
client's own format (FORMATS §4).

Pure functions: they return the text a user pastes (or a file ``sync`` renders); nothing is written.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace

import tomli_w

CLIENTS = ("claude", "cursor", "codex", "vscode", "windsurf")
SERVER_NAME = "maguyva"
DEFAULT_KEY_ENV = "MAGUYVA_API_KEY"


@dataclass(frozen=True, slots=True)
class ServerSpec:
    """How a client reaches Maguyva: a local stdio command, or a URL with a bearer token from the env."""

    command: str = "orkestra"
    args: tuple[str, ...] = ("code", "serve")
    repo: str | None = None  # absolute path; None → the client's own project-dir variable
    url: str | None = None
    key_env: str = DEFAULT_KEY_ENV
    env: dict[str, str] = field(default_factory=dict)
    name: str = SERVER_NAME  # the key the client lists the server under
    repo_flag: str = "--repo"  # how the command is told the project directory
    launcher: str = "project"  # orkestra.launcher mode: project | path | absolute


# The bundled servers every client can be pointed at: Maguyva (code) and orkestra (registries, `why`).
BUNDLED_SERVERS: dict[str, ServerSpec] = {
    SERVER_NAME: ServerSpec(),
    "orkestra": ServerSpec(args=("serve",), name="orkestra", repo_flag="--root"),
}


@dataclass(frozen=True, slots=True)
class ClientConfig:
    client: str
    path: str  # where the client reads it
    text: str  # the file content (JSON or TOML)
    format: str  # "json" | "toml"


_PROJECT_VAR = {
    "claude": "${CLAUDE_PROJECT_DIR:-.}",
    "cursor": "${workspaceFolder}",
    "vscode": "${workspaceFolder}",
}
_PATHS = {
    "claude": ".mcp.json",
    "cursor": ".cursor/mcp.json",
    "vscode": ".vscode/mcp.json",
    "codex": "~/.codex/config.toml",
    "windsurf": "~/.codeium/windsurf/mcp_config.json",
}


def server_spec(
    client: str,
    server: str = SERVER_NAME,
    *,
    url: str | None = None,
    key_env: str = DEFAULT_KEY_ENV,
    repo: str | None = None,
    cwd: str | None = None,
    launcher: str = "project",
) -> ServerSpec:
    """The bundled ``server`` as ``client`` should launch it. Clients without a project-dir variable
    (codex, windsurf) get the repository pinned: ``repo``, else ``cwd``. ``launcher``: how the command
    starts without an activated environment (``orkestra.launcher``). Raises ``UsageError`` (exit 2)
    with close matches for an unknown client, server or launcher."""
    from orkestra.errors import UsageError, did_you_mean
    from orkestra.launcher import MODES

    checks = (
        ("client", client, CLIENTS),
        ("server", server, tuple(BUNDLED_SERVERS)),
        ("launcher", launcher, MODES),
    )
    for kind, given, known in checks:
        if given not in known:
            close = did_you_mean(given, known)
            hint = f"did you mean {', '.join(repr(c) for c in close)}? " if close else ""
            raise UsageError(f"unknown {kind} {given!r} ({hint}choose one of {', '.join(known)})")
    if not url and not repo and client not in _PROJECT_VAR:
        repo = cwd  # no project-dir variable: pin the repository the command was run in
    return replace(BUNDLED_SERVERS[server], url=url, key_env=key_env, repo=repo, launcher=launcher)


def client_config(client: str, spec: ServerSpec) -> ClientConfig:
    """The configuration ``client`` needs to reach Maguyva as ``spec`` describes."""
    if client not in CLIENTS:
        raise ValueError(f"unknown client {client!r} (choose one of {', '.join(CLIENTS)})")
    if client == "codex":
        return ClientConfig(client, _PATHS[client], _codex_toml(spec), "toml")
    entry = _http_entry(client, spec) if spec.url else _stdio_entry(client, spec)
    wrapper: dict = {"servers" if client == "vscode" else "mcpServers": {spec.name: entry}}
    if client == "vscode" and spec.url:
        wrapper = {
            "inputs": [
                {
                    "type": "promptString",
                    "id": "maguyva-api-key",
                    "description": "Maguyva API key",
                    "password": True,
                }
            ],
            **wrapper,
        }
    return ClientConfig(client, _PATHS[client], json.dumps(wrapper, indent=2) + "\n", "json")


def _args(client: str, spec: ServerSpec) -> list[str]:
    repo = spec.repo or _PROJECT_VAR.get(client)
    return [*spec.args, spec.repo_flag, repo] if repo else list(spec.args)


def _launched(client: str, spec: ServerSpec, args: list[str]) -> tuple[str, list[str]]:
    """The command and args that start ``spec`` without an activated environment (orkestra.launcher)."""
    from orkestra.launcher import launch

    folder = spec.repo or _PROJECT_VAR.get(client) or "."
    return launch(spec.command, args, spec.launcher, project_dir=folder)


def _stdio_entry(client: str, spec: ServerSpec) -> dict:
    entry: dict = {}
    if client in ("claude", "vscode"):
        entry["type"] = "stdio"  # required there; an entry without it is read differently
    entry["command"], entry["args"] = _launched(client, spec, _args(client, spec))
    if spec.env:
        entry["env"] = dict(sorted(spec.env.items()))
    return entry


def _http_entry(client: str, spec: ServerSpec) -> dict:
    token = {
        "claude": f"${{{spec.key_env}}}",
        "cursor": f"${{env:{spec.key_env}}}",
        "windsurf": f"${{env:{spec.key_env}}}",
        "vscode": "${input:maguyva-api-key}",
    }[client]
    headers = {"Authorization": f"Bearer {token}"}
    if client == "windsurf":
        return {"serverUrl": spec.url, "headers": headers}
    if client == "cursor":
        return {"url": spec.url, "headers": headers}
    return {"type": "http", "url": spec.url, "headers": headers}


def _codex_toml(spec: ServerSpec) -> str:
    table: dict[str, object]
    if spec.url:
        table = {"url": spec.url, "bearer_token_env_var": spec.key_env}
    else:
        command, args = _launched(
            "codex", spec, list(spec.args) + ([spec.repo_flag, spec.repo] if spec.repo else [])
        )
        table = {"command": command, "args": args}
        if spec.repo:
            table["cwd"] = spec.repo
        if spec.env:
            table["env"] = dict(sorted(spec.env.items()))
    return tomli_w.dumps({"mcp_servers": {spec.name: table}})
