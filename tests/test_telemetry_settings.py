"""The `telemetry:` config section and the `.claude/settings.json` hooks block."""

from __future__ import annotations

import json

import pytest

from orkestra.errors import WorkspaceError
from orkestra.telemetry.project import load_settings
from orkestra.telemetry.settings import (
    HANDLED_EVENTS,
    LokiSettings,
    SettingsError,
    TelemetrySettings,
    hooks_block,
    merge_settings,
    parse_settings,
)

OURS = {"type": "command", "command": "orkestra-hook", "timeout": 10, "async": True}


def test_hooks_block_wires_every_handled_event_to_the_async_hook_command():
    block = hooks_block({})
    assert list(block) == list(HANDLED_EVENTS)
    assert block["PreToolUse"] == [{"matcher": "*", "hooks": [OURS]}]
    assert block["Stop"] == [{"hooks": [OURS]}]


def test_hooks_block_passes_a_custom_store_and_endpoint_as_quoted_options():
    block = hooks_block(
        {
            "store_dir": "var/tele metry",
            "otlp_endpoint": "http://127.0.0.1:4318",
            "events": ["Stop", "PreToolUse"],
        }
    )
    command = "orkestra-hook --store-dir 'var/tele metry' --otlp-endpoint http://127.0.0.1:4318"
    assert block == {
        "PreToolUse": [{"matcher": "*", "hooks": [{**OURS, "command": command}]}],
        "Stop": [{"hooks": [{**OURS, "command": command}]}],
    }


def test_disabled_telemetry_yields_no_hooks():
    assert hooks_block({"enabled": False}) == {}


USER = {
    "permissions": {"allow": ["Bash(git status)"]},
    "hooks": {
        "PreToolUse": [
            {
                "matcher": "Bash",
                "hooks": [
                    {"type": "command", "command": "./guard.sh"},
                    {"type": "command", "command": "orkestra hooks handle", "timeout": 3},
                ],
            },
            {"matcher": "Edit", "hooks": [{"type": "command", "command": "ruff format"}]},
        ],
        "Stop": [{"hooks": [{"type": "command", "command": "orkestra-hook --store-dir old"}]}],
        "Setup": [],
    },
    "model": "opus",
}


def test_merge_keeps_user_entries_in_place_and_replaces_only_ours():
    merged = merge_settings(USER, {"events": ["PreToolUse", "Stop", "SessionEnd"]})
    assert merged == {
        "permissions": {"allow": ["Bash(git status)"]},
        "hooks": {
            "PreToolUse": [
                {"matcher": "Bash", "hooks": [{"type": "command", "command": "./guard.sh"}]},
                {"matcher": "Edit", "hooks": [{"type": "command", "command": "ruff format"}]},
                {"matcher": "*", "hooks": [OURS]},
            ],
            "Stop": [{"hooks": [OURS]}],
            "Setup": [],
            "SessionEnd": [{"hooks": [OURS]}],
        },
        "model": "opus",
    }
    assert list(merged) == ["permissions", "hooks", "model"]


def test_merge_is_idempotent_and_pure():
    before = json.dumps(USER)
    once = merge_settings(USER, {})
    assert merge_settings(once, {}) == once
    assert json.dumps(merge_settings(once, {})) == json.dumps(once)  # same key order too
    assert json.dumps(USER) == before


def test_merge_with_telemetry_disabled_removes_only_our_hooks():
    merged = merge_settings(merge_settings(USER, {}), {"enabled": False})
    assert merged["hooks"] == {
        "PreToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "command", "command": "./guard.sh"}]},
            {"matcher": "Edit", "hooks": [{"type": "command", "command": "ruff format"}]},
        ],
        "Setup": [],
    }


def test_merge_into_nothing_creates_the_hooks_object():
    assert merge_settings(None, {"events": ["Stop"]}) == {"hooks": {"Stop": [{"hooks": [OURS]}]}}
    assert merge_settings(None, {"enabled": False}) == {}


@pytest.mark.parametrize(
    "raw, key",
    [
        ({"store": "x"}, "store"),
        ({"events": ["PreToolUse", "Bogus"]}, "events"),
        ({"events": "Stop"}, "events"),
        ({"otlp_endpoint": "localhost:4318"}, "otlp_endpoint"),
        ({"enabled": "yes"}, "enabled"),
    ],
)
def test_bad_settings_name_the_key(raw, key):
    with pytest.raises(SettingsError) as info:
        parse_settings(raw)
    assert info.value.key == key


def test_load_settings_reads_orkestra_yaml_and_locates_a_bad_value(tmp_path):
    assert load_settings(tmp_path) == TelemetrySettings()
    (tmp_path / "orkestra.yaml").write_text(
        "version: 1\ntelemetry:\n  store_dir: var/t\n  otlp_endpoint: http://c:4318\n"
    )
    assert load_settings(tmp_path) == TelemetrySettings(store_dir="var/t", otlp_endpoint="http://c:4318")
    (tmp_path / "orkestra.yaml").write_text("version: 1\ntelemetry:\n  store_dir: var/t\n  events: [Nope]\n")
    with pytest.raises(WorkspaceError) as info:
        load_settings(tmp_path)
    handled = ", ".join(HANDLED_EVENTS)
    assert [str(d) for d in info.value.diagnostics] == [
        f"orkestra.yaml:4:3: telemetry.events: unsupported event 'Nope' (handled: {handled})"
    ]


def test_a_loki_section_renders_hook_options_but_never_the_credential(tmp_path):
    config = {
        "loki": {
            "endpoint": "https://logs.example.net",
            "credential_env": "TEAM_LOKI",
            "tenant": "team a",
            "service_name": "claude-code-hooks",
        }
    }
    [group] = hooks_block(config)["Stop"]
    assert group["hooks"][0]["command"] == (
        "orkestra-hook --loki-endpoint https://logs.example.net "
        "--loki-credential-env TEAM_LOKI --loki-tenant 'team a'"
    )
    assert parse_settings(config).loki == LokiSettings("https://logs.example.net", "TEAM_LOKI", "team a")
    (tmp_path / "orkestra.yaml").write_text("version: 1\ntelemetry:\n  loki:\n    endpoint: logs:3100\n")
    with pytest.raises(WorkspaceError) as info:
        load_settings(tmp_path)
    assert [str(d) for d in info.value.diagnostics] == [
        "orkestra.yaml:4:5: telemetry.loki.endpoint: expected an http(s) URL, got 'logs:3100'"
    ]


@pytest.mark.parametrize(
    "loki, key",
    [
        ("http://x", "loki"),
        ({"endpoint": "http://x", "token": "s3cr3t"}, "loki.token"),
        ({"endpoint": "http://x", "credential_env": "not a name"}, "loki.credential_env"),
        ({"endpoint": "http://x", "tenant": ""}, "loki.tenant"),
    ],
)
def test_bad_loki_settings_name_the_key(loki, key):
    with pytest.raises(SettingsError) as info:
        parse_settings({"loki": loki})
    assert info.value.key == key
