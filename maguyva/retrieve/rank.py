"""The file ranker: BM25F plus the signals a question carries, one linear combination. Pure over a store.

    score(file) = (bm25f/max bm25f
                   + W_DEFINES  · defines   (query names the file defines, by specificity)
                   + W_FRAMES   · frames    (traceback frames in the file, the last one highest)
                   + W_MENTIONS · mentions  (paths and modules the query names)
                   + W_STEM     · stem      (the file is named after a name the query stresses)
                   + W_SYMBOL   · symbol    (the file's best single definition for the query's words)
                   + W_RETRIEVERS · retrievers (weighted RRF of the routed retrievers' file ranks)
                   + W_MESSAGE  · message   (a pasted message's text written in the file)
                   + W_HANDOFF  · handoff   (a task: what the definitions it names call or inherit from))
                  × centrality boost × demotion(kind of file)
                  + W_GRAPH · (score of the best of the top SEEDS files it imports, calls or is used by)

Query words are the parsed query's weighted stems (``ParsedQuery.stems``: prose, code, the names it
stresses, its title), plus compounds of adjacent prose words the code spells as one (“man page” →
``manpage``, “type hints” → ``typehints``) and, for a short question, related verbs.

Tests, docs, changelogs, CI config, examples, vendored/generated/build files and files
``orkestra sync`` renders are demoted unless the query asks for them.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from typing import TYPE_CHECKING

import numpy as np

from maguyva.retrieve.bm25f import FileIndex
from maguyva.retrieve.query import STOPPED, ParsedQuery, frame_paths, module_paths, stem, tokens

if TYPE_CHECKING:
    from maguyva.retrieve.hits import Hit
    from maguyva.store.base import Store

W_DEFINES = 0.3
W_FRAMES = 1.0
W_MENTIONS = 0.4
W_STEM = 0.4
W_SYMBOL = 0.6
W_SYMBOL_QUESTION = 1.2  # a short question is answered by one definition: it weighs more than in a task
W_RETRIEVERS = 0.5  # short questions only: a task text runs no separate retrievers
W_HANDOFF = 0.1  # a task's named definitions → the files they call and inherit from (handoff_files)
HANDOFF_NAMED = 8  # the most specific named definitions followed
W_MESSAGE = 2.0  # a pasted message's text written in the file (maguyva.retrieve.message)
W_GRAPH = 0.1  # one hop from the strongest files: the implementation an API file calls, and back
SEEDS = 3
BOOST_CAP = 1.3
CANDIDATES = 200  # files taken from BM25F before the signals are added

DEMOTE = {
    "test": 0.4,
    "docs": 0.3,
    "changelog": 0.2,
    "ci": 0.2,
    "example": 0.4,
    "vendored": 0.3,
    "rendered": 0.1,
}
_ASKS = {
    "test": re.compile(r"\b(tests?|testing|pytest|unit ?tests?|fixtures?|conftest)\b", re.I),
    "docs": re.compile(r"\b(docs?|documentation|readme|docstring|tutorial|guide|\.rst|\.md)\b", re.I),
    "changelog": re.compile(r"\b(changelog|changes file|release notes|history)\b", re.I),
    "ci": re.compile(r"\b(ci|github actions|workflow|travis|tox|codecov|pipeline)\b", re.I),
    "example": re.compile(r"\b(examples?|demos?|samples?)\b", re.I),
}
_CHANGELOG = re.compile(r"(^|/)(CHANGE(S|LOG)|HISTORY|NEWS|RELEASE[-_]?NOTES)[^/]*$", re.I)
_CI = re.compile(
    r"(^|/)(\.github|\.circleci|\.gitlab-ci|\.travis|azure-pipelines|\.codecov|codecov|"
    r"\.pre-commit|tox\.ini|\.coveragerc|\.readthedocs|appveyor|Jenkinsfile|\.ci/)"
    r"|^release/",
    re.I,
)  # release scripts at the top level
_EXAMPLE = re.compile(r"(^|/)(examples?|demos?|samples?|benchmarks?|asv_bench)/", re.I)
_VENDORED = re.compile(
    r"(^|/)(_vendor|vendored|externals?|extern|third_party)/|^[^/]+/packages/"
    r"|[-.]v?\d+(\.\d+)+(\.min)?\.(js|css)$|\.min\.(js|css)$"
)  # a library copied in: jquery-3.5.1.js
_DOCS = re.compile(r"(^|/)(docs?|doc_src|documentation)/", re.I)
_RENDERED = re.compile(r"(^|/)(\.claude/|GROUND_TRUTHS\.md$|CLAUDE\.md$|\.mcp\.json$)")
_TEST_PATH = re.compile(
    r"(^|/)(tests?|testing|__tests__|testutils|test_?utils)/"
    r"|(^|/)(test_[^/]*|[^/]*_tests?\.py|conftest\.py)$"
)


@dataclass(frozen=True, slots=True)
class FileScore:
    path: str
    score: float
    signals: dict = field(default_factory=dict)
    demotion: str | None = None


def file_kind(path: str, flags: Sequence[str], language: str | None) -> str | None:
    """Why a file is demoted by default (None: it is ordinary code)."""
    if _RENDERED.search(path):
        return "rendered"
    if "test" in flags or _TEST_PATH.search(path):
        return "test"
    if set(flags) & {"vendor", "build", "generated", "archive"} or _VENDORED.search(path):
        return "vendored"
    if _CHANGELOG.search(path):
        return "changelog"
    if _CI.search(path):
        return "ci"
    if _EXAMPLE.search(path):
        return "example"
    if _DOCS.search(path) or language in (None, "markdown"):
        return "docs"
    return None


def asked_for(query: str) -> set[str]:
    """The kinds of normally demoted files the query asks for by name."""
    return {kind for kind, pattern in _ASKS.items() if pattern.search(query)}


def asked_in(parsed: ParsedQuery) -> set[str]:
    """What a question asks for; a task text asks in its title (its body says "example", "docs", "test"
    on the way to describing a bug, so it would lift every demoted file)."""
    return asked_for(parsed.title if parsed.is_task and parsed.title else parsed.text)


W_RELATED = 0.3
# Verbs a question says in plain words and code spells another way ("looked up" → ``find``/``lookup``);
# each word of a group brings the others in at W_RELATED, for short questions only
_RELATED_WORDS = (
    "find lookup look search get resolve locate fetch match",
    "strip remove delete drop clear discard",
    "compute calculate calc measure count estimate",
    "check validate verify ensure",
    "create make build construct",
    "convert parse cast coerce encode decode",
    "choose pick select decide determine detect guess",
    "read load open",
    "write save dump emit",
    "show display print render",
    "merge combine join",
    "split divide break wrap",
    "environment environ env getenv",
    "directory dir folder",
)
RELATED = {word: group for words in _RELATED_WORDS for group in [frozenset(tokens(words))] for word in group}


def related_terms(parsed: ParsedQuery, terms: Mapping[str, float]) -> dict[str, float]:
    """The related spellings of a short question's verbs (a task text already says enough words)."""
    if parsed.is_task:
        return {}
    found: dict[str, float] = {}
    for term in terms:
        for other in RELATED.get(term, ()):
            if other not in terms:
                found[other] = W_RELATED
    return found


