"""Retrieval: intent routing, four retrievers sharing one hit type, weighted RRF fusion."""
