"""Facts that went stale: registry claims whose code moved, vanished or changed since they were checked.

``stale_facts(ws)`` returns warnings (``orkestra validate --show-warnings``, ``system status``):

* ``evidence`` / ``decision-file`` — a ground truth's evidence path or a decision's ``files`` entry that
  no longer exists, with the rename git knows of as the fix (or the commit that deleted it);
* ``evidence-symbol`` — ``path::Symbol`` evidence whose symbol Maguyva's index no longer has in that
  file (where it lives now, when it moved); skipped without an index;
* ``evidence-changed`` — evidence changed by commits dated after the truth's ``last_verified`` (listed);
* ``decision-rewritten`` — a decision's file rewritten (churn at least ``REWRITE_SHARE`` of its lines,
  and ``REWRITE_MIN_LINES``) by commits dated after the decision was recorded (its newest source commit,
  else ``created``).

Dates compare by day: a commit on the day of ``last_verified`` counts as verified. Git is read in at
most three passes for the whole workspace (renames/deletions, numstat since the oldest date, the index).
Every message says what to re-verify and how.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from orkestra.errors import Diagnostic
from orkestra.why.history import Change, Move, changes_since, follow_move, is_git_repo, moves

if TYPE_CHECKING:
    from orkestra.workspace.load import Workspace

REWRITE_SHARE = 0.5
REWRITE_MIN_LINES = 20
LIVE_TRUTH = ("current", "tentative")
LIVE_DECISION = ("active", "proposed")
SHOWN_COMMITS = 5
STALE_CODES = frozenset(
    {"evidence", "decision-file", "evidence-symbol", "evidence-changed", "decision-rewritten", "outside-path"}
)


# A Conventional Commit of type ``style`` changes formatting only, never a fact a truth or decision states.
_FORMAT_ONLY = re.compile(r"style(\([^)]*\))?:")


def _is_url(text: str) -> bool:
    return "://" in text


def _commits_text(changes: list[Change]) -> str:
    shown = "; ".join(f"{c.sha[:10]} ({c.date[:10]}) {c.subject}" for c in changes[:SHOWN_COMMITS])
    more = f"; and {len(changes) - SHOWN_COMMITS} more" if len(changes) > SHOWN_COMMITS else ""
    return shown + more


class _Stale:
    def __init__(self, ws: Workspace, symbol_lookup: Callable | bool | None):
        self.ws, self.root = ws, ws.root
        self.git = is_git_repo(ws.root)
        self.out: list[Diagnostic] = []
        self._moves: dict[str, Move] | None = None
        self._changes: list[Change] | None = None
        self._since: str | None = None
        self._lookup = symbol_lookup
        self._real_root: str | None = None
        self._real_dirs: dict[str, str] = {}

    # --- git, read lazily and once ----------------------------------------------------------

    def moved(self, path: str) -> tuple[str | None, Move | None]:
        if not self.git:
            return None, None
        if self._moves is None:
            self._moves = moves(self.root)
        return follow_move(path, self._moves, lambda p: (self.root / p).exists())

    def changes_after(self, day: str, path: str) -> list[Change]:
        """Commits dated after ``day`` (YYYY-MM-DD) that touched ``path``, newest first."""
        if not self.git or not day:
            return []
        if self._changes is None:
            self._changes = changes_since(self.root, self._since or day)
        return [
            c
            for c in self._changes
            if c.date[:10] > day and path in c.files and not _FORMAT_ONLY.match(c.subject)
        ]

    def lookup(self):
        if self._lookup is True:
            from orkestra.why.target import index_lookup_for

            self._lookup = index_lookup_for(self.root) or False
        return self._lookup or None

    # --- reports ----------------------------------------------------------------------------

    def warn(self, kind: str, key: str, loc: tuple, message: str, code: str) -> None:
        self.out.append(self.ws.diagnostic(kind, key, loc, message, severity="warning", code=code))

    def missing(self, rel: str) -> str:
        """The fix for a path that does not exist: its rename, its deletion, or nothing git knows."""
        if not self.git:
            return "no such file (not a git repository: renames cannot be followed); fix or remove the entry"
        current, move = self.moved(rel)
        if current:
            return (
                f"git renamed it to {current!r} in {move.sha[:10]} ({move.date[:10]}); replace the entry "
                f"with {current!r} and re-verify the claim against it"
            )
        if move is not None:
            return (
                f"it was deleted in {move.sha[:10]} ({move.date[:10]}); point the entry at the code that "
                "holds this now (`orkestra why` on its new home), or retire the record"
            )
        return "git history has no such path; fix the typo or remove the entry"

    def truths(self) -> None:
        dates = [
            gt.last_verified for _, gt in self.ws.all_truths() if gt.last_verified and gt.status in LIVE_TRUTH
        ]
        dates += [self._recorded(d) for d in self.ws.decisions.values() if d.status in LIVE_DECISION]
        self._since = min((d for d in dates if d), default=None)
        for registry, gt in self.ws.all_truths():
            live = gt.status in LIVE_TRUTH
            for index, evidence in enumerate(gt.evidence):
                if _is_url(evidence):
                    continue
                path, _, symbol = evidence.partition("::")
                if self.outside("truth", gt.id, ("evidence", index), path.strip()):
                    continue
                rel = self._resolve(path.strip(), registry.package_dir)
                if rel is None:
                    self.warn(
                        "truth",
                        gt.id,
                        ("evidence", index),
                        f"evidence path {path.strip()!r} does not exist: {self.missing(path.strip())}",
                        "evidence",
                    )
                    continue
                if symbol and live:
                    self._symbol(gt.id, index, rel, symbol.strip())
                if live and gt.last_verified:
                    changed = self.changes_after(gt.last_verified, rel)
                    if changed:
                        self.warn(
                            "truth",
                            gt.id,
                            ("evidence", index),
                            f"evidence {rel!r} changed in {len(changed)} commit(s) after last_verified "
                            f"{gt.last_verified}: {_commits_text(changed)}. Re-read it (`git diff "
                            f"{changed[-1].sha[:10]}~1 -- {rel}`), confirm the statement still holds, then set "
                            f"last_verified to today, or deprecate {gt.id}",
                            "evidence-changed",
                        )

    def inside(self, rel: str) -> bool:
        """True for a path that stays in the repository and out of ``.git`` (symlinks resolved; folders
        are resolved once each, so hundreds of entries cost a few lstat calls)."""
        parts = rel.replace("\\", "/").split("/")
        if rel.startswith("/") or ".." in parts or parts[0] == ".git":
            return False
        if self._real_root is None:
            self._real_root = os.path.realpath(self.root)
        folder = "/".join(parts[:-1])
        real = self._real_dirs.get(folder)
        if real is None:
            real = self._real_dirs[folder] = os.path.realpath(os.path.join(self.root, folder))
        full = os.path.join(real, parts[-1])
        if os.path.islink(full):
            real = os.path.realpath(full)
        return real == self._real_root or real.startswith(self._real_root + os.sep)

    def _resolve(self, rel: str, package_dir: str) -> str | None:
        if self.inside(rel) and (self.root / rel).exists():
            return rel
        joined = f"{package_dir.rstrip('/')}/{rel}" if package_dir else ""
        if joined and self.inside(joined) and (self.root / joined).exists():
            return joined
        return None

    def outside(self, kind: str, key: str, loc: tuple, rel: str) -> bool:
        if self.inside(rel):
            return False
        self.warn(
            kind,
            key,
            loc,
            f"{rel!r} leaves the repository (or enters .git); registry paths are "
            "repo-relative: fix the entry",
            "outside-path",
        )
        return True

    def _symbol(self, key: str, index: int, rel: str, symbol: str) -> None:
        lookup = self.lookup()
        if lookup is None:
            return
        rows = lookup(symbol, None)
        if any(row[0] == rel for row in rows):
            return
        if rows:
            elsewhere = ", ".join(f"{p}:{line}" for p, line, _, _ in rows[:3])
            fix = f"it is now defined at {elsewhere}; change the evidence to '{rows[0][0]}::{symbol}' and re-verify"
        else:
            fix = (
                f"it was removed or renamed; find its successor (`orkestra code symbol {symbol.rsplit('.', 1)[-1]} "
                "--similar`), update the evidence and re-verify the statement, or deprecate the truth"
            )
        self.warn(
            "truth",
            key,
            ("evidence", index),
            f"evidence symbol {symbol!r} is no longer in {rel} (Maguyva index): {fix}",
            "evidence-symbol",
        )

    @staticmethod
    def _recorded(decision) -> str:
        dates = [c.date[:10] for c in decision.source_commits if c.date]
        return max([*dates, decision.created[:10]])

    def decisions(self) -> None:
        for key, decision in sorted(self.ws.decisions.items()):
            recorded = self._recorded(decision)
            own = {c.sha for c in decision.source_commits}
            for index, rel in enumerate(decision.files):
                rel = rel.strip()
                if not rel or _is_url(rel) or self.outside("decision", key, ("files", index), rel):
                    continue
                if not (self.root / rel).exists():
                    self.warn(
                        "decision",
                        key,
                        ("files", index),
                        f"decision file {rel!r} does not exist: {self.missing(rel)}",
                        "decision-file",
                    )
                    continue
                if decision.status not in LIVE_DECISION or not (self.root / rel).is_file():
                    continue
                changed = [
                    c for c in self.changes_after(recorded, rel) if not any(c.sha.startswith(s) for s in own)
                ]
                churn = sum(c.files[rel] for c in changed)
                lines = _line_count(self.root / rel)
                if changed and churn >= max(REWRITE_MIN_LINES, REWRITE_SHARE * lines):
                    self.warn(
                        "decision",
                        key,
                        ("files", index),
                        f"decision file {rel!r} was rewritten since the decision was recorded ({recorded}): "
                        f"{churn} lines changed (file has {lines}) in {_commits_text(changed)}. Re-read "
                        f"{key} against the code; if it still holds, add the commits with `orkestra mine "
                        f"classify SHA --decision {key} --role supporting`, else supersede it",
                        "decision-rewritten",
                    )


def _line_count(path: Path) -> int:
    try:
        with path.open("rb") as handle:
            return sum(chunk.count(b"\n") for chunk in iter(lambda: handle.read(1 << 16), b""))
    except OSError:
        return 0


def stale_facts(ws: Workspace, symbol_lookup: Callable | bool | None = True) -> list[Diagnostic]:
    """Warnings for every stale fact of ``ws`` (see the module docstring).

    :param symbol_lookup: True for Maguyva's index when present, None/False to skip symbol checks, or a
        callable ``(symbol, path) -> [(path, line, end_line, qualified_name)]`` (tests).
    """
    checker = _Stale(ws, symbol_lookup)
    checker.truths()
    checker.decisions()
    return checker.out
