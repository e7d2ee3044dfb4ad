"""The derived commit index: ``<state>/mining/commits.jsonl`` (one commit per line) + ``state.json``.

``sync_index`` is incremental: it reads only ``last..HEAD``. When the last synced commit is
no longer an ancestor of HEAD (history rewritten) or the mining settings changed, it rebuilds
the index from scratch. The directory holds its own ``.gitignore`` so it is never committed.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import tempfile
import threading
from collections.abc import Iterable
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

import orjson

from orkestra.atomic import atomic_file, write_atomic
from orkestra.errors import OrkestraError
from orkestra.mining.config import MiningPaths
from orkestra.mining.conventional import message_parts, parse_message
from orkestra.mining.git import NEWEST_COMMITS, Git, LogPart, RawCommit, log_listing, log_newest
from orkestra.mining.ledger import ensure_gitattributes
from orkestra.mining.signals import SignalExtractor, detect_packages

INDEX_FILE = "commits.jsonl"
GRAPH_FILE = "graph.txt"  # "<sha> <parent> …" per commit, oldest first: what the changelog renderer walks
STATE_FILE = "state.json"
SYNC_LOCK_FILE = "sync.lock"
INDEX_VERSION = 2


@dataclass(frozen=True, slots=True)
class SyncResult:
    root: str
    index: str
    mode: str  # "full" | "incremental" | "up-to-date"
    reason: str
    new_commits: int
    total_commits: int
    head: str | None
    stats: bool
    gitattributes_updated: bool

    def to_dict(self) -> dict:
        return {k: getattr(self, k) for k in self.__slots__}


def commit_record(raw: RawCommit, extractor: SignalExtractor) -> dict:
    """One index line: what ``mine candidates`` shows and what the ledgers refer to."""
    message = raw.message
    parsed = parse_message(message)
    _, parts = message_parts(message)
    stats = None
    if raw.numstat is not None:
        stats = {
            "files": len(raw.files),
            "insertions": sum(i for i, _ in raw.numstat),
            "deletions": sum(d for _, d in raw.numstat),
        }
    return {
        "sha": raw.sha,
        "parents": list(raw.parents),
        "date": raw.date,
        "author": raw.author,
        "subject": parsed.subject,
        "description": parsed.description,
        "body": parsed.body,
        "footers": [[f.token, f.value] for f in parsed.footers] if parsed.footers else [],
        "breaking_description": parsed.breaking_description,
        "parts": [
            {"type": p.type, "scope": p.scope, "description": p.description, "breaking": p.breaking}
            for p in parts
        ]
        if parts
        else [],
        "files_changed": list(raw.files),
        "stats": stats,
        "signals": extractor.signals(parsed, raw.files, len(raw.parents), stats),
    }


def _fingerprint(paths: MiningPaths, packages: list[str]) -> str:
    settings = json.dumps(
        [INDEX_VERSION, paths.config.model_dump(mode="json", exclude={"changelog"}), packages], sort_keys=True
    )
    return hashlib.sha256(settings.encode()).hexdigest()[:16]


def read_state(paths: MiningPaths, required: bool = False) -> dict:
    """The index's ``state.json`` ({} before the first sync, or an error when ``required``)."""
    state_path = paths.index_dir / STATE_FILE
    if state_path.is_file():
        return json.loads(state_path.read_text())
    if required:
        raise OrkestraError(f"{paths.root}: no commit index yet (run `orkestra mine sync` first)")
    return {}


def sync_index(
    paths: MiningPaths, stats: bool = False, full: bool = False, git: Git | None = None
) -> SyncResult:
    """Bring the commit index up to date with HEAD (and mark the ledgers ``merge=union``).

    :param stats: also record insertions/deletions (a ``--numstat`` pass); sticky once used.
    :param full: rebuild from scratch even when an incremental update would do.
    """
    from filelock import FileLock

    git = git or Git(paths.root)
    paths.index_dir.mkdir(parents=True, exist_ok=True)
    with FileLock(str(paths.index_dir / SYNC_LOCK_FILE)):  # two syncs at once would append twice
        return _sync_locked(paths, git, stats, full)


