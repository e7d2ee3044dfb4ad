"""Memory behaviour of bulk runs: Maguyva's ``paused_gc``, used for workspace load and sync (one copy)."""

from maguyva.memory import paused_gc

__all__ = ["paused_gc"]
