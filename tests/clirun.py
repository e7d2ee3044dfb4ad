"""The CLI run inside the test process: what ``python -m orkestra`` (or ``maguyva``) does, without a new
interpreter.

``run_cli`` takes the arguments of ``conftest.run_cli`` (the real console script as a subprocess) and
answers the same shape (``returncode``, ``stdout``, ``stderr``), so a test that runs a command only to
check what it does costs the command, not an interpreter start-up and its imports. It enters the same
function the console script does (``orkestra.entry.main``, the fast no-op path included, or
``maguyva.cli.main``), with ``sys.argv``, the working directory, the environment and the three standard
streams swapped for the run and put back after it (click's ``CliRunner.isolation``).

Tests whose point is the process itself keep ``conftest.run_cli``: start-up and import laziness, entry
points, signals and kills, stdio servers, hooks run as programs, time limits on hostile input.

``ORKESTRA_TEST_SUBPROCESS=1`` sends every ``run_cli`` here to the subprocess instead: the same tests, run
both ways, to compare their wall time or to tell an in-process difference from a real failure.
"""

from __future__ import annotations

import os
import sys
import traceback
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import conftest
from click.testing import CliRunner


@dataclass
class Result:
    """A finished command line, read like ``subprocess.CompletedProcess``."""

    args: list[str]
    returncode: int
    stdout: str
    stderr: str

    @property
    def exit_code(self) -> int:
        return self.returncode


def _entry(program: str):
    if program == "orkestra":
        from orkestra.entry import main
    else:
        from maguyva.cli import main
    return main


def run_cli(
    *args: str, cwd: Path, input: str | None = None, env: dict | None = None, program: str = "orkestra"
) -> Result:
    """Run ``program ARGS`` in ``cwd`` in this process; ``env`` adds to (or, ``None`` values, removes
    from) the environment for the run only."""
    if os.environ.get("ORKESTRA_TEST_SUBPROCESS"):
        done = conftest.run_cli(*args, cwd=cwd, input=input, env=env, program=program)
        return Result(list(args), done.returncode, done.stdout, done.stderr)
    overrides = dict(env or {})
    if "COLUMNS" not in overrides and "COLUMNS" not in os.environ and not os.isatty(0):
        # a subprocess's stdout and stderr are pipes: rich falls back to 80 columns; here they may be a
        # terminal (pytest -s), so say 80 the way the subprocess found it
        overrides["COLUMNS"] = "80"
    main = _entry(program)
    saved = (sys.argv, os.getcwd(), sys.excepthook)
    environ = dict(os.environ)
    code = 0
    with _environ_restored(environ), CliRunner().isolation(input=input, env=overrides) as (out, err, _):
        sys.argv = [program, *map(str, args)]
        try:
            os.chdir(cwd)
            main()
        except SystemExit as exc:
            code = _exit_code(exc.code)
        except Exception:  # noqa: BLE001 - what the interpreter would print and exit 1 on
            traceback.print_exc()
            code = 1
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            sys.argv = saved[0]
            os.chdir(saved[1])
            sys.excepthook = saved[2]
        return Result(list(args), code, _text(out.getvalue()), _text(err.getvalue()))


def _text(raw: bytes) -> str:
    return raw.decode("utf-8", "replace")


@contextmanager
def _environ_restored(environ: dict[str, str]) -> Iterator[None]:
    """Put the environment back as it was, whatever the command set in it (a child's changes never
    reach its parent); the runner's own overrides are undone by the isolation."""
    try:
        yield
    finally:
        if dict(os.environ) != environ:
            os.environ.clear()
            os.environ.update(environ)


def _exit_code(code: object) -> int:
    """The status ``sys.exit(code)`` leaves a process with (a message goes to stderr, status 1)."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    print(code, file=sys.stderr)
    return 1