def _sync_locked(paths: MiningPaths, git: Git, stats: bool, full: bool) -> SyncResult:
    index_dir = paths.index_dir
    ignore = index_dir / ".gitignore"
    if not ignore.is_file():
        ignore.write_text("*\n")
    packages = detect_packages(paths.root, paths.config)
    fingerprint = _fingerprint(paths, packages)
    state = read_state(paths)
    stats = stats or bool(state.get("stats"))
    head = git.head()
    index_path = index_dir / INDEX_FILE

    mode, reason = _plan(git, state, head, fingerprint, stats, full, index_path)
    extractor = SignalExtractor.build(paths.config, packages)
    new = 0
    if mode == "full":  # streamed oldest first into fresh files, swapped in whole
        with (
            atomic_file(index_path, buffering=1 << 20) as index,
            atomic_file(index_dir / GRAPH_FILE, buffering=1 << 20) as graph,
        ):
            new = total = _write_log(git, head, stats, extractor, index, graph, full=True) if head else 0
    elif mode == "incremental":  # streamed to temporary files, then appended in one copy each
        with tempfile.TemporaryFile(dir=index_dir) as index, tempfile.TemporaryFile(dir=index_dir) as graph:
            new = _write_log(git, f"{state['head']}..{head}", stats, extractor, index, graph)
            for temporary, target in ((index, index_path), (graph, index_dir / GRAPH_FILE)):
                temporary.seek(0)
                with target.open("ab") as handle:
                    shutil.copyfileobj(temporary, handle)
        total = state["count"] + new
    else:
        total = state.get("count", 0)
    _write_atomic(
        index_dir / STATE_FILE,
        json.dumps(
            {
                "version": INDEX_VERSION,
                "head": head,
                "stats": stats,
                "count": total,
                "fingerprint": fingerprint,
                "packages": packages,
            },
            indent=2,
        )
        + "\n",
    )
    attributes = ensure_gitattributes(paths.root, paths.config.ledger_dir)
    return SyncResult(str(paths.root), str(index_path), mode, reason, new, total, head, stats, attributes)


def _plan(
    git: Git, state: dict, head: str | None, fingerprint: str, stats: bool, full: bool, index_path: Path
) -> tuple[str, str]:
    if head is None:
        return "full", "repository has no commits"
    if full:
        return "full", "--full requested"
    if not state or not index_path.is_file() or not (index_path.parent / GRAPH_FILE).is_file():
        return "full", "no index yet"
    if state.get("fingerprint") != fingerprint:
        return "full", "mining settings or packages changed"
    if stats and not state.get("stats"):
        return "full", "stats requested on an index built without them"
    if state.get("head") == head:
        return "up-to-date", "index already at HEAD"
    if not state.get("head") or not git.is_ancestor(state["head"], head):
        return "full", "last synced commit is no longer in HEAD's history (rewritten)"
    return "incremental", f"new commits since {state['head'][:12]}"


WORKERS = 2  # processes building records at once (a second one pays from SPLIT_MIN_COMMITS on)


def _write_log(
    git: Git, revision: str, stats: bool, extractor: SignalExtractor, index, graph, full: bool = False
) -> int:
    """Write the records of ``revision``'s commits oldest first; how many were written.

    With more than one core, a forked child builds part of the records and writes their lines to unnamed
    temporary files, appended after this process's: the same bytes as one process writing every record
    in order, on two cores. A full sync's child starts at once (:func:`_write_streamed`); an incremental
    one splits the listed range in two runs (``Git.log_parts``, :func:`_write_forked`)."""
    # a fork copies only the calling thread: never fork a process that runs others (an MCP server, say)
    alone = hasattr(os, "fork") and threading.active_count() == 1
    workers = WORKERS if (os.cpu_count() or 1) > 1 and alone else 1
    if workers > 1 and full:
        return _write_streamed(git, revision, stats, extractor, index, graph)
    with git.log_parts(revision, stats, parts=workers) as parts:
        if len(parts) < 2:
            return sum(_write_records(part, extractor, index, graph) for part in parts)
        return _write_forked(parts, extractor, index, graph)


def _write_forked(parts: list, extractor: SignalExtractor, index: BinaryIO, graph: BinaryIO) -> int:
    """``parts[0]`` written here, the rest by a forked child into temporary files appended after it."""
    with tempfile.TemporaryFile(buffering=1 << 20) as later_index, tempfile.TemporaryFile() as later_graph:
        child = _fork(
            lambda: sum(_write_records(part, extractor, later_index, later_graph) for part in parts[1:]),
            later_index,
            later_graph,
        )
        with child:
            count = _write_records(parts[0], extractor, index, graph)
            count += child.join()
        _append(later_index, index)
        _append(later_graph, graph)
        return count


