"""The Jinja environment: StrictUndefined, a YAML frontmatter filter, two-level template lookup.

Lookup order: the workspace's ``templates/`` first (a team overrides a template by adding a
file of the same name), then the defaults packaged with orkestra. Environments are cached
per search path, so each template compiles once per process.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2
import yaml
from jinja2.exceptions import SecurityError
from jinja2.sandbox import ImmutableSandboxedEnvironment
from markupsafe import Markup

from orkestra.errors import OrkestraError
from orkestra.render.inputs import PACKAGED_TEMPLATES
from orkestra.render.widths import (
    CAPPED_FILTERS,
    CappedEscapeFormatter,
    CappedFormatter,
    check_percent,
    check_result,
    check_str_method,
    lipsum,
    text_size,
)

try:
    from yaml import CSafeDumper as _Dumper
except ImportError:  # pragma: no cover - depends on the PyYAML build
    from yaml import SafeDumper as _Dumper  # type: ignore[assignment]


def _node(value: Any) -> yaml.Node:
    """A YAML node for a plain value (building nodes directly skips PyYAML's slow representer)."""
    if isinstance(value, dict):
        return yaml.MappingNode(
            "tag:yaml.org,2002:map", [(_node(k), _node(v)) for k, v in value.items()], flow_style=False
        )
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


TEMPLATE_SECONDS = 10.0  # one template render; real ones take milliseconds
MAX_REPEAT = 1_000_000  # longest string or list a template may build with ``*``
MAX_EXPONENT = 64
MAX_POWER_BITS = 4096


class _Sandbox(ImmutableSandboxedEnvironment):
    """Jinja's immutable sandbox (no private attributes, no mutating methods, a capped range())
    plus caps on ``*`` and ``**``, so a workspace template can neither run code nor exhaust memory."""

    intercepted_binops = frozenset({"*", "**", "%"})

    def call_binop(self, context: Any, operator: str, left: Any, right: Any) -> Any:
        if operator == "%":
            check_percent(left, right)  # '%999999999d' % 1: a padding width (orkestra/render/widths.py)
        if operator == "*":
            for seq, count in ((left, right), (right, left)):
                if (
                    isinstance(seq, (str, list, tuple))
                    and isinstance(count, int)
                    and len(seq) * count > MAX_REPEAT
                ):
                    raise SecurityError(
                        f"repetition would build {len(seq) * count:,} items (the limit is {MAX_REPEAT:,})"
                    )
                if isinstance(seq, (list, tuple)) and isinstance(count, int) and count > 1:
                    # [s] * n holds n references to s: printed or joined, that is n copies of it
                    check_result("repetition", text_size(seq, MAX_REPEAT // count + 1) * count)
        if (
            operator == "**"
            and isinstance(right, (int, float))
            and (
                abs(right) > MAX_EXPONENT
                or (isinstance(left, int) and left.bit_length() * abs(right) > MAX_POWER_BITS)
            )
        ):
            raise SecurityError(f"power {left!r:.20} ** {right!r:.20} is too large for a template")
        return super().call_binop(context, operator, left, right)

    def call(__self, __context: Any, __obj: Any, *args: Any, **kwargs: Any) -> Any:
        check_str_method(__obj, args, kwargs)  # 'x'.ljust(10**9), 'x'.replace('', big)
        return super().call(__context, __obj, *args, **kwargs)

    def wrap_str_format(self, value: Any) -> Any:
        """Jinja's ``str.format``/``format_map`` wrapper, with a formatter that caps widths and precisions."""
        wrapped = super().wrap_str_format(value)
        if wrapped is None:
            return None
        text = value.__self__
        formatter = CappedEscapeFormatter(self, escape=text.escape) if isinstance(text, Markup) else None
        vformat = (formatter or CappedFormatter(self)).vformat
        is_map = value.__name__ == "format_map"

        def capped(*args: Any, **kwargs: Any) -> str:
            if is_map:
                return (
                    wrapped(*args, **kwargs)
                    if kwargs or len(args) != 1
                    else type(text)(vformat(text, (), args[0]))
                )
            return type(text)(vformat(text, args, kwargs))

        return capped


@lru_cache(maxsize=8)
def _environment(search_path: tuple[str, ...]) -> jinja2.Environment:
    env = _Sandbox(
        loader=jinja2.FileSystemLoader(list(search_path)),
        undefined=jinja2.StrictUndefined,
        autoescape=False,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.globals["lipsum"] = lipsum
    env.filters.update(CAPPED_FILTERS)  # center, indent, format, batch, slice, replace, tojson: sizes capped
    env.filters["frontmatter"] = frontmatter
    return env


def template_loader(workspace_templates: Path):
    """``render(name, context) -> str`` over the workspace templates, then the packaged ones."""
    path = tuple(str(p) for p in (workspace_templates, PACKAGED_TEMPLATES) if p.is_dir())
    env = _environment(path)

    def render(name: str, context: dict) -> str:
        try:
            with _time_budget(TEMPLATE_SECONDS):
                return env.get_template(name).render(context)
        except TemplateTimeout as exc:
            raise OrkestraError(
                f"{_where(exc, name)}: template {name!r} ran longer than {TEMPLATE_SECONDS} s; "
                "refusing (a loop that never ends?)"
            ) from None
        except jinja2.TemplateSyntaxError as exc:
            raise OrkestraError(
                f"{exc.filename or name}:{exc.lineno}: template syntax error: {exc.message}"
            ) from exc
        except jinja2.TemplateNotFound as exc:
            raise OrkestraError(f"template {name!r} not found in {', '.join(path)}") from exc
        except SecurityError as exc:
            raise OrkestraError(f"{_where(exc, name)}: template refused by the sandbox: {exc}") from None
        except jinja2.UndefinedError as exc:
            raise OrkestraError(f"{_where(exc, name)}: template {name!r}: {exc.message}") from None
        except (
            TypeError,
            ValueError,
            ArithmeticError,
            LookupError,
            AttributeError,
            RecursionError,
            MemoryError,
            jinja2.TemplateError,
        ) as exc:
            raise OrkestraError(
                f"{_where(exc, name)}: template {name!r} failed: {type(exc).__name__}: {exc}"
            ) from None

    return render


class TemplateTimeout(Exception):
    """A template render that exceeded TEMPLATE_SECONDS (raised from a SIGALRM timer)."""


@contextmanager
def _time_budget(seconds: float) -> Iterator[None]:
    """Raise TemplateTimeout in this thread after ``seconds``. Only in the main thread, and only when no
    other alarm is pending (a caller's own timer, e.g. pytest-timeout, is never disturbed)."""
    if (
        threading.current_thread() is not threading.main_thread()
        or not hasattr(signal, "setitimer")
        or signal.getitimer(signal.ITIMER_REAL)[0] > 0
    ):
        yield
        return

    def expire(signum: int, frame: Any) -> None:
        raise TemplateTimeout()

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _where(exc: BaseException, name: str) -> str:
    """``file:line`` of the template frame that raised (Jinja maps its frames to template lines)."""
    found = f"{name}:?"
    tb = exc.__traceback__
    while tb is not None:
        filename = tb.tb_frame.f_code.co_filename
        if filename.endswith(".j2") or tb.tb_frame.f_globals.get("__jinja_template__") is not None:
            found = f"{_display(filename)}:{tb.tb_lineno}"
        tb = tb.tb_next
    return found


def _display(filename: str) -> str:
    """A template path as the user knows it: relative to the cwd (the workspace) when below it."""
    path = Path(filename)
    try:
        return path.resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return filename
