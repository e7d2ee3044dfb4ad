"""Orkestra: YAML registries about coding agents, rendered into what Claude Code loads.

The public API is imported lazily so that ``import orkestra`` stays cheap for the CLI.
"""

__version__ = "0.1.0"
