"""``why`` targets: ``path``, ``path:line`` / ``path:start-end``, ``path::Symbol`` or a bare symbol name.

Paths are repository-relative POSIX and must stay inside the repository and out of ``.git``;
symbols resolve through Maguyva's index when there is one (no index: paths still work).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from maguyva.files import resolved
from orkestra.errors import OrkestraError

LINE_RE = re.compile(r"^(?P<path>.+?):(?P<start>\d+)(?:-(?P<end>\d+))?$")
MAX_TARGET = 1_000
NO_INDEX_NOTE = (
    "no Maguyva index: answered for the whole file (run `orkestra code index` to narrow it to the symbol)"
)


@dataclass(frozen=True, slots=True)
class Target:
    raw: str
    path: str  # repo-relative POSIX ('' only for an unresolved symbol)
    via: str  # "path" | "line" | "symbol"
    start: int | None = None
    end: int | None = None
    symbol: str | None = None
    notes: tuple[str, ...] = field(default=())

    def to_dict(self) -> dict:
        data = {"target": self.raw, "via": self.via, "path": self.path}
        if self.start is not None:
            data["lines"] = [self.start, self.end]
            data["citation"] = f"{self.path}:{self.start}"
        if self.symbol:
            data["symbol"] = self.symbol
        return data


def clean_path(root: Path, raw: str) -> str:
    """``raw`` as a repo-relative POSIX path; an error when it leaves the repository or enters ``.git``."""
    text = raw.strip().replace("\\", "/")
    if "\0" in text:
        raise OrkestraError(f"{raw!r} is not a path (it holds a NUL character)")
    candidate = Path(text)
    if candidate.is_absolute():
        try:
            text = resolved(candidate, raw, OrkestraError).relative_to(root.resolve()).as_posix()
        except ValueError:
            raise OrkestraError(f"{raw!r} is outside the repository {root}") from None
    parts = [p for p in PurePosixPath(text).parts if p not in ("", ".")]
    if not parts or ".." in parts:
        raise OrkestraError(f"{raw!r} is not a path inside the repository (no '..', not empty)")
    if parts[0] == ".git":
        raise OrkestraError(f"{raw!r} is inside .git; why answers for tracked code only")
    rel = "/".join(parts)
    try:
        linked = (root / rel).is_symlink()
    except OSError:  # a name too long for the file system: nothing is there, link or file
        return rel
    if linked and not resolved(root / rel, raw, OrkestraError).is_relative_to(root.resolve()):
        raise OrkestraError(f"{raw!r} is a symlink leading out of the repository")
    return rel


def present(root: Path, rel: str) -> bool:
    """Whether ``rel`` (a :func:`clean_path`) names something in the work tree now; a name too long for
    the file system names nothing."""
    try:
        return (root / rel).exists()
    except OSError:
        return False


def resolve_target(root: Path, raw: str, known_path, index_lookup=None) -> Target:
    """Classify and resolve ``raw``. ``known_path(rel)`` says whether a path exists now or in history;
    ``index_lookup(symbol, path=None)`` returns ``[(path, line, end_line, qualified_name)]`` or None
    when there is no index."""
    raw = raw.strip()
    if not raw or len(raw) > MAX_TARGET:
        raise OrkestraError("give a path, path:line or symbol (at most 1,000 characters)")
    if "::" in raw:
        path_part, symbol = raw.split("::", 1)
        path = clean_path(root, path_part)
        return _symbol_target(raw, symbol, index_lookup, path)
    match = LINE_RE.match(raw)
    if match and known_path(_maybe_clean(root, match["path"])):
        start = int(match["start"])
        end = int(match["end"] or start)
        if start < 1 or end < start:
            raise OrkestraError(f"{raw!r}: line range must be 1 <= start <= end")
        return Target(raw, clean_path(root, match["path"]), "line", start, end)
    cleaned = _maybe_clean(root, raw)
    if cleaned and known_path(cleaned):
        return Target(raw, cleaned, "path")
    if "/" in raw:
        clean_path(root, raw)  # a bad path is reported as such, not as a missing symbol
        raise OrkestraError(f"{raw!r}: no such path now or in git history")
    return _symbol_target(raw, raw, index_lookup, None)


def _maybe_clean(root: Path, raw: str) -> str:
    try:
        return clean_path(root, raw)
    except OrkestraError:
        return ""


def _symbol_target(raw: str, symbol: str, index_lookup, path: str | None) -> Target:
    symbol = symbol.strip()
    if not symbol:
        raise OrkestraError(f"{raw!r}: empty symbol name after '::'")
    found = index_lookup(symbol, path) if index_lookup else None
    if found is None:
        if path:
            return Target(raw, path, "path", symbol=symbol, notes=(NO_INDEX_NOTE,))
        raise OrkestraError(
            f"{raw!r} is not a path in this repository, and there is no Maguyva index to "
            "resolve it as a symbol (run `orkestra code index`, or pass a path)"
        )
    if not found:
        where = f" in {path}" if path else ""
        raise OrkestraError(
            f"{raw!r}: no symbol {symbol!r}{where} in the Maguyva index "
            "(`orkestra code symbol NAME --similar` lists close names)"
        )
    first = found[0]
    notes = ()
    if len(found) > 1:
        others = ", ".join(f"{p}:{line}" for p, line, _, _ in found[1:4])
        notes = (
            f"{len(found)} definitions; answered for the first ({first[0]}:{first[1]}); others: {others}",
        )
    return Target(raw, first[0], "symbol", first[1], first[2], first[3], notes)


def index_lookup_for(root: Path):
    """A symbol lookup over the repository's Maguyva index, or None when there is no index."""
    from maguyva.errors import MaguyvaError
    from maguyva.store.location import store_path

    try:
        location = store_path(root)  # where maguyva's own commands find the index
    except MaguyvaError:
        return None
    if isinstance(location, Path) and not location.is_file():
        return None

    def lookup(symbol: str, path: str | None) -> list[tuple[str, int, int, str]]:
        from maguyva.api import Maguyva

        api = Maguyva.open(root)
        try:
            found = api.find_symbol(symbol, limit=50)["symbols"]
        finally:
            api.close()
        rows = [(s["path"], s["line"], s["end_line"], s.get("qualified_name") or s["symbol"]) for s in found]
        return [r for r in rows if path is None or r[0] == path]

    return lookup
