"""The top-k of a search keeps equal scores in row order, whichever k are kept."""

from __future__ import annotations

from datetime import UTC, datetime

import numpy as np

from pipeline.memory.search import MemoryIndex


def test_equal_scores_keep_the_first_rows_in_order() -> None:
    rows = 12
    vectors = np.tile(np.array([1.0, 0.0, 0.0], dtype=np.float32), (rows, 1))
    index = MemoryIndex(vectors, [datetime(2026, 1, 1, tzinfo=UTC)] * rows, ["same"] * rows)
    query, now = np.array([1.0, 0.0, 0.0], dtype=np.float32), datetime(2026, 2, 1, tzinfo=UTC)
    for k in (1, 3, rows, rows + 5):
        found = [row for row, _, _ in index.top("q", query, now, k=k, min_similarity=0.0)]
        assert found == list(range(min(k, rows)))
