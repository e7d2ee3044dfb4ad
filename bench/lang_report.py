"""The language quality gate: score extraction against hand-written fixtures, keep a manifest.

A development tool for Maguyva's extractors (it ships with the repository, not the package):

    PYTHONPATH=$PWD python bench/lang_report.py --format table
    PYTHONPATH=$PWD python bench/lang_report.py --language rust | jq '.languages[0].mismatches'
    PYTHONPATH=$PWD python bench/lang_report.py --write-manifest

Each ``<fixtures>/<language>/`` holds ``src/`` (a small project) and ``expected.yaml`` (every
definition and every in-repo edge, written by hand). Scoring is a set comparison of
``(kind, from, to)`` edges and ``(path, line, kind, name)`` definitions. A language is GREEN only
with precision ≥ 0.95, recall ≥ 0.99 and F1 ≥ 0.97 over ≥ 20 expected edges; YELLOW with
F1 ≥ 0.80; else RED. Every mismatch is classified for spot checks. The manifest records the
figures so a later run can refuse a regression in any language.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Annotated, Literal

import typer
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from maguyva.errors import MaguyvaError
from maguyva.models import Edge, FileExtraction

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "tests" / "fixtures" / "languages"
MANIFEST = REPO / "tests" / "quality" / "lang_manifest.json"
MIN_EDGES = 20
GREEN = {"precision": 0.95, "recall": 0.99, "f1": 0.97}
YELLOW_F1 = 0.80
TOLERANCE = 0.001
STATUS_RANK = {"RED": 0, "YELLOW": 1, "GREEN": 2}
Status = Literal["GREEN", "YELLOW", "RED"]
EdgeKey = tuple[str, str, str]  # (kind, "path:line" of the reference, "path:line" of the target)
DefKey = tuple[str, int, str, str]  # (path, line, kind, name)


class FixtureError(MaguyvaError):
    """A fixture folder or its expected.yaml is missing or malformed."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class ExpectedDefinition(_Strict):
    path: str
    line: int
    kind: str
    name: str


class ExpectedEdge(_Strict):
    kind: Literal["calls", "imports", "inherits", "references"]
    src: str = Field(alias="from")  # "path:line" of the reference
    dst: str = Field(alias="to")  # "path:line" of the target definition (line 1 for a file)


class Expected(_Strict):
    definitions: list[ExpectedDefinition]
    edges: list[ExpectedEdge]


class ManifestEntry(_Strict):
    status: Status
    precision: float
    recall: float
    f1: float
    expected_edges: int
    found_edges: int
    matched_edges: int
    edges_by_kind: dict[str, int]
    definition_precision: float
    definition_recall: float


class Manifest(_Strict):
    version: int = 1
    languages: dict[str, ManifestEntry]


@dataclass(frozen=True, slots=True)
class Score:
    """Precision, recall and F1 of one set comparison."""

    expected: int
    found: int
    matched: int
    precision: float
    recall: float
    f1: float


@dataclass(frozen=True, slots=True)
class Mismatch:
    """One edge that disagrees with the fixture, classified for spot checks.

    category: FALSE_POSITIVE (no such edge in the source), MISSING (expected, not produced),
    SCOPE_ERROR (right name, wrong definition of it), TYPE_ERROR (wrong kind of target),
    METADATA_ERROR (right target, wrong edge kind or line).
    """

    category: str
    kind: str
    src: str
    dst: str | None
    expected_dst: str | None = None
    name: str = ""
    detail: str = ""


@dataclass(frozen=True, slots=True)
class LanguageReport:
    """The gate's verdict on one language's fixture."""

    language: str
    status: Status
    edges: Score
    definitions: Score
    edges_by_kind: dict[str, int]
    mismatches: tuple[Mismatch, ...]
    definition_misses: tuple[str, ...]  # "-path:line kind name" missing / "+..." unexpected
    errors: tuple[str, ...]

    def to_dict(self) -> dict:
        return asdict(self)


def load_expected(path: Path) -> Expected:
    """Read and validate one fixture's expected.yaml."""
    import yaml

    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        return Expected.model_validate(data)
    except FileNotFoundError as exc:
        raise FixtureError(f"{path}: missing expected.yaml") from exc
    except (yaml.YAMLError, ValidationError, TypeError) as exc:
        raise FixtureError(f"{path}: {exc}") from exc


