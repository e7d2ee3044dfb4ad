"""The ``mining:`` section of ``orkestra.yaml``, typed: a leaf the workspace config model embeds.

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

Where mining keeps its files (``MiningPaths``) is ``orkestra.mining.config``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Annotated, ClassVar, Literal

from annotated_types import Interval

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
