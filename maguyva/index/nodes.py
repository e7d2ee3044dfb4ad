"""Reading syntax-tree nodes back as source text: shared by the extractor and the language hooks."""

from __future__ import annotations


def node_text(node, source: bytes) -> str:
    """The source text under ``node`` (bytes that are not UTF-8 replaced)."""
    return source[node.start_byte : node.end_byte].decode("utf-8", errors="replace")


def dotted_name(node, source: bytes, names: tuple[str, ...], member: str, field: str) -> str | None:
    """``x`` / ``self.x`` / ``Cls.attr``: a name node (a type in ``names``) or a chain of ``member`` nodes
    (their ``object`` and their ``field``) down to one; None for any other node."""
    if node.type in names:
        return node_text(node, source)
    if node.type == member:
        base = dotted_name(node.child_by_field_name("object"), source, names, member, field)
        name = node.child_by_field_name(field)
        return f"{base}.{node_text(name, source)}" if base and name is not None else None
    return None
