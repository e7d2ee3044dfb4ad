"""The ``orkestra`` MCP server: the registries (decisions, truths, agents, skills) and ``why`` over MCP."""
