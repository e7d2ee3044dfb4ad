"""Hamming search over packed sign bits ranks exactly like a brute-force count."""

from __future__ import annotations

import numpy as np
import pytest

from maguyva.embed.hamming import HammingIndex, brute_force, pack_signs


@pytest.mark.parametrize(("n", "dims"), [(500, 2048), (500, 384), (25_000, 384), (300, 40)])
def test_ranking_equals_brute_force_on_the_same_sign_bits(n, dims):
    rng = np.random.default_rng(7)
    vectors = rng.standard_normal((n, dims)).astype(np.float32)
    packed = pack_signs(vectors)
    assert packed.shape == (n, dims // 8)
    index = HammingIndex.build(np.arange(n), packed)
    for _ in range(3):
        query = pack_signs(rng.standard_normal(dims))[0]
        assert index.search(query, 10) == brute_force(packed, query, 10)


def test_identical_vector_is_at_distance_zero_and_ties_break_by_id():
    packed = np.array([[0b10101010], [0b10101010], [0b00000000]], dtype=np.uint8)
    index = HammingIndex.build([30, 10, 20], packed)
    assert index.search(np.array([0b10101010], dtype=np.uint8), 3) == [(10, 0), (30, 0), (20, 4)]


def test_sign_bits_follow_the_sign_of_each_dimension():
    packed = pack_signs(np.array([[1.0, -1.0, 0.5, 0.0, -0.1, 2.0, 3.0, -4.0]]))
    assert packed.tolist() == [[0b10100110]]
    with pytest.raises(ValueError, match="multiple of 8"):
        pack_signs(np.ones((1, 12)))


def test_empty_index_and_k_larger_than_index():
    assert HammingIndex.build([], np.zeros((0, 48), dtype=np.uint8)).search(np.zeros(48, np.uint8), 5) == []
    index = HammingIndex.build([1, 2], np.array([[1] * 48, [0] * 48], dtype=np.uint8))
    assert [i for i, _ in index.search(np.zeros(48, np.uint8), 10)] == [2, 1]
