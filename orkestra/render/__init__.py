"""Rendering: composed registries → Jinja templates → the files Claude Code loads.

Stages, one module each: ``context`` (template contexts, pure), ``environment`` (Jinja),
``outputs`` (every generated file in memory), ``plan`` (diff against disk and manifest,
writes nothing), ``apply`` (the only writer), ``state`` (cheap in-sync check), ``sync``
(plan → apply, the CLI's one call); ``inputs`` and ``manifest`` hold the digest of
every input and the committed record of generated files.
"""
