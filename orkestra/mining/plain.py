"""Reading a history that does not use Conventional Commits: what each commit is, how sure we are; pure.

Most public histories are pull-request merges, squash merges and plain subjects ("fix crash on …").
:func:`read_commit` reads one indexed commit the way a maintainer writing the changelog would:

* **kind**: ``pr-merge`` (``Merge pull request #12 from owner/branch`` with the PR title on the body's
  first line, or a merge whose subject ends in ``(#12)``), ``squash`` (one parent, subject ending in
  ``(#13)``), ``revert`` (``Revert "…"``), ``merge`` (any other merge) or ``plain``;
* **what it touches** first: only documentation, only tests, only CI or only dependency pins is not a
  user-facing change; a towncrier fragment (``changelog/1234.bugfix.rst``) says the category and the
  issue itself; touching the hand-written changelog next to code says the change is worth an entry;
* **what it says** next: the leading verb or keywords of the title (fix/bug/crash → fixed,
  add/support/new → added, deprecate → deprecated, remove/drop → removed, docs/typo → docs,
  bump/release/version → chore, …).

Every reading has a confidence in [0, 1]; ``mine auto`` records the readings at or above
``mining.changelog.min_confidence`` and leaves the rest to ``mine candidates`` (a person or an agent).
:func:`pull_request_owners` finds the commits each pull-request merge brought in (they are the PR's
entry, not entries of their own).
"""

from __future__ import annotations

import heapq
import re
from dataclasses import asdict, dataclass, field
from functools import lru_cache

PR_MERGE_RE = re.compile(r"^Merge pull request #(?P<number>\d{1,9}) from (?P<branch>\S+)")
PR_SUFFIX_RE = re.compile(r"\(#(?P<number>\d{1,9})\)\s*$")  # numbers of at most 9 digits: an int
REVERT_RE = re.compile(r'^Revert "(?P<subject>.+)"\s*$')
REF_RE = re.compile(
    # one bounded run of blanks between the words: "\s*:?\s+" backtracked quadratically over a long run
    r"\b(?:fix(?:e[sd])?|close[sd]?|resolve[sd]?|refs?|see|for):?[ \t]{1,8}(?:issue[ \t]{1,8})?#(?P<number>\d{1,9})\b",
    re.IGNORECASE,
)
# towncrier news fragments: changelog/1234.bugfix.rst, newsfragments/1234.feature.md, changes/56.doc
FRAGMENT_RE = re.compile(
    r"(?:^|/)(?:changelog|changelog\.d|changes|newsfragments|news)/(?P<number>\d{1,9})\.(?P<kind>[a-z]+)(?:\.\d+)?(?:\.\w+)?$"
)
FRAGMENT_KINDS = {
    "feature": ("feat", "added"),
    "bugfix": ("fix", "fixed"),
    "fix": ("fix", "fixed"),
    "deprecation": ("deprecate", "deprecated"),
    "removal": ("remove", "removed"),
    "breaking": ("remove", "removed"),
    "improvement": ("perf", "changed"),
    "performance": ("perf", "changed"),
    "security": ("security", "security"),
    "vendor": ("deps", "changed"),
    "doc": ("docs", None),
    "docs": ("docs", None),
    "trivial": ("chore", None),
    "misc": ("chore", None),
    "contrib": ("chore", None),
    "packaging": ("build", None),
}

