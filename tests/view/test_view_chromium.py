"""`converse view` driven by a real headless Chromium (Debian's, through Playwright).

Reviews failures with the keyboard and sees the verdicts after a reload, compares two runs
and sees the prompt diff, writes a release report, checks that the pages fit 1,400 px, and
times a reviewer giving 40 failures a verdict by keyboard alone.
"""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from evals.bench.view import synthetic_run
from evals.report import load_reviews
from evals.runner import RunDir
from evals.view import create_app
from tests.view.conftest import BASE, RUN

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]  # fmt: skip
MANY = "20261104-090000-eeee"

pytestmark = pytest.mark.skipif(
    CHROMIUM is None and not os.environ.get("CI"),
    reason="chromium is not installed (CI installs it; there this test must run)",
)


@pytest.fixture
def server(runs: Path) -> Iterator[str]:
    """The viewer on a free loopback port, in a thread of this process."""
    import uvicorn

    synthetic_run(runs, MANY, 400, classifier="v2")  # 40 failures
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    app = create_app(runs, allowed_hosts=("127.0.0.1", "localhost"))
    served = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=served.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not served.started:
        assert time.monotonic() < deadline, "the viewer did not start"
        time.sleep(0.02)
    yield f"http://127.0.0.1:{port}"
    served.should_exit = True
    thread.join(10)


@pytest.fixture
def page(tmp_path: Path) -> Iterator[object]:
    if os.environ.get("CI"):  # CI installs the dev extra: there a missing Playwright fails
        import playwright.sync_api as playwright
    else:
        playwright = pytest.importorskip("playwright.sync_api")
    assert CHROMIUM is not None, "CI must install chromium (see .ci/run)"
    with playwright.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        tab = browser.new_page(viewport={"width": 1400, "height": 900})
        yield tab
        browser.close()


def fits(tab) -> None:
    widths = tab.evaluate(
        "[document.documentElement.scrollWidth, document.body.scrollWidth, window.innerWidth]"
    )
    assert widths[2] == 1400 and max(widths[:2]) <= widths[2], widths


def test_review_three_failures_by_keyboard_and_see_them_after_a_reload(server, page):
    page.goto(f"{server}/runs/{RUN}")
    fits(page)
    page.keyboard.press("r")
    page.wait_for_url("**/review")
    assert "0 of 4 reviewed" in page.inner_text("#progress")
    page.keyboard.press("/")
    page.keyboard.type("the expected intent is wrong")
    page.keyboard.press("Enter")  # leaves the note, records nothing
    assert "0 of 4 reviewed" in page.inner_text("#progress")
    with page.expect_navigation():
        page.keyboard.press("l")
    with page.expect_navigation():
        page.keyboard.press("m")
    with page.expect_navigation():
        page.keyboard.press("a")
    assert "3 of 4 reviewed" in page.inner_text("#progress")
    page.keyboard.press("k")
    page.wait_for_url("**/review?i=2")
    page.reload()
    assert "3 of 4 reviewed" in page.inner_text("#progress")
    assert "accepted" in page.inner_text("#current-verdict")
    page.goto(f"{server}/runs/{RUN}")
    verdicts = page.inner_text("#failure-table")
    assert [line.split("\t")[-1] for line in verdicts.splitlines()[1:]] == [
        "label error",
        "model error",
        "accepted",
        "not reviewed",
    ]
    reviews = load_reviews(RunDir.existing(RUN))
    notes = [reviews[("synthetic_classify", f"case-000{n}7", "synthetic")][-1].note for n in "012"]
    assert notes == ["label error: the expected intent is wrong", "model error", "accepted"]


def test_compare_two_runs_shows_the_prompt_diff(server, page):
    page.goto(f"{server}/compare")
    page.select_option("select[name=a]", RUN)
    page.select_option("select[name=b]", BASE)
    with page.expect_navigation():
        page.click("button[type=submit]")
    assert "Run " + RUN + " against baseline " + BASE in page.inner_text("h1")
    diff = page.locator("pre.diff")
    assert diff.count() == 1
    assert diff.locator("span.add").count() > 0 and diff.locator("span.del").count() > 0
    assert "McNemar exact p" in page.inner_text("#per-suite + .scroll")
    fits(page)


def test_write_a_release_report_from_the_browser(server, page, runs):
    page.goto(f"{server}/runs/{RUN}/review")
    for _ in range(4):
        with page.expect_navigation():
            page.keyboard.press("a")
    page.goto(f"{server}/runs/{RUN}/release")
    assert "Nothing:" in page.inner_text("main")
    page.fill("input[name=version]", "3.1.4")
    with page.expect_navigation():
        page.click("#release-form button")
    assert "Release report written" in page.inner_text("#written")
    assert (
        (runs / "releases" / "3.1.4.md").read_text(encoding="utf-8").startswith("# Release 3.1.4")
    )


def test_pages_fit_1400_px(server, page, tmp_path):
    for path in ("/", f"/runs/{MANY}", f"/runs/{MANY}/review", f"/compare?a={RUN}&b={BASE}"):
        page.goto(server + path)
        fits(page)
    page.goto(f"{server}/runs/{MANY}")
    shot = Path(os.environ.get("CONVERSE_VIEW_SHOTS", tmp_path)) / "run-page-1400.png"
    page.screenshot(path=str(shot), full_page=True)
    from PIL import Image

    with Image.open(shot) as image:
        assert image.width == 1400


def test_time_to_review_40_failures_by_keyboard(server, page):
    page.goto(f"{server}/runs/{MANY}/review")
    assert "0 of 40 reviewed" in page.inner_text("#progress")
    started = time.perf_counter()
    for i in range(40):
        with page.expect_navigation():
            page.keyboard.press("maa"[i % 3])
    elapsed = time.perf_counter() - started
    assert "40 of 40 reviewed" in page.inner_text("#progress")
    print(
        f"\nreviewed 40 failures by keyboard in {elapsed:.2f} s ({elapsed / 40 * 1000:.0f} ms each)"
    )
    assert len(load_reviews(RunDir.existing(MANY))) == 40
