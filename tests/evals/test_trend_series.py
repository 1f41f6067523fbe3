"""The trend page: one series per experiment, never pooled; markers as well as colours; the
run ids under the axis inside the picture."""

from __future__ import annotations

import re

from evals.runstore.trend import HEIGHT, WIDTH, html, points, style, svg


def _row(status="pass", **extra):
    row = {"suite": "s", "provider": "local-llm", "model": "qwen", "status": status,
           "prompt": {"classifier": "v3"}, "variant": "active"}  # fmt: skip
    return row | extra


def test_prompt_versions_models_samples_and_perturbations_are_series_of_their_own():
    rows = [
        _row(),
        _row("fail", prompt={"classifier": "v2"}),
        _row(model="smollm2"),
        _row("fail", sample={"n": 5, "of": 10, "seed": 1}),
        _row("fail", perturbation="typos"),
    ]
    found = points([{"run_id": "r1"}], {"r1": rows})
    names = {p.series: (p.passed, p.scored, p.marked) for p in found}
    variant = points([{"run_id": "r1"}], {"r1": [_row(variant="classifier=v3")]})
    assert variant[0].series == "s · local-llm · qwen · classifier=v3"  # not named twice
    assert names == {
        "s · local-llm · qwen · classifier=v3": (1, 1, False),
        "s · local-llm · qwen · classifier=v2": (0, 1, False),
        "s · local-llm · smollm2 · classifier=v3": (1, 1, False),
        "s · local-llm · qwen · classifier=v3 · sample 5 of 10, seed 1": (0, 1, True),
        "s · local-llm · qwen · classifier=v3 · perturbed: typos": (0, 1, True),
    }
    page = html([{"run_id": "r1"}], found, "t")
    assert page.count("not the suite as written") == 2 and 'stroke-dasharray="6 4"' in page


def test_twenty_series_have_twenty_distinct_colour_and_marker_pairs():
    assert len({style(i) for i in range(20)}) == 20
    rows = [_row(model=f"m{i}") for i in range(20)]
    plot = svg(["r1"], points([{"run_id": "r1"}], {"r1": rows}))
    for shape in ("<circle", "<rect", "<polygon", "<path"):
        assert shape in plot


def test_the_last_run_id_fits_inside_the_picture():
    ids = [f"20261128-1{i:05d}-abcd" for i in range(12)]
    plot = svg(ids, [])
    assert f'width="{WIDTH}"' in plot and f'height="{HEIGHT}"' in plot
    for x, y in re.findall(r"translate\(([\d.]+),([\d.]+)\) rotate\(45\)", plot):
        # a 10 px label slants down-right at 45°: about 6 px per character along the line
        reach = len(ids[0]) * 6 * 0.7071
        assert float(x) + reach <= WIDTH and float(y) + reach <= HEIGHT
