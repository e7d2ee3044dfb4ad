"""The derived commit index: ``<state>/mining/commits.jsonl`` (one commit per line) + ``state.json``.

``sync_index`` is incremental: it reads only ``last..HEAD``. When the last synced commit is
no longer an ancestor of HEAD (history rewritten) or the mining settings changed, it rebuilds
the index from scratch. The directory holds its own ``.gitignore`` so it is never committed.
``state.json``, written last, says how much of each file is committed (``orkestra.mining.index_files``):
a sync killed at any moment leaves the old index or the new one.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path

import orjson

from orkestra.errors import OrkestraError
from orkestra.fs.atomic import atomic_file, write_atomic
from orkestra.mining import guarded, index_files, lanes
from orkestra.mining.config import MiningPaths
from orkestra.mining.conventional import message_parts, parse_message
from orkestra.mining.git import Git, RawCommit
from orkestra.mining.index_files import GRAPH_FILE, INDEX_FILE, STATE_FILE
from orkestra.mining.ledger import ensure_gitattributes
from orkestra.mining.signals import SignalExtractor, detect_packages

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
    settings = json.dumps([INDEX_VERSION, paths.config.index_settings(), packages], sort_keys=True)
    return hashlib.sha256(settings.encode()).hexdigest()[:16]


def read_state(paths: MiningPaths, required: bool = False) -> dict:
    """The index's ``state.json`` ({} before the first sync, or an error when ``required``)."""
    state_path = guarded.check(paths.root, paths.index_dir / STATE_FILE)
    if state_path.is_file():
        try:
            state = json.loads(state_path.read_text(encoding="utf-8"))
        except (ValueError, UnicodeDecodeError) as error:
            raise OrkestraError(f"{state_path}: unreadable ({error}): run `orkestra mine sync`") from None
        if not isinstance(state, dict):
            raise OrkestraError(f"{state_path}: not a JSON object: run `orkestra mine sync`")
        return state
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
    guarded.folder(paths.root, paths.index_dir)
    names = (SYNC_LOCK_FILE, ".gitignore", *index_files.FILES, STATE_FILE)
    guarded.check_each(paths.root, [paths.index_dir / name for name in names])  # no link written through
    with FileLock(str(paths.index_dir / SYNC_LOCK_FILE)):  # two syncs at once would append twice
        return _sync_locked(paths, git, stats, full)


def _sync_locked(paths: MiningPaths, git: Git, stats: bool, full: bool) -> SyncResult:
    index_dir = paths.index_dir
    ignore = index_dir / ".gitignore"
    if not ignore.is_file():
        ignore.write_text("*\n")
    packages = detect_packages(paths.root, paths.config)
    fingerprint = _fingerprint(paths, packages)
    _remove_debris(index_dir)
    try:
        state = read_state(paths)
    except OrkestraError:  # a damaged state vouches for nothing: rebuilt below
        state = {"damaged": True}
    stats = stats or bool(state.get("stats"))
    head = git.head()
    index_path = index_dir / INDEX_FILE
    lengths = index_files.committed(index_dir, state) if state else None

    mode, reason = _plan(git, state, head, fingerprint, stats, full, index_path, lengths is not None)
    if mode != "full":  # what a killed sync wrote past its state is not part of the index
        index_files.cut(index_dir, lengths)
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
                "bytes": index_files.lengths_now(index_dir),
            },
            indent=2,
        )
        + "\n",
    )
    attributes = ensure_gitattributes(paths.root, paths.config.ledger_dir)
    return SyncResult(str(paths.root), str(index_path), mode, reason, new, total, head, stats, attributes)


def _remove_debris(index_dir: Path) -> None:
    """The temporary files of syncs killed before their renames (only syncs write them, under the lock)."""
    for name in (*index_files.FILES, STATE_FILE):
        for stale in index_dir.glob(f".{name}.*"):
            stale.unlink(missing_ok=True)


def _plan(
    git: Git,
    state: dict,
    head: str | None,
    fingerprint: str,
    stats: bool,
    full: bool,
    index_path: Path,
    intact: bool,
) -> tuple[str, str]:
    if head is None:
        return "full", "repository has no commits"
    if full:
        return "full", "--full requested"
    if not state or not index_path.is_file() or not (index_path.parent / GRAPH_FILE).is_file():
        return "full", "no index yet"
    if not intact:
        return "full", "the index files do not match state.json (an interrupted sync, or an edit)"
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

    With more than one core, a child process builds part of the records and writes their lines to unnamed
    temporary files, appended after this process's: the same bytes as one process writing every record
    in order, on two cores (``orkestra.mining.lanes``). A full sync's two lanes take the listed commits
    from its two ends as they go, the child at work from the start (:func:`lanes.write_two_lanes`); an
    incremental one splits the listed range in two runs (``Git.log_parts``, :func:`lanes.write_forked`)."""
    # a forked lane copies only the calling thread: never fork a process that runs others (an MCP server)
    alone = lanes.available() and threading.active_count() == 1
    workers = WORKERS if _usable_cpus() > 1 and alone else 1

    def lines(raw: RawCommit) -> tuple[bytes, bytes]:
        return _lines(raw, extractor)

    if workers > 1 and full:
        return lanes.write_two_lanes(git.root, revision, stats, lines, index, graph)
    with git.log_parts(revision, stats, parts=workers) as parts:
        if len(parts) < 2:
            return sum(lanes.write_records(part, lines, index, graph) for part in parts)
        return lanes.write_forked(parts, lines, index, graph)


def _usable_cpus() -> int:
    """The CPUs this process may run on (a ``taskset`` or a cgroup's cpuset may allow fewer than the
    machine has: then a second lane only adds the list's and its gits' work)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def _lines(raw: RawCommit, extractor: SignalExtractor) -> tuple[bytes, bytes]:
    """The index line and the graph line of one commit.

    orjson writes the same bytes as ``json.dumps(ensure_ascii=False, separators=(",", ":"))``
    (tests/test_mine_sync.py checks it) at a fraction of the cost."""
    record = orjson.dumps(commit_record(raw, extractor), option=orjson.OPT_APPEND_NEWLINE)
    return record, " ".join((raw.sha, *raw.parents)).encode() + b"\n"


def _write_atomic(path: Path, text: str) -> None:
    write_atomic(path, text)


def load_index(paths: MiningPaths) -> dict[str, dict]:
    """Every indexed commit by sha, oldest first (empty when never synced)."""
    commits: dict[str, dict] = {}
    guarded.check(paths.root, paths.index_dir / INDEX_FILE)
    for line in index_files.committed_lines(paths.index_dir, INDEX_FILE, read_state(paths)):
        record = json.loads(line)
        commits[record["sha"]] = record
    return commits


def load_graph(paths: MiningPaths) -> dict[str, list[str]]:
    """Every indexed commit's parents by sha, oldest first (without parsing the full index)."""
    guarded.check(paths.root, paths.index_dir / GRAPH_FILE)
    data = index_files.committed_bytes(paths.index_dir, GRAPH_FILE, read_state(paths))
    graph: dict[str, list[str]] = {}
    for line in data.decode("utf-8").splitlines():
        sha, *parents = line.split(" ")
        graph[sha] = parents
    return graph
