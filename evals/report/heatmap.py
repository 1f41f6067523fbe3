"""Confusion-matrix heatmaps as SVG files: plain text, no plotting library needed."""

from __future__ import annotations

import textwrap
from html import escape
from pathlib import Path

import pandas as pd

CELL = 34  # px per cell
CHAR = 6.5  # px per character of an 11 px label, roughly; sizes the margins
LIGHT, DARK = (247, 251, 255), (8, 48, 107)  # the ends of a white-to-blue scale


def confusion(expected: pd.Series, got: pd.Series) -> pd.DataFrame:
    """Counts of expected (rows) x got (columns), over the union of labels seen."""
    labels = sorted(set(expected.dropna()) | set(got.dropna()))
    table = pd.crosstab(expected, got).reindex(index=labels, columns=labels, fill_value=0)
    table.index.name = "expected"
    table.columns.name = "got"
    return table


def _fill(share: float) -> str:
    r, g, b = (round(lo + (hi - lo) * share) for lo, hi in zip(LIGHT, DARK, strict=True))
    return f"#{r:02x}{g:02x}{b:02x}"


def heatmap_svg(matrix: pd.DataFrame, title: str) -> str:
    """The matrix as an SVG: one shaded cell per count, labels and title escaped."""
    rows, cols = [str(v) for v in matrix.index], [str(v) for v in matrix.columns]
    values = matrix.to_numpy()
    peak = int(values.max()) if values.size else 0
    title_lines = textwrap.wrap(title, 60) or [""]
    left = 24 + CHAR * max((len(r) for r in rows), default=0)
    top = 16 * len(title_lines) + 20
    bottom = 24 + 0.72 * CHAR * max((len(c) for c in cols), default=0)  # labels at 45°
    width = round(max(left + CELL * len(cols) + 16, 8 * max(map(len, title_lines)) + 16))
    height = round(top + CELL * len(rows) + bottom)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="11">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
    ]
    for k, line in enumerate(title_lines):
        out.append(f'<text x="8" y="{16 * (k + 1)}" font-size="12">{escape(line)}</text>')
    for i, label in enumerate(rows):
        y = top + CELL * i
        out.append(
            f'<text x="{left - 6:.0f}" y="{y + CELL / 2 + 4:.0f}" text-anchor="end">'
            f"{escape(label)}</text>"
        )
        for j in range(len(cols)):
            count = int(values[i, j])
            x = left + CELL * j
            share = count / peak if peak else 0.0
            out.append(
                f'<rect x="{x:.0f}" y="{y}" width="{CELL}" height="{CELL}" '
                f'fill="{_fill(share)}" stroke="#e0e0e5"><title>{escape(label)} → '
                f"{escape(cols[j])}: {count}</title></rect>"
            )
            if count:
                colour = "white" if share > 0.5 else "black"
                out.append(
                    f'<text x="{x + CELL / 2:.0f}" y="{y + CELL / 2 + 4:.0f}" '
                    f'text-anchor="middle" fill="{colour}">{count}</text>'
                )
    base = top + CELL * len(rows) + 12
    for j, label in enumerate(cols):
        x = left + CELL * j + CELL / 2
        out.append(
            f'<text x="{x:.0f}" y="{base:.0f}" text-anchor="end" '
            f'transform="rotate(-45 {x:.0f} {base:.0f})">{escape(label)}</text>'
        )
    out.append(
        f'<text x="{left - 6:.0f}" y="{top - 6}" text-anchor="end" '
        'font-style="italic">expected \\ got</text>'
    )
    out.append("</svg>")
    return "\n".join(out) + "\n"


def save_heatmap(matrix: pd.DataFrame, path: Path, title: str) -> Path:
    """Write the matrix as an SVG heatmap with its counts."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(heatmap_svg(matrix, title), encoding="utf-8")
    return path
