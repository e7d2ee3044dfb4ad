"""Every file a sync reads, and one digest over them; no jinja2, no workspace load needed.

Inputs are the config, everything under the registries, templates, decisions, domains and
vendor roots, every ground-truths file, the packaged default templates and the orkestra
modules that shape the output. Generated files are never inputs. Same inputs → same
outputs, so an unchanged digest (and untouched outputs) lets a sync skip loading and
rendering entirely.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

import orkestra
from orkestra.fs.scan import is_pruned, match_glob, tree_paths, walk, walk_files
from orkestra.workspace.root import CONFIG_FILE

if TYPE_CHECKING:  # the model is not needed to hash inputs (a no-op sync never imports pydantic)
    from orkestra.fs.links import Containment
    from orkestra.workspace.config import OrkestraConfig
    from orkestra.workspace.models import Skill

PACKAGE_DIR = Path(orkestra.__file__).resolve().parent
PACKAGED_TEMPLATES = PACKAGE_DIR / "render" / "templates"
# Modules whose code decides the rendered bytes (beyond the templates).
SHAPING_MODULES = (
    "workspace/compose.py",
    "workspace/models.py",
    "render/context.py",
    "render/outputs.py",
    "render/targets/__init__.py",
    "render/targets/common.py",
    "render/targets/mcp.py",
    "render/targets/claude.py",
    "render/targets/agents_md.py",
    "render/targets/agent_skills.py",
    "render/targets/cursor.py",
    "render/targets/copilot.py",
    "render/targets/plugin.py",
    "render/environment.py",
    "why/lookup.py",
    "why/lookup_build.py",
    "why/settings.py",
)


def skill_assets(root: Path, skill: Skill, links: Containment | None = None) -> list[str]:
    """Repo-relative files under a skill's references/, scripts/ and assets/, sorted (an imported skill:
    every file beside its SKILL.md, as the team laid it out).

    Raises OrkestraError if one of them comes from outside the workspace through a symlink
    (validation reports those first; this keeps a caller that skipped it safe too).
    """
    from orkestra.fs.links import SKILL_ASSET_DIRS, Containment, skill_asset_problems, tree_problems

    links = links or Containment(root)
    imported = skill.metadata.source == "imported"  # every file beside SKILL.md is an asset
    problems = (
        tree_problems(root, skill.source_dir, links)
        if imported
        else skill_asset_problems(root, skill.source_dir, links)
    )
    if problems:
        from orkestra.errors import OrkestraError

        raise OrkestraError("; ".join(f"{link}: {message}" for link, message in problems))
    if imported:
        folder = root / skill.source_dir
        return sorted(
            p.relative_to(root).as_posix()
            for p in tree_paths(folder)
            if p.is_file() and p.relative_to(folder).as_posix() != "SKILL.md"
        )
    with os.scandir(root / skill.source_dir) as entries:
        folders = [Path(e.path) for e in entries if e.name in SKILL_ASSET_DIRS and e.is_dir()]
    return sorted(
        p.relative_to(root).as_posix() for folder in folders for p in tree_paths(folder) if p.is_file()
    )


def input_files(root: Path, config: OrkestraConfig, vendor_roots: Iterable[str]) -> list[str]:
    """Repo-relative paths of every workspace input, sorted (one walk of the root)."""
    paths = config.paths
    folders = [paths.registries, paths.templates, paths.decisions, paths.domains, *vendor_roots]
    everything = walk_files(root, ".", config.exclude)
    prefixes = tuple(folder.strip("/") + "/" for folder in folders)
    found = {CONFIG_FILE, *match_glob(everything, paths.ground_truths_glob, config.exclude)}
    found.update(rel for rel in everything if rel.startswith(prefixes))
    # the project's own manifest: the plugin target's version and description come from it
    found.update(
        name for name in ("pyproject.toml", "package.json", "Cargo.toml", "go.mod") if (root / name).is_file()
    )
    for folder in folders:  # inputs below a hidden or excluded folder are not in that walk
        if is_pruned(folder, config.exclude):
            found.update(walk_files(root, folder))
    output = paths.output.rstrip("/") + "/"
    generated = {paths.mcp_config, paths.decisions_digest}
    return sorted(
        rel
        for rel in found
        if not rel.startswith(output) and rel not in generated and not rel.endswith("GROUND_TRUTHS.md")
    )


def input_dirs(root: Path, config: OrkestraConfig, vendor_roots: Iterable[str]) -> list[str]:
    """The folders the input walks visit (repo-relative): adding or removing an input changes one of
    their mtimes. Within ``one_walk`` these are the walks ``input_files`` already made."""
    paths = config.paths
    folders = [paths.registries, paths.templates, paths.decisions, paths.domains, *vendor_roots]
    found = set(walk(root, ".", config.exclude).dirs)
    for folder in folders:
        if is_pruned(folder, config.exclude):
            found.update(walk(root, folder).dirs)
    return sorted(found)


def shaping_files() -> list[Path]:
    """The packaged files (templates, shaping modules, the version) whose bytes decide the output."""
    files = [path for path in sorted(PACKAGED_TEMPLATES.rglob("*")) if path.is_file()]
    return [*files, *(PACKAGE_DIR / rel for rel in SHAPING_MODULES), PACKAGE_DIR / "__init__.py"]


def inputs_digest(
    root: Path, config: OrkestraConfig, vendor_roots: Iterable[str], known: dict[str, bytes] | None = None
) -> str:
    """sha256 over (name, content hash) of every input, the packaged templates and shaping modules.

    ``known`` holds sha256 digests of files already read (by the loader), to avoid reading twice.
    """
    known = known or {}
    names = input_files(root, config, vendor_roots)
    for path in sorted(PACKAGED_TEMPLATES.rglob("*")):
        if path.is_file():
            names.append(f"<package>/{path.relative_to(PACKAGE_DIR).as_posix()}")
    names += [f"<package>/{rel}" for rel in SHAPING_MODULES]
    digest = hashlib.sha256(f"orkestra {orkestra.__version__}\n".encode())
    for name in names:
        content_hash = known.get(name)
        if content_hash is None:
            path = (
                PACKAGE_DIR / name.removeprefix("<package>/")
                if name.startswith("<package>/")
                else root / name
            )
            content_hash = _content_hash(path)
        digest.update(os.fsencode(name) + b"\0" + content_hash)  # a name as its bytes, UTF-8 or not
    return digest.hexdigest()


MAX_INPUT_BYTES = 16 << 20  # the YAML reader's cap: a larger input is refused by its reader anyway


def _content_hash(path: Path) -> bytes:
    """sha256 of an input, read with the capped reader (a 3 GB sparse manifest is never read, a FIFO
    never waited on); one over the cap is hashed by its size and change times, so editing it still
    changes the digest."""
    from orkestra.fs.links import NotRegularFile, read_regular

    try:
        return hashlib.sha256(read_regular(path, MAX_INPUT_BYTES)).digest()
    except NotRegularFile:
        try:
            info = path.stat()
        except OSError:
            return hashlib.sha256(b"<unreadable>").digest()
        return hashlib.sha256(
            f"<not read: {info.st_mode} {info.st_size} {info.st_mtime_ns} {info.st_ctime_ns}>".encode()
        ).digest()
    except OSError:
        return hashlib.sha256(b"<unreadable>").digest()