def compound_terms(parsed: ParsedQuery, vocabulary: Mapping[str, object]) -> dict[str, float]:
    """Adjacent prose words the code writes as one word, when the index knows that word."""
    found: dict[str, float] = {}
    for first, second in pairwise(parsed.plain_words):
        if first in STOPPED or second in STOPPED or len(first) < 2 or len(second) < 3:
            continue
        joined = stem(first + second)
        if joined in vocabulary and joined not in found:
            found[joined] = 1.0
    return found


def resolve_paths(known: Iterable[str], parsed: ParsedQuery) -> dict[str, float]:
    """Files the query names: written paths and modules (1.0)."""
    known = set(known)
    by_suffix: dict[str, list[str]] = {}
    mentions: dict[str, float] = {}
    for written in parsed.paths:
        for path in _suffix_match(known, written.lstrip("./"), by_suffix):
            mentions[path] = 1.0
    for dotted in parsed.modules:
        for candidate in module_paths(dotted)[:2]:  # the module itself, not its parents
            for path in _suffix_match(known, candidate, by_suffix):
                mentions[path] = max(mentions.get(path, 0.0), 1.0)
    return mentions


def named_stems(known: Iterable[str], parsed: ParsedQuery) -> dict[str, float]:
    """Files whose name is a name the query stresses (``concat`` → ``core/concat.py``); 1.0 in the title."""
    stressed = {
        p.lower()
        for name in (*parsed.identifiers, *parsed.literals, *parsed.code_calls)
        for p in name.split(".")
        if len(p) >= 4
    }
    # a setting named after its module: ``autodoc_typehints`` → ``autodoc/typehints.py``
    paired = {
        tuple(pair)
        for name in parsed.identifiers
        for part in name.lower().split(".")
        for pair in zip(part.split("_"), part.split("_")[1:])
        if min(map(len, pair)) >= 4
    }
    titled = {w.lower() for w in parsed.title_words if len(w) >= 4}
    found = {}
    for path in known:
        stem = path.rsplit("/", 1)[-1].split(".", 1)[0].lower()
        if stem == "__init__":
            continue
        if stem in titled and (stem in stressed or not parsed.title.islower()):
            found[path] = 1.0
        elif stem in stressed or (
            paired and tuple(path.lower().rsplit("/", 2)[-2:]) in {(a, f"{b}.py") for a, b in paired}
        ):
            found[path] = 0.5
    return found if len(found) <= 12 else {}