def _write_streamed(
    git: Git, revision: str, stats: bool, extractor: SignalExtractor, index: BinaryIO, graph: BinaryIO
) -> int:
    """A full sync on two cores, the child at work from the start.

    The child streams the newest :data:`NEWEST_COMMITS` commits (``git log --max-count``, newest first)
    while this process runs ``git rev-list``; then it reads the slice of the list just before them that
    this process hands it and writes that slice oldest first, then the newest reversed. This process
    writes the oldest commits meanwhile, and appends the child's lines only if their shas are the list's
    (git walks the same way for both; if it ever did not, the child's commits are read again here)."""
    root = git.root
    with (
        tempfile.TemporaryFile(buffering=1 << 20) as later_index,
        tempfile.TemporaryFile() as later_graph,
        tempfile.TemporaryFile(buffering=0) as handed,
    ):
        orders, tell = os.pipe()
        child = _fork(
            lambda: _newest_then_handed(
                root, revision, stats, extractor, orders, handed, later_index, later_graph
            ),
            later_index,
            later_graph,
            parents_ends=(tell,),
        )
        os.close(orders)
        with child, ExitStack() as files:
            try:
                with log_listing(root, revision) as (revs, count, width):
                    own, middle, _ = split_counts(count)
                    for offset in range(own * width, (own + middle) * width, 1 << 20):
                        data = os.pread(revs.fileno(), min(1 << 20, (own + middle) * width - offset), offset)
                        os.pwrite(handed.fileno(), data, offset - own * width)
                    try:
                        os.write(tell, f"{middle} {width}".encode())
                    except BrokenPipeError:  # the child stopped first: raise its error
                        child.join()
                        raise OrkestraError("the log reader stopped early") from None
                    os.close(tell)
                    tell = None
                    written = _write_records(
                        LogPart.of(root, revision, stats, revs, width, 0, own, files), extractor, index, graph
                    )
                    written += child.join()
                    if _listed(later_graph, revs, width, own, count):
                        _append(later_index, index)
                        _append(later_graph, graph)
                        return written
                    rest = LogPart.of(root, revision, stats, revs, width, own, count, files)
                    return written - (count - own) + _write_records(rest, extractor, index, graph)
            finally:
                if tell is not None:
                    os.close(tell)


