"""A linear probe over [sentence embedding, form cues]: one learned centroid per intent.

Softmax regression fitted on the labelled examples when they are first embedded (about half
a second) and cached with them. Each intent's weight vector acts as a learned centroid that
discounts topic words, which raw nearest-neighbour search over MiniLM vectors does not:
"what did I say about the sourdough?" sits next to sourdough *facts* by cosine alone.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

Matrix = npt.NDArray[np.float32]

# Weight of the form cues next to the unit-length embedding, and the L2 penalty. Chosen by
# 5-fold cross-validation on the examples file (docs/local-model.md).
CUE_SCALE = 0.3
L2 = 1e-4
MAX_ITER = 1000


def design(embeddings: Matrix, cues: Matrix) -> Matrix:
    """The probe's input rows: embedding, scaled cues, and a constant 1 for the bias."""
    ones = np.ones((embeddings.shape[0], 1), dtype=np.float32)
    return np.hstack([embeddings, CUE_SCALE * cues, ones]).astype(np.float32)


def fit(inputs: Matrix, labels: npt.NDArray[np.int64], n_classes: int, l2: float = L2) -> Matrix:
    """Weights of shape (features, classes) minimising cross-entropy plus an L2 penalty."""
    # Only when the examples are embedded anew; a turn reads cached weights and skips SciPy.
    from scipy.optimize import minimize

    n, d = inputs.shape
    x = inputs.astype(np.float64)
    onehot = np.eye(n_classes)[labels]

    def loss(flat: npt.NDArray[np.float64]) -> tuple[float, npt.NDArray[np.float64]]:
        w = flat.reshape(d, n_classes)
        z = x @ w
        z -= z.max(axis=1, keepdims=True)
        p = np.exp(z)
        p /= p.sum(axis=1, keepdims=True)
        penalty = w[:-1]
        value = -np.mean(np.log(p[np.arange(n), labels] + 1e-12)) + l2 * float(np.sum(penalty**2))
        grad = x.T @ (p - onehot) / n
        grad[:-1] += 2 * l2 * penalty
        return float(value), grad.ravel()

    result = minimize(
        loss,
        np.zeros(d * n_classes),
        jac=True,
        method="L-BFGS-B",
        options={"maxiter": MAX_ITER},
    )
    return np.asarray(result.x, dtype=np.float32).reshape(d, n_classes)


def probabilities(logits: Matrix) -> Matrix:
    """Softmax of each row."""
    z = logits - logits.max(axis=-1, keepdims=True)
    p = np.exp(z)
    out: Matrix = (p / p.sum(axis=-1, keepdims=True)).astype(np.float32)
    return out
