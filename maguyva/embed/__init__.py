"""Semantic modality: embedders (voyage, local, none), the embedding cache, Hamming search."""
