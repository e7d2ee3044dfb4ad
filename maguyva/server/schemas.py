"""What the model reads of each tool's schemas: compact JSON Schema, within the tested token budget.

Pydantic's schemas carry a generated ``title`` on every property and spell an optional argument
as ``anyOf [T, null]`` with ``default: null``; a tool list pays for both on every session.
``compact`` drops the titles and writes such an argument as ``T``. Output schemas are outlined: every key of the answer with its
type (a list of objects is an ``array``; the entry keys are in docs/mcp.md), and no ``required``
lists. The server still validates every answer against the
full model (``maguyva.answers``); the outline only says what to expect.
"""

from __future__ import annotations

from typing import Any


def compact(schema: Any) -> Any:
    """``schema`` without generated titles; an optional ``X | None = None`` argument is written as ``X``.

    Leaving such an argument out and passing null mean the same, and one ``type`` per property is
    what every client's schema dialect accepts (the MCP Inspector flags type lists as unportable)."""
    if isinstance(schema, list):
        return [compact(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out = {}
    for key, value in schema.items():
        if key == "title" and isinstance(value, str):
            continue  # generated from the name
        if key == "properties" and isinstance(value, dict):
            out[key] = {name: _optional(compact(prop)) for name, prop in value.items()}
        else:
            out[key] = compact(value)
    return out


def _optional(prop: dict[str, Any]) -> dict[str, Any]:
    options = prop.get("anyOf")
    if "default" not in prop or prop["default"] is not None or not options or {"type": "null"} not in options:
        return prop
    rest = [o for o in options if o != {"type": "null"}]
    if len(rest) != 1 or set(rest[0]) & set(prop):
        return prop
    return {**rest[0], **{k: v for k, v in prop.items() if k not in ("anyOf", "default")}}


def outline(schema: dict[str, Any], depth: int = 1) -> dict[str, Any]:
    """The keys and types of an output schema to ``depth`` object levels; ``$ref``s inlined."""
    defs = schema.get("$defs", {})
    return _outline(schema, defs, depth)


def _outline(node: dict[str, Any], defs: dict[str, Any], depth: int) -> dict[str, Any]:
    ref = node.get("$ref")
    if isinstance(ref, str):
        node = defs[ref.rsplit("/", 1)[-1]]
    if "anyOf" in node:
        return {"anyOf": [_outline(o, defs, depth) for o in node["anyOf"]]}
    kind = node.get("type")
    if kind == "array" and "items" in node:
        items = _outline(node["items"], defs, depth)
        return {"type": "array"} if items == {"type": "object"} else {"type": "array", "items": items}
    if kind == "object" and "properties" in node:
        if depth <= 0:
            return {"type": "object"}
        return {
            "type": "object",
            "properties": {
                name: _outline(prop, defs, depth - 1) for name, prop in node["properties"].items()
            },
        }
    return {"type": kind} if kind else {}


def publish(server: Any) -> None:
    """Give every tool of ``server`` (an ``MCPServer``) its compact input schema and outlined output schema."""
    for tool in server._tool_manager.list_tools():  # the SDK derives both schemas at registration
        tool.parameters = compact(tool.parameters)
        if tool.fn_metadata.output_schema is not None:
            tool.fn_metadata.output_schema = outline(tool.fn_metadata.output_schema)
