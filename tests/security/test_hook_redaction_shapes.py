"""Secret shapes in hook events (issue #31 class 6): none reaches the store, look-alikes do.

Each family test records real payloads into a real store (``record_hook``, a git repository in
a temporary folder) and reads the day file back: every secret of every shape in the family must
be gone and the line must be strict JSON. The corpus is ``tests/secret_shapes.py`` (shared with
``bench/bench_hooks.py --redaction``). One test runs the ``orkestra-hook`` console script on a
payload holding every shape at once, with ``NaN`` and ``Infinity`` literals in its text; one
checks our masks against detect-secrets' own findings.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
from secret_shapes import BENIGN, DETECT_SECRETS_CORPUS, SHAPES

from orkestra.telemetry.hook import record_hook
from orkestra.telemetry.redact import MASK, redact, redact_text

HOOK = str(Path(sys.executable).parent / "orkestra-hook")
TS = "2026-03-01T10:00:00.000000Z"
FAMILIES = sorted({shape.family for shape in SHAPES})


def _strict(text: str):
    def refuse(constant: str):
        raise ValueError(f"non-strict JSON constant {constant}")

    return json.loads(text, parse_constant=refuse)


def _store_line(repo: Path, tool_input) -> str:
    payload = {
        "hook_event_name": "PreToolUse",
        "session_id": "s1",
        "tool_name": "Bash",
        "tool_input": tool_input,
    }
    recorded = record_hook(json.dumps(payload), env={}, cwd=str(repo), ts=TS)
    lines = Path(recorded.path).read_text(encoding="utf-8").splitlines()
    return lines[-1]


@pytest.mark.parametrize("family", FAMILIES)
def test_every_secret_shape_of_a_family_is_masked_in_the_stored_line(family, git_repo):
    leaks = []
    for shape in (s for s in SHAPES if s.family == family):
        line = _store_line(git_repo, shape.value)
        try:
            stored = _strict(line)
        except ValueError as exc:
            leaks.append((shape.name, str(exc)))
            continue
        assert stored["labels"]["event"] == "PreToolUse"
        leaks += [(shape.name, secret) for secret in shape.secrets if secret in line]
        if shape.secrets:
            assert MASK in line, shape.name
    assert leaks == []


@pytest.mark.parametrize("case", BENIGN, ids=[case.name for case in BENIGN])
def test_look_alikes_are_stored_as_they_are(case, git_repo):
    line = _store_line(git_repo, case.value)
    assert [kept for kept in case.kept if kept not in line] == []


def test_masked_values_keep_the_event_readable():
    """Masks replace values, not structure: quotes stay, names and users stay, keys stay unique."""
    assert redact_text('{"user":"bob","password":"x1"}') == '{"user":"bob","password":"[REDACTED]"}'
    assert redact_text("curl -u bob:x2 https://h") == "curl -u bob:[REDACTED] https://h"
    assert redact_text("mysql -u root -px3 shop") == "mysql -u root -p[REDACTED] shop"
    assert redact_text("Cookie: a=1; b=2\nnext") == "Cookie: [REDACTED]\nnext"
    assert redact({"DB_PASSWORD=x4": 1, "DB_PASSWORD=x5": 2}) == {
        "DB_PASSWORD=[REDACTED]": 1,
        "DB_PASSWORD=[REDACTED]#2": 2,
    }
    assert redact({"token": {"a": [1, 2]}, "password": None, "use_token": True, "secret": ""}) == {
        "token": MASK,
        "password": None,
        "use_token": True,
        "secret": "",
    }
    assert redact({"n": [float("nan"), float("inf"), -float("inf"), 1.5]}) == {
        "n": ["NaN", "Infinity", "-Infinity", 1.5]
    }


def test_the_hook_console_script_masks_every_shape_and_writes_strict_json(git_repo):
    """One real ``orkestra-hook`` run on a payload holding every shape, NaN/Infinity as JSON literals."""
    tool_input = {
        f"s{i}": shape.value for i, shape in enumerate(SHAPES) if shape.family != "non-finite numbers"
    }
    text = json.dumps({"hook_event_name": "PreToolUse", "session_id": "s1", "tool_name": "Bash"})[:-1]
    text += ', "tool_input": ' + json.dumps(tool_input) + ', "ratio": NaN, "limits": [Infinity, -Infinity]}'
    result = subprocess.run(
        [HOOK], input=text.encode(), capture_output=True, cwd=git_repo, timeout=60, check=False
    )
    assert (result.returncode, result.stdout, result.stderr) == (0, b"", b"")
    [day] = (git_repo / ".orkestra" / "telemetry").glob("*.jsonl")
    line = day.read_text(encoding="utf-8")
    stored = _strict(line)
    assert (stored["fields"]["ratio"], stored["fields"]["limits"]) == ("NaN", ["Infinity", "-Infinity"])
    assert [(s.name, x) for s in SHAPES for x in s.secrets if x in line] == []


def test_every_secret_detect_secrets_finds_is_masked_too():
    """Our ported rule set against detect-secrets itself, on one line per plugin (see the corpus)."""
    from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class
    from detect_secrets.core.scan import scan_line
    from detect_secrets.settings import transient_settings

    skipped = {"Base64HighEntropyString", "HexHighEntropyString", "IPPublicDetector"}  # not credentials
    plugins = [
        c.__name__ for c in get_mapping_from_secret_type_to_class().values() if c.__name__ not in skipped
    ]
    found_types, missed, silent = set(), [], []
    with transient_settings({"plugins_used": [{"name": name} for name in plugins]}):
        for line in DETECT_SECRETS_CORPUS:
            found = list(scan_line(line))
            if not found:
                silent.append(line)
            ours = redact_text(line)
            for secret in found:
                found_types.add(secret.type)
                # the keyword plugin takes a value up to the line's end; its first word is the secret
                if secret.secret_value.split()[0] in ours:
                    missed.append((secret.type, line))
    assert silent == []  # every corpus line is one detect-secrets flags
    assert missed == []
    assert len(found_types) == len(plugins)  # the corpus exercises every plugin


def test_argv_lists_and_shell_lines_are_read_by_one_reader():
    """The same command rules apply to ``["mysql", "-pX"]`` and ``"mysql -pX"``; ports and paths stay."""
    pairs = [
        (["sshpass", "-p", "q1", "ssh", "h"], "sshpass -p q1 ssh h"),
        (["docker", "login", "-u", "bob", "--password", "q2"], "docker login -u bob --password q2"),
        (["curl", "--user=bob:q3", "https://x"], "curl --user=bob:q3 https://x"),
        (["7z", "x", "-pq4", "a.7z"], "7z x -pq4 a.7z"),
        (["env", "FOO=1", "mysql", "-pq5"], "env FOO=1 mysql -pq5"),
    ]
    for argv, line in pairs:
        assert not any(f"q{i}" in json.dumps(redact(argv)) for i in range(1, 6)), argv
        assert not any(f"q{i}" in redact_text(line) for i in range(1, 6)), line
    assert redact(["docker", "run", "-p", "8080:80", "img"]) == ["docker", "run", "-p", "8080:80", "img"]
    assert redact(["-p", "5432"]) == ["-p", "5432"]
    assert redact(["./deploy.sh", "-p", "q6"]) == ["./deploy.sh", "-p", MASK]
    assert redact(["-p", 123456]) == ["-p", MASK]
    assert redact(["-p", "123456"]) == ["-p", MASK]  # six digits: not a port


def _best_of(runs: int, action) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        action()
        best = min(best, time.perf_counter() - start)
    return best


def test_the_new_rules_keep_redaction_linear():
    """Inputs aimed at each new rule cost about what 40 KB of ordinary words cost (same run)."""
    floor = _best_of(3, lambda: redact_text("x " * 20_000))
    hostile = {
        "names before separators": "a_key: x " * 5_000,
        "a long name ending like a secret": "k" * 40_000 + "token=x",
        "options for the argv reader": "mysql " + "-p x " * 8_000,
        "curl user:pass pairs": "curl " + "-u a:b " * 6_000,
        "JSON-in-string names": '"password":"' * 4_000,
        "unclosed lists after names": "password=[" * 4_000,
        "URL lead-ins": "https://a:" * 4_000,
        "header names": "Authorization: " * 3_000,
        "token prefixes": "ghp_" * 10_000,
        "unterminated PEM blocks": "-----BEGIN RSA PRIVATE KEY-----" * 1_300,
    }
    for name, text in hostile.items():
        assert _best_of(3, lambda text=text: redact_text(text)) < 20 * floor + 0.002, name
    lists = _best_of(3, lambda: redact(["-p"] * 20_000))
    assert lists < 20 * _best_of(3, lambda: redact(["x"] * 20_000)) + 0.002


def test_codex_notify_fields_go_through_the_same_walk(git_repo):
    """Codex's notify payload (argv) gets the key rules too: a secret-named key, a secret as a key."""
    payload = {
        "type": "agent-turn-complete",
        "thread-id": "t1",
        "api-key": "pw-codex-1",
        "input-messages": ["deploy with mysql -ppw-codex-2"],
        "env": {"DB_PASSWORD=pw-codex-3": 1, "ratio": 1.5},
    }
    result = subprocess.run(
        [HOOK, "codex-notify", json.dumps(payload)],
        capture_output=True,
        cwd=git_repo,
        timeout=60,
        check=False,
    )
    assert (result.returncode, result.stdout, result.stderr) == (0, b"", b"")
    [day] = (git_repo / ".orkestra" / "telemetry").glob("*.jsonl")
    line = day.read_text(encoding="utf-8")
    assert "pw-codex" not in line
    assert _strict(line)["fields"]["session_id"] == "t1"


def test_label_values_are_redacted_too(git_repo):
    """Labels come from the payload as well (reason, model, tool names): the same text rules apply."""
    payload = {
        "hook_event_name": "SessionEnd",
        "session_id": "s1",
        "reason": "exit with PGPASSWORD=pw-label-9",
        "model": "m " + "gh" + "p_" + "aB3dE5fG7h" * 4,
    }
    recorded = record_hook(json.dumps(payload), env={}, cwd=str(git_repo), ts=TS)
    line = Path(recorded.path).read_text(encoding="utf-8")
    assert "pw-label-9" not in line
    assert "aB3dE5fG7h" not in line
    assert _strict(line)["labels"]["reason"] == f"exit with PGPASSWORD={MASK}"
