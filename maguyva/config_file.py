"""Reading ``orkestra.yaml`` for Maguyva: a capped, safe YAML load that refuses duplicate keys.

The file is untrusted (it comes with a cloned repository): it is read only up to
:data:`MAX_BYTES`, parsed with PyYAML's safe loader, and refused when a key is defined twice,
nesting runs deeper than :data:`MAX_DEPTH` or aliases expand beyond :data:`MAX_NODES`. Every
refusal is a :class:`~maguyva.errors.ConfigError` naming the file and line. No pydantic here:
``code grep`` checks :func:`declares_section` and pays for the model only when there is one.
"""

from __future__ import annotations

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
    path = config_path(repo_root)
    if not path.is_file():
        return None
    try:
        with path.open("rb") as handle:
            raw = handle.read(MAX_BYTES + 1)
    except OSError as exc:
        raise ConfigError(str(path), f"cannot read: {exc.strerror or exc}") from exc
    if len(raw) > MAX_BYTES:
        raise ConfigError(str(path), f"larger than {MAX_BYTES:,} bytes; refusing to parse it")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(str(path), f"not UTF-8 (byte {exc.start})") from exc


def declares_section(repo_root: Path | str) -> bool:
    """Whether ``orkestra.yaml`` has a top-level ``maguyva:`` key (a text check: no YAML, no model)."""
    text = read_config_text(repo_root)
    return bool(text and _SECTION_LINE.search(text))


def load_document(text: str, path: str) -> tuple[Any, Any]:
    """``(data, root node)`` of one YAML document; refuses what :data:`MAX_DEPTH`/:data:`MAX_NODES`
    and duplicate keys rule out, naming ``path`` and the line."""
    import yaml

    loader_class = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        node = yaml.compose(text, Loader=loader_class)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        raise ConfigError(path, exc.problem or str(exc), line=mark.line + 1 if mark else None) from None
    except yaml.YAMLError as exc:
        raise ConfigError(path, str(exc)) from None
    except RecursionError:
        raise ConfigError(path, f"YAML nested more than {MAX_DEPTH} levels deep; refusing") from None
    if node is None:
        return None, None
    _check(node, path)
    loader = loader_class("")
    try:
        return loader.construct_document(node), node
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise ConfigError(
            path, getattr(exc, "problem", None) or str(exc), line=mark.line + 1 if mark else None
        ) from None
    finally:
        loader.dispose()


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


def _check(root: Any, path: str) -> None:
    """Duplicate keys, depth and the expanded node count, each distinct node visited once."""
    import yaml

    expanded: dict[int, int] = {}
    stack: list[tuple[Any, int, bool]] = [(root, 1, False)]
    while stack:
        node, depth, done = stack.pop()
        children = (
            [n for pair in node.value for n in pair]
            if isinstance(node, yaml.MappingNode)
            else node.value
            if isinstance(node, yaml.SequenceNode)
            else []
        )
        if done:
            expanded[id(node)] = 1 + sum(expanded.get(id(c), 1) for c in children)
            if expanded[id(node)] > MAX_NODES:
                raise ConfigError(
                    path,
                    f"YAML aliases expand to more than {MAX_NODES:,} nodes; refusing",
                    line=node.start_mark.line + 1,
                )
            continue
        if id(node) in expanded:
            continue
        if depth > MAX_DEPTH:
            raise ConfigError(
                path,
                f"YAML nested more than {MAX_DEPTH} levels deep; refusing",
                line=node.start_mark.line + 1,
            )
        if isinstance(node, yaml.MappingNode):
            _refuse_duplicates(node, path)
        expanded[id(node)] = 1  # provisional: a recursive alias counts once instead of looping
        stack.append((node, depth, True))
        stack.extend((child, depth + 1, False) for child in children if id(child) not in expanded)


def _refuse_duplicates(node: Any, path: str) -> None:
    seen: dict[str, int] = {}
    for key, _ in node.value:
        value = getattr(key, "value", None)
        if not isinstance(value, str) or key.tag.endswith(":merge"):
            continue
        if value in seen:
            raise ConfigError(
                path,
                f"duplicate key {value!r} (first defined on line {seen[value]}); "
                "a second definition would silently replace the first",
                line=key.start_mark.line + 1,
                field=value,
            )
        seen[value] = key.start_mark.line + 1