def fixture_languages(fixtures: Path) -> list[str]:
    """Languages that have a fixture folder with an expected.yaml, sorted."""
    return sorted(p.parent.name for p in fixtures.glob("*/expected.yaml"))


def score_language(fixtures: Path, language: str) -> LanguageReport:
    """Extract and resolve ``<fixtures>/<language>/src`` and compare it with expected.yaml."""
    from maguyva.index.pipeline import extract_tree

    folder = fixtures / language
    if not (folder / "src").is_dir():
        raise FixtureError(f"{folder}: no src/ folder (known: {', '.join(fixture_languages(fixtures))})")
    expected = load_expected(folder / "expected.yaml")
    extractions, edges = extract_tree(folder / "src")
    return compare(language, expected, extractions, edges)


def compare(
    language: str, expected: Expected, extractions: Iterable[FileExtraction], edges: Iterable[Edge]
) -> LanguageReport:
    """Score extracted definitions and resolved edges against the fixture's ground truth. Pure."""
    extractions = list(extractions)
    edges = list(edges)
    want_edges = {(e.kind, e.src, e.dst) for e in expected.edges}
    got_edges = {_edge_key(e) for e in edges if e.resolution in ("resolved", "inferred") and e.dst_path}
    want_defs = {(d.path, d.line, d.kind, d.name) for d in expected.definitions}
    got_defs = {(s.path, s.line, s.kind, s.name) for x in extractions for s in x.symbols}
    edge_score = _score(want_edges, got_edges)
    by_kind: dict[str, int] = {}
    for kind, _src, _dst in sorted(want_edges):
        by_kind[kind] = by_kind.get(kind, 0) + 1
    return LanguageReport(
        language=language,
        status=status_of(edge_score),
        edges=edge_score,
        definitions=_score(want_defs, got_defs),
        edges_by_kind=by_kind,
        mismatches=classify(want_edges, got_edges, got_defs, edges),
        definition_misses=tuple(
            [f"-{p}:{ln} {k} {n}" for p, ln, k, n in sorted(want_defs - got_defs)]
            + [f"+{p}:{ln} {k} {n}" for p, ln, k, n in sorted(got_defs - want_defs)]
        ),
        errors=tuple(err for x in extractions for err in x.errors),
    )


def status_of(score: Score) -> Status:
    """GREEN / YELLOW / RED from an edge score (GREEN needs ≥ MIN_EDGES expected edges)."""
    if (
        score.expected >= MIN_EDGES
        and score.precision >= GREEN["precision"]
        and score.recall >= GREEN["recall"]
        and score.f1 >= GREEN["f1"]
    ):
        return "GREEN"
    return "YELLOW" if score.f1 >= YELLOW_F1 else "RED"


def classify(
    want: set[EdgeKey], got: set[EdgeKey], got_defs: set[DefKey], edges: list[Edge]
) -> tuple[Mismatch, ...]:
    """Explain every edge in ``want ^ got``; an unmatched pair at the same place explains both."""
    defs_at = {(p, ln): (k, n) for p, ln, k, n in got_defs}
    missing = set(want - got)
    out: list[Mismatch] = []
    for kind, src, dst in sorted(got - want):
        partner = _partner(missing, kind, src, dst)
        if partner is None:
            out.append(Mismatch("FALSE_POSITIVE", kind, src, dst, name=_name_at(defs_at, dst)))
            continue
        missing.discard(partner)
        out.append(
            Mismatch(
                _wrong_target(partner, (kind, src, dst), defs_at),
                kind,
                src,
                dst,
                expected_dst=partner[2],
                name=_name_at(defs_at, dst),
                detail="" if partner[0] == kind else f"expected a {partner[0]} edge",
            )
        )
    reasons: dict[tuple[str, ...], str] = {}
    for e in edges:
        if e.resolution not in ("resolved", "inferred"):
            why = f"{e.resolution}: {e.reason}"
            reasons[(e.kind, f"{e.src_path}:{e.src_line}", e.name)] = why
            reasons.setdefault((e.kind, f"{e.src_path}:{e.src_line}"), why)
    for kind, src, dst in sorted(missing):
        name = _name_at(defs_at, dst)
        detail = reasons.get((kind, src, name)) or reasons.get((kind, src), "no reference extracted")
        out.append(Mismatch("MISSING", kind, src, None, expected_dst=dst, name=name, detail=detail))
    return tuple(sorted(out, key=lambda m: (_loc(m.src), m.kind)))


