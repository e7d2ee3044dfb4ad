"""A cloned repository cannot make the telemetry hook write (or the report read) outside it.

Before, ``telemetry.store_dir: ../outside`` (or an absolute path, ``~/x``, ``.git/hooks``) was rendered
by ``orkestra sync`` into every hook command of ``.claude/settings.json``, and a committed
``.orkestra -> ~/elsewhere`` link took the default store with it: each hook event appended a JSONL
file (and a ``.gitignore``) wherever the repository said. Now sync refuses the setting with a located
error, and the hook walks the store folder from the project root with ``O_NOFOLLOW``: a link on the
way means "event not recorded" on stderr (exit 0, as every hook failure), nothing written outside.
An absolute ``--store-dir`` is the user's own choice and still goes anywhere.
"""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from clirun import run_cli
from outside_tree import outside_folder, untouched

HOOK = str(Path(sys.executable).parent / "orkestra-hook")


def _payload(cwd: Path) -> str:
    return json.dumps({"hook_event_name": "Stop", "session_id": "s1", "cwd": str(cwd)})


def _hook(repo: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [HOOK, *args], input=_payload(repo), capture_output=True, text=True, cwd=repo, timeout=60
    )


@pytest.fixture
def workspace(git_repo):
    assert run_cli("init", cwd=git_repo).returncode == 0
    return git_repo


@pytest.mark.parametrize(
    ("store_dir", "says"),
    [
        ("../outside", "climbs out of the project with '..'"),
        ("{outside}", "is outside the project"),
        ("~/telemetry", "is outside the project"),
        (".git/hooks", "is inside .git"),
        ("vendor/.GIT/x", "is inside .git"),
    ],
)
def test_sync_refuses_a_store_dir_outside_the_project_with_a_located_error(
    workspace, tmp_path, store_dir, says
):
    outside = outside_folder(tmp_path)
    store_dir = store_dir.format(outside=outside)
    config = workspace / "orkestra.yaml"
    text = config.read_text().replace(
        "telemetry:\n  enabled: false\n", f"telemetry:\n  enabled: true\n  store_dir: '{store_dir}'\n"
    )
    config.write_text(text)
    line = text.splitlines().index(f"  store_dir: '{store_dir}'") + 1
    done = run_cli("sync", cwd=workspace, env={"HOME": str(outside)})
    assert done.returncode == 1, done.stdout
    assert f"orkestra.yaml:{line}:3: telemetry.store_dir: {store_dir!r} {says}" in done.stdout + done.stderr
    settings = workspace / ".claude" / "settings.json"
    assert not settings.exists() or "--store-dir" not in settings.read_text()
    untouched(outside)


@pytest.mark.parametrize(
    ("link", "says"),
    [
        (".orkestra", "'.orkestra' is a symlink"),
        (".orkestra/telemetry", "'.orkestra/telemetry' is a symlink"),
    ],
)
def test_the_hook_never_writes_through_a_committed_symlink(git_repo, tmp_path, link, says):
    outside = outside_folder(tmp_path)
    (git_repo / link).parent.mkdir(parents=True, exist_ok=True)
    (git_repo / link).symlink_to(outside)
    done = _hook(git_repo)
    assert (done.returncode, done.stdout) == (0, "")
    assert done.stderr.startswith("orkestra-hook: event not recorded: UnsafeStoreDir: store folder " + says)
    untouched(outside)
    report = run_cli("telemetry", "report", cwd=git_repo)  # nor is the outside folder read for a report
    assert report.returncode == 1
    assert f"telemetry.store_dir: store folder {says}" in report.stderr


def test_a_linked_day_file_or_outbox_folder_is_not_written_through(git_repo, tmp_path):
    outside = outside_folder(tmp_path)
    store = git_repo / ".orkestra" / "telemetry"
    store.mkdir(parents=True)
    today = datetime.now(UTC).strftime("%Y-%m-%d")
    (store / f"events-{today}.jsonl").symlink_to(outside / "keep.txt")
    done = _hook(git_repo)
    assert done.returncode == 0
    assert "event not recorded" in done.stderr
    (store / f"events-{today}.jsonl").unlink()
    (store / "loki").symlink_to(outside)
    done = _hook(git_repo, "--loki-endpoint", "http://127.0.0.1:9")  # the outbox: enqueued, never sent
    assert done.returncode == 0
    assert "'loki' is a symlink" in done.stderr.replace(str(store) + "/", "")
    untouched(outside)


def test_an_absolute_store_dir_given_by_the_user_goes_anywhere(git_repo, tmp_path):
    chosen = tmp_path / "mine" / "telemetry"
    done = _hook(git_repo, "--store-dir", str(chosen))
    assert (done.returncode, done.stderr) == (0, "")
    assert len(list(chosen.glob("events-*.jsonl"))) == 1
    done = _hook(git_repo)  # and the default lands in the project, git-ignored
    store = git_repo / ".orkestra" / "telemetry"
    assert (done.returncode, done.stderr) == (0, "")
    assert len(list(store.glob("events-*.jsonl"))) == 1
    assert (store / ".gitignore").read_text() == "# orkestra telemetry: local only\n*\n"
    report = run_cli("telemetry", "report", "--store-dir", str(chosen), "--format", "json", cwd=git_repo)
    assert report.returncode == 0, report.stderr


def test_the_flusher_never_opens_its_lock_or_rejected_folder_through_a_link(git_repo, tmp_path):
    from loki_server import StubLoki

    from orkestra.telemetry import loki
    from orkestra.telemetry.events import Event, timestamp

    outside = outside_folder(tmp_path)
    (git_repo / "orkestra.yaml").write_text(
        "version: 1\ntelemetry:\n  loki:\n    endpoint: http://127.0.0.1:9\n"
    )
    outbox = git_repo / ".orkestra" / "telemetry" / "loki"
    outbox.mkdir(parents=True)
    (outbox / "outbox.jsonl").write_text('{"x": 1}\n')
    (outbox / "lock").symlink_to(outside / "lock")
    done = run_cli("telemetry", "flush", cwd=git_repo, env={"ORKESTRA_LOKI_BACKOFF": "0"})
    assert done.returncode == 1, done.stderr
    assert "loki/lock' is a symlink" in done.stderr, done.stderr
    (outbox / "lock").unlink()
    (git_repo / ".orkestra").rename(tmp_path / "moved")
    (git_repo / ".orkestra").symlink_to(outside)
    done = run_cli("telemetry", "flush", cwd=git_repo, env={"ORKESTRA_LOKI_BACKOFF": "0"})
    assert done.returncode == 1
    assert "orkestra.yaml: telemetry.store_dir: store folder '.orkestra' is a symlink" in done.stderr
    untouched(outside)

    store = tmp_path / "store"  # a batch Loki refuses is set aside in rejected/: never through a link
    bad = Event(timestamp(), {"event": "Stop", "agent_tool": "claude-code"}, {"session_id": "s1"})
    loki.enqueue(str(store), bad, None)
    (store / "loki" / "rejected").symlink_to(outside)
    stub = StubLoki()
    stub.start()
    try:
        with pytest.raises(OSError, match="a symlink; rejected events are never written through one"):
            loki.flush(str(store), loki.target(stub.url, service_name=" "), {})  # empty label: 400
    finally:
        stub.stop()
    untouched(outside)