def frame_files(known: Iterable[str], parsed: ParsedQuery) -> dict[str, float]:
    known = set(known)
    cache: dict[str, list[str]] = {}
    found: dict[str, float] = {}
    in_repo = []
    for frame in parsed.frames:
        for candidate in frame_paths(frame):
            matched = _suffix_match(known, candidate, cache)
            if (matched and candidate.count("/") >= 1) or len(matched) == 1:
                in_repo.append(matched)
                break
    for position, matched in enumerate(in_repo):
        weight = 1.0 if position == len(in_repo) - 1 else 0.2  # the innermost in-repo frame
        for path in matched:
            found[path] = max(found.get(path, 0.0), weight)
    return found


def _suffix_match(known: set[str], candidate: str, cache: dict) -> list[str]:
    if candidate in cache:
        return cache[candidate]
    if candidate in known:
        out = [candidate]
    else:
        out = sorted(p for p in known if p.endswith("/" + candidate))
        out = out if len(out) <= 3 else []
    cache[candidate] = out
    return out


def defined_names(
    store: Store, parsed: ParsedQuery, n_files: int, used_in: Callable[[str], int] | None = None
) -> tuple[dict[str, float], dict[str, list]]:
    """Per file, how strongly the query's names point at definitions in it (specific names count more).

    A name is specific when few files define it and, given ``used_in`` (how many files hold the name
    as a word), when few files use it: ``Dataset`` is defined once but used everywhere, so the hub
    that defines it says little about an issue that mentions it."""
    strength: dict[str, float] = {}
    symbols_by_file: dict[str, list] = {}
    stressed = {
        p
        for name in (*parsed.identifiers, *parsed.literals, *(f.function for f in parsed.frames))
        for p in name.split(".")
    }
    titled = {w for w in parsed.title_words if len(w) >= 2}
    qualified = [i for i in parsed.identifiers if "." in i]
    for name in parsed.names:
        found = store.find_symbols(name, limit=50)
        files = {s.path for s in found}
        if not files:
            continue
        specificity = math.log(1 + n_files / len(files)) / math.log(1 + n_files)
        if used_in is not None:
            users = max(used_in(name), len(files))
            specificity = min(specificity, math.log(1 + n_files / users) / math.log(1 + n_files))
        weight = specificity * (1.0 if name in stressed else 0.5) * (2.0 if name in titled else 1.0)
        per_file: dict[str, float] = {}
        for symbol in found:
            bonus = 1.5 if any(symbol.qualified_name.endswith(q) for q in qualified) else 1.0
            value = weight * bonus * (1.0 if symbol.kind in ("class", "function", "method") else 0.5)
            per_file[symbol.path] = max(per_file.get(symbol.path, 0.0), value)  # a name counts once per file
            symbols_by_file.setdefault(symbol.path, []).append((value, symbol))
        for path, value in per_file.items():
            strength[path] = strength.get(path, 0.0) + value
    top = max(strength.values(), default=0.0)
    if top > 0:
        strength = {p: min(1.0, v / max(top, 1.0)) for p, v in strength.items()}
    return strength, symbols_by_file


