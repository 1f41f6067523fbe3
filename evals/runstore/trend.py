"""The trend report: accuracy per suite and provider across stored runs, with 95% intervals,
as one HTML page with an SVG plot drawn here (no plotting library).

Accuracy is passed / (rows − errors) over each run's latest row per case, the interval Wilson's
(evals/stats.py), as in a run's own report. Runs go left to right by creation time. A series
is one experiment: (suite, provider, model, prompt versions, variant), and a sample or a
perturbation is a series of its own, drawn dashed; nothing is pooled across them. Each series
has a colour and a marker shape (10 × 7 distinct pairs), a line, and a bar for its interval
at every run that has it.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from typing import Any

from evals.stats import wilson

WIDTH, HEIGHT = 880, 360
# The run ids under the axis slant down to the right: the right margin holds the last one.
LEFT, RIGHT, TOP, BOTTOM = 56, 130, 20, 130
COLOURS = (
    "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e",
    "#17becf", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22",
)  # fmt: skip
# 7 shapes against 10 colours: the pairs repeat only after 70 series.
MARKERS = ("circle", "square", "triangle", "diamond", "down", "plus", "cross")


@dataclass(frozen=True)
class Point:
    """One series at one run."""

    run_id: str
    series: str
    passed: int
    scored: int
    # a sample or a perturbation: not the whole suite as written (drawn dashed)
    marked: bool = False

    @property
    def accuracy(self) -> float:
        """passed / scored."""
        return self.passed / self.scored

    @property
    def interval(self) -> tuple[float, float]:
        """Wilson 95%."""
        return wilson(self.passed, self.scored)


def series_of(row: dict[str, Any]) -> tuple[str, bool]:
    """The series a row belongs to, and whether it is a sample or a perturbation.

    'intent_boundaries · local-llm · qwen2.5-1.5b · classifier=v3' (+ ' [variant]' for a
    `--prompt` variant, ' · sample 40 of 218, seed 3', ' · perturbed: keyboard_typos').
    """
    prompt = row.get("prompt")
    versions = (
        ", ".join(f"{k}={v}" for k, v in sorted(prompt.items())) if isinstance(prompt, dict) else ""
    )
    parts = [str(row["suite"]), str(row["provider"]), str(row.get("model") or "no model")]
    if versions:
        parts.append(versions)
    name = " · ".join(parts)
    variant = row.get("variant")
    if variant and variant != "active" and any(v not in versions for v in variant.split(",")):
        name += f" [{variant}]"  # a variant its prompt versions do not already name
    sample = row.get("sample")
    if isinstance(sample, dict):
        name += f" · sample {sample.get('n')} of {sample.get('of')}, seed {sample.get('seed')}"
    if row.get("perturbation"):
        name += f" · perturbed: {row['perturbation']}"
    return name, isinstance(sample, dict) or bool(row.get("perturbation"))


def points(
    runs: list[dict[str, Any]], rows: dict[str, list[dict[str, Any]]], suite: str | None = None
) -> list[Point]:
    """Every (run, series) with at least one scored row."""
    found: list[Point] = []
    for run in runs:
        groups: dict[tuple[str, bool], list[int]] = {}
        for row in rows.get(run["run_id"], []):
            if suite is not None and row["suite"] != suite:
                continue
            counts = groups.setdefault(series_of(row), [0, 0])
            if row["status"] != "error":
                counts[1] += 1
                counts[0] += row["status"] == "pass"
        found += [
            Point(run["run_id"], name, p, s, marked)
            for (name, marked), (p, s) in sorted(groups.items())
            if s
        ]
    return found


def style(index: int) -> tuple[str, str]:
    """The colour and marker of the index-th series."""
    return COLOURS[index % len(COLOURS)], MARKERS[index % len(MARKERS)]


def marker(shape: str, cx: float, cy: float, colour: str, r: float = 4.0) -> str:
    """An SVG shape centred on (cx, cy)."""
    if shape == "circle":
        return f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r:.1f}" fill="{colour}"/>'
    if shape == "square":
        return (
            f'<rect x="{cx - r:.1f}" y="{cy - r:.1f}" width="{2 * r:.1f}" height="{2 * r:.1f}" '
            f'fill="{colour}"/>'
        )
    if shape in ("plus", "cross"):
        d = r if shape == "plus" else r * 0.8
        lines = (
            ((cx - d, cy), (cx + d, cy), (cx, cy - d), (cx, cy + d))
            if shape == "plus"
            else ((cx - d, cy - d), (cx + d, cy + d), (cx - d, cy + d), (cx + d, cy - d))
        )
        (a, b, c, e) = lines
        return (
            f'<path d="M{a[0]:.1f},{a[1]:.1f}L{b[0]:.1f},{b[1]:.1f}M{c[0]:.1f},{c[1]:.1f}'
            f'L{e[0]:.1f},{e[1]:.1f}" stroke="{colour}" stroke-width="2.5"/>'
        )
    corners = {
        "triangle": ((0, -1.2), (1.1, 0.8), (-1.1, 0.8)),
        "down": ((0, 1.2), (1.1, -0.8), (-1.1, -0.8)),
        "diamond": ((0, -1.3), (1.1, 0), (0, 1.3), (-1.1, 0)),
    }[shape]
    listed = " ".join(f"{cx + dx * r:.1f},{cy + dy * r:.1f}" for dx, dy in corners)
    return f'<polygon points="{listed}" fill="{colour}"/>'


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
        colour, shape = style(i)
        mine = sorted((p for p in found if p.series == name), key=lambda p: run_ids.index(p.run_id))
        line = " ".join(f"{x(p.run_id):.1f},{y(p.accuracy):.1f}" for p in mine)
        dash = ' stroke-dasharray="6 4"' if mine and mine[0].marked else ""
        parts.append(
            f'<polyline fill="none" stroke="{colour}" stroke-width="2"{dash} points="{line}"/>'
        )
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
                f"{marker(shape, px, y(p.accuracy), colour)}</g>"
            )
    parts.append("</svg>")
    return "".join(parts)


def _legend_item(index: int, name: str, marked: bool) -> str:
    colour, shape = style(index)
    dash = ' stroke-dasharray="6 4"' if marked else ""
    note = " <em>(sample or perturbed: not the suite as written)</em>" if marked else ""
    return (
        '<li><svg width="34" height="12" aria-hidden="true">'
        f'<line x1="0" y1="6" x2="34" y2="6" stroke="{colour}" stroke-width="2"{dash}/>'
        f"{marker(shape, 17, 6, colour)}</svg> {escape(name)}{note}</li>"
    )


def html(runs: list[dict[str, Any]], found: list[Point], title: str) -> str:
    """The page: the plot, its legend, and the figures as a table."""
    run_ids = [r["run_id"] for r in runs]
    series = sorted({p.series for p in found})
    marked = {p.series for p in found if p.marked}
    legend = "".join(_legend_item(i, name, name in marked) for i, name in enumerate(series))
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
        "<p>Accuracy (passed ÷ scored; errors are not scored) per series — suite · provider · "
        "model · prompt versions, a sample or a perturbation apart and dashed — per stored run, "
        "oldest first; bars are 95% Wilson intervals.</p>"
        f"{svg(run_ids, found)}<ul>{legend}</ul>"
        "<table><tr><th>Run</th><th>Created</th><th>Commit</th><th>Series</th>"
        f"<th>Scored</th><th>Accuracy</th><th>95% CI</th></tr>{rows}</table></html>\n"
    )
