"""Where mining keeps its files (``MiningPaths``), from the ``mining:`` section
(``orkestra.mining.settings``) and ``paths:`` of ``orkestra.yaml``.

The commit index is derived state under ``paths.state`` (``.orkestra/mining/``), git-ignored.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from orkestra.errors import OrkestraError
from orkestra.fs.roots import nearest_root
from orkestra.mining.settings import MiningConfig
from orkestra.workspace.root import CONFIG_FILE, DECISIONS_DIR, OUTPUT_DIR, STATE_DIR

if TYPE_CHECKING:
    from orkestra.workspace.config import OrkestraConfig


@dataclass(frozen=True)
class MiningPaths:
    """Every file mining reads or writes, absolute."""

    root: Path
    config: MiningConfig
    state_dir: Path
    configured_project: str | None = None  # ``project:`` when orkestra.yaml sets it
    sync_manifest: str = ""  # repo-relative: what `orkestra sync` owns is generated, not a decision's files

    @cached_property
    def project(self) -> str:
        """The project's name (:func:`project_name`), looked up when first asked."""
        return project_name(self.root, self.configured_project)

    @property
    def ledger_dir(self) -> Path:
        return self.root / self.config.ledger_dir

    @property
    def index_dir(self) -> Path:
        return self.state_dir / "mining"

    @property
    def decisions_dir(self) -> Path:
        return self.root / (self.config.decisions_dir or DECISIONS_DIR)


def load_mining_paths(root: Path) -> MiningPaths:
    """The ``mining:`` section of ``root/orkestra.yaml`` (the one config model, loaded once per
    process) and the paths it names; a repository without ``orkestra.yaml`` is mined with the
    defaults, without loading the model. A bad file or value raises ``WorkspaceError`` naming the
    file, line and field."""
    if not (Path(root) / CONFIG_FILE).is_file():
        from orkestra.render.manifest import MANIFEST_NAME

        config = MiningConfig(decisions_dir=DECISIONS_DIR)
        return MiningPaths(root, config, Path(root) / STATE_DIR, None, f"{OUTPUT_DIR}/{MANIFEST_NAME}")
    from orkestra.workspace.config import load_config

    return mining_paths(root, load_config(root))


def mining_paths(root: Path, orkestra_config: OrkestraConfig) -> MiningPaths:
    """Mining's paths from an already loaded config (``mining.decisions_dir`` defaults to
    ``paths.decisions``)."""
    from orkestra.render.manifest import manifest_path

    config = orkestra_config.mining
    if config.decisions_dir is None:
        config = replace(config, decisions_dir=orkestra_config.paths.decisions)
    raw_project = orkestra_config.project if "project" in orkestra_config.model_fields_set else None
    return MiningPaths(
        root=root,
        config=config,
        state_dir=root / orkestra_config.paths.state,
        configured_project=raw_project,
        sync_manifest=manifest_path(orkestra_config),
    )


PLACEHOLDER_PROJECTS = frozenset({"my-project", ""})


def project_name(root: Path, configured: object) -> str:
    """``project:`` from orkestra.yaml unless it is init's placeholder; else the repository's own name
    (its project file's ``name``, then the origin remote, then the directory)."""
    if configured is not None and str(configured).strip() not in PLACEHOLDER_PROJECTS:
        return str(configured)
    from orkestra.project_info import read_manifest

    info = read_manifest(root)
    if info.manifest:
        return info.name.strip()
    from orkestra.mining.git import origin_url

    url = origin_url(root)
    if url:
        return url.rstrip("/").rsplit("/", 1)[-1]
    return root.name


def open_mining(start: Path) -> MiningPaths:
    """Mining settings and paths of the repository containing ``start``."""
    start = start.resolve()
    found = nearest_root(start, (".git",))  # the nearest ``.git`` entry, no git process
    if found is None:
        raise OrkestraError(f"{start}: not inside a git repository")
    return load_mining_paths(Path(found))
