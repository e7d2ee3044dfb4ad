"""Institutional memory joined to the code: ``why`` a path, line or symbol is like this, facts that went
stale, the guidance hook's lookup table, and the registries' MCP server (``orkestra.why.server``).

Library API: ``orkestra.why.answer.why(root, target)`` and ``orkestra.why.stale.stale_facts(ws)``.
"""
