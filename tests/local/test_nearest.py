"""The per-group top-K mean equals the definition, group by group, including odd groups."""

from __future__ import annotations

import numpy as np

from pipeline.providers.local.nearest import EMPTY, KNN_K, Groups


def test_top_mean_matches_the_definition_for_every_row_and_group() -> None:
    rng = np.random.default_rng(7)
    labels = rng.integers(0, 4, size=60)
    labels[labels == 2] = 0
    labels[3] = 2  # a group with one member
    labels[9] = labels[11] = 5  # a group with two members; group 4 stays empty
    similarity = rng.standard_normal((5, labels.size)).astype(np.float32)
    got = Groups.of(labels, 6).top_mean(similarity)
    assert got.shape == (5, 6)
    for row in range(5):
        for group in range(6):
            members = similarity[row, labels == group]
            expected = EMPTY if members.size == 0 else np.sort(members)[::-1][:KNN_K].mean()
            assert abs(got[row, group] - expected) < 1e-6


def test_one_row_as_a_vector() -> None:
    groups = Groups.of(np.array([0, 0, 0, 0, 1]), 2)
    means = groups.top_mean(np.array([0.1, 0.9, 0.5, 0.7, 0.2], dtype=np.float32))
    assert np.allclose(means, [[0.7, 0.2]])
