"""A cloned history with a 20 MB commit message and a 200 KB author name: `mine sync` keeps 64 KiB of each.

Before, the log reader held a long token whole, copying it once per 1 MiB read (a 49 MB message: 3.8 s
and 167 MB of RSS; a 1 GB one would exhaust memory). Now a field is kept as its head, a marker and its
tail, and the rest is skipped as it streams by. Time and memory are compared with a sync of the same
history with a short message, in the same run (never a wall-clock bound).
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from clirun import run_cli
from conftest import REPO, git

sys.path.insert(0, str(REPO / "bench"))
from bench_mine_huge_fields import FILLER, history, sync  # the bench's history and probe, shared

from orkestra.mining import log_tokens
from orkestra.mining.log_tokens import FIELD_CAP, HEAD_BYTES, TAIL_BYTES

MESSAGE_MB = 20


def test_a_huge_message_and_author_are_capped_and_cost_no_more_than_a_short_one(tmp_path):
    small, huge = tmp_path / "small", tmp_path / "huge"
    small.mkdir()
    huge.mkdir()
    history(small, 4, b"Short Name")
    history(huge, (MESSAGE_MB << 20) // len(FILLER), b"n" * 200_000)
    runs = {repo: [sync(repo) for _ in range(2)] for repo in (small, huge)}

    lines = (huge / ".orkestra/mining/commits.jsonl").read_text(encoding="utf-8").splitlines()
    record = json.loads(lines[-1])
    assert record["subject"] == "feat(core)!: a huge message"
    assert len(record["subject"]) + len(record["body"]) <= FIELD_CAP
    assert "bytes of this field were cut" in record["body"]
    assert record["body"].startswith("filler line")
    assert record["body"].endswith("filler line of a hostile commit")
    assert record["footers"] == [["BREAKING-CHANGE", "the API moved"]]  # the tail is kept: the footer parses
    assert record["breaking_description"] == "the API moved"
    assert len(record["author"]) <= FIELD_CAP
    assert "bytes of this field were cut" in record["author"]
    assert record["files_changed"] == ["b.txt"]
    assert len(lines[-1]) < 3 * FIELD_CAP  # the whole line, message and author together

    short = json.loads(
        (small / ".orkestra/mining/commits.jsonl").read_text(encoding="utf-8").splitlines()[-1]
    )
    assert short["body"] == (FILLER * 4).decode().rstrip("\n")
    assert "cut" not in short["body"]

    rss = {repo: min(r for r, _ in runs[repo]) for repo in runs}
    cpu = {repo: min(c for _, c in runs[repo]) for repo in runs}
    # before: ~100 MB more RSS (the message held, copied and decoded whole) and ~5x the CPU
    assert rss[huge] - rss[small] < (MESSAGE_MB << 10) // 4, rss
    assert cpu[huge] < 2 * cpu[small], cpu


class _Pipe:
    """A stream that returns short reads at random, as a pipe does."""

    def __init__(self, data: bytes, rng: random.Random):
        self.data, self.at, self.rng = data, 0, rng

    def read(self, size: int) -> bytes:
        step = self.rng.choice((size, self.rng.randint(1, size)))
        piece = self.data[self.at : self.at + step]
        self.at += len(piece)
        return piece


def test_every_token_is_the_token_or_its_capped_form_whatever_the_reads():
    rng = random.Random(7)
    alphabets = (b"ab\n", "é✓x\n".encode(), bytes(range(1, 256)))
    for _ in range(150):
        tokens = []
        for _ in range(rng.randint(1, 30)):
            size = rng.choice(
                (rng.randint(0, 200), rng.randint(30_000, 70_000), rng.randint(FIELD_CAP, 40 * FIELD_CAP))
            )
            alphabet = rng.choice(alphabets)
            unit = bytes(rng.choice(alphabet) for _ in range(min(size, 300)))
            tokens.append((unit * (size // max(len(unit), 1) + 1))[:size])
        data = b"\0".join(tokens) + b"\0"
        got = [token for batch in log_tokens.token_lists(_Pipe(data, rng)) for token in batch]
        expected = [
            (log_tokens.cap(t[:HEAD_BYTES], t[-TAIL_BYTES:], len(t)) if len(t) > FIELD_CAP else t).decode(
                "utf-8", "replace"
            )
            for t in tokens
        ]
        assert got == expected
        assert all(
            len(token.encode("utf-8", "surrogatepass")) <= FIELD_CAP for token in got if "\ufffd" not in token
        )


def test_an_octopus_merge_of_thousands_of_parents_keeps_whole_shas_only(tmp_path):
    """2,000 parents make an 82 KB parents field: kept as the whole shas of its first 48 KiB, no marker."""
    repo = tmp_path / "octopus"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    sides = 2000
    stream = [
        b"commit refs/heads/side\nmark :%d\ncommitter T <t@example.com> %d +0000\ndata 9\nfix: s%03d\n"
        b"M 100644 inline s.txt\ndata %d\n%d\n\n" % (n, 1767225600 + n, n % 1000, len(str(n)) + 1, n)
        for n in range(1, sides + 1)
    ]
    stream.append(
        b"commit refs/heads/main\nmark :%d\ncommitter T <t@example.com> %d +0000\ndata 14\nfeat: octopus\n"
        b"from :1\n"
        % (sides + 1, 1767225600 + sides + 1)
        + b"".join(b"merge :%d\n" % n for n in range(2, sides + 1))
        + b"\n"
    )
    subprocess.run(["git", "fast-import", "--quiet"], cwd=repo, input=b"".join(stream), check=True)
    done = run_cli("mine", "sync", "--json", cwd=repo)
    assert done.returncode == 0, done.stderr
    mining = repo / ".orkestra" / "mining"
    octopus = json.loads((mining / "commits.jsonl").read_text(encoding="utf-8").splitlines()[-1])
    assert octopus["subject"] == "feat: octopus"
    assert len(octopus["parents"]) == (48 << 10) // 41  # cut to the whole shas of the first 48 KiB
    assert len(" ".join(octopus["parents"])) <= FIELD_CAP
    assert all(len(p) == 40 and int(p, 16) >= 0 for p in octopus["parents"])
    graph = (mining / "graph.txt").read_text().splitlines()[-1].split(" ")
    assert graph == [graph[0], *octopus["parents"]]
