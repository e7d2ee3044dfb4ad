"""The team server under load, and index throughput into PostgreSQL vs SQLite.

Corpus: this repository's maguyva/, orkestra/ and tests/ copied into a temp git repository
(or ``--repo PATH``). Starts a throwaway PostgreSQL cluster (tests/pg_server.py) unless
``--pg URL`` names one, indexes the corpus into both backends (full, one worker each), then
serves the workspace with ``orkestra code serve --http`` and runs CLIENTS concurrent MCP
sessions, each making CALLS ``intelligent_search`` calls with a bearer key.

    python bench/bench_team.py [--repo PATH] [--pg URL] [--clients 8] [--calls 125]

Prints one JSON line per measurement.
"""

from __future__ import annotations

import argparse
import json
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO), str(REPO / "tests")]

from maguyva.index.pipeline import index_repository  # noqa: E402

QUERIES = [
    "where are API keys hashed",
    "def open_store",
    "who calls plan_route",
    "how is BM25 ranked",
    "retry with backoff",
    "parse yaml registry",
    "Workspace.load",
    "render templates with jinja",
    "intelligent_search",
    "what does the resolver do with ambiguous calls",
]


def emit(**fields) -> None:
    print(json.dumps(fields), flush=True)


def corpus(base: Path, source: str | None) -> Path:
    root = base / "corpus"
    if source:
        shutil.copytree(source, root, ignore=shutil.ignore_patterns(".git", "__pycache__", ".venv"))
    else:
        for name in ("maguyva", "orkestra", "tests"):
            shutil.copytree(REPO / name, root / name, ignore=shutil.ignore_patterns("__pycache__"))
    identity = ["-c", "user.email=bench@example.com", "-c", "user.name=bench"]
    for args in (["init", "-q"], ["add", "-A"], [*identity, "commit", "-qm", "bench corpus"]):
        subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True)
    return root


def bench_index(root: Path, sqlite: Path, postgres: str) -> None:
    for backend, location in (("sqlite", sqlite), ("postgres", postgres)):
        started = time.perf_counter()
        summary = index_repository(root, location, full=True, workers=1)
        seconds = time.perf_counter() - started
        emit(
            name="index_full",
            backend=backend,
            files=summary.files,
            symbols=summary.symbols,
            edges=summary.edges,
            seconds=round(seconds, 2),
            files_per_second=round(summary.files / seconds, 1),
        )


def serve(store: str, cwd: Path) -> tuple[subprocess.Popen, str]:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    process = subprocess.Popen(
        [sys.executable, "-m", "orkestra", "code", "serve", "--http", "--port", str(port), "--store", store],
        cwd=cwd,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                return process, f"http://127.0.0.1:{port}/mcp"
        time.sleep(0.2)
    process.terminate()
    raise RuntimeError("the team server did not start")


def bench_http(url: str, token: str, clients: int, calls: int) -> None:
    import anyio
    import httpx2
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    latencies: list[float] = []
    errors: list[str] = []

    async def client(number: int) -> None:
        async with (
            httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=120) as http,
            Client(streamable_http_client(url, http_client=http)) as session,
        ):
            for call in range(calls):
                query = QUERIES[(number + call) % len(QUERIES)]
                started = time.perf_counter()
                try:
                    result = await session.call_tool("intelligent_search", {"query": query, "limit": 10})
                    if result.is_error or not result.structured_content["results"]:
                        errors.append(query)
                except Exception as exc:  # noqa: BLE001 - counted, reported below
                    errors.append(repr(exc))
                latencies.append((time.perf_counter() - started) * 1000)

    async def main() -> None:
        async with anyio.create_task_group() as group:
            for number in range(clients):
                group.start_soon(client, number)

    started = time.perf_counter()
    anyio.run(main)
    wall = time.perf_counter() - started
    ordered = sorted(latencies)
    emit(
        name="http_intelligent_search",
        backend="postgres",
        clients=clients,
        calls=len(latencies),
        errors=len(errors),
        p50_ms=round(statistics.median(ordered), 1),
        p95_ms=round(ordered[int(len(ordered) * 0.95) - 1], 1),
        max_ms=round(ordered[-1], 1),
        calls_per_second=round(len(latencies) / wall, 1),
        first_error=errors[0] if errors else None,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repo")
    parser.add_argument("--pg")
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--calls", type=int, default=125)
    args = parser.parse_args()
    from maguyva.server.auth import create_key

    server = None
    if not args.pg:
        from pg_server import TempPostgres

        server = TempPostgres().start()
    pg_url = args.pg or server.url
    base = Path(tempfile.mkdtemp(prefix="bench-team-"))
    try:
        root = corpus(base, args.repo)
        store = f"{pg_url}?workspace=bench&repo=corpus"
        bench_index(root, base / "index.db", store)
        token = create_key(store, "bench").token
        process, url = serve(store, base)
        try:
            bench_http(url, token, args.clients, args.calls)
        finally:
            process.terminate()
            process.wait(timeout=10)
    finally:
        shutil.rmtree(base, ignore_errors=True)
        if server:
            server.stop()


if __name__ == "__main__":
    main()