DOC_RE = re.compile(
    r"^(?:docs?|documentation|examples?|artwork|\.github/ISSUE_TEMPLATE|\.github/PULL_REQUEST_TEMPLATE)/"
    r"|(?:^|/)(?:README|AUTHORS|CONTRIBUTORS|CONTRIBUTING|CODE_OF_CONDUCT|SECURITY|LICENSE|COPYING|NOTICE|"
    r"CHANGES|CHANGELOG|HISTORY|NEWS|RELEASING|TIDELIFT|OPENCOLLECTIVE|CITATION)[^/]*$"
    r"|\.(?:md|rst|adoc)$|^mkdocs\.ya?ml$|^\.readthedocs\.ya?ml$",
    re.IGNORECASE,
)
TEST_RE = re.compile(
    r"(?:^|/)(?:tests?|testing|__tests__|spec|benchmarks?|bench)/|(?:^|/)conftest\.py$"
    r"|(?:^|/)test_[^/]*\.py$|_test\.(?:py|go|rs)$|\.(?:test|spec)\.[cm]?[jt]sx?$"
)
CI_RE = re.compile(
    r"^\.github/|^\.gitlab-ci\.ya?ml$|^\.circleci/|^\.travis\.ya?ml$|^appveyor\.ya?ml$|^azure-pipelines"
    r"|^\.pre-commit-(?:config|hooks)\.ya?ml$|^codecov\.ya?ml$|^\.codecov\.ya?ml$|^\.coveragerc$|^tox\.ini$"
    r"|^noxfile\.py$|^\.devcontainer/|^\.editorconfig$|^\.gitignore$|^\.gitattributes$|^\.mailmap$"
    r"|^\.git-blame-ignore-revs$|^\.flake8$|^mypy\.ini$|^\.?ruff\.toml$|^\.dependabot/|^renovate\.json"
)
DEPENDENCY_RE = re.compile(
    r"(?:^|/)(?:requirements[^/]*\.(?:txt|in)|requirements/[^/]+|[^/]*\.lock|package-lock\.json|"
    r"pnpm-lock\.yaml|go\.sum|Pipfile\.lock|constraints[^/]*\.txt)$"
)
CHANGELOG_FILE_RE = re.compile(r"^(?:CHANGES|CHANGELOG|HISTORY|NEWS)(?:\.\w+)?$", re.IGNORECASE)

