"""The 11 client-facing tools, generated from their declarations (``maguyva.tools.contract``).

Descriptions are written for the model and kept short: all schemas together, input and output,
stay under ~2,500 tokens (tested, and snapshotted in tests/snapshots/mcp_tool_schemas.json).
Each tool's input schema is its parameter model's (``maguyva.tools.params``), its ``outputSchema``
its answer model's (``maguyva.answers``); the answer is sent once, as structured content, with a
one-line summary as the text content. Errors the model can fix are raised, never returned as strings.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Annotated, Any

from mcp.types import CallToolResult, TextContent

from maguyva import answers
from maguyva.answers import Answer
from maguyva.errors import MaguyvaError
from maguyva.server.schemas import publish
from maguyva.tools.contract import TOOLS, Tool
from maguyva.tools.params import annotation
from maguyva.tools.protocol import Retrieval


def sent(answer: Answer) -> CallToolResult:
    """The answer as structured content (validated against the tool's outputSchema), and a one-line summary."""
    return CallToolResult(
        content=[TextContent(type="text", text=answer.summary())], structured_content=answer.dump()
    )


@contextmanager
def fixable() -> Iterator[None]:
    """Turn a Maguyva error (bad path, unknown target, no index) into a message the model reads."""
    from mcp.server.mcpserver.exceptions import ToolError

    try:
        yield
    except MaguyvaError as exc:
        raise ToolError(str(exc)) from exc


def handler(tool: Tool, api: Callable[[], Retrieval]) -> Callable[..., CallToolResult]:
    """``tool`` as a function the SDK registers: its signature is the declared parameters (so the SDK's
    argument model is the parameter model), and it returns the answer of ``api()``'s method of that name."""

    def call(**arguments: Any) -> CallToolResult:
        with fixable():
            return sent(getattr(api(), tool.name)(**arguments))

    parameters = [
        inspect.Parameter(
            p.name,
            inspect.Parameter.KEYWORD_ONLY,
            default=inspect.Parameter.empty if p.required else p.default,
            annotation=annotation(p),
        )
        for p in tool.params
    ]
    returns = Annotated[CallToolResult, getattr(answers, tool.answer)]
    call.__name__ = call.__qualname__ = tool.name
    call.__doc__ = tool.description
    call.__signature__ = inspect.Signature(parameters, return_annotation=returns)  # type: ignore[attr-defined]
    call.__annotations__ = {p.name: p.annotation for p in parameters} | {"return": returns}
    return call


def register(server: Any, api: Callable[[], Retrieval]) -> None:
    """Attach every declared tool to ``server``; ``api()`` returns the retrieval for this thread."""
    for tool in TOOLS:
        server.add_tool(handler(tool, api), name=tool.name, description=tool.description)
    publish(server)
