"""The ``mining:`` section of ``orkestra.yaml`` and where mining keeps its files.

```yaml
mining:
  ledger_dir: ai_assets/reference/changelog      # commits_processed.jsonl, release_notes.jsonl
  releasable_types: [feat, fix, perf, revert]    # breaking commits are always releasable
  domains:                                       # domain -> path globs and commit scopes
    pipeline: {paths: ["packages/canonical/pipelines/**"], scopes: [canonical, pipeline]}
  packages: ["packages/*", "libs/*"]             # package dirs; default: detected by manifest
  infrastructure: [".github/**", "Dockerfile"]   # extra globs that hint at a decision
  changelog:
    format: keep-a-changelog                     # or release-please (conventional-changelog style)
    path: CHANGELOG.md                           # the root changelog; set it to write beside CHANGES.rst
    packages: per-package                        # per-package | root (one file for all) | both
    keyword_sections: false                      # re-section by wording (deprecat…, remove…, security)
    repository_url: https://github.com/o/r       # commit and compare links (default: remote origin)
    release_type: python                         # release-please format: its sections for this type
```

The commit index is derived state under ``paths.state`` (``.orkestra/mining/``), git-ignored.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict, Field

from orkestra.errors import OrkestraError

if TYPE_CHECKING:
    from orkestra.workspace.config import OrkestraConfig

DEFAULT_PACKAGE_ROOTS = ("packages/*", "libs/*", "apps/*", "services/*", "crates/*", "modules/*", "plugins/*")
MANIFESTS = ("pyproject.toml", "package.json", "Cargo.toml", "go.mod")
DEFAULT_INFRASTRUCTURE = (
    ".github/**",
    ".gitlab-ci.yml",
    "Dockerfile",
    "**/Dockerfile",
    "docker-compose*.yml",
    "**/*.tf",
    "infra/**",
    "deploy/**",
    "k8s/**",
    "**/migrations/**",
    "Makefile",
)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class DomainRule(_Strict):
    """A domain is affected by a commit touching one of ``paths`` or carrying one of ``scopes``."""

    paths: list[str] = Field(default_factory=list)
    scopes: list[str] = Field(default_factory=list)


class ChangelogConfig(_Strict):
    """How ``registry changelog render`` and ``mine auto`` write changelogs (never part of the index)."""

    format: Literal["keep-a-changelog", "release-please"] = "keep-a-changelog"
    path: str | None = None
    packages: Literal["per-package", "root", "both"] = "per-package"
    keyword_sections: bool = False
    repository_url: str | None = None
    release_type: str | None = None  # release-please's release type (python, node, java…); default: detected


class MiningConfig(_Strict):
    ledger_dir: str = "ai_assets/reference/changelog"
    releasable_types: list[str] = Field(default_factory=lambda: ["feat", "fix", "perf", "revert"])
    domains: dict[str, DomainRule] = Field(default_factory=dict)
    packages: list[str] = Field(default_factory=list)
    infrastructure: list[str] = Field(default_factory=lambda: list(DEFAULT_INFRASTRUCTURE))
    decisions_dir: str = "ai_assets/reference/decisions"
    changelog: ChangelogConfig = Field(default_factory=ChangelogConfig)


@dataclass(frozen=True, slots=True)
class MiningPaths:
    """Every file mining reads or writes, absolute."""

    root: Path
    config: MiningConfig
    state_dir: Path
    project: str
    sync_manifest: str = ""  # repo-relative: what `orkestra sync` owns is generated, not a decision's files

    @property
    def ledger_dir(self) -> Path:
        return self.root / self.config.ledger_dir

    @property
    def index_dir(self) -> Path:
        return self.state_dir / "mining"

    @property
    def decisions_dir(self) -> Path:
        return self.root / self.config.decisions_dir


def load_mining_paths(root: Path) -> MiningPaths:
    """The ``mining:`` section of ``root/orkestra.yaml`` (the one config model, loaded once per
    process) and the paths it names; a repository without ``orkestra.yaml`` is mined with the
    defaults. A bad file or value raises ``WorkspaceError`` naming the file, line and field."""
    from orkestra.workspace.config import load_config

    return mining_paths(root, load_config(root))


def mining_paths(root: Path, orkestra_config: OrkestraConfig) -> MiningPaths:
    """Mining's paths from an already loaded config (``mining.decisions_dir`` defaults to
    ``paths.decisions``)."""
    from orkestra.render.manifest import manifest_path

    config = orkestra_config.mining
    if "decisions_dir" not in config.model_fields_set:
        config = config.model_copy(update={"decisions_dir": orkestra_config.paths.decisions})
    raw_project = orkestra_config.project if "project" in orkestra_config.model_fields_set else None
    return MiningPaths(
        root=root,
        config=config,
        state_dir=root / orkestra_config.paths.state,
        project=project_name(root, raw_project),
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


def find_root(start: Path) -> Path:
    """The work tree holding ``start``: the nearest directory with a ``.git`` entry (no git process)."""
    start = start.resolve()
    for folder in (start, *start.parents):
        if (folder / ".git").exists():
            return folder
    raise OrkestraError(f"{start}: not inside a git repository")


def open_mining(start: Path) -> MiningPaths:
    """Mining settings and paths of the repository containing ``start``."""
    return load_mining_paths(find_root(start))