# (pattern on the lower-cased title, type, category or None for a skip, confidence, why); first match wins
WORD_RULES: tuple[tuple[re.Pattern, str, str | None, float, str], ...] = tuple(
    (re.compile(pattern), kind, category, confidence, why)
    for pattern, kind, category, confidence, why in (
        (
            r"^(?:\[?pre-commit\.ci\]?|pre-commit autoupdate|bumps? (?:the |version|[\w.@:-]*/|\S+ from \S+ to )|"
            r"update (?:the )?(?:dev )?"
            r"(?:dependenc|deps|requirements|pins?|pre-commit|lock)|upgrade (?:dev )?(?:dependenc|deps))",
            "chore",
            None,
            0.9,
            "a dependency or tooling bump",
        ),
        (
            r"^(?:(?:release|releasing|version|bump version|start version|prepare (?:for )?release(?: of)?)\b"
            r"[\s:]*(?:version |to |of |for )?v?\d|release$|prepare (?:for )?(?:the )?(?:next )?release|"
            r"release (?:notes|prep)|v?\d+\.\d+(?:\.\d+)*\s*$|back to development|post release)",
            "chore",
            None,
            0.9,
            "release bookkeeping",
        ),
        (
            r"^merge (?:branch|remote|the |(?:\S+ )?(?:into|from) |stable|main|master|develop|dev\b|\d+\.\d+)",
            "merge",
            None,
            0.9,
            "merges one branch into another",
        ),
        (r"\bdeprecat", "deprecate", "deprecated", 0.85, "says deprecat…"),
        (
            r"\b(?:mypy|pyright|flake8|pylint|ruff|isort|black|pre-commit|linters?|linting|lint|"
            r"formatting|coverage|gitignore|tox|nox|workflows?|github actions|dependabot)\b",
            "chore",
            None,
            0.75,
            "tooling work (type checker, linter, CI)",
        ),
        (
            r"^(?:docs?\b|\[docs?\]|document|documentation|typo|readme|changelog|docstring|fix(?:e[sd])? (?:a |the |some )?"
            r"(?:typos?|docs?|docstrings?|documentation|links?|spelling|grammar|wording|readme|changelog)\b)",
            "docs",
            None,
            0.85,
            "a documentation change",
        ),
        (
            r"^(?:tests?\b|testing|ci\b|lint|linting|format|reformat|typing|type hints? for tests|mypy|ruff|"
            r"black|flake8|isort|pre-commit|style\b|refactor|clean ?up|cleanup|tidy|simplify|"
            r"reorganize|apply (?:ruff|black|autofix)|\[ruff\]|\[refactor\]|\[pre-commit|\[ci\]|\[test)",
            "chore",
            None,
            0.7,
            "test, CI, style or refactoring work",
        ),
        (
            r"^(?:fix(?:e[sd]|ing)?|bug ?fix|hotfix|correct(?:s|ed)?|resolve[sd]?|repair|prevent|handle|avoid|"
            r"work ?around|don'?t |do not |no longer |restore)\b",
            "fix",
            "fixed",
            0.85,
            "leading verb says a fix",
        ),
        (
            r"^(?:add(?:s|ed|ing)?|support(?:s|ed)?|new\b|implement(?:s|ed)?|introduce[sd]?|allow(?:s|ed)?|"
            r"enable[sd]?|expose[sd]?|provide[sd]?|accept(?:s|ed)?)\b",
            "feat",
            "added",
            0.8,
            "leading verb says an addition",
        ),
        (
            r"^(?:remove[sd]?|drop(?:s|ped)?|delete[sd]?)\b",
            "remove",
            "removed",
            0.75,
            "leading verb says a removal (possibly breaking)",
        ),
        (
            r"^(?:improve[sd]?|speed ?up|optimi[sz]e[sd]?|faster|perf\b|performance|reduce[sd]?|cache[sd]?)\b",
            "perf",
            "changed",
            0.7,
            "leading verb says an improvement",
        ),
        (
            r"\b(?:bug|crash(?:es|ed)?|regression|broken|incorrect(?:ly)?|wrong|fails?|failure|error|exception|"
            r"leak|deadlock|race)\b",
            "fix",
            "fixed",
            0.6,
            "mentions a failure",
        ),
        (
            r"\b(?:support|new option|new parameter|new argument)\b",
            "feat",
            "added",
            0.6,
            "mentions an addition",
        ),
        (r"^(?:rename|move)\b", "change", "changed", 0.5, "a rename or move (of public API?)"),
    )
)
UNCLEAR = ("change", "changed", 0.35, "nothing in the subject or files says what it is")


@dataclass(frozen=True, slots=True)
class Reading:
    """What one commit of an ordinary history is (``category`` None: no entry)."""

    kind: str  # pr-merge | squash | revert | merge | plain
    type: str  # fix, feat, docs, test, ci, chore, deprecate, remove, perf, revert, change, merge, …
    category: str | None
    confidence: float
    why: str
    title: str
    pr: int | None = None
    refs: tuple[int, ...] = field(default=())

    @property
    def release(self) -> bool:
        return self.category is not None

    def summary(self) -> str:
        """The entry text: the title with its pull request, ``Title (#12)``, and the issues it names."""
        text = self.title
        if self.pr is not None:
            text += f" (#{self.pr})"
        refs = [r for r in self.refs if r != self.pr]
        if refs:
            text += " (refs " + ", ".join(f"#{r}" for r in refs) + ")"
        return text

    def to_dict(self) -> dict:
        data = asdict(self)
        data["refs"] = list(self.refs)
        data["confidence"] = round(self.confidence, 2)
        return data


