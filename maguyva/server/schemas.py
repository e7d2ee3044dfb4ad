"""What the model reads of each tool's schemas: compact JSON Schema, within the tested token budget.

Pydantic's schemas carry a generated ``title`` on every property and spell ``T | None`` as an
``anyOf``; a tool list pays for both on every session. ``compact`` drops the titles and writes
simple unions as a type list. Output schemas are outlined: every key of the answer with its
type (a list of objects is an ``array``; the entry keys are in docs/mcp.md), and no ``required``
lists. The server still validates every answer against the
full model (``maguyva.answers``); the outline only says what to expect.
"""

from __future__ import annotations

from typing import Any


def compact(schema: Any) -> Any:
    """``schema`` without generated titles, with ``anyOf`` of plain types as a type list."""
    if isinstance(schema, list):
        return [compact(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out = {}
    for key, value in schema.items():
        if (key == "title" and isinstance(value, str)) or (key == "default" and value is None):
            continue  # a generated title; a null default (leaving the argument out says the same)
        if key == "properties" and isinstance(value, dict):
            out[key] = {name: compact(prop) for name, prop in value.items()}
        else:
            out[key] = compact(value)
    options = out.get("anyOf")
    if options and all(isinstance(o, dict) and set(o) == {"type"} and isinstance(o["type"], str) for o in options):
        del out["anyOf"]
        out["type"] = [o["type"] for o in options]
    elif options and len(options) == 2 and {"type": "null"} in options:  # X | None: X's keywords, type [X, null]
        (other,) = [o for o in options if o != {"type": "null"}]
        if isinstance(other, dict) and isinstance(other.get("type"), str) and not set(other) & set(out):
            del out["anyOf"]
            out = {**other, **out, "type": [other["type"], "null"]}
    return out


def outline(schema: dict[str, Any], depth: int = 1) -> dict[str, Any]:
    """The keys and types of an output schema to ``depth`` object levels; ``$ref``s inlined."""
    defs = schema.get("$defs", {})
    return _outline(schema, defs, depth)


def _outline(node: dict[str, Any], defs: dict[str, Any], depth: int) -> dict[str, Any]:
    ref = node.get("$ref")
    if isinstance(ref, str):
        node = defs[ref.rsplit("/", 1)[-1]]
    if "anyOf" in node:
        types = [_outline(o, defs, depth) for o in node["anyOf"]]
        flat = [t["type"] for t in types if set(t) == {"type"} and isinstance(t["type"], str)]
        if len(flat) == len(types):
            return {"type": flat}
        return {"anyOf": types}
    kind = node.get("type")
    if kind == "array" and "items" in node:
        items = _outline(node["items"], defs, depth)
        return {"type": "array"} if items == {"type": "object"} else {"type": "array", "items": items}
    if kind == "object" and "properties" in node:
        if depth <= 0:
            return {"type": "object"}
        return {"type": "object", "properties": {name: _outline(prop, defs, depth - 1)
                                                 for name, prop in node["properties"].items()}}
    return {"type": kind} if kind else {}


def publish(server: Any) -> None:
    """Give every tool of ``server`` (an ``MCPServer``) its compact input schema and outlined output schema."""
    for tool in server._tool_manager.list_tools():  # the SDK derives both schemas at registration
        tool.parameters = compact(tool.parameters)
        if tool.fn_metadata.output_schema is not None:
            tool.fn_metadata.output_schema = outline(tool.fn_metadata.output_schema)
