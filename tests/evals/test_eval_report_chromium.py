"""The HTML report opened in a real headless Chromium: the tables and the heatmap render."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from evals.dataset import load_suite
from evals.report import build_report
from evals.runner import RunConfig, run_eval

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
    run_eval(cfg, run_id="html", progress=False)
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
    assert probe["headings"][:2] == ["Run", "Summary"]
    (heatmap,) = probe["images"]
    assert heatmap["ok"] and heatmap["w"] > 100 and heatmap["h"] > 100 and heatmap["shown"] > 100


def test_screenshot_is_not_blank(report_html, tmp_path):
    shot = tmp_path / "report.png"
    chromium(tmp_path, f"--screenshot={shot}", "--window-size=1280,1600", report_html.as_uri())
    import matplotlib.image

    pixels = matplotlib.image.imread(shot)
    assert pixels.shape[0] >= 1000 and pixels.shape[1] >= 1000
    rgb = pixels[..., :3]
    ink = (rgb < 0.9).any(axis=-1).mean()  # share of pixels that are not (near) white
    colour = (abs(rgb[..., 0] - rgb[..., 2]) > 0.15).mean()  # the blue heatmap cells, say
    assert ink > 0.02, ink
    assert colour > 0.001, colour
