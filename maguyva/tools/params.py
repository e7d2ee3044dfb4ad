"""Each tool's parameter model (pydantic), built from its declaration in ``maguyva.tools.contract``.

The MCP server registers every tool with these annotations, so a tool's input schema is its
parameter model's JSON schema (compacted by ``maguyva.server.schemas``); tests/test_architecture.py
checks that they are equal.
"""

from __future__ import annotations

import functools
from typing import Annotated, Any

from pydantic import BaseModel, Field, create_model

from maguyva.tools.contract import BY_NAME, Param


def annotation(param: Param) -> Any:
    """``param``'s type with its description and bounds, as a pydantic field annotation."""
    bounds = {key: value for key, value in (("ge", param.ge), ("le", param.le)) if value is not None}
    return Annotated[param.type, Field(description=param.description, **bounds)]


@functools.cache
def parameter_model(tool: str) -> type[BaseModel]:
    """The model of ``tool``'s arguments: one field per declared parameter, in the declared order."""
    fields: dict[str, Any] = {
        p.name: annotation(p) if p.required else (annotation(p), p.default) for p in BY_NAME[tool].params
    }
    return create_model(f"{tool}Arguments", **fields)
