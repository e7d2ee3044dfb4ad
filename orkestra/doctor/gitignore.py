"""The ``gitignore`` check: rendered outputs git ignores, and the one safe fix (a negation git confirms)."""

from __future__ import annotations

import subprocess
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from orkestra.doctor.finding import Finding

FIX_MARK = "# orkestra doctor --fix: rendered outputs must be committed (`orkestra sync --check` in CI)"


def output_paths(root: Path, config: Any) -> list[str]:
    """What ``sync`` writes and must be committed: the manifest, every file it lists, ``.mcp.json``."""
    from orkestra.render.manifest import manifest_path, read_manifest_at

    manifest = manifest_path(config)
    paths = [manifest, config.paths.mcp_config.strip("/")]
    try:
        recorded = read_manifest_at(root, manifest)
    except Exception:  # noqa: BLE001 - a broken manifest is sync's to report, not doctor's
        recorded = None
    if recorded is not None:
        paths += sorted({*recorded.files, *recorded.merged})
    return list(dict.fromkeys(p for p in paths if p))


def ignored(root: Path, paths: Iterable[str]) -> list[tuple[str, str, str, str]]:
    """``(path, source, line, pattern)`` for each of ``paths`` git ignores (untracked ones only: a
    tracked file is never ignored); ``[]`` outside a git repository or without git."""
    from orkestra import git

    asked = [p for p in dict.fromkeys(paths) if p]
    if not asked:
        return []
    try:
        proc = git.run(root, "check-ignore", "--stdin", "-z", "-v", input="\0".join(asked) + "\0", timeout=30)
    except (OSError, subprocess.SubprocessError):
        return []
    if proc.returncode not in (0, 1):  # 128: not a repository
        return []
    fields = proc.stdout.split("\0")
    hits = []
    for index in range(0, len(fields) - 3, 4):
        source, line, pattern, path = fields[index : index + 4]
        if not pattern.startswith("!"):  # -v also prints negations, which un-ignore
            hits.append((path, source, line, pattern))
    return hits


def check_gitignore(root: Path, paths: Iterable[str]) -> list[Finding]:
    hits = ignored(root, paths)
    by_rule: dict[tuple[str, str, str], list[str]] = {}
    for path, source, line, pattern in hits:
        by_rule.setdefault((source, line, pattern), []).append(path)
    found = []
    for (source, line, pattern), paths_hit in by_rule.items():
        shown = paths_hit[0] + (f" and {len(paths_hit) - 1} more" if len(paths_hit) > 1 else "")
        ours = _root_gitignore(root, source)
        found.append(
            Finding(
                "gitignore",
                "error",
                f"{shown} ignored by {_short(root, source)}:{line} ({pattern}): sync's outputs cannot be "
                "committed, so `orkestra sync --check` fails on every fresh clone",
                "`orkestra doctor --fix` appends a negation to .gitignore (and keeps "
                ".claude/settings.local.json ignored)"
                if ours
                else f"remove or narrow the rule at {_short(root, source)}:{line} (outside the repository's "
                ".gitignore, so --fix leaves it), or move the outputs (paths.output in orkestra.yaml)",
                paths_hit[0],
                ours,
            )
        )
    return found


def _root_gitignore(root: Path, source: str) -> bool:
    return source == ".gitignore" or Path(source) == root / ".gitignore"


def _short(root: Path, source: str) -> str:
    try:
        return str(Path(source).relative_to(root)) if Path(source).is_absolute() else source
    except ValueError:
        return source


def fix_gitignore(root: Path, paths: Iterable[str]) -> str | None:
    """Re-include the ignored outputs with negations appended to the root ``.gitignore``; kept only
    when git confirms every output is then committable (else the file is put back). What was done."""
    hits = [h for h in ignored(root, paths) if _root_gitignore(root, h[1])]
    if not hits:
        return None
    gitignore = root / ".gitignore"
    if gitignore.is_symlink():  # never written through a link (git does not read one either, since 2.32)
        return None
    before = gitignore.read_bytes() if gitignore.exists() else b""
    paths_hit = [h[0] for h in hits]
    tops = {p.split("/", 1)[0]: "/" in p for p in paths_hit}
    lines = [f"!/{top}/" if is_dir else f"!/{top}" for top, is_dir in sorted(tops.items())]
    if tops.get(".claude"):
        lines.append("/.claude/settings.local.json")  # personal settings stay out of the repository
    attempts = [lines, lines + [f"!/{p}" for p in paths_hit]]  # a deeper rule needs the file itself
    for attempt in attempts:
        text = before.decode("utf-8", "replace")
        text += ("" if not text or text.endswith("\n") else "\n") + "\n" + FIX_MARK + "\n"
        gitignore.write_text(text + "\n".join(attempt) + "\n", encoding="utf-8")
        if not ignored(root, paths_hit):
            return f".gitignore: appended {', '.join(attempt)}"
    gitignore.write_bytes(before)  # git still ignores them (a parent folder's rule): leave it as it was
    return None
