"""The HTML report opened in a real headless Chromium: tables, heatmaps, and a page that fits.

The layout test builds a report as wide and as long as a real run's (13 intents, a long
provider label, long unbroken input, a hundred tags) and checks at 1,400 px what a reviewer
sees: nothing runs off the right edge, and the failures start within two screen heights.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from evals.dataset import load_suite
from evals.report import build_report
from evals.runner import EvalOptions, RunConfig, run_eval
from pipeline.intents.taxonomy import INTENTS
from pipeline.reading import ClassifiedIntent
from tests.evals.conftest import stand_in

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")

pytestmark = pytest.mark.skipif(
    CHROMIUM is None and not os.environ.get("CI"),
    reason="chromium is not installed (CI installs it; there this test must run)",
)

# Run after the page has loaded: what the browser actually laid out and decoded.
PROBE = """<script>
window.addEventListener("load", () => {
  const out = document.createElement("pre");
  out.id = "probe";
  const tables = [...document.querySelectorAll("table")];
  out.textContent = JSON.stringify({
    tables: tables.length,
    laidOut: tables.filter(t => t.getBoundingClientRect().width > 100).length,
    rows: document.querySelectorAll("tbody tr").length,
    images: [...document.images].map(i => ({ok: i.complete, w: i.naturalWidth, h: i.naturalHeight,
                                             shown: i.getBoundingClientRect().width})),
    headings: [...document.querySelectorAll("h2")].map(h => h.textContent),
  });
  document.body.appendChild(out);
});
</script>"""


def read_png(path: Path) -> np.ndarray:
    """A screenshot as RGB floats in 0..1 (Pillow: a dev tool, not a runtime dependency)."""
    from PIL import Image

    with Image.open(path) as image:
        return np.asarray(image.convert("RGB"), dtype=np.float32) / 255


def chromium(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    assert CHROMIUM is not None, "CI must install chromium (see .ci/run)"
    flags = [
        "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run",
        f"--user-data-dir={tmp_path / 'chromium-profile'}",
    ]  # fmt: skip
    return subprocess.run(
        [CHROMIUM, *flags, *args], capture_output=True, text=True, timeout=120, check=True
    )


@pytest.fixture
def report_html(classify_suite, script_file) -> Path:
    cfg = RunConfig([load_suite(classify_suite)], ["scripted"], script=script_file)
    run_eval(EvalOptions(cfg, run_id="html", progress=False))
    return build_report("html").html


def test_tables_and_heatmap_render(report_html, tmp_path):
    page = tmp_path / "probe.html"
    page.write_text(report_html.read_text().replace("</body>", PROBE + "</body>"), encoding="utf-8")
    dom = chromium(tmp_path, "--dump-dom", page.as_uri()).stdout
    found = re.search(r'<pre id="probe">(.*?)</pre>', dom, re.S)
    assert found, dom[:2000]
    probe = json.loads(found.group(1).replace("&quot;", '"').replace("&amp;", "&"))
    assert probe["tables"] >= 5 and probe["laidOut"] == probe["tables"]
    assert probe["rows"] >= 8
    assert probe["headings"][:3] == ["Gates", "Summary", "Failed cases"]
    # the reliability diagram (the scripted answers say confidence 1.0) and the heatmap
    assert len(probe["images"]) == 2
    for image in probe["images"]:
        assert image["ok"] and image["w"] > 100 and image["h"] > 100 and image["shown"] > 100


def test_screenshot_is_not_blank(report_html, tmp_path):
    shot = tmp_path / "report.png"
    chromium(tmp_path, f"--screenshot={shot}", "--window-size=1280,1600", report_html.as_uri())
    pixels = read_png(shot)
    assert pixels.shape[0] >= 1000 and pixels.shape[1] >= 1000
    rgb = pixels[..., :3]
    ink = (rgb < 0.9).any(axis=-1).mean()  # share of pixels that are not (near) white
    colour = (abs(rgb[..., 0] - rgb[..., 2]) > 0.15).mean()  # the blue heatmap cells, say
    assert ink > 0.02, ink
    assert colour > 0.001, colour


# What a reviewer's screen shows first; measured by the browser after layout.
LAYOUT_PROBE = """<script>
window.addEventListener("load", () => {
  const out = document.createElement("pre");
  out.id = "probe";
  const failures = document.getElementById("failed-cases");
  const folded = {
    failuresTop: failures.getBoundingClientRect().top + window.scrollY,
    closedDetails: document.querySelectorAll("details:not([open])").length,
    pageWidth: document.documentElement.scrollWidth,
  };
  // a reviewer opens the folds: even then nothing may run off the page
  document.querySelectorAll("details").forEach(d => { d.open = true; });
  out.textContent = JSON.stringify({
    ...folded,
    openPageWidth: document.documentElement.scrollWidth,
    openBodyWidth: document.body.scrollWidth,
    viewWidth: window.innerWidth,
    viewHeight: window.innerHeight,
    wideTables: [...document.querySelectorAll(".scroll")].filter(
      d => d.scrollWidth > d.clientWidth).length,
  });
  document.body.appendChild(out);
});
</script>"""

LONG_LABEL = (
    "claude (claude-sonnet-4-5 classifier and responder, prompt classifier v3, replayed from "
    "synthetic cassettes recorded on 2026-11-20 — not a live model)"
)


class WrongByOne:
    """Answers the next intent in the taxonomy for every third case: a 13 x 13 confusion."""

    name = "wide"
    model = "wide-fixture"

    def __init__(self, answers: dict[str, str]) -> None:
        self.answers = answers

    def classify(self, request):
        intent = self.answers[request.message]
        params = {"knowledge": "x", "knowledge_description": "x"}
        return ClassifiedIntent(intent=intent, params=params, provider=self.name, model=self.model)

    def respond(self, request):
        raise NotImplementedError


@pytest.fixture
def wide_report(make_suite) -> Path:
    intents = list(INTENTS)
    cases, answers = [], {}
    for i in range(len(intents) * 8):
        expected = intents[i % len(intents)]
        message = f"case {i}: " + "unbroken" * 30 + " and a long sentence that wraps " * 4
        answers[message] = intents[(i + 1) % len(intents)] if i % 3 == 0 else expected
        cases.append({"id": f"a-rather-long-case-identifier-{i:03d}", "message": message,
                      "tags": [f"tag-{i}", "common", f"group-{i % 7}"], "project": "P" * 60,
                      "expect": {"intent": expected}})  # fmt: skip
    suite = load_suite(make_suite({"name": "wide_suite", "target": "classify", "cases": cases}))
    cfg = RunConfig([suite], ["scripted"], use_cache=False)
    registry = stand_in(WrongByOne(answers), LONG_LABEL)
    run_eval(EvalOptions(cfg, run_id="wide", progress=False, registry=registry))
    return build_report("wide").html


def test_the_page_fits_1400_px_and_failures_come_within_two_screens(wide_report, tmp_path):
    page = tmp_path / "layout.html"
    page.write_text(
        wide_report.read_text().replace("</body>", LAYOUT_PROBE + "</body>"), encoding="utf-8"
    )
    dom = chromium(tmp_path, "--window-size=1400,900", "--dump-dom", page.as_uri()).stdout
    found = re.search(r'<pre id="probe">(.*?)</pre>', dom, re.S)
    assert found, dom[:2000]
    probe = json.loads(found.group(1).replace("&quot;", '"').replace("&amp;", "&"))
    assert probe["viewWidth"] == 1400, probe
    for width in ("pageWidth", "openPageWidth", "openBodyWidth"):  # no horizontal overflow
        assert probe[width] <= probe["viewWidth"], probe
    assert probe["failuresTop"] < 2 * probe["viewHeight"], probe
    assert probe["wideTables"] >= 1, probe  # the 13 x 13 counts scroll inside their box
    assert probe["closedDetails"] >= 3, probe  # per-tag groups and counts start folded

    shot = tmp_path / "wide.png"
    chromium(tmp_path, f"--screenshot={shot}", "--window-size=1400,1800", wide_report.as_uri())
    pixels = read_png(shot)
    assert pixels.shape[1] == 1400
    rgb = pixels[..., :3]
    assert (rgb < 0.9).any(axis=-1).mean() > 0.02  # the screen shows content, not a blank page
