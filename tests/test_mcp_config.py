"""`orkestra mcp config` prints each client's own format (FORMATS §4)."""

from __future__ import annotations

import json
import tomllib

import pytest
from clirun import run_cli

from orkestra.mcp_config import ServerSpec, client_config


def test_claude_stdio_entry_always_has_a_type_and_the_project_dir():
    data = json.loads(client_config("claude", ServerSpec(launcher="path")).text)
    assert data == {
        "mcpServers": {
            "maguyva": {
                "type": "stdio",
                "command": "orkestra",
                "args": ["code", "serve", "--repo", "${CLAUDE_PROJECT_DIR:-.}"],
            }
        }
    }


def test_vscode_uses_servers_and_an_input_for_the_http_key():
    data = json.loads(client_config("vscode", ServerSpec(url="https://m.example/mcp")).text)
    assert set(data) == {"inputs", "servers"}
    entry = data["servers"]["maguyva"]
    assert entry == {
        "type": "http",
        "url": "https://m.example/mcp",
        "headers": {"Authorization": "Bearer ${input:maguyva-api-key}"},
    }
    assert data["inputs"][0]["password"] is True


def test_cursor_infers_transport_and_interpolates_env():
    stdio = json.loads(client_config("cursor", ServerSpec()).text)["mcpServers"]["maguyva"]
    assert "type" not in stdio
    assert stdio["args"][-1] == "${workspaceFolder}"
    http = json.loads(client_config("cursor", ServerSpec(url="https://m/mcp")).text)["mcpServers"]["maguyva"]
    assert http == {"url": "https://m/mcp", "headers": {"Authorization": "Bearer ${env:MAGUYVA_API_KEY}"}}


def test_windsurf_remote_uses_server_url():
    entry = json.loads(client_config("windsurf", ServerSpec(url="https://m/mcp")).text)["mcpServers"][
        "maguyva"
    ]
    assert entry["serverUrl"] == "https://m/mcp"
    assert "url" not in entry


def test_codex_is_valid_toml_without_a_type_key():
    stdio = tomllib.loads(client_config("codex", ServerSpec(repo="/abs/repo", launcher="path")).text)
    assert stdio == {
        "mcp_servers": {
            "maguyva": {
                "command": "orkestra",
                "cwd": "/abs/repo",
                "args": ["code", "serve", "--repo", "/abs/repo"],
            }
        }
    }
    http = tomllib.loads(client_config("codex", ServerSpec(url="https://m/mcp", key_env="TOK")).text)
    assert http == {"mcp_servers": {"maguyva": {"url": "https://m/mcp", "bearer_token_env_var": "TOK"}}}


def test_unknown_client_is_refused():
    with pytest.raises(ValueError, match="unknown client"):
        client_config("emacs", ServerSpec())


def test_cli_prints_each_format_and_rejects_unknown_clients(tmp_path):
    result = run_cli("mcp", "config", "--client", "codex", cwd=tmp_path)
    assert result.returncode == 0
    assert tomllib.loads(result.stdout)["mcp_servers"]["maguyva"]["cwd"] == str(tmp_path)
    as_json = json.loads(run_cli("mcp", "config", "--client", "vscode", "--json", cwd=tmp_path).stdout)
    assert as_json["path"] == ".vscode/mcp.json"
    assert json.loads(as_json["text"])["servers"]
    bad = run_cli("mcp", "config", "--client", "emacs", cwd=tmp_path)
    assert bad.returncode == 2
    assert "unknown client" in bad.stderr


def test_server_spec_pins_the_repository_only_for_clients_without_a_project_variable():
    from orkestra.errors import UsageError
    from orkestra.mcp_config import server_spec

    assert server_spec("codex", cwd="/work/repo").repo == "/work/repo"
    assert server_spec("windsurf", repo="/other", cwd="/work/repo").repo == "/other"
    assert server_spec("claude", cwd="/work/repo").repo is None  # ${CLAUDE_PROJECT_DIR} does it
    assert server_spec("codex", url="https://m.example/mcp", cwd="/work/repo").repo is None
    with pytest.raises(UsageError, match="did you mean 'cursor'"):
        server_spec("cursr")


def test_codex_toml_is_written_by_a_toml_writer_for_any_name_and_value():
    """A server name that is no bare key and values with a DEL or quotes still parse back as given
    (the hand-joined TOML left the name unquoted and DEL raw: both invalid TOML)."""
    from orkestra.render.targets.mcp import codex_toml

    awkward = {"KEY": 'a "quoted"\x7f\nvalue'}
    spec = ServerSpec(name="my server", repo="/abs/re\x7fpo", launcher="path", env=awkward)
    parsed = tomllib.loads(client_config("codex", spec).text)["mcp_servers"]["my server"]
    assert parsed["cwd"] == "/abs/re\x7fpo"
    assert parsed["env"] == awkward
    entries = {"odd.name": {"command": "x\x7f", "args": ["--a", "b\x7f"], "env": {"K": "v\x7f", "P": "${P}"}}}
    rendered = tomllib.loads(codex_toml(entries))["mcp_servers"]["odd.name"]
    assert rendered == {
        "command": "x\x7f",
        "args": ["--a", "b\x7f"],
        "env": {"K": "v\x7f"},
        "env_vars": ["P"],
    }
