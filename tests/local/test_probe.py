"""The probe's fit reaches the optimum of its convex objective, the same way every time."""

from __future__ import annotations

import numpy as np

from pipeline.providers.local import probe


def _problem(seed: int = 3) -> tuple[np.ndarray, np.ndarray, int]:
    rng = np.random.default_rng(seed)
    n_classes, per_class, dim = 4, 30, 12
    centres = rng.normal(size=(n_classes, dim))
    labels = np.repeat(np.arange(n_classes), per_class)
    vectors = centres[labels] + 0.8 * rng.normal(size=(len(labels), dim))
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    cues = rng.integers(0, 2, size=(len(labels), 3)).astype(np.float32)
    return probe.design(vectors.astype(np.float32), cues), labels.astype(np.int64), n_classes


def test_fit_lands_on_the_optimum() -> None:
    inputs, labels, n_classes = _problem()
    weights = probe.fit(inputs, labels, n_classes)
    loss = probe._objective(inputs.astype(np.float64), labels, n_classes, probe.L2)
    value, grad = loss(weights.astype(np.float64).ravel())
    assert np.abs(grad).max() < 1e-5  # float32 rounding of the stored weights, no more
    # No nearby point does better: the objective is convex, so this is the minimum.
    rng = np.random.default_rng(0)
    for _ in range(20):
        nudge = 1e-3 * rng.normal(size=grad.shape)
        assert loss(weights.astype(np.float64).ravel() + nudge)[0] >= value
    predicted = (inputs @ weights).argmax(axis=1)
    assert (predicted == labels).mean() > 0.9


def test_fit_is_deterministic_and_translation_free() -> None:
    inputs, labels, n_classes = _problem()
    first = probe.fit(inputs, labels, n_classes)
    assert np.array_equal(first, probe.fit(inputs, labels, n_classes))
    # Softmax ignores a constant added to every class; the fit starts at zero and keeps
    # each row summing to zero, so it picks the one minimum with that property.
    assert np.abs(first.sum(axis=1)).max() < 1e-4


def test_probabilities_are_a_softmax() -> None:
    p = probe.probabilities(np.array([[0.0, np.log(3.0)], [1000.0, 1000.0]], dtype=np.float32))
    assert np.allclose(p, [[0.25, 0.75], [0.5, 0.5]])