def _partner(missing: set[EdgeKey], kind: str, src: str, dst: str) -> EdgeKey | None:
    """The unmatched expected edge this produced edge most likely stands for."""
    same_place = [m for m in sorted(missing) if m[1] == src]
    for rule in (
        lambda m: m[2] == dst,
        lambda m: m[0] == kind and _file(m[2]) == _file(dst),
        lambda m: m[0] == kind,
    ):
        found = [m for m in same_place if rule(m)]
        if found:
            return found[0]
    return None


def _wrong_target(expected: EdgeKey, found: EdgeKey, defs_at: dict) -> str:
    if expected[2] == found[2] or (_file(expected[2]) == _file(found[2]) and _loc(found[2]) not in defs_at):
        return "METADATA_ERROR"  # right target, wrong kind; or right file, a line no definition is on
    want, got = defs_at.get(_loc(expected[2])), defs_at.get(_loc(found[2]))
    if want and got and want[1] == got[1]:
        return "SCOPE_ERROR"  # same name, another definition of it
    return "TYPE_ERROR"


def _edge_key(edge: Edge) -> EdgeKey:
    return edge.kind, f"{edge.src_path}:{edge.src_line}", f"{edge.dst_path}:{edge.dst_line}"


def _file(location: str) -> str:
    return location.rsplit(":", 1)[0]


def _loc(location: str) -> tuple[str, int]:
    path, _, line = location.rpartition(":")
    return path, int(line)


def _name_at(defs_at: dict, location: str) -> str:
    found = defs_at.get(_loc(location))
    return found[1] if found else ""


def _score(want: set, got: set) -> Score:
    matched = len(want & got)
    precision = matched / len(got) if got else (1.0 if not want else 0.0)
    recall = matched / len(want) if want else 1.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return Score(len(want), len(got), matched, round(precision, 4), round(recall, 4), round(f1, 4))


# ---- the manifest: the cross-language regression guard ----


def build_manifest(reports: Iterable[LanguageReport]) -> Manifest:
    """The figures to record for every scored language."""
    return Manifest(
        languages={
            r.language: ManifestEntry(
                status=r.status,
                precision=r.edges.precision,
                recall=r.edges.recall,
                f1=r.edges.f1,
                expected_edges=r.edges.expected,
                found_edges=r.edges.found,
                matched_edges=r.edges.matched,
                edges_by_kind=r.edges_by_kind,
                definition_precision=r.definitions.precision,
                definition_recall=r.definitions.recall,
            )
            for r in reports
        }
    )


