"""Markdown with a frontmatter block, as the runtimes write agents, skills, commands and rules: read
(YAML, or Cursor's loose ``key: value`` lines), and compared with what sync renders for it
(``identical``, ``whitespace`` or ``differs``)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from orkestra.workspace.source import SourceError, load_yaml


def parse_markdown(text: str) -> tuple[dict | None, str]:
    """(frontmatter or None, body). Cursor-style frontmatter that is not YAML (``globs: **/*.ts``)
    is read line by line as ``key: value``."""
    if not text.startswith("---"):
        return None, text
    lines = text.split("\n")
    for index in range(1, len(lines)):
        if lines[index].rstrip() == "---":
            block, body = "\n".join(lines[1:index]), "\n".join(lines[index + 1 :]).lstrip("\n")
            try:
                data = load_yaml(block) if block.strip() else {}
            except SourceError:
                data = _loose_front(block)
            if data is None:
                data = {}
            if not isinstance(data, dict):
                raise ValueError("frontmatter is not a mapping")
            return {str(k): _plain(v) for k, v in data.items()}, body
    raise ValueError("frontmatter is not closed by a '---' line")


def _loose_front(block: str) -> dict:
    data: dict[str, Any] = {}
    for line in block.splitlines():
        key, sep, value = line.partition(":")
        if sep and key.strip() and not line.startswith((" ", "\t")):
            value = value.strip()
            data[key.strip()] = {"true": True, "false": False, "": None}.get(value, value)
    return data


def _plain(value: Any) -> Any:
    """YAML dates and other non-JSON scalars as strings, so values render back as written."""
    if isinstance(value, (dt.date, dt.datetime)):
        return value.isoformat()
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def split_tools(value: Any) -> list[str]:
    """Claude Code's ``tools`` as a list: a comma-separated string or a YAML list."""
    if isinstance(value, list):
        return [str(v).strip() for v in value if str(v).strip()]
    text = str(value or "")
    parts = text.split(",") if "," in text or "(" in text else text.split()
    return [p.strip() for p in parts if p.strip()]


def compare(original: bytes, rendered: bytes | None) -> str:
    """identical | whitespace (same frontmatter values, same text up to whitespace) | differs."""
    if rendered is None:
        return "differs"
    if original == rendered:
        return "identical"
    try:
        a_front, a_body = parse_markdown(original.decode("utf-8"))
        b_front, b_body = parse_markdown(rendered.decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        return "differs"
    if _normal_front(a_front) == _normal_front(b_front) and a_body.split() == b_body.split():
        return "whitespace"
    return "differs"


def _normal_front(front: dict | None) -> dict:
    """Frontmatter values as a runtime reads them: tool lists as lists, no empty mapping vs none."""
    front = {k: v.strip() if isinstance(v, str) else v for k, v in (front or {}).items()}
    for key in ("tools", "allowed-tools"):
        if key in front and isinstance(front[key], (str, list)):
            front[key] = split_tools(front[key])
    return front