def rank_files(
    store: Store,
    index: FileIndex,
    parsed: ParsedQuery,
    *,
    kinds: Callable[[str], str | None],
    centrality: Callable[[str], float] = lambda path: 0.0,
    retrievers: Mapping[str, Sequence[Hit]] | None = None,
    retriever_weights: Mapping[str, float] = {},
    path_prefix: str | None = None,
    limit: int = 10,
    message: Mapping[str, float] | None = None,
) -> tuple[list[FileScore], dict[str, list]]:
    """Files ranked for the query, best first, and per file the definitions the query named."""
    terms = dict(parsed.stems)
    for word, weight in compound_terms(parsed, index.postings).items():
        terms.setdefault(word, weight)
    for word, weight in related_terms(parsed, terms).items():
        terms.setdefault(word, weight)
    raw = index.score(terms)
    order = np.argsort(-raw)[:CANDIDATES]
    top = float(raw[order[0]]) if len(order) and raw[order[0]] > 0 else 1.0
    signals: dict[str, dict[str, float]] = {}
    for i in order:
        if raw[i] > 0:
            signals.setdefault(index.paths[i], {})["bm25f"] = float(raw[i]) / top
    # a task's names weigh by how few files use them too: the hub that defines ``Dataset`` says little
    defines, named_symbols = defined_names(
        store, parsed, len(index.paths), index.files_with if parsed.is_task else None
    )
    best = index.best_symbol(terms)
    ceiling = float(best[order].max()) if len(order) else 0.0
    for i in order:
        if raw[i] > 0 and best[i] > 0 and ceiling > 0:
            signals[index.paths[i]]["symbol"] = float(best[i]) / ceiling
    for path, value in defines.items():
        signals.setdefault(path, {})["defines"] = value
    for path, value in frame_files(index.paths, parsed).items():
        signals.setdefault(path, {})["frames"] = value
    for path, value in resolve_paths(index.paths, parsed).items():
        signals.setdefault(path, {})["mentions"] = value
    for path, value in named_stems(index.paths, parsed).items():
        signals.setdefault(path, {})["stem"] = value
    for path, value in (message or {}).items():
        signals.setdefault(path, {})["message"] = value
    if parsed.is_task:
        for path, value in handoff_files(store, named_symbols).items():
            signals.setdefault(path, {})["handoff"] = value
    for modality, hits in (retrievers or {}).items():
        seen: set[str] = set()
        for rank, hit in enumerate(hits):
            if hit.path not in seen:
                seen.add(hit.path)
                entry = signals.setdefault(hit.path, {})
                entry["retrievers"] = entry.get("retrievers", 0.0) + retriever_weights.get(
                    modality, 0.0
                ) * 10 / (10 + rank)
    asked = asked_in(parsed)
    scored = []
    for path, found in signals.items():
        if path_prefix and not path.startswith(path_prefix):
            continue
        base = (
            found.get("bm25f", 0.0)
            + W_DEFINES * found.get("defines", 0.0)
            + W_FRAMES * found.get("frames", 0.0)
            + W_MENTIONS * found.get("mentions", 0.0)
            + W_STEM * found.get("stem", 0.0)
            + (W_SYMBOL if parsed.is_task else W_SYMBOL_QUESTION) * found.get("symbol", 0.0)
            + W_RETRIEVERS * found.get("retrievers", 0.0)
            + W_MESSAGE * found.get("message", 0.0)
            + W_HANDOFF * found.get("handoff", 0.0)
        )
        boost = min(1.0 + 0.1 * math.log1p(max(centrality(path), 0.0)), BOOST_CAP)
        kind = kinds(path)
        demoted = kind if kind and kind not in asked and not (path_prefix and kind == "test") else None
        score = base * boost * (DEMOTE[demoted] if demoted else 1.0)
        scored.append(FileScore(path, score, {k: round(v, 4) for k, v in found.items()}, demoted))
    scored.sort(key=lambda f: (-f.score, f.path))
    return near_seeds(store, scored)[:limit], named_symbols


def handoff_files(store: Store, named: Mapping[str, list]) -> dict[str, float]:
    """Files the definitions a task names hand off to: what they call and inherit from, one hop
    (1.0) and two (0.5), scaled by how strongly the task named them (their ``defines`` value)."""
    ranked = sorted(
        ((value, symbol) for found in named.values() for value, symbol in found),
        key=lambda vs: (-vs[0], vs[1].path, vs[1].line),
    )[:HANDOFF_NAMED]
    top = ranked[0][0] if ranked else 0.0
    found: dict[str, float] = {}
    for value, symbol in ranked:
        weight = value / top if top > 0 else 0.0
        first_hop = [
            e for e in store.edges_out(symbol.path, symbol.qualified_name) if _hands_off(e, symbol.path)
        ]
        for edge in first_hop:
            found[edge.dst_path] = max(found.get(edge.dst_path, 0.0), weight)
        for edge in [e for e in first_hop if e.dst_symbol][:10]:
            for second in store.edges_out(edge.dst_path, edge.dst_symbol):
                if _hands_off(second, symbol.path):
                    found[second.dst_path] = max(found.get(second.dst_path, 0.0), weight * 0.5)
    return found


def _hands_off(edge, origin: str) -> bool:
    return bool(edge.dst_path) and edge.dst_path != origin and edge.kind in ("calls", "inherits")


def near_seeds(store: Store, scored: list[FileScore]) -> list[FileScore]:
    """Lift files one edge away from the strongest few (imports, calls, inheritance, either way)."""
    if not scored or scored[0].score <= 0:
        return scored
    top = scored[0].score
    lift: dict[str, float] = {}
    seeds = [f for f in scored if f.demotion is None][:SEEDS]  # code files, not the tests that use them
    near = store.neighbour_files([seed.path for seed in seeds])
    for seed in seeds:
        for path in near[seed.path]:
            lift[path] = max(lift.get(path, 0.0), seed.score / top)
    if not lift:
        return scored
    lifted = [
        FileScore(
            f.path,
            f.score + W_GRAPH * top * lift[f.path],
            {**f.signals, "graph": round(lift[f.path], 4)},
            f.demotion,
        )
        if f.path in lift
        else f
        for f in scored
    ]
    lifted.sort(key=lambda f: (-f.score, f.path))
    return lifted
