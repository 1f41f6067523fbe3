"""Reliability diagrams as SVG files, written as text like the confusion heatmaps
(evals/report/heatmap.py): no plotting library needed.

Above, per non-empty bin, a bar as high as the bin's accuracy and a dot at (mean confidence,
accuracy) with its 95% Wilson interval, against the diagonal a calibrated classifier would
follow; below, how many messages each bin holds.
"""

from __future__ import annotations

import textwrap
from html import escape
from pathlib import Path

from evals.report.calibration import Calibration

SIZE = 320  # px: the reliability panel is square
COUNTS = 80  # px: the height of the counts panel
LEFT, RIGHT, GAP = 56, 16, 34
BAR, EDGE, DOT, DIAGONAL = "#9ecae1", "#3182bd", "#08306b", "#555555"


def _title(calibration: Calibration) -> list[str]:
    ece = calibration.ece
    figure = "no message with a confidence" if ece is None else f"ECE {ece:.3f}"
    head = f"{calibration.suite} — {calibration.provider} — {calibration.variant} prompts"
    return [
        *(textwrap.wrap(head, 60) or [""]),
        f"{figure} over {calibration.n} message(s), {calibration.bins} equal-width bins",
    ]


def _axes(top: float) -> list[str]:
    """Frame, grid, ticks and axis names of the reliability panel."""
    out = [f'<rect x="{LEFT}" y="{top}" width="{SIZE}" height="{SIZE}" fill="none" stroke="#bbb"/>']
    for k in range(6):
        share = k / 5
        x, y = LEFT + SIZE * share, top + SIZE * (1 - share)
        out += [
            f'<line x1="{LEFT}" y1="{y:.1f}" x2="{LEFT + SIZE}" y2="{y:.1f}" stroke="#eee"/>',
            f'<text x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end">{share:.1f}</text>',
            f'<text x="{x:.1f}" y="{top + SIZE + 2 * GAP + COUNTS - 14}" '
            f'text-anchor="middle">{share:.1f}</text>',
        ]
    middle = top + SIZE / 2
    out += [
        f'<text x="14" y="{middle:.1f}" text-anchor="middle" '
        f'transform="rotate(-90 14 {middle:.1f})">accuracy</text>',
    ]
    return out


def _diagonal(top: float) -> str:
    """Perfect calibration, drawn over the bars so that it shows through them."""
    return (
        f'<line x1="{LEFT}" y1="{top + SIZE}" x2="{LEFT + SIZE}" y2="{top}" '
        f'stroke="{DIAGONAL}" stroke-dasharray="5 4"><title>perfect calibration</title></line>'
    )


def _bins(calibration: Calibration, top: float) -> list[str]:
    """The accuracy bars, dots and intervals, and the counts panel beneath."""
    table = calibration.table
    peak = max((b.n for b in table), default=0)
    base = top + SIZE + GAP + COUNTS
    out = []
    for b in table:
        x, width = LEFT + SIZE * b.lower, SIZE * (b.upper - b.lower)
        lo, hi = b.ci95
        note = escape(
            f"{b.lower:.1f}–{b.upper:.1f}: {b.n} message(s), mean confidence "
            f"{b.confidence:.3f}, accuracy {b.accuracy:.3f} (95% CI {lo:.3f}–{hi:.3f})"
        )
        high = SIZE * b.accuracy
        cx, cy = LEFT + SIZE * b.confidence, top + SIZE * (1 - b.accuracy)
        tall = COUNTS * b.n / peak
        out += [
            f'<rect x="{x + 1:.1f}" y="{top + SIZE - high:.1f}" width="{width - 2:.1f}" '
            f'height="{high:.1f}" fill="{BAR}" stroke="{EDGE}"><title>{note}</title></rect>',
            f'<line x1="{cx:.1f}" y1="{top + SIZE * (1 - lo):.1f}" x2="{cx:.1f}" '
            f'y2="{top + SIZE * (1 - hi):.1f}" stroke="{DOT}"/>',
            f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="3.5" fill="{DOT}"><title>{note}</title>'
            "</circle>",
            f'<rect x="{x + 1:.1f}" y="{base - tall:.1f}" width="{width - 2:.1f}" '
            f'height="{tall:.1f}" fill="#bdbdbd"><title>{note}</title></rect>',
            f'<text x="{x + width / 2:.1f}" y="{base - tall - 3:.1f}" text-anchor="middle" '
            f'font-size="10">{b.n}</text>',
        ]
    return out


def reliability_svg(calibration: Calibration) -> str:
    """The group's reliability diagram as an SVG, every label escaped."""
    title = _title(calibration)
    top = 16 * len(title) + 14
    width = LEFT + SIZE + RIGHT
    height = round(top + SIZE + 2 * GAP + COUNTS + 4)
    base = top + SIZE + GAP + COUNTS
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="11">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        *(
            f'<text x="8" y="{16 * (k + 1)}" font-size="12">{escape(line)}</text>'
            for k, line in enumerate(title)
        ),
        *_axes(top),
        f'<line x1="{LEFT}" y1="{base}" x2="{LEFT + SIZE}" y2="{base}" stroke="#bbb"/>',
        f'<text x="14" y="{base - COUNTS / 2:.1f}" text-anchor="middle" '
        f'transform="rotate(-90 14 {base - COUNTS / 2:.1f})">messages</text>',
        *_bins(calibration, top),
        _diagonal(top),
        f'<text x="{LEFT + SIZE / 2}" y="{height - 2}" text-anchor="middle">confidence</text>',
        "</svg>",
    ]
    return "\n".join(out) + "\n"


def save_reliability(calibration: Calibration, path: Path) -> Path:
    """Write the group's reliability diagram."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(reliability_svg(calibration), encoding="utf-8")
    return path
