"""The Maguyva MCP server: 11 typed tools over the library API (stdio and streamable HTTP)."""
