"""Parsing under a time budget.

tree-sitter 0.26 dropped ``Parser.timeout_micros``; the replacement is ``progress_callback``,
which the parser calls as ``callback(byte_offset, has_error)`` every few hundred parse operations
(only when the source is given as a read callable, not as bytes); returning True cancels and
``parse`` raises ``ValueError``. It is never called while a grammar spins inside its lexer,
which is how ``cobol`` hangs on ``b"x = 1\\n"``. So the budget has two layers:

* ``parse_source`` — in-process, cancelled by the progress callback (long but progressing parses);
* ``run_guarded`` — runs a function in a forked child and kills it at a hard deadline (hangs).
"""

from __future__ import annotations

import multiprocessing
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from maguyva.errors import ParseError
from maguyva.index.languages import grammar

DEFAULT_BUDGET_MS = 2000
_READ_SIZE = 1 << 16


def parse_source(path: str, language: str, source: bytes, budget_ms: int = DEFAULT_BUDGET_MS):
    """Parse ``source``; raise ParseError when the parse runs past ``budget_ms``."""
    from tree_sitter import Parser

    parser = Parser(grammar(language))
    deadline = time.monotonic() + budget_ms / 1000

    def read(offset: int, _point) -> bytes:
        return source[offset : offset + _READ_SIZE]

    def over_budget(_offset: int, _has_error: bool) -> bool:
        return time.monotonic() > deadline

    try:
        tree = parser.parse(read, progress_callback=over_budget)
    except ValueError as exc:
        raise ParseError(path, f"parse cancelled after {budget_ms} ms budget") from exc
    if tree is None:
        raise ParseError(path, f"parse cancelled after {budget_ms} ms budget")
    return tree


@dataclass(frozen=True, slots=True)
class Guarded:
    """The outcome of ``run_guarded``: a value, or why there is none."""

    value: Any = None
    error: str = ""


def run_guarded(fn: Callable[..., Any], args: tuple, seconds: float) -> Guarded:
    """Run ``fn(*args)`` in a forked child; kill it after ``seconds``. The result must pickle."""
    context = multiprocessing.get_context("fork")
    receiver, sender = context.Pipe(duplex=False)
    child = context.Process(target=_child, args=(sender, fn, args), daemon=True)
    child.start()
    sender.close()
    try:
        if receiver.poll(seconds):
            try:
                ok, payload = receiver.recv()
            except EOFError:
                return Guarded(error=f"worker died (exit code {child.join(1) or child.exitcode})")
            return Guarded(value=payload) if ok else Guarded(error=payload)
        return Guarded(error=f"exceeded hard deadline of {seconds:g} s")
    finally:
        if child.is_alive():
            child.kill()
        child.join()
        receiver.close()


def _child(sender, fn: Callable[..., Any], args: tuple) -> None:
    try:
        sender.send((True, fn(*args)))
    except Exception as exc:  # noqa: BLE001 -- reported to the parent as a typed error, never swallowed
        sender.send((False, f"{type(exc).__name__}: {exc}"))
    finally:
        sender.close()
