"""Issue 31 class 4: `get_file` / `code file` with a line range streams the file.

Before, lines 1–2 of a 1.2 GB log read the whole file into memory (16 GB of RAM). Now a range is read
line by line from disk, binary-safe, and what it keeps is capped (the answer's budget, at most
``MAX_FILE_BYTES``). Memory is measured as peak RSS of real processes (the CLI, and a stdio MCP server
in a real session), always against a tiny file in the same run — never a wall-clock bound.
"""

from __future__ import annotations

import json
import os
import random
import select
import subprocess
import sys
from pathlib import Path

import anyio
import pytest
from maguyva_project import index_project, make_project
from mcp import Client

from maguyva import files
from maguyva.files import read_lines
from maguyva.server.app import Repository, build_server
from maguyva.store.lines import split_lines
from maguyva.tools.reading import MAX_FILE_BYTES

HOLE = 400 * 1024 * 1024  # a sparse run of NUL bytes: costs no disk, but 400 MB to whoever reads it whole
BUDGET_MB = 64  # what a range may cost above the same command on a tiny file (before: > 800 MB here)


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> tuple[Path, Path]:
    base = tmp_path_factory.mktemp("stream")
    root = make_project(base / "repo")
    store = base / "index.db"
    index_project(root, store)
    logs = root / "logs"
    logs.mkdir()
    with open(logs / "big.log", "wb") as handle:  # created after indexing: get_file reads the disk
        handle.write(b"first line\nsecond line\n")
        handle.truncate(handle.tell() + HOLE)
        handle.seek(0, os.SEEK_END)
        handle.write(b"\nlast line\n")
    (logs / "tiny.log").write_bytes(b"first line\nsecond line\nthird\n")
    with open(logs / "many.log", "w") as handle:
        handle.writelines(f"entry {n}\n" for n in range(1, 2_000_001))
    return root, store


def _cli_peak(project, *args: str) -> tuple[int, dict]:
    """(peak RSS in KiB, the JSON answer) of one `orkestra code file` run."""
    root, store = project
    process = subprocess.Popen(
        [sys.executable, "-m", "orkestra", "code", "file", *args, "--repo", str(root), "--store", str(store)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "NO_COLOR": "1"},
    )
    out = process.stdout.read() if process.stdout else b""
    err = process.stderr.read() if process.stderr else b""
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    assert process.returncode == 0, err.decode(errors="replace")
    return usage.ru_maxrss, json.loads(out)


def test_lines_of_a_huge_file_cost_what_they_return_not_the_file(project):
    """Before: ~2× the file in RSS (bytes, then the decoded text): 800 MB here, 16 GB for 1.2 GB."""
    tiny_rss, tiny = _cli_peak(project, "logs/tiny.log", "--start", "1", "--end", "2", "--format", "json")
    big_rss, big = _cli_peak(project, "logs/big.log", "--start", "1", "--end", "2", "--format", "json")
    assert [line["text"] for line in big["lines"]] == ["first line", "second line"]
    assert big["total_lines"] == 4
    assert big["end_line"] == 2
    assert not big.get("truncated")
    assert [line["text"] for line in tiny["lines"]] == ["first line", "second line"]
    assert (big_rss - tiny_rss) / 1024 < BUDGET_MB, (big_rss, tiny_rss)


def test_the_last_lines_and_an_end_line_alone_are_read_by_streaming_too(project):
    tiny_rss, _ = _cli_peak(project, "logs/tiny.log", "--end", "2", "--format", "json")
    big_rss, last = _cli_peak(project, "logs/big.log", "--start", "4", "--format", "json")
    assert [(line["line"], line["text"]) for line in last["lines"]] == [(4, "last line")]
    end_rss, head = _cli_peak(project, "logs/big.log", "--end", "1", "--format", "json")  # before: refused
    assert [line["text"] for line in head["lines"]] == ["first line"]
    assert max(big_rss, end_rss) - tiny_rss < BUDGET_MB * 1024, (big_rss, end_rss, tiny_rss)


def test_one_huge_line_is_cut_to_the_budget_and_says_so(project):
    rss_tiny, _ = _cli_peak(project, "logs/tiny.log", "--start", "3", "--format", "json")
    rss, answer = _cli_peak(project, "logs/big.log", "--start", "3", "--end", "3", "--format", "json")
    assert answer["truncated"] is True
    assert "cut after" in answer["truncation_note"]
    assert answer["start_line"] == 3
    assert answer["end_line"] == 3
    assert answer["total_lines"] == 4
    (line,) = answer["lines"]
    assert set(line["text"]) == {"\x00"}
    assert len(line["text"]) <= 3 * 8_000
    assert rss - rss_tiny < BUDGET_MB * 1024


def test_a_long_range_returns_at_most_the_cap(project):
    rss_tiny, _ = _cli_peak(project, "logs/tiny.log", "--format", "json")
    rss, answer = _cli_peak(project, "logs/many.log", "--start", "5", "--end", "1999999", "--format", "json")
    assert answer["truncated"] is True
    assert answer["total_lines"] == 2_000_000
    assert answer["lines"][0] == {"line": 5, "text": "entry 5"}
    assert answer["end_line"] == answer["lines"][-1]["line"] < 10_000
    assert rss - rss_tiny < BUDGET_MB * 1024


