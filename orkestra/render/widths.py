"""Caps on what one call in a template may allocate: padding widths, precisions, fills and replacements.

Jinja's sandbox stops a template from running code, not from asking for memory: ``'x'|center(10**9)``,
``'x'|indent(10**9)``, ``'%999999999d'|format(1)``, ``'{:>999999999}'.format(1)``, ``'x'.ljust(10**9)``,
``[1]|batch(10**9, 0)`` or ``'%.999999999f' % 1`` each build gigabytes in one Python call, before the
render's time budget can fire. Every such entry point (the filters, ``str`` methods called through the
sandbox's ``call``, ``str.format``/``format_map`` through its formatter, and the ``%`` operator) is
checked here first: a width, precision or count over :data:`MAX_WIDTH`, or a result over
:data:`MAX_RESULT` characters, is a ``SecurityError`` (located at the template line by the caller).
"""

from __future__ import annotations

import re
from typing import Any

from jinja2 import filters as jinja_filters
from jinja2.exceptions import SecurityError
from jinja2.sandbox import SandboxedEscapeFormatter, SandboxedFormatter

MAX_WIDTH = 10_000  # a padding width, precision, batch or slice count: real templates use < 200
MAX_RESULT = 10_000_000  # characters one call may build (10 MB of text; no rendered file comes near)
MAX_JSON_INDENT = 64

# a format spec: [[fill]align][sign][z][#][0][width][grouping][.precision][type]; only the numbers matter
_SPEC = re.compile(r"(?:.?[<>=^])?[-+ ]?z?#?0?(?P<width>\d*)[,_]?(?:\.(?P<precision>\d*))?")
# a printf-style conversion: %[(key)][flags][width|*][.precision|*][length]type
_PERCENT = re.compile(
    r"%(?:\([^)]*\))?[-#0 +]*(?P<width>\*|\d+)?(?:\.(?P<precision>\*|\d*))?[hlL]?(?P<type>.)", re.S
)


def _refuse(what: str, amount: int | str) -> SecurityError:
    shown = f"{amount:,}" if isinstance(amount, int) else f"{len(amount):,} digits"
    return SecurityError(f"{what} {shown} is more than a template may ask for (the limit is {MAX_WIDTH:,})")


def check_width(what: str, value: Any) -> None:
    """Refuse an int ``value`` (a width, count, precision) over MAX_WIDTH."""
    if isinstance(value, int) and not isinstance(value, bool) and value > MAX_WIDTH:
        raise _refuse(what, value)


def _digits(what: str, text: str | None) -> None:
    if text and text != "*":
        if len(text) > len(str(MAX_WIDTH)):
            raise _refuse(what, int(text) if len(text) <= 30 else text)
        check_width(what, int(text))


def check_spec(spec: str) -> None:
    """A ``str.format`` field's spec (after nested fields were filled in)."""
    match = _SPEC.match(spec)
    if match:
        _digits("format width", match["width"])
        _digits("format precision", match["precision"])


def check_percent(template: Any, args: Any) -> None:
    """``template % args``: every conversion's width and precision, and ``*`` widths taken from ``args``."""
    if not isinstance(template, str) or "%" not in template:
        return
    star = False
    for match in _PERCENT.finditer(template):
        _digits("format width", match["width"])
        _digits("format precision", match["precision"])
        star = star or "*" in (match["width"] or "", match["precision"] or "")
    if star:
        for value in args if isinstance(args, tuple) else (args,):
            check_width("format width", value)
    if isinstance(args, dict):  # '%(a)s' * n: each conversion prints its value again
        size = len(template) + sum(
            text_size(args.get(m.group(0)[2 : m.group(0).index(")")], ""))
            for m in _PERCENT.finditer(template)
            if m.group(0).startswith("%(")
        )
    else:
        size = len(template) + text_size(args)
    check_result("% formatting", size)


def text_size(value: Any, budget: int = MAX_RESULT) -> int:
    """An upper estimate of ``len(str(value))``, walking containers only until ``budget`` is passed
    (a list of 10^6 references to one 10^6-character string is 10^12 characters once printed)."""
    total, stack, seen = 0, [value], 0
    while stack and total <= budget:
        item = stack.pop()
        seen += 1
        if isinstance(item, str):
            total += len(item) + 2
        elif isinstance(item, (list, tuple, set, frozenset)):
            total += 2 + 2 * len(item)
            stack.extend(item)
        elif isinstance(item, dict):
            total += 2 + 4 * len(item)
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, int):
            total += item.bit_length() // 3 + 2
        else:
            total += 8
        if seen > budget:
            break
    return total


def check_result(what: str, size: int) -> None:
    if size > MAX_RESULT:
        raise SecurityError(
            f"{what} would build {size:,} characters (the limit is {MAX_RESULT:,}); refusing in a template"
        )


def _replace_size(text: str, old: str, new: str, count: Any = None) -> int:
    hits = len(text) + 1 if old == "" else text.count(old) if old else 0
    if isinstance(count, int) and count >= 0:
        hits = min(hits, count)
    return len(text) + hits * max(len(new) - len(old), 0)