def split_counts(count: int) -> tuple[int, int, int]:
    """How a full sync of ``count`` commits shares them out, oldest first: (written by this process, handed to
    the child, streamed newest first by the child). The child starts earlier, so it takes a quarter of its
    stream more than half."""
    newest = min(NEWEST_COMMITS, count)
    middle = max(0, min(count - newest, count // 2 + newest // 4 - newest))
    return count - newest - middle, middle, newest


def _newest_then_handed(
    root: Path, revision: str, stats: bool, extractor, orders: int, handed, later_index, later_graph
) -> int:
    """The child of :func:`_write_streamed`: the newest commits, then the handed slice, written oldest first."""
    with (
        tempfile.TemporaryFile(buffering=1 << 20) as newest_index,
        tempfile.TemporaryFile() as newest_graph,
        ExitStack() as files,
    ):
        sizes = []
        for raw in log_newest(root, revision, stats, NEWEST_COMMITS):
            line, link = _lines(raw, extractor)
            newest_index.write(line)
            newest_graph.write(link)
            sizes.append((len(line), len(link)))
        order = _read_all(orders).split()
        if len(order) != 2 or not all(word.isdigit() for word in order):
            raise OrkestraError("the sync stopped before handing out its commits")
        middle, width = map(int, order)
        count = _write_records(
            LogPart.of(root, revision, stats, handed, width, 0, middle, files),
            extractor,
            later_index,
            later_graph,
        )
        for source, target, side in ((newest_index, later_index, 0), (newest_graph, later_graph, 1)):
            source.flush()
            _write_reversed(source.fileno(), [pair[side] for pair in sizes], source.tell(), target)
        return count + len(sizes)


def _write_reversed(source: int, sizes: list[int], end: int, target: BinaryIO, block: int = 1 << 20) -> None:
    """The records of ``sizes`` bytes each that end at ``end`` in ``source``, written to ``target`` last first.

    One read per ``block`` bytes of records (a record larger than that is read alone), not one per record."""
    last = len(sizes)
    while last:
        first, size = last - 1, sizes[last - 1]
        while first and size + sizes[first - 1] <= block:
            first -= 1
            size += sizes[first]
        data = os.pread(source, size, end - size)
        cut = size
        for number in range(last - 1, first - 1, -1):  # the block's records, last first
            target.write(data[cut - sizes[number] : cut])
            cut -= sizes[number]
        end -= size
        last = first


def _listed(lines: BinaryIO, revs, width: int, first: int, last: int, block: int = 1 << 20) -> bool:
    """Whether the graph lines in ``lines`` are for the listed commits ``first`` to ``last``, in order
    (the list read ``block`` bytes at a time)."""
    lines.seek(0)
    number, listed = first, []
    for line in lines:
        if number >= last:
            return False
        if not listed:  # the list's next shas, oldest first
            step = min(last - number, max(1, block // width))
            listed = os.pread(revs.fileno(), step * width, number * width).split(b"\n")[step - 1 :: -1]
        if listed.pop() != line.split(b" ", 1)[0].rstrip(b"\n"):
            return False
        number += 1
    return number == last


class _Child:
    """A forked child running ``work`` (returns a count); ``join`` waits for it and raises its error."""

    def __init__(self, pid: int, report: int):
        self.pid, self.report, self.joined = pid, report, False

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        os.close(self.report)
        if not self.joined:  # this process failed first: stop the child (its git dies on the closed pipe)
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)

    def join(self) -> int:
        answer = _read_all(self.report)
        _, status = os.waitpid(self.pid, 0)
        self.joined = True
        if os.waitstatus_to_exitcode(status) or not answer.isdigit():
            raise OrkestraError(answer[1:] if answer.startswith("!") else "the log reader stopped early")
        return int(answer)


def _fork(work, *outputs: BinaryIO, parents_ends: tuple[int, ...] = ()) -> _Child:
    """Fork a child that runs ``work``, flushes ``outputs`` and reports its count (closing ``parents_ends``,
    the pipe ends only the parent writes to, so the child sees the end of what the parent tells it)."""
    report, child_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns, never runs the parent's cleanup or flushes its buffers
        os.close(report)
        for end in parents_ends:
            os.close(end)
        code = 1
        try:
            count = work()
            for output in outputs:
                output.flush()
            os.write(child_end, f"{count}".encode())
            code = 0
        except BaseException as error:  # noqa: BLE001 - reported to the parent, which raises it
            os.write(child_end, f"!{error}".encode("utf-8", "replace")[:4000])
        finally:
            os._exit(code)
    os.close(child_end)
    return _Child(pid, report)


def _append(temporary: BinaryIO, target: BinaryIO) -> None:
    temporary.seek(0)
    shutil.copyfileobj(temporary, target, 1 << 20)


def _read_all(fd: int) -> str:
    chunks = []
    while chunk := os.read(fd, 4096):
        chunks.append(chunk)
    return b"".join(chunks).decode("utf-8", "replace")


def _lines(raw: RawCommit, extractor: SignalExtractor) -> tuple[bytes, bytes]:
    """The index line and the graph line of one commit."""
    record = orjson.dumps(commit_record(raw, extractor), option=orjson.OPT_APPEND_NEWLINE)
    return record, " ".join((raw.sha, *raw.parents)).encode() + b"\n"


def _write_records(
    commits: Iterable[RawCommit], extractor: SignalExtractor, index: BinaryIO, graph: BinaryIO
) -> int:
    """Write one index line and one graph line per commit as it streams by; how many were written.

    orjson writes the same bytes as ``json.dumps(ensure_ascii=False, separators=(",", ":"))``
    (tests/test_mine_sync.py checks it) at a fraction of the cost."""
    count = 0
    for raw in commits:
        line, link = _lines(raw, extractor)
        index.write(line)
        graph.write(link)
        count += 1
    return count


def _write_atomic(path: Path, text: str) -> None:
    write_atomic(path, text)


def load_index(paths: MiningPaths) -> dict[str, dict]:
    """Every indexed commit by sha, oldest first (empty when never synced)."""
    index_path = paths.index_dir / INDEX_FILE
    if not index_path.is_file():
        return {}
    commits: dict[str, dict] = {}
    with index_path.open(encoding="utf-8") as handle:
        for line in handle:
            record = json.loads(line)
            commits[record["sha"]] = record
    return commits


def load_graph(paths: MiningPaths) -> dict[str, list[str]]:
    """Every indexed commit's parents by sha, oldest first (without parsing the full index)."""
    graph_path = paths.index_dir / GRAPH_FILE
    if not graph_path.is_file():
        return {}
    graph: dict[str, list[str]] = {}
    for line in graph_path.read_text(encoding="utf-8").splitlines():
        sha, *parents = line.split(" ")
        graph[sha] = parents
    return graph
