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
    history: auto                                # conventional | plain | auto (plain under 50 % CC)
    min_confidence: 0.7                          # plain history: below it, left to `mine candidates`
```

The commit index is derived state under ``paths.state`` (``.orkestra/mining/``), git-ignored.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, ClassVar, Literal

from annotated_types import Interval

from orkestra.errors import OrkestraError
from orkestra.workspace.root import CONFIG_FILE, DECISIONS_DIR, OUTPUT_DIR, STATE_DIR

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
DEFAULT_RELEASABLE_TYPES = ("feat", "fix", "perf", "revert")

# The section's models are plain frozen dataclasses: mining a repository without ``orkestra.yaml``
# imports no pydantic (~0.1-0.2 s of a full sync's start on this box). Pydantic validates them where
# the workspace model embeds them (``orkestra.workspace.config``); this setting refuses unknown keys.
_STRICT = {"extra": "forbid"}


@dataclass(frozen=True)
class DomainRule:
    """A domain is affected by a commit touching one of ``paths`` or carrying one of ``scopes``."""

    __pydantic_config__: ClassVar = _STRICT
    paths: list[str] = field(default_factory=list)
    scopes: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class ChangelogConfig:
    """How ``registry changelog render`` and ``mine auto`` write changelogs (never part of the index)."""

    __pydantic_config__: ClassVar = _STRICT
    format: Literal["keep-a-changelog", "release-please"] = "keep-a-changelog"
    path: str | None = None
    packages: Literal["per-package", "root", "both"] = "per-package"
    keyword_sections: bool = False
    repository_url: str | None = None
    release_type: str | None = None  # release-please's release type (python, node, java…); default: detected
    history: Literal["auto", "conventional", "plain"] = "auto"  # how `mine auto` reads commits
    min_confidence: Annotated[float, Interval(ge=0, le=1)] = (
        0.7  # plain history: readings below this are left to `mine candidates`
    )


@dataclass(frozen=True)
class MiningConfig:
    """The ``mining:`` section. ``releasable_types`` and ``decisions_dir`` are None when orkestra.yaml
    does not set them: the release-please format then uses its own types, and the decisions live at
    ``paths.decisions`` (see :attr:`releasable` and :func:`mining_paths`)."""

    __pydantic_config__: ClassVar = _STRICT
    ledger_dir: str = "ai_assets/reference/changelog"
    releasable_types: list[str] | None = None
    domains: dict[str, DomainRule] = field(default_factory=dict)
    packages: list[str] = field(default_factory=list)
    infrastructure: list[str] = field(default_factory=lambda: list(DEFAULT_INFRASTRUCTURE))
    decisions_dir: str | None = None
    changelog: ChangelogConfig = field(default_factory=ChangelogConfig)

    @property
    def releasable(self) -> tuple[str, ...]:
        """The releasable commit types: as set, or feat, fix, perf and revert."""
        return DEFAULT_RELEASABLE_TYPES if self.releasable_types is None else tuple(self.releasable_types)

    def index_settings(self) -> dict:
        """What the commit index depends on (everything but the changelog's layout), as plain data."""
        settings = asdict(self)
        del settings["changelog"]
        settings["releasable_types"] = list(self.releasable)
        return settings


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