def pull_request(commit: dict) -> tuple[str, int | None, str]:
    """(kind, PR number or None, title) of an indexed commit, from its subject, body and parents."""
    subject, parents = commit["subject"], commit.get("parents") or ()
    merge = len(parents) > 1
    found = PR_MERGE_RE.match(subject) if subject.startswith("Merge pull request #") else None
    if found:
        body = (commit.get("body") or "").strip()
        title = body.split("\n", 1)[0].strip() if body else _branch_words(found["branch"])
        return "pr-merge", int(found["number"]), title
    suffix = PR_SUFFIX_RE.search(subject) if subject.rstrip().endswith(")") else None
    if suffix:
        return ("pr-merge" if merge else "squash"), int(suffix["number"]), subject[: suffix.start()].strip()
    if merge or (subject.startswith("Merge ") and commit["signals"]["is_merge"]):
        return "merge", None, subject
    return (
        ("revert" if subject.startswith('Revert "') and REVERT_RE.match(subject) else "plain"),
        None,
        subject,
    )


def _branch_words(branch: str) -> str:
    """``owner/fix-the-thing`` → ``fix the thing`` (a PR merge without a title line)."""
    name = branch.split("/", 1)[-1] if "/" in branch else branch
    return re.sub(r"[-_]+", " ", name).strip() or branch


def issue_refs(commit: dict, title: str) -> tuple[int, ...]:
    """Issue numbers the message names (``fixes #12``, ``closes #3``) and towncrier fragments' numbers."""
    found: list[int] = []
    for text in (title, commit.get("body") or ""):
        if "#" in text:
            found.extend(int(m["number"]) for m in REF_RE.finditer(text))
    for path in commit.get("files_changed") or ():
        fragment = path_kind(path)[1]
        if fragment is not None:
            found.append(fragment[0])
    return tuple(dict.fromkeys(found))


@lru_cache(maxsize=1 << 16)  # a history touches a few thousand distinct paths
def path_kind(path: str) -> tuple[str, tuple[int, str, str] | None]:
    """(``test``|``ci``|``deps``|``docs``|``code``, the towncrier fragment (number, kind, path) or None)."""
    fragment = FRAGMENT_RE.search(path)
    found = (int(fragment["number"]), fragment["kind"], fragment[0].lstrip("/")) if fragment else None
    if TEST_RE.search(path):
        return "test", found
    if CI_RE.search(path):
        return "ci", found
    if DEPENDENCY_RE.search(path):
        return "deps", found
    if DOC_RE.search(path):
        return "docs", found
    return "code", found


DIRECT_PENALTY = 0.15  # a commit pushed without a pull request, in a history of pull requests
PR_CHANGE = 0.5  # a pull request touching code whose title says nothing: a likely change, for review


def read_commit(commit: dict, pull_requests: bool = False, branch: tuple[dict, ...] = ()) -> Reading:
    """The reading of one indexed commit that is not a Conventional Commit (see the module docstring).

    ``pull_requests``: the history lands its changes through pull requests (:func:`uses_pull_requests`);
    a plain commit pushed directly is then less likely a user-facing change, and a release reading of
    it loses :data:`DIRECT_PENALTY` of its confidence. ``branch``: the commits a pull-request merge
    brought in, oldest first; the issues they name are the PR's, and the first one's subject is its
    title when the merge message has none."""
    kind, pr, title = pull_request(commit)
    refs = issue_refs(commit, title)
    if branch and kind == "pr-merge":
        if not (commit.get("body") or "").strip() and PR_MERGE_RE.match(commit["subject"]):
            title = branch[0]["subject"]
        refs = tuple(dict.fromkeys((*refs, *(n for c in branch for n in issue_refs(c, c["subject"])))))
    if kind == "merge":
        return Reading(
            kind, "merge", None, 0.95, "a merge of a branch: its own commits are the changes", title
        )
    if kind == "revert":
        return _read_revert(commit, title, refs)
    kind_type, category, confidence, why = read_files(commit.get("files_changed") or ())
    if kind_type is None:
        kind_type, category, confidence, why = read_words(title)
        if _touches_changelog(commit.get("files_changed") or ()):  # the author wrote it up for users
            if confidence < 0.5 or (category is None and confidence < 0.8):
                kind_type, category, confidence, why = "change", "changed", 0.75, "adds to the changelog file"
            elif category is not None:
                confidence, why = min(0.95, confidence + 0.1), why + "; adds to the changelog file"
    if pull_requests and kind == "plain" and category is not None:
        confidence, why = confidence - DIRECT_PENALTY, why + "; pushed without a pull request"
    if pr is not None and kind_type == UNCLEAR[0] and confidence < PR_CHANGE:  # reviewed, and it changes code
        confidence, why = PR_CHANGE, "a pull request changing code; its title does not say how"
    return Reading(kind, kind_type, category, confidence, why, title, pr, refs)


