"""Maguyva: a code-context index and MCP server that answers with ``path:line`` citations."""

__version__ = "0.1.0"
