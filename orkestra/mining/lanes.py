"""Two processes writing one commit index: a second lane for a listed range, and a full sync's two lanes.

An incremental sync's range comes as runs (``Git.log_parts``): :func:`write_forked` writes the first
here and has a child process (a :class:`Lane`) write the rest.

A full sync reads ``git rev-list --reverse`` (:func:`~orkestra.mining.git.log_listing`, oldest
first) and shares the list out from its two ends. This process's lane takes runs from the front
(the oldest commits) and writes them straight into the index. The child's lane starts at
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

The child is a ``multiprocessing`` process of the ``fork`` start method: it inherits the open files
and the ``lines`` function as they are, nothing is pickled, and it starts in a millisecond. The claims
live in shared memory under a ``multiprocessing`` lock; the counts and the width of the list travel
over ``multiprocessing`` pipes. A child outliving a killed sync would hold the sync's lock (its file
descriptors are inherited) and run its gits for nothing: it watches its parent's sentinel and exits
the moment the parent is gone.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import threading
from collections.abc import Callable, Iterable
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

from orkestra.errors import OrkestraError
from orkestra.mining import git as mining_git
from orkestra.mining.git import LogPart, RawCommit, log_listing, log_newest

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

NEWEST_COMMITS = mining_git.CHUNK_COMMITS  # the child's first stream (one git, so its RSS stays bounded)
NEWEST_STEP = 256  # the child claims its first stream this many commits at a time
LEAST_RUN = 256  # below this a run is not worth a git of its own, unless that is all that is left

Lines = Callable[[RawCommit], tuple[bytes, bytes]]  # a commit's index line and graph line


def available() -> bool:
    """Whether a second lane can start here: the ``fork`` start method (not on Windows)."""
    import multiprocessing  # ~20 ms: imported when a sync writes, not when the CLI starts

    return "fork" in multiprocessing.get_all_start_methods()


def _context():
    import multiprocessing

    return multiprocessing.get_context("fork")


class Claims:
    """Which commits of a list each lane has taken: ``front`` from the oldest end, ``back`` from the
    newest, out of ``total`` (unknown until the list is made).

    The three numbers live in shared memory made before the child starts; each claim reads and
    writes them under one ``multiprocessing`` lock, which also excludes lanes that are threads of
    one process (the bench)."""

    def __init__(self):
        context = _context()
        self._lock = context.Lock()
        self._state = context.RawArray("q", [-1, 0, 0])  # total, front, back

    def listed(self, total: int) -> None:
        """The list is made: ``total`` commits."""
        with self._lock:
            self._state[0] = total

    def newest(self, most: int) -> int:
        """How many more of the newest commits the child's first stream may write (up to ``most``)."""
        with self._lock:
            total, front, back = self._state
            granted = most if total < 0 else max(0, min(most, total - front - back))
            self._state[2] = back + granted
            return granted

    def give_back(self, count: int) -> None:
        """Return ``count`` newest commits granted but never written (the first stream ended before them)."""
        if count:
            with self._lock:
                self._state[2] -= count

    def take(self, from_front: bool, most: int | None = None) -> tuple[int, int] | None:
        """The next run as list positions ``(first, last)``, oldest first, from the front or the back;
        None when every commit is taken. Call only once the list is made."""
        most = most or mining_git.CHUNK_COMMITS
        with self._lock:
            total, front, back = self._state
            left = total - front - back
            if left <= 0:
                return None
            size = min(left, most, max(LEAST_RUN, -(-left // 2)))
            if from_front:
                self._state[1] = front + size
                return (front, front + size)
            self._state[2] = back + size
            return (total - back - size, total - back)

    def front(self) -> int:
        with self._lock:
            return self._state[1]


def write_forked(parts: list, lines: Lines, index: BinaryIO, graph: BinaryIO) -> int:
    """``parts[0]`` written here, the rest by a child lane into temporary files appended after it."""
    with tempfile.TemporaryFile(buffering=1 << 20) as later_index, tempfile.TemporaryFile() as later_graph:
        child = start_lane(
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
    ):
        claims = Claims()
        orders, tell = _context().Pipe(duplex=False)
        child = start_lane(
            lambda: _newest_lane(
                root, revision, stats, lines, claims, orders, revs, later_index, later_graph
            ),
            later_index,
            later_graph,
            parents_ends=(tell,),
        )
        orders.close()
        with child, tell, ExitStack() as files, log_listing(root, revision, into=revs) as (_, count, width):
            claims.listed(count)
            try:
                tell.send(width)
            except BrokenPipeError:  # the child stopped first: raise its error
                child.join()
                raise OrkestraError("the log reader stopped early") from None
            tell.close()
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


def _newest_lane(
    root: Path,
    revision: str,
    stats: bool,
    lines: Lines,
    claims: Claims,
    orders: Connection,
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
        try:
            width = orders.recv()
        except EOFError:
            raise OrkestraError("the sync stopped before its commits were listed") from None
        runs = []  # (index bytes, graph bytes) per run, in the order taken: newest run first
        while run := claims.take(from_front=False):
            part = LogPart.of(root, revision, stats, revs, width, *run, files)
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


class Lane:
    """A child process running ``work`` (returns a count); ``join`` waits for it and raises its error."""

    def __init__(self, process, answers: Connection):
        self.process, self.answers, self.joined = process, answers, False
        self.pid = process.pid

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.answers.close()
        if not self.joined:  # this process failed first: stop the child (its git dies on the closed pipe)
            self.process.kill()
            self.process.join()
        self.process.close()

    def join(self) -> int:
        try:
            answer = self.answers.recv()
        except EOFError:  # the child died without a word
            answer = None
        self.process.join()
        self.joined = True
        if self.process.exitcode or not isinstance(answer, int):
            raise OrkestraError(answer[1:] if isinstance(answer, str) else "the log reader stopped early")
        return answer


def start_lane(
    work: Callable[[], int], *outputs: BinaryIO, parents_ends: tuple[Connection, ...] = ()
) -> Lane:
    """Start a child that runs ``work``, flushes ``outputs`` and reports its count (closing ``parents_ends``,
    the pipe ends only the parent writes to, so the child sees the end of what the parent tells it)."""
    context = _context()
    answers, answer_end = context.Pipe(duplex=False)
    process = context.Process(target=_lane, args=(work, outputs, answer_end, parents_ends), daemon=True)
    process.start()
    answer_end.close()
    return Lane(process, answers)


def _lane(
    work: Callable[[], int], outputs: tuple[BinaryIO, ...], answer: Connection, parents_ends: tuple
) -> None:
    """The child's body: its count (or ``!`` and its error) sent to the parent; never raises."""
    _exit_with_parent()
    for end in parents_ends:
        end.close()
    try:
        count = work()
        for output in outputs:
            output.flush()
        answer.send(count)
    except BaseException as error:  # noqa: BLE001 - reported to the parent, which raises it
        answer.send(f"!{error}"[:4000])


def _exit_with_parent() -> None:
    """Exit this child the moment its parent is gone (killed, say), so a killed sync leaves no lane
    behind holding its lock and running its gits; at once if the parent is already gone."""
    from multiprocessing import parent_process
    from multiprocessing.connection import wait

    sentinel = parent_process().sentinel

    def watch() -> None:
        wait([sentinel])
        os._exit(1)

    threading.Thread(target=watch, name="lane-watch", daemon=True).start()


def append(temporary: BinaryIO, target: BinaryIO) -> None:
    temporary.seek(0)
    shutil.copyfileobj(temporary, target, 1 << 20)
