"""Reading ``orkestra.yaml`` for Maguyva: a capped, safe YAML load that refuses duplicate keys.

The file is untrusted (it comes with a cloned repository): it is read only up to
:data:`MAX_BYTES`, parsed with PyYAML's safe loader, and refused when a key is defined twice,
nesting runs deeper than :data:`MAX_DEPTH` or aliases expand beyond :data:`MAX_NODES`. Every
refusal is a :class:`~maguyva.errors.ConfigError` naming the file and line. No pydantic here:
``code grep`` checks :func:`declares_section` and pays for the model only when there is one.
"""

from __future__ import annotations

import errno
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from maguyva.errors import ConfigError

CONFIG_FILE = "orkestra.yaml"
SECTION = "maguyva"
MAX_BYTES = 1 << 20  # a config file, not data: far above any real one
MAX_DEPTH = 64
MAX_NODES = 100_000

_SECTION_LINE = re.compile(rf"^{SECTION}\s*:", re.MULTILINE)


def config_path(repo_root: Path | str) -> Path:
    return Path(repo_root) / CONFIG_FILE


def read_config_text(repo_root: Path | str) -> str | None:
    """The text of ``orkestra.yaml`` at ``repo_root``, or None without one (size-capped, UTF-8)."""
    from maguyva.capped import NotRegularFile, read_regular

    path = config_path(repo_root)
    if not path.is_file():
        return None
    try:  # fstat on the open descriptor, at most MAX_BYTES + 1 read; a FIFO is refused, never waited on
        raw = read_regular(path, MAX_BYTES)
    except NotRegularFile as exc:
        if exc.errno == errno.EFBIG:
            raise ConfigError(str(path), f"larger than {MAX_BYTES:,} bytes; refusing to parse it") from None
        raise ConfigError(str(path), f"cannot read: {exc.strerror}") from None
    except OSError as exc:
        raise ConfigError(str(path), f"cannot read: {exc.strerror or exc}") from exc
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(str(path), f"not UTF-8 (byte {exc.start})") from exc


def declares_section(repo_root: Path | str) -> bool:
    """Whether ``orkestra.yaml`` has a top-level ``maguyva:`` key (a text check: no YAML, no model)."""
    text = read_config_text(repo_root)
    return bool(text and _SECTION_LINE.search(text))


def load_document(text: str, path: str) -> tuple[Any, Any]:
    """``(data, root node)`` of one YAML document through the shared checked reader
    (:mod:`maguyva.safe_yaml`): what :data:`MAX_DEPTH`/:data:`MAX_NODES`, duplicate keys and scalars
    their tag cannot hold (``!!int abc``, a 5,000-digit number) rule out is a ConfigError naming
    ``path``, the line and the field."""
    from maguyva.safe_yaml import Limits, YamlProblem, load

    try:
        return load(text, Limits(max_chars=MAX_BYTES, max_depth=MAX_DEPTH, max_nodes=MAX_NODES))
    except YamlProblem as exc:
        raise ConfigError(path, exc.message, line=exc.line, field=exc.field or None) from None


def line_of(node: Any, loc: Iterable[Any]) -> int | None:
    """The 1-based line of the field at ``loc`` below ``node`` (its nearest existing ancestor)."""
    import yaml

    line = node.start_mark.line + 1 if node is not None else None
    for part in loc:
        if isinstance(node, yaml.MappingNode):
            match = next(((k, v) for k, v in node.value if getattr(k, "value", None) == str(part)), None)
            if match is None:
                break
            line, node = match[0].start_mark.line + 1, match[1]
        elif isinstance(node, yaml.SequenceNode) and isinstance(part, int) and part < len(node.value):
            node = node.value[part]
            line = node.start_mark.line + 1
        else:
            break
    return line
