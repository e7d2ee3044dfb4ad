"""``skills audit``: the trust review of skill folders — injection scan, script audit, conformance.

A skill folder is read whole: ``SKILL.md`` (injection scan + spec conformance), every other
Markdown file (injection scan), every script (by language) and every other text file
(invisible characters, encoded payloads, injection phrases). Binary and oversized files
cannot be reviewed and say so as findings instead of being skipped silently.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from orkestra.errors import NotFoundError, OrkestraError
from orkestra.fs.scan import tree_paths
from orkestra.trust.conformance import check_conformance
from orkestra.trust.findings import AuditReport, Finding, SkillAudit, sort_findings
from orkestra.trust.scripts_audit import audit_file, skill_downloads
from orkestra.trust.shipped import classify_binary

if TYPE_CHECKING:
    from orkestra.workspace import Workspace

SKILL_FILE = "SKILL.md"
MAX_FILE_BYTES = 1_000_000
_SKIP_DIRS = {".git", "__pycache__", "node_modules", ".venv"}


def audit_skill_dir(path: Path, base: Path | None = None, name: str | None = None) -> SkillAudit:
    """Audit one skill folder; file paths in findings are relative to ``base`` when below it."""
    base = base or path
    findings: list[Finding] = []
    files, links = _files(path)
    for link in links:
        findings.append(
            Finding(
                "file.symlink",
                "high",
                _display(link, base),
                1,
                "",
                f"a symbolic link (to {os.readlink(link)}): never read, copied or followed",
            )
        )
    downloads = _downloads(path, files)  # a file one script downloads and another runs
    for file in files:
        shown = _display(file, base)
        size = file.stat().st_size  # before reading: a huge (or sparse) file is never read whole
        if size > MAX_FILE_BYTES:
            findings.append(
                Finding("file.unreviewable", "medium", shown, 1, "", f"{size} bytes: too large to review")
            )
            continue
        data = file.read_bytes()
        text = _text(data)
        if text is None:
            severity, message = classify_binary(
                data, file.relative_to(path).as_posix(), bool(file.stat().st_mode & 0o111)
            )
            findings.append(Finding("file.unreviewable", severity, shown, 1, "", message))
            continue
        findings.extend(audit_file(text, shown, file.relative_to(path).as_posix(), downloads))
        if file.name == SKILL_FILE and file.parent == path:
            findings.extend(check_conformance(text, shown, path.name))
    if not (path / SKILL_FILE).is_file():
        findings.append(
            Finding("spec.frontmatter", "medium", _display(path, base), 1, "", "no SKILL.md in this folder")
        )
    return SkillAudit(name or path.name, _display(path, base), sort_findings(findings))


def audit_paths(paths: Iterable[str | Path], base: Path) -> AuditReport:
    """Audit every skill folder named or found below ``paths`` (a SKILL.md, a skill, or a tree of skills)."""
    audits = []
    for raw in paths:
        path = Path(raw) if Path(raw).is_absolute() else base / raw
        if not path.exists():
            raise NotFoundError("path", str(raw))
        folders = find_skill_dirs(path)
        if not folders:
            raise OrkestraError(f"{raw}: no {SKILL_FILE} found")
        audits.extend(audit_skill_dir(folder, base) for folder in folders)
    return AuditReport(tuple(audits))


def audit_workspace(ws: Workspace) -> AuditReport:
    """Audit every skill of a workspace, internal and vendor, under its rendered name."""
    return AuditReport(
        tuple(
            audit_skill_dir(ws.root / skill.source_dir, ws.root, skill.name)
            for skill in sorted(ws.skills.values(), key=lambda s: s.name)
        )
    )


def _downloads(path: Path, files: list[Path]) -> frozenset[str]:
    """What the skill's scripts download, one file read at a time (only scripts are read here)."""
    texts = {}
    for file in files:
        if file.suffix.lower() not in _SCRIPT_SUFFIXES or file.stat().st_size > MAX_FILE_BYTES:
            continue
        text = _text(file.read_bytes())
        if text is not None and ("curl" in text or "wget" in text or "urlretrieve" in text or "http" in text):
            texts[file.relative_to(path).as_posix()] = text
            if len(texts) > 200:
                break
    return skill_downloads(texts)


_SCRIPT_SUFFIXES = {".sh", ".bash", ".zsh", ".ksh", ".command", ".py", ".pyw", ""}


def find_skill_dirs(path: Path) -> list[Path]:
    """Skill folders at or below ``path`` (a SKILL.md file names its folder)."""
    if path.is_file():
        return [path.parent] if path.name == SKILL_FILE else []
    if (path / SKILL_FILE).is_file():
        return [path]
    return sorted(p.parent for p in tree_paths(path, SKILL_FILE) if not _SKIP_DIRS & set(p.parts))


def _files(path: Path) -> tuple[list[Path], list[Path]]:
    """(regular files, symlinks) of a skill folder (``orkestra.trust.folder``)."""
    from orkestra.trust.folder import skill_files

    return skill_files(path, frozenset(_SKIP_DIRS))


def _text(data: bytes) -> str | None:
    if b"\0" in data[:8192]:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _display(path: Path, base: Path) -> str:
    try:
        return path.relative_to(base).as_posix() or "."
    except ValueError:
        return path.as_posix()
