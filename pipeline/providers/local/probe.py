"""A linear probe over [sentence embedding, form cues]: one learned centroid per intent.

Softmax regression fitted on the labelled examples when they are first embedded (about half
a second) and cached with them. Each intent's weight vector acts as a learned centroid that
discounts topic words, which raw nearest-neighbour search over MiniLM vectors does not:
"what did I say about the sourdough?" sits next to sourdough *facts* by cosine alone.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt

Matrix = npt.NDArray[np.float32]
Vector = npt.NDArray[np.float64]
Objective = Callable[[Vector], tuple[float, Vector]]

# Weight of the form cues next to the unit-length embedding, and the L2 penalty. Chosen by
# 5-fold cross-validation on the examples file (docs/local-model.md).
CUE_SCALE = 0.3
L2 = 1e-4
MAX_ITER = 1000
# L-BFGS: pairs remembered, and the stopping rule. The gradient tolerance is tighter than
# SciPy's default so the fit lands on the optimum itself rather than near it.
MEMORY = 10
GTOL = 1e-7


def design(embeddings: Matrix, cues: Matrix) -> Matrix:
    """The probe's input rows: embedding, scaled cues, and a constant 1 for the bias."""
    ones = np.ones((embeddings.shape[0], 1), dtype=np.float32)
    return np.hstack([embeddings, CUE_SCALE * cues, ones]).astype(np.float32)


def _objective(
    x: npt.NDArray[np.float64], labels: npt.NDArray[np.int64], n_classes: int, l2: float
) -> Objective:
    n, d = x.shape
    onehot = np.eye(n_classes)[labels]

    def loss(flat: Vector) -> tuple[float, Vector]:
        w = flat.reshape(d, n_classes)
        z = x @ w
        z -= z.max(axis=1, keepdims=True)
        log_p = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
        penalty = w[:-1]  # the bias row is not penalised
        value = -float(np.mean(log_p[np.arange(n), labels])) + l2 * float(np.sum(penalty**2))
        grad = x.T @ (np.exp(log_p) - onehot) / n
        grad[:-1] += 2 * l2 * penalty
        return value, grad.ravel()

    return loss


def _lbfgs(loss: Objective, start: Vector, max_iter: int = MAX_ITER) -> Vector:
    """Minimise a smooth convex function: L-BFGS with a backtracking (Armijo) line search."""
    w = start.copy()
    value, grad = loss(w)
    steps: list[tuple[Vector, Vector, float]] = []
    for _ in range(max_iter):
        if float(np.max(np.abs(grad))) < GTOL:
            break
        # Two-loop recursion: direction = -H·grad from the remembered (s, y) pairs.
        q = grad.copy()
        alphas = []
        for s, y, rho in reversed(steps):
            a = rho * float(s @ q)
            q -= a * y
            alphas.append(a)
        if steps:
            s, y, _ = steps[-1]
            q *= float(s @ y) / float(y @ y)
        for (s, y, rho), a in zip(steps, reversed(alphas), strict=True):
            q += s * (a - rho * float(y @ q))
        direction = -q
        slope = float(grad @ direction)
        if slope >= 0:  # not a descent direction: restart from steepest descent
            steps.clear()
            direction, slope = -grad, -float(grad @ grad)
        t = 1.0 if steps else min(1.0, 1.0 / float(np.linalg.norm(grad)))
        while True:
            candidate = w + t * direction
            new_value, new_grad = loss(candidate)
            if new_value <= value + 1e-4 * t * slope or t < 1e-12:
                break
            t *= 0.5
        if new_value >= value:  # no step lowers the loss: as close as float64 allows
            break
        s, y = candidate - w, new_grad - grad
        sy = float(s @ y)
        if sy > 1e-12:  # keep only pairs with positive curvature
            steps.append((s, y, 1.0 / sy))
            del steps[:-MEMORY]
        w, value, grad = candidate, new_value, new_grad
    return w


def fit(inputs: Matrix, labels: npt.NDArray[np.int64], n_classes: int, l2: float = L2) -> Matrix:
    """Weights of shape (features, classes) minimising cross-entropy plus an L2 penalty."""
    d = inputs.shape[1]
    loss = _objective(inputs.astype(np.float64), labels, n_classes, l2)
    weights = _lbfgs(loss, np.zeros(d * n_classes))
    return weights.astype(np.float32).reshape(d, n_classes)


def probabilities(logits: Matrix) -> Matrix:
    """Softmax of each row."""
    z = logits - logits.max(axis=-1, keepdims=True)
    p = np.exp(z)
    out: Matrix = (p / p.sum(axis=-1, keepdims=True)).astype(np.float32)
    return out
