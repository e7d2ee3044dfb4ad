"""Reading ``orkestra.yaml`` for Maguyva, with the reader orkestra uses too, under tighter caps.

The file is untrusted (it comes with a cloned repository): it is read by ``maguyva.capped.read_text``
only up to :data:`MAX_BYTES` and parsed by ``maguyva.safe_yaml`` (refused when a key is defined twice,
nesting runs deeper than :data:`MAX_DEPTH`, aliases expand beyond :data:`MAX_NODES`, or a scalar its
tag cannot hold). Every refusal is a :class:`~maguyva.errors.ConfigError` naming the file and line.
No pydantic here, and no yaml until a document is parsed: ``code grep`` checks
:func:`declares_section` and pays for the model only when there is one.
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
    from maguyva.capped import Unreadable, read_text

    path = config_path(repo_root)
    if not path.is_file():
        return None
    try:  # fstat on the open descriptor, at most MAX_BYTES + 1 read; a FIFO is refused, never waited on
        return read_text(path, MAX_BYTES)[1]
    except Unreadable as exc:
        cause = exc.__cause__
        if isinstance(cause, UnicodeDecodeError):
            raise ConfigError(str(path), f"not UTF-8 (byte {cause.start})") from cause
        if getattr(cause, "errno", None) == errno.EFBIG:
            raise ConfigError(str(path), f"larger than {MAX_BYTES:,} bytes; refusing to parse it") from None
        raise ConfigError(str(path), exc.message) from cause


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
    from maguyva.safe_yaml import position

    found = position(node, loc)
    return found[0] if found else None
