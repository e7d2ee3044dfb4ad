"""YAML as orkestra writes registry files (``import``, ``init``): block style, keys in order, multi-line
strings as literal blocks so they read back exactly."""

from __future__ import annotations

from typing import Any

import yaml


def _dumper() -> type:
    class Dumper(yaml.SafeDumper):
        pass

    def literal(dumper, value):
        style = (
            "|" if "\n" in value and not any(line != line.rstrip() for line in value.split("\n")) else None
        )
        return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)

    Dumper.add_representer(str, literal)
    return Dumper


def dump_yaml(data: Any) -> str:
    """Block YAML, keys in order, multi-line strings as literal blocks (read back exactly)."""
    return yaml.dump(data, Dumper=_dumper(), sort_keys=False, allow_unicode=True, width=100_000)
