"""The mean of each group's K highest similarities, for every row at once.

The classifier scores intents by the mean cosine of a message to each intent's nearest
examples, and reads a reply by its nearest reply examples; the spread derivation does the same
for many rows. The member columns of every group are gathered once into a padded index, so a
row costs one gather and one sort instead of a Python loop over groups.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

KNN_K = 3
EMPTY = -1.0  # the score of a group with no members


@dataclass(frozen=True)
class Groups:
    """Which columns belong to which group, padded to the largest group."""

    index: npt.NDArray[np.int64]  # (groups, width); padding points at the extra -inf column
    counts: npt.NDArray[np.int64]  # how many of the top K each group averages

    @classmethod
    def of(cls, labels: npt.NDArray[np.int64], n_groups: int) -> Groups:
        """Groups from each column's label (0 … n_groups - 1)."""
        members = [np.flatnonzero(labels == g) for g in range(n_groups)]
        width = max([KNN_K, *(m.size for m in members)])
        index = np.full((n_groups, width), labels.size, dtype=np.int64)
        for g, m in enumerate(members):
            index[g, : m.size] = m
        counts = np.array([min(KNN_K, m.size) for m in members], dtype=np.int64)
        return cls(index, counts)

    def top_mean(self, similarity: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        """(rows, groups): per row and group, the mean of its K highest similarities."""
        rows = np.atleast_2d(similarity)
        padded = np.concatenate(
            [rows, np.full((rows.shape[0], 1), -np.inf, dtype=rows.dtype)], axis=1
        )
        gathered = padded[:, self.index]
        top = -np.sort(-gathered, axis=2)[:, :, :KNN_K]
        keep = np.arange(KNN_K)[None, None, :] < self.counts[None, :, None]
        summed = np.where(keep, top, 0.0).sum(axis=2)
        means = np.where(self.counts > 0, summed / np.maximum(self.counts, 1), np.float32(EMPTY))
        out: npt.NDArray[np.float32] = means.astype(np.float32)
        return out
