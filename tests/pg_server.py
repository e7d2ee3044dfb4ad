"""A throwaway PostgreSQL cluster for tests: initdb in a temp dir, loopback only, stopped after.

Uses the machine's PostgreSQL binaries (Debian's postgresql package). As root, the server
runs as the ``postgres`` user (initdb refuses root). ``MAGUYVA_TEST_PG`` names an existing
server instead (a ``postgresql://`` URL).
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path


def find_bindir() -> Path | None:
    """``pg_config``'s binaries, else Debian's newest; as root, only binaries the ``postgres`` user
    can run (a clone in a 0700 directory, as ``mktemp -d`` makes, hides a venv's own from it)."""
    candidates = []
    pg_config = shutil.which("pg_config")
    if pg_config:
        out = subprocess.run([pg_config, "--bindir"], capture_output=True, text=True)
        candidates.append(Path(out.stdout.strip()))
    candidates += [
        Path(p).parent for p in sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), reverse=True)
    ]
    for candidate in candidates:
        initdb = candidate / "initdb"
        if initdb.exists() and (os.geteuid() != 0 or _runs_as_postgres(initdb)):
            return candidate
    return None


def _runs_as_postgres(program: Path) -> bool:
    done = subprocess.run(
        ["runuser", "-u", "postgres", "--", "test", "-x", str(program)], capture_output=True
    )
    return done.returncode == 0


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class TempPostgres:
    def __init__(self, bindir: Path | None = None) -> None:
        self.bindir = bindir or find_bindir()
        if self.bindir is None:
            raise RuntimeError("PostgreSQL binaries not found (install Debian's postgresql package)")
        self.base = Path(tempfile.mkdtemp(prefix="maguyva-pg-"))
        self.data = self.base / "data"
        self.port = _free_port()
        self.url = f"postgresql://postgres@127.0.0.1:{self.port}/postgres"
        self._as_postgres = os.geteuid() == 0
        self.started = False

    def _run(self, *args: str) -> None:
        command = [str(self.bindir / args[0]), *args[1:]]
        if self._as_postgres:
            command = ["runuser", "-u", "postgres", "--", *command]
        result = subprocess.run(command, capture_output=True, text=True, timeout=120)
        if result.returncode != 0:
            raise RuntimeError(f"{args[0]} failed: {result.stderr.strip() or result.stdout.strip()}")

    def start(self) -> TempPostgres:
        if self._as_postgres:
            shutil.chown(self.base, "postgres", "postgres")
        self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8")
        options = (
            f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.base} -c fsync=off "
            f"-c synchronous_commit=off -c full_page_writes=off -c max_connections=60"
        )
        self._run("pg_ctl", "-D", str(self.data), "-o", options, "-l", str(self.base / "log"), "-w", "start")
        self.started = True
        return self

    def stop(self) -> None:
        try:
            if self.started:  # a server that never started has nothing to stop (and pg_ctl may not run)
                self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.base, ignore_errors=True)
