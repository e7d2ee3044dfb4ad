"""The only YAML reader: fast loading, with line/column marks computed when they are needed.

Files load with libyaml's C loader. Only when something must be reported (a schema error,
a dangling reference) is the file composed again into nodes to find where a field sits:
a clean workspace pays nothing for locations.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

try:  # libyaml is ~10x faster; the pure-Python loader is the fallback
    from yaml import CSafeLoader as _Loader
except ImportError:  # pragma: no cover - depends on the PyYAML build
    from yaml import SafeLoader as _Loader  # type: ignore[assignment]

from orkestra.errors import Diagnostic

Loc = tuple  # a field path: ("tools", "builtin", 0)

# Caps for untrusted YAML (a cloned repository's registries): far above any real registry file.
MAX_YAML_BYTES = 16 << 20
MAX_DEPTH = 100
MAX_EXPANDED_NODES = 1_000_000


class SourceError(Exception):
    """A file that cannot be read or parsed; carries the diagnostic that says where."""

    def __init__(self, diagnostic: Diagnostic):
        super().__init__(str(diagnostic))
        self.diagnostic = diagnostic


@dataclass(frozen=True, slots=True)
class Document:
    """Parsed YAML plus where it came from (``line_offset`` > 0 for Markdown frontmatter)."""

    path: str  # repo-relative, POSIX
    data: Any
    text: str
    line_offset: int = 0


class _StringDatesLoader(_Loader):  # type: ignore[misc, valid-type]
    """Keeps YAML timestamps as the strings written, so models see one type for dates."""


_StringDatesLoader.add_constructor("tag:yaml.org,2002:timestamp", yaml.SafeLoader.construct_yaml_str)

_STR, _MAP, _SEQ = "tag:yaml.org,2002:str", "tag:yaml.org,2002:map", "tag:yaml.org,2002:seq"
_SCALARS = {
    f"tag:yaml.org,2002:{t}": _StringDatesLoader.yaml_constructors[f"tag:yaml.org,2002:{t}"]
    for t in ("int", "float", "bool", "null", "timestamp")
}


class _Unsupported(Exception):
    """A node the direct conversion does not handle (merge keys, binary, sets, ...)."""


class _Refused(Exception):
    """A document that is well-formed YAML but hostile or broken: too big, too deep, an alias bomb,
    a recursive alias or a duplicate key. Carries the mark to report."""

    def __init__(self, message: str, mark: Any):
        super().__init__(message)
        self.message, self.mark = message, mark


def check_nodes(root: yaml.Node) -> None:
    """Refuse recursive aliases, nesting beyond MAX_DEPTH, more than MAX_EXPANDED_NODES nodes once
    every alias is expanded (what the models and templates would walk), and duplicate mapping keys.

    Each distinct node is visited once (aliases share their node), so a bomb costs its size, not
    its expansion.
    """
    size: dict[int, int] = {}
    depth: dict[int, int] = {}
    on_path: set[int] = set()
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        node, done = stack.pop()
        key = id(node)
        if done:
            on_path.discard(key)
            children = _children(node)
            size[key] = 1 + sum(size[id(c)] for c in children)
            depth[key] = 1 + max((depth[id(c)] for c in children), default=0)
            if depth[key] > MAX_DEPTH:
                raise _Refused(f"YAML nested more than {MAX_DEPTH} levels deep; refusing", node.start_mark)
            if size[key] > MAX_EXPANDED_NODES:
                raise _Refused(
                    f"YAML aliases expand to more than {MAX_EXPANDED_NODES:,} nodes "
                    "(an alias bomb?); refusing",
                    node.start_mark,
                )
            continue
        if key in size:
            continue
        if key in on_path:
            raise _Refused("recursive YAML alias (a node that contains itself); refusing", node.start_mark)
        if isinstance(node, yaml.MappingNode):
            _check_duplicates(node)
        on_path.add(key)
        stack.append((node, True))
        stack.extend((child, False) for child in _children(node) if id(child) not in size)
        if len(on_path) > MAX_DEPTH:
            raise _Refused(f"YAML nested more than {MAX_DEPTH} levels deep; refusing", node.start_mark)


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.MappingNode):
        return [n for pair in node.value for n in pair]
    if isinstance(node, yaml.SequenceNode):
        return node.value
    return []


def _check_duplicates(node: yaml.MappingNode) -> None:
    seen: dict[tuple[str, str], Any] = {}
    for key_node, _ in node.value:
        if not isinstance(key_node, yaml.ScalarNode) or key_node.tag == "tag:yaml.org,2002:merge":
            continue
        ident = (key_node.tag, key_node.value)
        if ident in seen:
            first = seen[ident]
            raise _Refused(
                f"duplicate key {key_node.value!r} (first defined on line {first.line + 1}); "
                "a second definition would silently replace the first",
                key_node.start_mark,
            )
        seen[ident] = key_node.start_mark


def _to_python(node: yaml.Node, loader: Any, memo: dict[int, Any], depth: int = 0) -> Any:
    """Nodes → plain Python; an aliased node is converted once and shared (the bomb stays small).

    Without anchors in the text this is the only pass, so it also refuses duplicate keys and
    nesting beyond MAX_DEPTH itself (documents with anchors went through ``check_nodes`` first).
    """
    tag = node.tag
    if tag == _STR:
        return node.value
    key = id(node)
    if key in memo:
        return memo[key]
    if depth > MAX_DEPTH:
        raise _Refused(f"YAML nested more than {MAX_DEPTH} levels deep; refusing", node.start_mark)
    if tag == _MAP:
        value: Any = {}
        memo[key] = value
        for k, v in node.value:
            name = _to_python(k, loader, memo, depth + 1)
            if name in value:
                _check_duplicates(node)  # raises, located at the second key
            value[name] = _to_python(v, loader, memo, depth + 1)
        return value
    if tag == _SEQ:
        items: list = []
        memo[key] = items
        items.extend(_to_python(v, loader, memo, depth + 1) for v in node.value)
        return items
    construct = _SCALARS.get(tag)
    if construct is None:
        raise _Unsupported(tag)
    memo[key] = construct(loader, node)
    return memo[key]


def _load(text: str) -> Any:
    """YAML → Python, converting libyaml's composed nodes directly (about 1.5× faster than
    PyYAML's generic constructor); anything unusual goes through the standard safe loader.

    Documents over MAX_YAML_BYTES are refused unread, and every composed document is checked
    (``check_nodes``) before anything is constructed.
    """
    if len(text) > MAX_YAML_BYTES:
        raise _Refused(
            f"YAML document too large ({len(text):,} characters; the limit is {MAX_YAML_BYTES:,})", None
        )
    loader = _StringDatesLoader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        if "&" in text:  # anchors, so maybe aliases: check the shared graph before expanding anything
            check_nodes(node)
        return _to_python(node, loader, {})
    except (_Unsupported, TypeError):
        node = yaml.compose(text, Loader=_StringDatesLoader)
        if node is not None:
            check_nodes(node)
        return yaml.load(text, Loader=_StringDatesLoader)  # a safe loader, on checked nodes
    finally:
        loader.dispose()


def parse_yaml(text: str, rel: str, line_offset: int = 0) -> Document:
    """Parse YAML text; a syntax error becomes a SourceError naming file, line and column."""
    try:
        data = _load(text)
    except _Refused as exc:
        line, col = (
            (exc.mark.line + 1 + line_offset, exc.mark.column + 1) if exc.mark else (1 + line_offset, 1)
        )
        raise SourceError(Diagnostic(rel, line, col, "", exc.message, code="yaml")) from None
    except RecursionError:
        raise SourceError(
            Diagnostic(rel, 1 + line_offset, 1, "", "YAML nested too deeply; refusing", code="yaml")
        ) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1 + line_offset, mark.column + 1) if mark else (1 + line_offset, 1)
        problem = exc.problem or exc.context or "invalid YAML"
        raise SourceError(
            Diagnostic(rel, line, col, "", f"YAML syntax error: {problem}", code="yaml")
        ) from exc
    except yaml.YAMLError as exc:
        raise SourceError(Diagnostic(rel, 1 + line_offset, 1, "", f"YAML error: {exc}", code="yaml")) from exc
    return Document(rel, data, text, line_offset)


def load_yaml(text: str, rel: str = "<text>") -> Any:
    """The data of a YAML text, through the same caps (a SourceError naming ``rel`` when refused)."""
    return parse_yaml(text, rel).data


def read_yaml(root: Path, rel: str, hashes: dict[str, bytes] | None = None) -> Document:
    """Read and parse a YAML file below ``root``."""
    return parse_yaml(read_text(root, rel, hashes), rel)


def read_text(root: Path, rel: str, hashes: dict[str, bytes] | None = None) -> str:
    """A UTF-8 text file with newlines normalised; its sha256 (of the bytes) goes into ``hashes``."""
    data = read_bytes(root, rel)
    if hashes is not None:
        hashes[rel] = hashlib.sha256(data).digest()
    return parse_text(data, rel)


def read_bytes(root: Path, rel: str) -> bytes:
    """The bytes of ``root/rel``; a SourceError naming the file when it cannot be read.

    Only a regular file is read (a FIFO committed where a registry file stands is refused, never
    waited on), and one larger than MAX_YAML_BYTES is refused unread (``links.read_regular``)."""
    from orkestra.workspace.links import read_regular

    try:
        return read_regular(root / rel, MAX_YAML_BYTES)
    except OSError as exc:
        raise SourceError(Diagnostic(rel, 1, 1, "", f"cannot read: {exc.strerror}", code="io")) from exc


def parse_text(data: bytes, rel: str) -> str:
    """UTF-8 bytes → text with newlines normalised; a SourceError naming the file when not UTF-8."""
    try:
        return data.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")
    except UnicodeDecodeError as exc:
        raise SourceError(
            Diagnostic(rel, 1, 1, "", f"not UTF-8 text: {exc.reason}", code="encoding")
        ) from exc


def split_frontmatter(text: str, rel: str) -> tuple[Document, str]:
    """Split ``---`` YAML frontmatter from a Markdown body; the frontmatter is parsed."""
    if not text.startswith("---"):
        raise SourceError(
            Diagnostic(
                rel, 1, 1, "", "missing YAML frontmatter (file must start with '---')", code="frontmatter"
            )
        )
    lines = text.split("\n")
    for index in range(1, len(lines)):
        if lines[index].rstrip() == "---":
            front = "\n".join(lines[1:index])
            body = "\n".join(lines[index + 1 :])
            return parse_yaml(front, rel, line_offset=1), body.lstrip("\n")
    raise SourceError(
        Diagnostic(rel, 1, 1, "", "frontmatter is not closed by a '---' line", code="frontmatter")
    )


# --- locations ------------------------------------------------------------------------------


def locate(doc: Document, loc: Iterable[Any]) -> tuple[int, int]:
    """Line and column (1-based) of the deepest node on ``loc`` that exists in ``doc``.

    A missing key points at its parent mapping, which is where the user must add it.
    """
    try:
        node = yaml.compose(doc.text, Loader=_Loader)
    except yaml.YAMLError:
        return 1 + doc.line_offset, 1
    if node is None:
        return 1 + doc.line_offset, 1
    mark = node.start_mark
    for key in loc:
        child = _child(node, key)
        if child is None:
            break
        key_node, node = child
        mark = (key_node or node).start_mark
    return mark.line + 1 + doc.line_offset, mark.column + 1


def _child(node: yaml.Node, key: Any) -> tuple[yaml.Node | None, yaml.Node] | None:
    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in node.value:
            if isinstance(key_node, yaml.ScalarNode) and key_node.value == str(key):
                return key_node, value_node
    elif isinstance(node, yaml.SequenceNode) and isinstance(key, int) and 0 <= key < len(node.value):
        return None, node.value[key]
    return None


def diagnostics_from_validation(
    doc: Document, exc: Any, base: Loc = (), code: str = "schema"
) -> list[Diagnostic]:
    """Pydantic ValidationError → one Diagnostic per error, each located in the file."""
    result = []
    for error in exc.errors(include_url=False):
        # a section parsed by its own validator names the offending key in the error's context
        inner = (error.get("ctx") or {}).get("key")
        loc = tuple(base) + tuple(error["loc"]) + (tuple(str(inner).split(".")) if inner else ())
        line, col = locate(doc, loc)
        field = ".".join(str(part) for part in loc)
        message = error["msg"]
        if error["type"] in ("extra_forbidden", "unexpected_keyword_argument"):  # a model's, a dataclass's
            message = "unknown field (not part of the schema)"
        elif error["type"] == "missing":
            message = "required field is missing"
        result.append(Diagnostic(doc.path, line, col, field, message, code=code))
    return result
