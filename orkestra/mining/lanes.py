"""Two processes writing one commit index: a forked child for a listed range, and a full sync's two lanes.

An incremental sync's range comes as runs (``Git.log_parts``): :func:`write_forked` writes the first
here and has a forked child write the rest.

A full sync reads ``git rev-list --reverse`` (:func:`~orkestra.mining.git.log_listing`, oldest
first) and shares the list out from its two ends. This process's lane takes runs from the front
(the oldest commits) and writes them straight into the index. A forked child's lane starts at
once with the newest commits (``git log --max-count``, newest first, streamed while the list is
still being made), then takes runs from the back. Each run is taken under a lock
(:class:`Claims`): half of what is left, at least :data:`LEAST_RUN` and at most
:data:`~orkestra.mining.git.CHUNK_COMMITS` (one git each). So the lanes meet wherever their work
meets, not at a count fixed in advance. That matters on real histories, where newer commits cost
more to diff than older ones.

The child writes its lines to unnamed temporary files, oldest first, and this process appends them
after its own, but only if their shas are the list's (git walks the same way for the list and the
log; if it ever did not, this process reads those commits again). The bytes are those of one
process writing every record in order.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import signal
import struct
import sys
import tempfile
import threading
from collections.abc import Callable, Iterable
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import BinaryIO

from orkestra.errors import OrkestraError
from orkestra.mining import git as mining_git
from orkestra.mining.git import LogPart, RawCommit, log_listing, log_newest

NEWEST_COMMITS = mining_git.CHUNK_COMMITS  # the child's first stream (one git, so its RSS stays bounded)
NEWEST_STEP = 256  # the child claims its first stream this many commits at a time
LEAST_RUN = 256  # below this a run is not worth a git of its own, unless that is all that is left

Lines = Callable[[RawCommit], tuple[bytes, bytes]]  # a commit's index line and graph line


class Claims:
    """Which commits of a list each lane has taken: ``front`` from the oldest end, ``back`` from the
    newest, out of ``total`` (unknown until the list is made).

    The three numbers live in an unnamed temporary file opened before the fork. Each claim reads and
    writes them under a POSIX record lock, which is held per process (a forked child does not share
    it), and under a thread lock as well, for lanes that are threads of one process (the bench)."""

    _FIELDS = struct.Struct("<qqq")

    def __init__(self, handle: BinaryIO):
        self._fd = handle.fileno()
        self._threads = threading.Lock()
        os.pwrite(self._fd, self._FIELDS.pack(-1, 0, 0), 0)

    @contextmanager
    def _held(self):
        with self._threads:
            fcntl.lockf(self._fd, fcntl.LOCK_EX)
            try:
                yield list(self._FIELDS.unpack(os.pread(self._fd, self._FIELDS.size, 0)))
            finally:
                fcntl.lockf(self._fd, fcntl.LOCK_UN)

    def _write(self, state: list[int]) -> None:
        os.pwrite(self._fd, self._FIELDS.pack(*state), 0)

    def listed(self, total: int) -> None:
        """The list is made: ``total`` commits."""
        with self._held() as state:
            state[0] = total
            self._write(state)

    def newest(self, most: int) -> int:
        """How many more of the newest commits the child's first stream may write (up to ``most``)."""
        with self._held() as state:
            total, front, back = state
            granted = most if total < 0 else max(0, min(most, total - front - back))
            state[2] = back + granted
            self._write(state)
            return granted

    def give_back(self, count: int) -> None:
        """Return ``count`` newest commits granted but never written (the first stream ended before them)."""
        if count:
            with self._held() as state:
                state[2] -= count
                self._write(state)

    def take(self, from_front: bool, most: int | None = None) -> tuple[int, int] | None:
        """The next run as list positions ``(first, last)``, oldest first, from the front or the back;
        None when every commit is taken. Call only once the list is made."""
        most = most or mining_git.CHUNK_COMMITS
        with self._held() as state:
            total, front, back = state
            left = total - front - back
            if left <= 0:
                return None
            size = min(left, most, max(LEAST_RUN, -(-left // 2)))
            if from_front:
                state[1] = front + size
                run = (front, front + size)
            else:
                state[2] = back + size
                run = (total - back - size, total - back)
            self._write(state)
            return run

    def front(self) -> int:
        with self._held() as state:
            return state[1]


def write_forked(parts: list, lines: Lines, index: BinaryIO, graph: BinaryIO) -> int:
    """``parts[0]`` written here, the rest by a forked child into temporary files appended after it."""
    with tempfile.TemporaryFile(buffering=1 << 20) as later_index, tempfile.TemporaryFile() as later_graph:
        child = fork(
            lambda: sum(write_records(part, lines, later_index, later_graph) for part in parts[1:]),
            later_index,
            later_graph,
        )
        with child:
            count = write_records(parts[0], lines, index, graph)
            count += child.join()
        append(later_index, index)
        append(later_graph, graph)
        return count


def write_two_lanes(
    root: Path, revision: str, stats: bool, lines: Lines, index: BinaryIO, graph: BinaryIO
) -> int:
    """Write every commit of ``revision`` oldest first on two cores; how many were written."""
    with (
        tempfile.TemporaryFile(buffering=1 << 20) as later_index,
        tempfile.TemporaryFile() as later_graph,
        tempfile.TemporaryFile(buffering=0) as revs,
        tempfile.TemporaryFile(buffering=0) as claimed,
    ):
        claims = Claims(claimed)
        orders, tell = os.pipe()
        child = fork(
            lambda: _newest_lane(
                root, revision, stats, lines, claims, orders, revs, later_index, later_graph
            ),
            later_index,
            later_graph,
            parents_ends=(tell,),
        )
        os.close(orders)
        with child, ExitStack() as files:
            try:
                with log_listing(root, revision, into=revs) as (_, count, width):
                    claims.listed(count)
                    try:
                        os.write(tell, f"{width}".encode())
                    except BrokenPipeError:  # the child stopped first: raise its error
                        child.join()
                        raise OrkestraError("the log reader stopped early") from None
                    os.close(tell)
                    tell = None
                    written = 0
                    while run := claims.take(from_front=True):
                        part = LogPart.of(root, revision, stats, revs, width, *run, files)
                        written += write_records(part, lines, index, graph)
                    own = claims.front()
                    written += child.join()
                    if listed(later_graph, revs, width, own, count):
                        append(later_index, index)
                        append(later_graph, graph)
                        return written
                    rest = LogPart.of(root, revision, stats, revs, width, own, count, files)
                    return written - (count - own) + write_records(rest, lines, index, graph)
            finally:
                if tell is not None:
                    os.close(tell)


def _newest_lane(
    root: Path,
    revision: str,
    stats: bool,
    lines: Lines,
    claims: Claims,
    orders: int,
    revs,
    later_index,
    later_graph,
) -> int:
    """The child's lane: the newest commits as git streams them, then runs from the list's back; its
    lines written oldest first into ``later_index`` and ``later_graph``."""
    with (
        tempfile.TemporaryFile(buffering=1 << 20) as newest_index,
        tempfile.TemporaryFile() as newest_graph,
        tempfile.TemporaryFile(buffering=1 << 20) as runs_index,
        tempfile.TemporaryFile() as runs_graph,
        ExitStack() as files,
    ):
        sizes, granted = [], 0
        stream = log_newest(root, revision, stats, NEWEST_COMMITS)
        try:
            for raw in stream:
                if len(sizes) == granted:
                    granted += claims.newest(min(NEWEST_STEP, NEWEST_COMMITS - granted))
                    if len(sizes) == granted:  # this lane has met the other one
                        break
                line, link = lines(raw)
                newest_index.write(line)
                newest_graph.write(link)
                sizes.append((len(line), len(link)))
        finally:
            stream.close()  # stops its git if the lane stopped early
        claims.give_back(granted - len(sizes))
        width = _read_all(orders)
        if not width.isdigit():
            raise OrkestraError("the sync stopped before its commits were listed")
        runs = []  # (index bytes, graph bytes) per run, in the order taken: newest run first
        while run := claims.take(from_front=False):
            part = LogPart.of(root, revision, stats, revs, int(width), *run, files)
            starts = (runs_index.tell(), runs_graph.tell())
            count = write_records(part, lines, runs_index, runs_graph)
            runs.append((count, runs_index.tell() - starts[0], runs_graph.tell() - starts[1]))
        for runs_file, newest_file, target, side in (
            (runs_index, newest_index, later_index, 1),
            (runs_graph, newest_graph, later_graph, 2),
        ):
            runs_file.flush()
            _copy_runs_last_first(runs_file.fileno(), [run[side] for run in runs], runs_file.tell(), target)
            newest_file.flush()
            write_reversed(
                newest_file.fileno(), [pair[side - 1] for pair in sizes], newest_file.tell(), target
            )
        return sum(run[0] for run in runs) + len(sizes)


def _copy_runs_last_first(
    source: int, sizes: list[int], end: int, target: BinaryIO, block: int = 1 << 20
) -> None:
    """The runs of ``sizes`` bytes each that end at ``end`` in ``source``, copied to ``target`` last run first
    (each run's own bytes in order)."""
    for size in reversed(sizes):
        end -= size
        for offset in range(end, end + size, block):
            target.write(os.pread(source, min(block, end + size - offset), offset))


def write_reversed(source: int, sizes: list[int], end: int, target: BinaryIO, block: int = 1 << 20) -> None:
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


def listed(lines: BinaryIO, revs, width: int, first: int, last: int, block: int = 1 << 20) -> bool:
    """Whether the graph lines in ``lines`` are for the listed commits ``first`` to ``last``, in order
    (the list read ``block`` bytes at a time)."""
    lines.seek(0)
    number, shas = first, []
    for line in lines:
        if number >= last:
            return False
        if not shas:  # the list's next shas, oldest first
            step = min(last - number, max(1, block // width))
            shas = os.pread(revs.fileno(), step * width, number * width).split(b"\n")[step - 1 :: -1]
        if shas.pop() != line.split(b" ", 1)[0].rstrip(b"\n"):
            return False
        number += 1
    return number == last


def write_records(commits: Iterable[RawCommit], lines: Lines, index: BinaryIO, graph: BinaryIO) -> int:
    """Write one index line and one graph line per commit as it streams by; how many were written."""
    count = 0
    for raw in commits:
        line, link = lines(raw)
        index.write(line)
        graph.write(link)
        count += 1
    return count


class Child:
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


def fork(work: Callable[[], int], *outputs: BinaryIO, parents_ends: tuple[int, ...] = ()) -> Child:
    """Fork a child that runs ``work``, flushes ``outputs`` and reports its count (closing ``parents_ends``,
    the pipe ends only the parent writes to, so the child sees the end of what the parent tells it)."""
    report, child_end = os.pipe()
    parent = os.getpid()
    pid = os.fork()
    if pid == 0:  # the child: never returns, never runs the parent's cleanup or flushes its buffers
        _die_with(parent)
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
    return Child(pid, report)


_PR_SET_PDEATHSIG = 1  # prctl(2)


def _die_with(parent: int) -> None:
    """Have the kernel kill this child when ``parent`` dies (Linux), so a killed sync leaves no lane
    behind holding its lock and running its gits; exit now if the parent is already gone."""
    if sys.platform.startswith("linux"):
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:
        os._exit(1)


def append(temporary: BinaryIO, target: BinaryIO) -> None:
    temporary.seek(0)
    shutil.copyfileobj(temporary, target, 1 << 20)


def _read_all(fd: int) -> str:
    chunks = []
    while chunk := os.read(fd, 4096):
        chunks.append(chunk)
    return b"".join(chunks).decode("utf-8", "replace")