def uses_pull_requests(index: dict[str, dict]) -> bool:
    """True when at least a fifth of the commits on no PR branch are pull-request merges or squashes."""
    prs = total = 0
    for commit in index.values():
        kind = pull_request(commit)[0]
        total += kind != "merge"
        prs += kind in ("pr-merge", "squash")
    return total > 0 and 5 * prs >= total


def _read_revert(commit: dict, title: str, refs: tuple[int, ...]) -> Reading:
    reverted = REVERT_RE.match(title)["subject"]
    inner = read_words(PR_SUFFIX_RE.sub("", reverted))
    if inner[1] is None:
        return Reading(
            "revert", "revert", None, 0.8, f"reverts a change without an entry ({inner[3]})", title
        )
    return Reading("revert", "revert", "changed", inner[2], f"reverts: {inner[3]}", title, refs=refs)


def read_files(files: tuple[str, ...] | list[str]) -> tuple[str | None, str | None, float, str]:
    """(type, category, confidence, why) from the paths alone, or a None type when they do not decide."""
    if not files:
        return None, None, 0.0, ""
    kinds = [path_kind(p) for p in files]
    fragments = [fragment for _, fragment in kinds if fragment is not None]
    for _, name, where in fragments:
        kind = FRAGMENT_KINDS.get(name)
        if kind and kind[1] is not None:
            return kind[0], kind[1], 0.95, f"news fragment {where}"
    if fragments and all(FRAGMENT_KINDS.get(name, ("", None))[1] is None for _, name, _ in fragments):
        kind = FRAGMENT_KINDS.get(fragments[0][1], ("chore", None))[0]
        return kind, None, 0.9, f"news fragment {fragments[0][2]} is not user-facing"
    counts = {"docs": 0, "test": 0, "ci": 0, "deps": 0, "code": 0}
    for kind, _ in kinds:
        counts[kind] += 1
    docs, tests, ci, deps = counts["docs"], counts["test"], counts["ci"], counts["deps"]
    total = len(files)
    if docs == total:
        return "docs", None, 0.9, "touches only documentation"
    if tests == total:
        return "test", None, 0.9, "touches only tests"
    if ci == total:
        return "ci", None, 0.9, "touches only CI and tooling files"
    if deps == total:
        return "chore", None, 0.85, "touches only dependency pins"
    if docs + tests + ci + deps == total:
        return "chore", None, 0.85, "touches only docs, tests, CI or pins"
    return None, None, 0.0, ""


MAX_AREAS = 3  # "a: b: c: text" is read at most this many prefixes deep (a subject may hold thousands)
AREA_RE = re.compile(r"^(?:\[[^\]]{1,40}\]|[\w./-]{1,40}:)\s+(?P<rest>.+)$")  # "[area] …", "area: …"


def read_words(title: str) -> tuple[str, str | None, float, str]:
    """(type, category, confidence, why) from what the title says (first matching rule; a title led by
    an area, ``asyncio: don't wait …`` or ``[cli] add …``, is read again without it)."""
    words = " ".join(title.lower().split())
    for _ in range(MAX_AREAS + 1):
        for pattern, kind, category, confidence, why in WORD_RULES:
            if pattern.search(words):
                return kind, category, confidence, why
        area = AREA_RE.match(words)
        if area is None:
            break
        words = area["rest"]
    return UNCLEAR


def _touches_changelog(files) -> bool:
    """A hand-written changelog file among the paths (only asked when code is touched too)."""
    return any(CHANGELOG_FILE_RE.match(p.rsplit("/", 1)[-1]) for p in files)


