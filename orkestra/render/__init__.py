"""Rendering: composed registries → Jinja templates → the files Claude Code loads.

Stages, one module each: ``context`` (template contexts, pure), ``environment`` (Jinja),
``outputs`` (every generated file in memory), ``plan`` (diff against disk and manifest,
writes nothing), ``apply`` (the only writer), ``freshness`` (has anything changed since the
last sync: the stat stamp, then the digest; before any plan), ``state`` (the in-sync line of
``system status``), ``sync`` (freshness → plan → apply, the CLI's one call), ``summary`` (what
sync prints); ``inputs`` and ``manifest`` hold the digest of every input and the committed
record of generated files.
"""