def check_str_method(method: Any, args: tuple, kwargs: dict) -> None:
    """``str`` methods a template may call through the sandbox that pad or multiply their input."""
    owner = getattr(method, "__self__", None)
    if not isinstance(owner, str):
        return
    name = getattr(method, "__name__", "")
    if name in ("center", "ljust", "rjust", "zfill") and args:
        check_width(f"str.{name} width", args[0])
    elif name == "expandtabs":
        size = args[0] if args else kwargs.get("tabsize", 8)
        if isinstance(size, int):
            check_result("str.expandtabs", len(owner) + owner.count("\t") * max(size, 0))
    elif name == "replace" and len(args) >= 2 and isinstance(args[0], str) and isinstance(args[1], str):
        check_result(
            "str.replace", _replace_size(owner, args[0], args[1], args[2] if len(args) > 2 else None)
        )
    elif name == "join" and args and isinstance(args[0], (list, tuple)):
        check_result("str.join", text_size(args[0]) + len(owner) * max(len(args[0]) - 1, 0))
    elif name == "translate" and args and isinstance(args[0], dict):
        longest = max((len(v) for v in args[0].values() if isinstance(v, str)), default=1)
        check_result("str.translate", len(owner) * max(longest, 1))


class _Capped:
    """A ``str.format`` formatter refusing a width or precision over MAX_WIDTH, and a result over
    MAX_RESULT as it grows (``('{0}' * 10**5).format('x' * 10**6)`` never gets past the cap)."""

    _built = 0

    def vformat(self, format_string: str, args: Any, kwargs: Any) -> str:
        self._built = len(format_string)
        return super().vformat(format_string, args, kwargs)  # type: ignore[misc]

    def format_field(self, value: Any, format_spec: str) -> Any:
        check_spec(format_spec)
        self._built += text_size(value)
        check_result("str.format", self._built)
        return super().format_field(value, format_spec)  # type: ignore[misc]


class CappedFormatter(_Capped, SandboxedFormatter):
    """The sandbox's ``str.format`` formatter with the caps of :class:`_Capped`."""


class CappedEscapeFormatter(_Capped, SandboxedEscapeFormatter):
    """The same for ``Markup.format``."""


def _center(value: Any, width: int = 80) -> str:
    check_width("center width", width)
    return jinja_filters.do_center(value, width)


def _indent(s: Any, width: int | str = 4, first: bool = False, blank: bool = False) -> str:
    check_width("indent width", width)
    pad = width if isinstance(width, str) else " " * width if isinstance(width, int) else ""
    check_result("indent", len(str(s)) + len(pad) * (str(s).count("\n") + 1))
    return jinja_filters.do_indent(s, width, first, blank)


def _format(value: Any, *args: Any, **kwargs: Any) -> str:
    check_percent(str(value), kwargs or args)
    return jinja_filters.do_format(value, *args, **kwargs)


def _batch(value: Any, linecount: int, fill_with: Any = None):
    check_width("batch size", linecount)
    return jinja_filters.do_batch(value, linecount, fill_with)


def _slice(value: Any, slices: int, fill_with: Any = None):
    check_width("slice count", slices)
    return jinja_filters.do_slice(value, slices, fill_with)


def _replace(eval_ctx: Any, s: Any, old: str, new: str, count: int | None = None) -> str:
    check_result("replace", _replace_size(str(s), str(old), str(new), count))
    return jinja_filters.do_replace(eval_ctx, s, old, new, count)


def _tojson(eval_ctx: Any, value: Any, indent: int | None = None) -> Any:
    if isinstance(indent, int) and indent > MAX_JSON_INDENT:
        raise SecurityError(
            f"tojson indent {indent:,} is more than a template may ask for (the limit is {MAX_JSON_INDENT})"
        )
    return jinja_filters.do_tojson(eval_ctx, value, indent)


def _join(eval_ctx: Any, value: Any, d: str = "", attribute: Any = None) -> str:
    items = list(value) if not isinstance(value, (list, tuple)) else value
    check_result("join", text_size(items) + len(str(d)) * max(len(items) - 1, 0))
    return jinja_filters.do_join(eval_ctx, items, d, attribute)


def _wordwrap(
    environment: Any,
    s: str,
    width: int = 79,
    break_long_words: bool = True,
    wrapstring: str | None = None,
    break_on_hyphens: bool = True,
) -> str:
    if isinstance(width, int) and isinstance(wrapstring, str) and width > 0:
        check_result("wordwrap", len(s) + len(wrapstring) * (len(s) // width + s.count("\n") + 1))
    return jinja_filters.do_wordwrap(environment, s, width, break_long_words, wrapstring, break_on_hyphens)


def lipsum(n: int = 5, html: bool = True, min: int = 20, max: int = 100) -> str:
    """Jinja's ``lipsum`` global with its paragraph and word counts capped (``lipsum(10**6)`` built
    hundreds of megabytes)."""
    from jinja2.utils import generate_lorem_ipsum

    check_width("lipsum paragraphs", n)
    check_width("lipsum words", max)
    check_width("lipsum words", min)
    return generate_lorem_ipsum(n, html, min, max)


_join.jinja_pass_arg = jinja_filters.do_join.jinja_pass_arg  # type: ignore[attr-defined]
_wordwrap.jinja_pass_arg = jinja_filters.do_wordwrap.jinja_pass_arg  # type: ignore[attr-defined]
_replace.jinja_pass_arg = jinja_filters.do_replace.jinja_pass_arg  # type: ignore[attr-defined]
_tojson.jinja_pass_arg = jinja_filters.do_tojson.jinja_pass_arg  # type: ignore[attr-defined]

CAPPED_FILTERS = {
    "center": _center,
    "indent": _indent,
    "format": _format,
    "batch": _batch,
    "slice": _slice,
    "replace": _replace,
    "tojson": _tojson,
    "join": _join,
    "wordwrap": _wordwrap,
}
