"""Inspection: status, listings, records and search over a workspace's registries (SPEC §5).

``api`` is the entry point the CLI calls (one function per command); ``catalog`` turns a
loaded workspace into JSON-ready records, ``views`` and ``finder`` answer from them.
"""
