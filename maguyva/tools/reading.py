"""``get_file``: a repository file's numbered lines, confined to the repository, streamed from disk.

A file on disk is streamed (``maguyva.files.read_lines``): a range of a huge file costs the bytes it
returns, never the file's size in memory. A file not on disk (a team store has no checkout) is read
from the index.
"""

from __future__ import annotations

import errno
import json
from pathlib import Path
from typing import TYPE_CHECKING

from maguyva.answer_json import MAX_TOKENS, bound, hit_dict
from maguyva.errors import MaguyvaError
from maguyva.files import confine, read_lines
from maguyva.retrieve import structure
from maguyva.store.lines import split_lines

if TYPE_CHECKING:
    from maguyva.answers import FileAnswer
    from maguyva.store.base import Store

MAX_FILE_BYTES = 1_000_000


def file_content(root: Path, store: Store, path: str, *, ranged: bool) -> tuple[str, str | None, Path | None]:
    """(repo-relative path, the text from the index, the file on disk): one of the two is None.

    A file on disk is preferred (and streamed by ``get_file``); one larger than ``MAX_FILE_BYTES``
    is read only by line range.
    """
    full = confine(root, path)
    relative = full.relative_to(root).as_posix()
    try:
        if full.is_file():
            if full.stat().st_size > MAX_FILE_BYTES and not ranged:
                raise MaguyvaError(f"{relative} is larger than {MAX_FILE_BYTES} bytes; ask for a line range")
            return relative, None, full
    except OSError as exc:  # unreadable, or a name too long for the file system: the index may hold it
        if exc.errno != errno.ENAMETOOLONG:
            raise MaguyvaError(f"{relative}: cannot read: {exc.strerror}") from None
    content = store.file_text(relative)
    if content is None:
        raise MaguyvaError(f"no file {relative!r} in the repository")
    return relative, content, None


def get_file(
    store: Store,
    located: tuple[str, str | None, Path | None],
    *,
    start_line: int | None,
    end_line: int | None,
    include_metadata: bool,
    max_tokens: int,
) -> FileAnswer:
    """The lines of ``located`` (what ``file_content`` found: the path, its indexed text or its file)."""
    from maguyva.answers import FileAnswer, FileMetadata, Line

    relative, content, on_disk = located
    first = max(1, start_line or 1)
    record = store.file_record(relative) if include_metadata else None
    cut, digest = None, None
    if on_disk is not None:
        budget = max(200, min(max_tokens, MAX_TOKENS))  # what ``bound`` keeps at most, in tokens
        try:
            piece = read_lines(
                on_disk, first, end_line, min(MAX_FILE_BYTES, 3 * budget), digest=record is not None
            )
        except OSError as exc:
            raise MaguyvaError(f"{relative}: cannot read: {exc.strerror}") from None
        lines, total, cut, digest = piece.lines, piece.total, piece.cut, piece.digest
        if piece.partial:  # one line longer than the budget: cut to what its JSON can hold
            lines[-1] = fit_json(lines[-1], 3 * budget)
    else:
        every = split_lines(content or "")
        lines, total = every[first - 1 : end_line], len(every)
    last = min(total, end_line or total)
    if first > last and total:
        raise MaguyvaError(f"line range {first}-{last} is outside {relative} (1-{total})")
    if cut is not None:
        last = first + len(lines) - 1 if lines else first
    metadata = {}
    if include_metadata:
        symbols = [hit_dict(structure.symbol_hit(s, 1.0)) for s in store.symbols_in(relative)][:100]
        metadata["metadata"] = FileMetadata(
            language=record.language if record else None,
            flags=list(record.flags) if record else [],
            indexed=record is not None,
            stale=record is not None and digest is not None and record.content_hash != digest,
            symbols=symbols,
        )
    answer = FileAnswer(
        **({"truncated": True, "truncation_note": f"{cut}; ask for a narrower range"} if cut else {}),
        path=relative,
        citation=f"{relative}:{first}",
        start_line=first,
        end_line=last,
        total_lines=total,
        lines=[Line(line=first + n, text=text) for n, text in enumerate(lines)],
        **metadata,
    )
    bounded = bound(answer, "lines", max_tokens)
    if bounded.truncated is True:
        bounded = bounded.model_copy(update={"end_line": bounded.lines[-1].line if bounded.lines else first})
    return bounded


def fit_json(text: str, limit: int) -> str:
    """``text`` shortened until its JSON (control characters escaped) takes at most ``limit`` characters."""
    while len(encoded := json.dumps(text, ensure_ascii=False)) > limit and text:
        text = text[: max(0, len(text) * limit // len(encoded) - 1)]
    return text
