"""Hostile input to `converse view`: markup and path characters, damaged files, foreign forms.

Each gets one short page with a 4xx status, never a traceback, and nothing on disk changes.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from starlette.testclient import TestClient

from evals.runner.results import reports_dir
from evals.view import create_app
from evals.view.runs import reports_root
from tests.view.conftest import CONFIG, CONVO, RUN, conversation_row

MARKUP = '<script>alert("x")</script>'


def refused(page, status: int) -> str:
    assert page.status_code == status, page.text[:500]
    assert 'role="alert"' in page.text and "Traceback" not in page.text
    return page.text


@pytest.mark.parametrize(
    "path",
    [
        "/runs/%3Cscript%3Ealert(1)%3C%2Fscript%3E",
        "/runs/%2E%2E",
        "/runs/...",
        "/runs/..%2F..%2Fetc",
        "/runs/%2e%2e/release",
        "/runs/a%5Cb",
        "/runs/20990101-000000-0000",
    ],
)
def test_run_ids_with_markup_or_path_characters_are_refused(client, runs, path):
    text = refused(client.get(path), 404)
    assert "<script>alert" not in text


def test_a_run_id_with_markup_is_shown_escaped(client, runs):
    text = refused(client.get("/runs/" + MARKUP.replace("/", "%2F")), 404)
    assert MARKUP not in text


def test_case_ids_with_markup_are_escaped_everywhere(client, root):
    folder = root / "runs" / CONVO
    folder.mkdir(parents=True)
    meta = {"run_id": CONVO, "config": CONFIG}
    (folder / "run.json").write_text(json.dumps(meta), encoding="utf-8")
    row = conversation_row(CONVO, case_id=MARKUP + "/../../x")
    row["got"]["turns"][0]["message"] = MARKUP
    (folder / "results.jsonl").write_text(json.dumps(row) + "\n", encoding="utf-8")
    pages = [
        client.get(f"/runs/{CONVO}"),
        client.get(f"/runs/{CONVO}/review"),
        client.get(
            f"/runs/{CONVO}/case",
            params={"suite": "convo", "case": MARKUP + "/../../x", "provider": "local"},
        ),
    ]
    for page in pages:
        assert page.status_code == 200
        assert MARKUP not in page.text and "&lt;script&gt;" in page.text


def test_an_unknown_case_is_a_404(client, runs):
    page = client.get(f"/runs/{RUN}/case", params={"suite": "s", "case": "nope", "provider": "p"})
    refused(page, 404)
    refused(client.get(f"/runs/{RUN}/case"), 400)


def test_a_corrupt_run_folder_is_named_on_its_page_and_in_the_list(client, runs, root):
    bad = root / "runs" / "20261105-000000-dddd"
    bad.mkdir()
    (bad / "run.json").write_bytes(b"{not json")
    text = refused(client.get("/runs/20261105-000000-dddd"), 422)
    assert "cannot be read" in text
    listing = client.get("/")
    assert listing.status_code == 200 and "unreadable" in listing.text and RUN in listing.text
    assert (bad / "run.json").read_bytes() == b"{not json"


def test_a_run_without_rows_is_a_422(client, root):
    folder = root / "runs" / "20261106-000000-eeee"
    folder.mkdir(parents=True)
    (folder / "run.json").write_text(json.dumps({"config": CONFIG}), encoding="utf-8")
    assert "has no results yet" in refused(client.get("/runs/20261106-000000-eeee"), 422)


def test_a_reviews_file_that_is_not_json_lines_stops_reviewing_and_is_left_alone(
    client, runs, root
):
    reviews = root / "runs" / RUN / "reviews.jsonl"
    reviews.write_bytes(b"this is not json\n\xff\xfe\n")
    text = refused(client.get(f"/runs/{RUN}/review"), 409)
    assert "line 1 of reviews.jsonl" in text and "fix or move that file" in text
    form = {"suite": "synthetic_classify", "case": "case-00007", "provider": "synthetic",
            "i": "0", "kind": "accepted", "note": ""}  # fmt: skip
    refused(client.post(f"/runs/{RUN}/review", data=form), 409)
    assert reviews.read_bytes() == b"this is not json\n\xff\xfe\n"
    run_page = client.get(f"/runs/{RUN}")
    assert run_page.status_code == 200 and "line 1 of reviews.jsonl" in run_page.text


def test_bad_verdicts_and_notes_are_refused_and_not_recorded(client, runs, root):
    base = {"suite": "synthetic_classify", "case": "case-00007", "provider": "synthetic", "i": "0"}
    refused(client.post(f"/runs/{RUN}/review", data={**base, "kind": "lgtm"}), 400)
    bad_note = {**base, "kind": "accepted", "note": "bad \x00 byte"}
    refused(client.post(f"/runs/{RUN}/review", data=bad_note), 400)
    not_failed = {**base, "case": "case-00001", "kind": "accepted"}
    refused(client.post(f"/runs/{RUN}/review", data=not_failed), 404)
    refused(client.post(f"/runs/{RUN}/release", data={"version": "../../x"}), 400)
    assert not (root / "runs" / RUN / "reviews.jsonl").exists()
    assert not (root / "releases").exists()


def test_a_form_from_another_site_is_refused(client, runs, root):
    form = {"suite": "synthetic_classify", "case": "case-00007", "provider": "synthetic",
            "i": "0", "kind": "accepted", "note": ""}  # fmt: skip
    page = client.post(f"/runs/{RUN}/review", data=form, headers={"origin": "http://evil.example"})
    refused(page, 403)
    cross = client.post(f"/runs/{RUN}/review", data=form, headers={"sec-fetch-site": "cross-site"})
    refused(cross, 403)
    assert not (root / "runs" / RUN / "reviews.jsonl").exists()


def test_only_loopback_names_are_served_when_asked(root, runs):
    guarded = TestClient(create_app(root, allowed_hosts=("127.0.0.1", "localhost")))
    refused(guarded.get("/", headers={"host": "rebound.example:8766"}), 403)
    assert guarded.get("/", headers={"host": "localhost:8766"}).status_code == 200


def test_unknown_pages_and_methods_are_short_pages(client):
    refused(client.get("/nowhere"), 404)
    refused(client.delete("/"), 405)


def test_the_viewer_finds_runs_where_the_runner_writes_them(root):
    assert reports_root() == reports_dir()


def test_converse_view_refuses_a_remote_address_without_allow_remote():
    done = subprocess.run(
        [sys.executable, "-c", "from evals.cli import main; main()", "view", "--host", "0.0.0.0"],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 2
    assert "0.0.0.0 is not a loopback address" in done.stderr and "--allow-remote" in done.stderr


def test_the_view_command_loads_no_web_stack_or_pandas_until_it_serves():
    probe = (
        "import sys, evals.cli, evals.view.command; "
        "print(sorted(m for m in ('pandas', 'starlette', 'uvicorn', 'evals.runner') "
        "if m in sys.modules))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True
    )
    assert done.stdout.strip() == "[]"


def test_converse_view_serves_loopback_names_only(root, runs):
    import http.client
    import os
    import socket
    import time

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "CONVERSE_REPORTS_DIR": str(root)}
    argv = [sys.executable, "-c", "from evals.cli import main; main()", "view", "--port", str(port)]
    server = subprocess.Popen(argv, env=env, stderr=subprocess.PIPE)
    try:

        def get(host: str) -> int:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            conn.request("GET", "/", headers={"Host": host})
            status = conn.getresponse().status
            conn.close()
            return status

        deadline = time.monotonic() + 60
        while True:
            try:
                status = get(f"127.0.0.1:{port}")
                break
            except OSError:
                assert server.poll() is None and time.monotonic() < deadline, "did not start"
                time.sleep(0.05)
        assert status == 200
        assert get(f"localhost:{port}") == 200
        assert get(f"rebound.example:{port}") == 403
    finally:
        server.terminate()
        server.wait(10)
    assert f"http://127.0.0.1:{port}/" in server.stderr.read().decode()
