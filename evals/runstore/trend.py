"""The trend report: accuracy per suite and provider across stored runs, with 95% intervals,
as one HTML page with an SVG plot drawn here (no plotting library).

Accuracy is passed / (rows − errors) over each run's latest row per case, the interval Wilson's
(evals/stats.py), as in a run's own report. Runs go left to right by creation time; each
(suite, provider) is one line with a bar for its interval at every run that has it.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from typing import Any

from evals.stats import wilson

WIDTH, HEIGHT = 880, 360
LEFT, RIGHT, TOP, BOTTOM = 56, 24, 20, 110
COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2")


@dataclass(frozen=True)
class Point:
    """One (suite, provider) at one run."""

    run_id: str
    series: str
    passed: int
    scored: int

    @property
    def accuracy(self) -> float:
        """passed / scored."""
        return self.passed / self.scored

    @property
    def interval(self) -> tuple[float, float]:
        """Wilson 95%."""
        return wilson(self.passed, self.scored)


def points(
    runs: list[dict[str, Any]], rows: dict[str, list[dict[str, Any]]], suite: str | None = None
) -> list[Point]:
    """Every (run, suite, provider) with at least one scored row."""
    found: list[Point] = []
    for run in runs:
        groups: dict[str, list[int]] = {}
        for row in rows.get(run["run_id"], []):
            if suite is not None and row["suite"] != suite:
                continue
            name = f"{row['suite']} · {row.get('provider_label') or row['provider']}"
            counts = groups.setdefault(name, [0, 0])
            if row["status"] != "error":
                counts[1] += 1
                counts[0] += row["status"] == "pass"
        found += [Point(run["run_id"], n, p, s) for n, (p, s) in sorted(groups.items()) if s]
    return found


def svg(run_ids: list[str], found: list[Point]) -> str:
    """The plot: one x position per run, accuracy 0–100% up, a line and interval bars per
    series."""
    inner_w, inner_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    step = inner_w / max(1, len(run_ids) - 1) if len(run_ids) > 1 else 0.0

    def x(run_id: str) -> float:
        return LEFT + (run_ids.index(run_id) * step if len(run_ids) > 1 else inner_w / 2)

    def y(value: float) -> float:
        return TOP + (1 - value) * inner_h

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="accuracy per run">'
    ]
    for tick in range(0, 101, 20):
        ty = y(tick / 100)
        parts.append(
            f'<line x1="{LEFT}" y1="{ty:.1f}" x2="{WIDTH - RIGHT}" y2="{ty:.1f}" stroke="#ddd"/>'
            f'<text x="{LEFT - 8}" y="{ty + 4:.1f}" text-anchor="end" font-size="11">{tick}%</text>'
        )
    for run_id in run_ids:
        rx = x(run_id)
        parts.append(
            f'<text transform="translate({rx:.1f},{HEIGHT - BOTTOM + 12}) rotate(45)" '
            f'font-size="10">{escape(run_id)}</text>'
        )
    series = sorted({p.series for p in found})
    for i, name in enumerate(series):
        colour = COLOURS[i % len(COLOURS)]
        mine = sorted((p for p in found if p.series == name), key=lambda p: run_ids.index(p.run_id))
        line = " ".join(f"{x(p.run_id):.1f},{y(p.accuracy):.1f}" for p in mine)
        parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{line}"/>')
        for p in mine:
            lo, hi = p.interval
            px = x(p.run_id)
            title = escape(
                f"{name} at {p.run_id}: {p.accuracy:.1%} ({lo:.1%}–{hi:.1%}), n={p.scored}"
            )
            parts.append(
                f"<g><title>{title}</title>"
                f'<line x1="{px:.1f}" y1="{y(lo):.1f}" x2="{px:.1f}" y2="{y(hi):.1f}" '
                f'stroke="{colour}" stroke-width="1.5"/>'
                f'<circle cx="{px:.1f}" cy="{y(p.accuracy):.1f}" r="3.5" fill="{colour}"/></g>'
            )
    parts.append("</svg>")
    return "".join(parts)


def html(runs: list[dict[str, Any]], found: list[Point], title: str) -> str:
    """The page: the plot, its legend, and the figures as a table."""
    run_ids = [r["run_id"] for r in runs]
    series = sorted({p.series for p in found})
    legend = "".join(
        f'<li><span style="color:{COLOURS[i % len(COLOURS)]}">■</span> {escape(name)}</li>'
        for i, name in enumerate(series)
    )
    meta = {r["run_id"]: r for r in runs}
    rows = "".join(
        "<tr>"
        f"<td>{escape(p.run_id)}</td><td>{escape(str(meta[p.run_id].get('created_at') or ''))}</td>"
        f"<td>{escape(str(meta[p.run_id].get('git_commit') or '')[:10])}"
        f"{' (dirty)' if meta[p.run_id].get('git_dirty') else ''}</td>"
        f"<td>{escape(p.series)}</td><td>{p.scored}</td><td>{p.accuracy:.1%}</td>"
        f"<td>{p.interval[0]:.1%} – {p.interval[1]:.1%}</td></tr>"
        for p in sorted(found, key=lambda p: (run_ids.index(p.run_id), p.series))
    )
    return (
        "<!doctype html><html lang=en><meta charset=utf-8>"
        f"<title>{escape(title)}</title>"
        "<style>body{font-family:system-ui,sans-serif;margin:2em}table{border-collapse:collapse}"
        "td,th{border:1px solid #ccc;padding:2px 6px;font-size:13px}ul{list-style:none}</style>"
        f"<h1>{escape(title)}</h1>"
        "<p>Accuracy (passed ÷ scored; errors are not scored) of each suite on each provider, "
        "per stored run, oldest first; bars are 95% Wilson intervals.</p>"
        f"{svg(run_ids, found)}<ul>{legend}</ul>"
        "<table><tr><th>Run</th><th>Created</th><th>Commit</th><th>Suite · provider</th>"
        f"<th>Scored</th><th>Accuracy</th><th>95% CI</th></tr>{rows}</table></html>\n"
    )