def read_manifest(path: Path) -> Manifest:
    """Load a manifest written by ``write_manifest``."""
    try:
        return Manifest.model_validate_json(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise FixtureError(
            f"{path}: no manifest (run `python bench/lang_report.py --write-manifest`)"
        ) from exc
    except ValidationError as exc:
        raise FixtureError(f"{path}: {exc}") from exc


def write_manifest(manifest: Manifest, path: Path) -> None:
    """Write ``manifest`` as stable, sorted JSON (atomically)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(
        json.dumps(manifest.model_dump(mode="json"), indent=2, sort_keys=True) + "\n", encoding="utf-8"
    )
    tmp.replace(path)


def regressions(recorded: Manifest, current: Manifest) -> list[str]:
    """Every language that got worse than recorded (a figure lower by > TOLERANCE, or a worse status)."""
    found: list[str] = []
    for language, before in sorted(recorded.languages.items()):
        now = current.languages.get(language)
        if now is None:
            found.append(f"{language}: recorded in the manifest but not scored")
            continue
        if STATUS_RANK[now.status] < STATUS_RANK[before.status]:
            found.append(f"{language}: status {before.status} -> {now.status}")
        for figure in ("precision", "recall", "f1"):
            old, new = getattr(before, figure), getattr(now, figure)
            if new < old - TOLERANCE:
                found.append(f"{language}: {figure} {old:.4f} -> {new:.4f}")
    return found


# ---- the report: what `python bench/lang_report.py` prints ----


@dataclass(frozen=True, slots=True)
class QualityReport:
    """Every scored language, the manifest comparison, and whether the manifest was rewritten."""

    fixtures: str
    manifest: str
    languages: tuple[LanguageReport, ...]
    regressions: tuple[str, ...]
    manifest_written: bool

    @property
    def counts(self) -> dict[str, int]:
        counts = {"GREEN": 0, "YELLOW": 0, "RED": 0}
        for report in self.languages:
            counts[report.status] += 1
        return counts

    def to_dict(self) -> dict:
        return {
            "fixtures": self.fixtures,
            "manifest": self.manifest,
            "summary": {"languages": len(self.languages), **{k.lower(): v for k, v in self.counts.items()}},
            "regressions": list(self.regressions),
            "manifest_written": self.manifest_written,
            "languages": [r.to_dict() for r in self.languages],
        }


def lang_report(
    fixtures: Path, manifest_path: Path, languages: Iterable[str] = (), write: bool = False
) -> QualityReport:
    """Score the fixtures (all, or ``languages``); compare with the manifest, or rewrite it.

    With ``write``, the scored languages replace their entries in the manifest (others are kept).
    Without it, a missing manifest means nothing to compare against (no regressions).
    """
    wanted = list(languages) or fixture_languages(fixtures)
    reports = tuple(score_language(fixtures, language) for language in wanted)
    current = build_manifest(reports)
    recorded = read_manifest(manifest_path) if manifest_path.is_file() else None
    if write:
        before = recorded.languages if recorded else {}
        kept = {k: v for k, v in before.items() if k not in current.languages}
        write_manifest(Manifest(languages={**kept, **current.languages}), manifest_path)
        found: list[str] = []
    elif recorded is None:
        found = []
    else:
        scope = Manifest(
            languages={k: v for k, v in recorded.languages.items() if not languages or k in current.languages}
        )
        found = regressions(scope, current)
    return QualityReport(str(fixtures), str(manifest_path), reports, tuple(found), write)


# ---- the command line ----


def command(
    language: Annotated[
        list[str] | None, typer.Option("--language", "-l", help="Score only this language (repeatable).")
    ] = None,
    write_manifest: Annotated[
        bool, typer.Option("--write-manifest", help="Record the scores as the new baseline in the manifest.")
    ] = False,
    fixtures: Annotated[
        Path, typer.Option("--fixtures", help="Folder of <language>/{src,expected.yaml}.")
    ] = FIXTURES,
    manifest: Annotated[Path, typer.Option("--manifest", help="Manifest of recorded scores.")] = MANIFEST,
    fmt: Annotated[str, typer.Option("--format", help="json (default) or table.")] = "json",
) -> None:
    """Score extraction per language against hand-written fixtures: edge precision, recall, F1.

    GREEN needs P >= 0.95, R >= 0.99, F1 >= 0.97 over >= 20 expected edges; YELLOW F1 >= 0.80;
    else RED. Every mismatching edge is classified (FALSE_POSITIVE, MISSING, SCOPE_ERROR,
    TYPE_ERROR, METADATA_ERROR). Exits 1 when a language fell below its recorded manifest entry.
    """
    from maguyva.cli.output import emit_json, emit_table, run

    def action() -> int:
        report = lang_report(fixtures, manifest, language or (), write_manifest)
        if fmt == "table":
            emit_table(
                f"language quality ({report.counts['GREEN']}/{len(report.languages)} GREEN)",
                ("language", "status", "precision", "recall", "f1", "edges", "found", "mismatches"),
                [
                    [
                        r.language,
                        r.status,
                        f"{r.edges.precision:.3f}",
                        f"{r.edges.recall:.3f}",
                        f"{r.edges.f1:.3f}",
                        r.edges.expected,
                        r.edges.found,
                        len(r.mismatches),
                    ]
                    for r in report.languages
                ],
            )
            for line in report.regressions:
                sys.stderr.write(f"regression: {line}\n")
        else:
            emit_json(report)
        return 1 if report.regressions else 0

    run(action)


if __name__ == "__main__":
    typer.run(command)
