"""Confusion-matrix heatmaps as PNG files (matplotlib, no display needed)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pandas as pd


def confusion(expected: pd.Series, got: pd.Series) -> pd.DataFrame:
    """Counts of expected (rows) x got (columns), over the union of labels seen."""
    labels = sorted(set(expected.dropna()) | set(got.dropna()))
    table = pd.crosstab(expected, got).reindex(index=labels, columns=labels, fill_value=0)
    table.index.name = "expected"
    table.columns.name = "got"
    return table


def save_heatmap(matrix: pd.DataFrame, path: Path, title: str) -> Path:
    """Draw the matrix with its counts and save it as a PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    size = max(4.0, 0.55 * len(matrix.columns) + 2.5)
    fig, ax = plt.subplots(figsize=(size + 1.5, size))
    values = matrix.to_numpy()
    image = ax.imshow(values, cmap="Blues")
    ax.set_xticks(range(len(matrix.columns)), labels=list(matrix.columns), rotation=45, ha="right")
    ax.set_yticks(range(len(matrix.index)), labels=list(matrix.index))
    ax.set_xlabel("got")
    ax.set_ylabel("expected")
    ax.set_title("\n".join(textwrap.wrap(title, 48)), fontsize=9)
    peak = values.max() if values.size else 0
    for i in range(values.shape[0]):
        for j in range(values.shape[1]):
            if values[i, j]:
                colour = "white" if values[i, j] > peak / 2 else "black"
                ax.text(j, i, str(values[i, j]), ha="center", va="center", color=colour, fontsize=8)
    fig.colorbar(image, ax=ax, shrink=0.7)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return path