class StdioServer:
    """`orkestra code serve` over stdio, spoken to in JSON-RPC lines, so its peak RSS can be read."""

    def __init__(self, project):
        root, store = project
        self.process = subprocess.Popen(
            [sys.executable, "-m", "orkestra", "code", "serve", "--repo", str(root), "--store", str(store)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        self.ids = iter(range(1, 1_000))
        self.ask(
            "initialize", {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t"}}
        )
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def send(self, message: dict) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(message).encode() + b"\n")
        self.process.stdin.flush()

    def ask(self, method: str, params: dict) -> dict:
        self.send({"jsonrpc": "2.0", "id": next(self.ids), "method": method, "params": params})
        assert self.process.stdout is not None
        ready, _, _ = select.select([self.process.stdout], [], [], 120)
        assert ready, "no reply"
        return json.loads(self.process.stdout.readline())

    def peak_kib(self) -> int:
        status = Path(f"/proc/{self.process.pid}/status").read_text()
        return int(next(line.split()[1] for line in status.splitlines() if line.startswith("VmHWM:")))

    def close(self) -> None:
        self.process.communicate(timeout=30)


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads VmHWM from /proc")
def test_an_mcp_session_reads_a_range_of_a_huge_file_by_streaming(project):
    server = StdioServer(project)
    try:
        for _ in range(2):  # warm every code path on the tiny file first
            tiny = server.ask(
                "tools/call", {"name": "get_file", "arguments": {"path": "logs/tiny.log", "end_line": 2}}
            )
        assert tiny["result"]["structuredContent"]["total_lines"] == 3
        before = server.peak_kib()
        big = server.ask(
            "tools/call",
            {"name": "get_file", "arguments": {"path": "logs/big.log", "start_line": 1, "end_line": 2}},
        )
        answer = big["result"]["structuredContent"]
        assert [line["text"] for line in answer["lines"]] == ["first line", "second line"]
        assert answer["total_lines"] == 4
        assert server.peak_kib() - before < BUDGET_MB * 1024, (server.peak_kib(), before)
    finally:
        server.close()


def test_an_in_process_session_gets_the_same_lines(project):
    root, store = project
    repo = Repository(root, str(store))

    async def go():
        async with Client(build_server(repo)) as client:
            return await client.call_tool(
                "get_file", {"path": "logs/many.log", "start_line": 1_999_999, "end_line": 2_000_005}
            )

    try:
        answer = anyio.run(go).structured_content
    finally:
        repo.close()
    assert [(line["line"], line["text"]) for line in answer["lines"]] == [
        (1_999_999, "entry 1999999"),
        (2_000_000, "entry 2000000"),
    ]
    assert answer["end_line"] == 2_000_000
    assert answer["total_lines"] == 2_000_000


SAMPLES = [
    b"",
    b"\n",
    b"\n\n",
    b"a",
    b"a\n",
    b"a\r\nb\r\n",
    b"a\rb\nc",  # a lone \r is not a line break (tree-sitter's numbering)
    b"\r",
    b"x\n\r",
    b"\x00\x00\nbin\xff\xfe\nend",
    "caf\u00e9 \u2028 \U0001f600\n\u00e9".encode(),
    b"\xe2\x82",  # a cut multi-byte sequence at the end
]


def _expected(data: bytes) -> list[str]:
    return split_lines(data.decode("utf-8", errors="replace"))


@pytest.mark.parametrize("chunk", [1, 2, 3, 7, 1 << 20])
def test_streamed_lines_match_the_whole_file_split_at_every_chunk_size(tmp_path, monkeypatch, chunk):
    """Binary-safe and chunk-independent: NULs, invalid UTF-8, CRLF, a lone CR, no final newline."""
    monkeypatch.setattr(files, "CHUNK_BYTES", chunk)
    rng = random.Random(chunk)
    alphabet = [b"a", b"\n", b"\r", b"\x00", b"\xff", "\u00e9".encode(), b"xyz"]
    samples = SAMPLES + [b"".join(rng.choice(alphabet) for _ in range(rng.randrange(60))) for _ in range(150)]
    for number, data in enumerate(samples):
        path = tmp_path / f"s{number}"
        path.write_bytes(data)
        expected = _expected(data)
        for first in range(1, len(expected) + 2):
            for last in (None, *range(first, len(expected) + 2)):
                got = read_lines(path, first, last, 10_000)
                assert got.total == len(expected), data
                assert got.lines == expected[first - 1 : last], (data, first, last)
                assert got.cut is None


def test_the_cap_keeps_whole_lines_or_cuts_the_first_one(tmp_path):
    path = tmp_path / "f"
    path.write_bytes(b"aaaa\nbbbb\ncccc\n")
    assert read_lines(path, 1, None, 10).lines == ["aaaa", "bbbb"]
    assert "lines 3-" in (read_lines(path, 1, None, 10).cut or "")
    one = read_lines(path, 2, 2, 3)
    assert one.lines == ["bbb"]
    assert one.cut == "line 2 cut after 3 bytes"
    assert read_lines(path, 1, None, MAX_FILE_BYTES).total == 3


def test_a_fifo_is_refused_not_waited_on(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(Exception, match="not a regular file"):
        read_lines(fifo, 1, 2, 100)
