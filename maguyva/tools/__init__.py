"""The eleven tools: their contract (``contract``), the protocol that answers them (``protocol``), the
parameter models the MCP server publishes (``params``), and the tools' implementations over one
repository's store (``symbols``, ``text``, ``reading``, ``overview``), the task-context packer any
retrieval uses (``context``) and a ranked search's result entries (``results``).

Nothing here is imported by ``import maguyva.tools``: ``maguyva grep`` reads the stdlib-only
``contract`` and never loads pydantic.
"""