def is_pr_merge(commit: dict) -> bool:
    return pull_request(commit)[0] == "pr-merge"


def generations(graph: dict[str, list[str]]) -> dict[str, int]:
    """A generation number per commit: 1 + the largest of its parents' (parents outside the graph: 0)."""
    gen: dict[str, int] = {}
    for start in graph:
        if start in gen:
            continue
        stack = [start]
        while stack:
            sha = stack[-1]
            pending = [p for p in graph[sha] if p in graph and p not in gen]
            if pending:
                stack.extend(pending)
                continue
            stack.pop()
            gen[sha] = 1 + max((gen[p] for p in graph[sha] if p in gen), default=0)
    return gen


def brought_in(graph: dict[str, list[str]], gen: dict[str, int], merge: str) -> list[str]:
    """The commits ``merge`` brought in: reachable from its other parents, not from its first one.

    Painted down by generation from both sides (the walk ``git rev-list M^1..M^2`` does), so it stops
    at the branch point instead of walking the whole history."""
    parents = [p for p in graph.get(merge, ()) if p in graph]
    if len(parents) < 2:
        return []
    flags: dict[str, int] = {}
    heap: list[tuple[int, str]] = []
    only_theirs = 0  # queued commits reached from the other parents only

    def push(sha: str, flag: int) -> None:
        nonlocal only_theirs
        old = flags.get(sha, 0)
        new = old | flag
        if new == old:
            return
        flags[sha] = new
        if old == 0:
            heapq.heappush(heap, (-gen[sha], sha))
            only_theirs += new == 2
        elif old == 2:
            only_theirs -= 1

    push(parents[0], 1)
    for parent in parents[1:]:
        push(parent, 2)
    found = []
    while heap and only_theirs:
        _, sha = heapq.heappop(heap)
        flag = flags[sha]
        if flag == 2:
            only_theirs -= 1
            found.append(sha)
        for parent in graph[sha]:
            if parent in graph:
                push(parent, flag)
    return found


def pull_request_owners(graph: dict[str, list[str]], index: dict[str, dict]) -> dict[str, str]:
    """Commit → the pull-request merge that brought it in (the nearest one: PRs are taken oldest first,
    and a PR's own commit, merge or squash, is never owned by another)."""
    merges = [sha for sha, parents in graph.items() if len(parents) > 1 and sha in index]
    prs = [sha for sha in merges if is_pr_merge(index[sha])]
    if not prs:
        return {}
    gen = generations(graph)
    owner: dict[str, str] = {}
    # a pull request's own commit (a merge, or a squash "… (#13)") is its own entry, never another's
    pr_set = {sha for sha, commit in index.items() if pull_request(commit)[0] in ("pr-merge", "squash")}
    for merge in sorted(prs, key=lambda s: gen[s]):
        for sha in brought_in(graph, gen, merge):
            if sha not in owner and sha not in pr_set:
                owner[sha] = merge
    return owner


def history_style(index: dict[str, dict], setting: str = "auto") -> str:
    """``conventional`` or ``plain``: as set, or (``auto``) plain when fewer than half of the commits that
    are not merges are Conventional Commits."""
    if setting != "auto":
        return setting
    conventional = total = 0
    for commit in index.values():
        signals = commit["signals"]
        if signals["is_merge"]:
            continue
        total += 1
        conventional += signals["commit_type"] is not None
    return "conventional" if total == 0 or 2 * conventional >= total else "plain"


def branches(owners: dict[str, str], index: dict[str, dict]) -> dict[str, tuple[dict, ...]]:
    """Pull-request merge → the commits it brought in, oldest first (``owners`` inverted)."""
    found: dict[str, list[dict]] = {}
    for sha, commit in index.items():
        merge = owners.get(sha)
        if merge is not None:
            found.setdefault(merge, []).append(commit)
    return {merge: tuple(commits) for merge, commits in found.items()}
