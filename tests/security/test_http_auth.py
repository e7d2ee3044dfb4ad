"""Issue 14 item 9: `code serve --http` on a SQLite store binds loopback, and needs a key or --no-auth elsewhere."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from local_http import free_port, initialize_status, mcp_calls, serve_http, wait_for_port
from maguyva_project import index_project, make_project

KEY = "local-test-key-0123456789abcdef"


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> tuple[Path, Path]:
    base = tmp_path_factory.mktemp("http")
    root = make_project(base / "repo")
    store = base / "index.db"
    index_project(root, store)
    return root, store


def _serve(project, *args: str, key: str | None = None) -> tuple[subprocess.Popen, int]:
    root, store = project
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "MAGUYVA_API_KEY"}
    if key is not None:
        env["MAGUYVA_API_KEY"] = key
    process = serve_http(port, "--repo", str(root), "--store", str(store), *args, env=env, text=True)
    return process, port


def _stop(process: subprocess.Popen) -> str:
    if process.poll() is None:
        process.terminate()
    try:
        return process.communicate(timeout=15)[1]
    except subprocess.TimeoutExpired:
        process.kill()
        return process.communicate()[1]


def _listening_addresses(port: int) -> set[str]:
    """Local addresses listening on ``port`` (from /proc/net/tcp and tcp6)."""
    found = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        if not os.path.exists(table):
            continue
        for row in Path(table).read_text().splitlines()[1:]:
            local, state = row.split()[1], row.split()[3]
            address, _, hex_port = local.partition(":")
            if state == "0A" and int(hex_port, 16) == port:
                found.add(address)
    return found


def _refused(project, *args: str, key: str | None = None) -> tuple[int, str]:
    """Exit code and stderr of a server that must refuse to start (fails the test if it serves)."""
    process, _ = _serve(project, *args, key=key)
    try:
        process.wait(timeout=60)
    except subprocess.TimeoutExpired:
        pytest.fail(f"the server started with {args} and key {key!r}")
    finally:
        stderr = _stop(process)
    return process.returncode, stderr


def test_a_public_bind_without_a_key_is_refused_before_serving(project):
    code, stderr = _refused(project, "--host", "0.0.0.0")
    assert code == 2, stderr
    assert "--no-auth" in stderr
    assert "MAGUYVA_API_KEY" in stderr


def test_no_auth_on_a_public_bind_warns_on_start_and_serves(project):
    process, port = _serve(project, "--host", "0.0.0.0", "--no-auth")
    try:
        assert wait_for_port(port, process), _stop(process)
        (found,) = mcp_calls(
            f"http://127.0.0.1:{port}/mcp", None, [("find_symbol", {"symbol_name": "cart_total"})]
        )
        assert found.structured_content["count"] == 1
    finally:
        stderr = _stop(process)
    assert "WARNING" in stderr
    assert "no authentication" in stderr


def test_a_configured_key_is_required_for_every_request(project):
    process, port = _serve(project, key=KEY)
    try:
        assert wait_for_port(port, process), _stop(process)
        assert [
            initialize_status(f"http://127.0.0.1:{port}/mcp", token)
            for token in (None, "wrong", KEY[:-1], KEY + "x", "mgv_x_y")
        ] == [401] * 5
        assert initialize_status(f"http://127.0.0.1:{port}/mcp", KEY) == 200
        got, refreshed = mcp_calls(
            f"http://127.0.0.1:{port}/mcp",
            KEY,
            [("get_file", {"path": "shop/checkout.py", "end_line": 3}), ("refresh_index", {})],
        )
        assert got.structured_content["path"] == "shop/checkout.py"
        assert not refreshed.is_error
        with pytest.raises(Exception):  # noqa: B017 - a 401 surfaces as whatever the MCP client's transport raises
            mcp_calls(f"http://127.0.0.1:{port}/mcp", None, [("get_file", {"path": "shop/checkout.py"})])
    finally:
        _stop(process)


def test_the_default_bind_is_loopback_only(project):
    process, port = _serve(project)
    try:
        assert wait_for_port(port, process), _stop(process)
        addresses = _listening_addresses(port)
        assert addresses, "nothing listens on the port"
        assert addresses <= {"0100007F", "00000000000000000000000001000000"}, addresses  # 127.0.0.1, ::1
    finally:
        _stop(process)


def test_a_short_key_or_a_key_with_no_auth_is_refused(project):
    code, stderr = _refused(project, key="abc")
    assert code == 2
    assert "MAGUYVA_API_KEY" in stderr
    code, stderr = _refused(project, "--no-auth", key=KEY)
    assert code == 2
    assert "contradict" in stderr
