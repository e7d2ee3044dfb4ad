"""The ``maguyva:`` section of ``orkestra.yaml``, as one typed model.

``MaguyvaConfig.model_validate(mapping)`` checks the section wherever it comes from (orkestra's
own config model embeds it); :func:`load_maguyva_config` reads it from a repository itself, with
the capped safe YAML load of :mod:`maguyva.config_file`, and reports a bad value as
``orkestra.yaml:LINE: maguyva.FIELD: message``.

    maguyva:
      store: .maguyva/index.db       # or postgresql://…?workspace=W&repo=R (default <git dir>/maguyva/index.db)
      embeddings:                    # semantic search (docs/cli.md, "code embed")
        backend: voyage              # voyage | local | none (default)
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PositiveFloat, PositiveInt, ValidationError

from maguyva.config_file import SECTION, config_path, line_of, load_document, read_config_text
from maguyva.errors import ConfigError


class EmbeddingsConfig(BaseModel):
    """``maguyva.embeddings``: which backend embeds chunks; unset fields take the backend's defaults
    (``maguyva.embed.base.EmbeddingSettings`` holds them)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    backend: Literal["voyage", "local", "none"] = "none"
    model: str | None = None
    dims: PositiveInt | None = None
    base_url: str | None = None
    api_key_env: str | None = None
    batch_size: PositiveInt | None = None
    max_batch_tokens: PositiveInt | None = None
    max_retries: int | None = Field(default=None, ge=0)
    backoff_seconds: float | None = Field(default=None, ge=0)
    price_per_million_tokens: PositiveFloat | None = None

    def settings_mapping(self) -> dict[str, Any]:
        """The fields the file sets (an explicit ``null`` included), for ``EmbeddingSettings.from_config``."""
        return self.model_dump(exclude_unset=True)


class MaguyvaConfig(BaseModel):
    """``maguyva:`` in ``orkestra.yaml``: where the index lives and how chunks are embedded."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    # a SQLite path inside the repository (relative, no `..`, no symlink on the way, nothing in .git but
    # .git/maguyva/: checked where it is opened, maguyva.store.confined) or a postgresql:// URL
    store: str | None = None
    embeddings: EmbeddingsConfig | None = None


def load_maguyva_config(repo_root: Path | str) -> MaguyvaConfig:
    """The ``maguyva:`` section of ``repo_root/orkestra.yaml``; defaults without the file or section.

    Raises :class:`~maguyva.errors.ConfigError` naming the file, line and field for a file that is
    too big, not YAML, has a duplicate key, or a section the model refuses.
    """
    text = read_config_text(repo_root)
    if text is None:
        return MaguyvaConfig()
    path = str(config_path(repo_root))
    data, node = load_document(text, path)
    if data is None:
        return MaguyvaConfig()
    if not isinstance(data, Mapping):
        raise ConfigError(path, "the file must be a mapping of sections", line=1)
    section = data.get(SECTION)
    if section is None:
        return MaguyvaConfig()
    return validate_section(section, path, node)


def store_line(repo_root: Path | str) -> int | None:
    """The line of ``maguyva.store`` in ``repo_root/orkestra.yaml`` (for an error found after loading)."""
    text = read_config_text(repo_root)
    if text is None:
        return None
    _, node = load_document(text, str(config_path(repo_root)))
    return line_of(node, (SECTION, "store"))


def validate_section(section: Any, path: str, node: Any = None) -> MaguyvaConfig:
    """``section`` as a :class:`MaguyvaConfig`; a refusal names ``path``, the line (from the YAML
    ``node`` of the whole file, when given) and the dotted field."""
    try:
        return MaguyvaConfig.model_validate(section)
    except ValidationError as exc:
        error = exc.errors()[0]
        loc = (SECTION, *error["loc"])
        field = ".".join(str(part) for part in loc)
        more = f" (and {exc.error_count() - 1} more)" if exc.error_count() > 1 else ""
        raise ConfigError(
            path, f"{error['msg']}{more}", line=line_of(node, loc) if node is not None else None, field=field
        ) from None
