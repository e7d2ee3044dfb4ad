"""The Jinja environment: StrictUndefined, a YAML frontmatter filter, two-level template lookup.

Lookup order: the workspace's ``templates/`` first (a team overrides a template by adding a
file of the same name), then the defaults packaged with orkestra. Environments are cached
per search path, so each template compiles once per process.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2
import yaml

from orkestra.errors import OrkestraError
from orkestra.render.inputs import PACKAGED_TEMPLATES

try:
    from yaml import CSafeDumper as _Dumper
except ImportError:  # pragma: no cover - depends on the PyYAML build
    from yaml import SafeDumper as _Dumper  # type: ignore[assignment]


def _node(value: Any) -> yaml.Node:
    """A YAML node for a plain value (building nodes directly skips PyYAML's slow representer)."""
    if isinstance(value, dict):
        return yaml.MappingNode("tag:yaml.org,2002:map", [(_node(k), _node(v)) for k, v in value.items()],
                                flow_style=False)
    if isinstance(value, (list, tuple)):
        return yaml.SequenceNode("tag:yaml.org,2002:seq", [_node(v) for v in value], flow_style=False)
    if isinstance(value, bool):
        return yaml.ScalarNode("tag:yaml.org,2002:bool", "true" if value else "false")
    if isinstance(value, int):
        return yaml.ScalarNode("tag:yaml.org,2002:int", str(value))
    if value is None:  # imported frontmatter keeps its empty values (`globs:`)
        return yaml.ScalarNode("tag:yaml.org,2002:null", "")
    if isinstance(value, float):
        return yaml.ScalarNode("tag:yaml.org,2002:float", repr(value))
    return yaml.ScalarNode("tag:yaml.org,2002:str", str(value))


def frontmatter(data: dict) -> str:
    """A dict as block-style YAML (libyaml's emitter quotes what needs it), keys in order, never wrapped."""
    return yaml.serialize(_node(data), Dumper=_Dumper, allow_unicode=True, width=1_000_000)


@lru_cache(maxsize=8)
def _environment(search_path: tuple[str, ...]) -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(list(search_path)),
        undefined=jinja2.StrictUndefined,
        autoescape=False,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["frontmatter"] = frontmatter
    return env


def template_loader(workspace_templates: Path):
    """``render(name, context) -> str`` over the workspace templates, then the packaged ones."""
    path = tuple(str(p) for p in (workspace_templates, PACKAGED_TEMPLATES) if p.is_dir())
    env = _environment(path)

    def render(name: str, context: dict) -> str:
        try:
            return env.get_template(name).render(context)
        except jinja2.TemplateSyntaxError as exc:
            raise OrkestraError(f"{exc.filename or name}:{exc.lineno}: template syntax error: {exc.message}") from exc
        except jinja2.TemplateNotFound as exc:
            raise OrkestraError(f"template {name!r} not found in {', '.join(path)}") from exc
        except jinja2.UndefinedError as exc:
            raise OrkestraError(f"template {name!r}: {exc.message}") from exc

    return render
