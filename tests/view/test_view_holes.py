"""The viewer's remaining holes (issue 37): malformed rows, crafted commits, framing, Host
names, Markdown reports and the listening port. Each is refused or shown as text, never a 500
or a file written."""

from __future__ import annotations

import http.client
import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from evals.view import create_app
from evals.view.app import host_name
from evals.view.command import served_hosts
from tests.view.conftest import BASE, RUN

# What a hand edit or another tool could leave in a row's "prompts"
MALFORMED_PROMPTS: list[Any] = [
    5,
    "classifier/v1",
    {"family": "classifier"},
    [{"family": "classifier", "version": 2, "sha256": 7}],
    [{"family": ["classifier"], "version": {"v": 1}, "sha256": None}],
    [None, 3, "x", {"family": "persona", "version": "v1", "sha256": ["ab"]}],
]


def _rewrite_rows(folder: Path, prompts: Any) -> list[dict[str, Any]]:
    path = folder / "results.jsonl"
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    for row in rows:
        row["prompts"] = prompts
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return rows


@pytest.mark.parametrize("prompts", MALFORMED_PROMPTS, ids=range(len(MALFORMED_PROMPTS)))
def test_rows_with_malformed_prompts_are_shown_and_reviewable(client, runs, root, prompts):
    rows = _rewrite_rows(root / "runs" / RUN, prompts)
    failed = next(r for r in rows if r["status"] == "fail")
    case = {"suite": failed["suite"], "case": failed["case_id"], "provider": failed["provider"]}
    pages = [
        client.get("/"),
        client.get(f"/runs/{RUN}"),
        client.get(f"/runs/{RUN}/case", params=case),
        client.get(f"/runs/{RUN}/review"),
        client.get("/compare", params={"a": RUN, "b": BASE}),
        client.get(f"/runs/{RUN}/release"),
    ]
    assert [p.status_code for p in pages] == [200] * len(pages), [p.text[:300] for p in pages]
    verdict = client.post(
        f"/runs/{RUN}/review", data={**case, "i": "0", "kind": "accepted", "note": "ok"},
        follow_redirects=False,
    )  # fmt: skip
    assert verdict.status_code == 303
    assert (root / "runs" / RUN / "reviews.jsonl").read_text(encoding="utf-8").count("\n") == 1


def test_a_crafted_commit_never_reaches_git_as_an_option(client, runs, root, monkeypatch):
    from evals.view import prompt_diff

    calls: list[list[str]] = []
    real_run = subprocess.run

    def spy(argv: list[str], **kwargs: Any) -> Any:
        calls.append(list(argv))
        return real_run(argv, **kwargs)

    monkeypatch.setattr(prompt_diff.subprocess, "run", spy)
    for run_id, commit in ((RUN, "--output=zz"), (BASE, "-o/tmp/zz")):
        meta_path = root / "runs" / run_id / "run.json"
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
        meta["git"]["commit"] = commit
        meta_path.write_text(json.dumps(meta), encoding="utf-8")
        # a template hash nothing on disk has, so its text is looked for in git
        _rewrite_rows(root / "runs" / run_id, [{"family": "classifier", "version": "v1",
                                                 "sha256": run_id[-1] * 64}])  # fmt: skip
    page = client.get("/compare", params={"a": RUN, "b": BASE})
    assert page.status_code == 200
    assert not [argv for argv in calls if any(a.startswith(("--output", "-o")) for a in argv)]
    found = prompt_diff.template_text("classifier", ("v1", "0" * 64), "0123456789ab")
    assert found is None
    assert calls[-1][:3] == ["git", "show", "--end-of-options"]
    assert calls[-1][3] == "0123456789ab:prompts/classifier/v1.j2"


def test_every_page_forbids_framing(client, runs):
    for path in ("/", f"/runs/{RUN}", f"/runs/{RUN}/review", "/nowhere"):
        page = client.get(path)
        assert page.headers["content-security-policy"] == "frame-ancestors 'none'"
        assert page.headers["x-frame-options"] == "DENY"
    refused = client.get("/", headers={"host": "rebound.example"})
    assert refused.headers["x-frame-options"] == "DENY"


@pytest.mark.parametrize(
    ("header", "name"),
    [("[::1]", "::1"), ("[::1]:8766", "::1"), ("::1", "::1"), ("localhost:8766", "localhost"),
     ("127.0.0.1", "127.0.0.1"), ("Rebound.Example:80", "rebound.example")],
)  # fmt: skip
def test_host_names_are_read_with_and_without_a_port(header, name):
    assert host_name(header) == name


def test_ipv6_loopback_without_a_port_is_served(root, runs):
    guarded = TestClient(create_app(root, allowed_hosts=served_hosts("127.0.0.1", [])))
    assert guarded.get("/", headers={"host": "[::1]"}).status_code == 200
    assert guarded.get("/", headers={"host": "[::1]:8766"}).status_code == 200


def test_allow_remote_keeps_the_host_check_unless_names_are_given(root, runs):
    """`--host 0.0.0.0 --allow-remote` still refuses a rebinding page's own name; the names
    given with --allowed-host are served, and '*' serves any."""
    wide = TestClient(create_app(root, allowed_hosts=served_hosts("0.0.0.0", [])))
    assert wide.get("/", headers={"host": "rebound.example:8766"}).status_code == 403
    assert "--allowed-host" in wide.get("/", headers={"host": "rebound.example"}).text
    assert wide.get("/", headers={"host": "localhost:8766"}).status_code == 200
    named = TestClient(create_app(root, allowed_hosts=served_hosts("0.0.0.0", ["box.lan"])))
    assert named.get("/", headers={"host": "box.lan:8766"}).status_code == 200
    assert named.get("/", headers={"host": "rebound.example"}).status_code == 403
    assert served_hosts("0.0.0.0", ["*"]) is None


def _view(root: Path, *args: str) -> subprocess.Popen[str]:
    env = {**os.environ, "CONVERSE_REPORTS_DIR": str(root)}
    argv = [sys.executable, "-c", "from evals.cli import main; main()", "view", *args]
    return subprocess.Popen(argv, env=env, stderr=subprocess.PIPE, text=True)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _status(port: int, host: str) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("GET", "/", headers={"Host": host})
    status = conn.getresponse().status
    conn.close()
    return status


def test_allow_remote_on_loopback_still_refuses_a_foreign_host(root, runs):
    port = _free_port()
    server = _view(root, "--port", str(port), "--allow-remote")
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                status = _status(port, f"127.0.0.1:{port}")
                break
            except OSError:
                assert server.poll() is None and time.monotonic() < deadline, "did not start"
                time.sleep(0.05)
        assert status == 200
        assert _status(port, f"rebound.example:{port}") == 403
        assert _status(port, "[::1]") == 200
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_a_busy_port_is_one_line(root):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        server = _view(root, "--port", str(port))
        _, err = server.communicate(timeout=60)
    assert server.returncode == 2
    assert err.strip().count("\n") == 0, err
    assert f"cannot listen on 127.0.0.1:{port}" in err and "--port" in err
    assert "Errno" not in err and "http://" not in err


def test_markdown_reports_show_markup_from_ids_notes_and_answers_as_text(root):
    """report.md and the release .md (written by `converse report` and the Release page
    alike) carry a case id, a reviewer's note and a model's answer as text, never as HTML."""
    from evals.report import add_review, build_report, write_release
    from evals.runner.results import RunDir
    from tests.view.conftest import CONFIG, CONVO, conversation_row

    folder = root / "runs" / CONVO
    folder.mkdir(parents=True)
    meta = {"run_id": CONVO, "config": CONFIG, "git": {"commit": "f" * 40, "dirty": False}}
    (folder / "run.json").write_text(json.dumps(meta), encoding="utf-8")
    row = conversation_row(CONVO, case_id="<img src=x onerror=alert(1)>")
    row["got"]["turns"][1]["reply"] = "<script>alert(2)</script>"
    row["why"] = "turn 2: <b onmouseover=alert(3)>"
    (folder / "results.jsonl").write_text(json.dumps(row) + "\n", encoding="utf-8")
    add_review(RunDir(CONVO, root), "convo/<img src=x onerror=alert(1)>", "fail",
               "<script>alert(4)</script> & more", provider="local")  # fmt: skip
    build_report(CONVO, root=root)
    release = write_release(CONVO, "9.9.9", root=root, out_dir=root / "releases")
    for written in (folder / "report.md", release):
        text = written.read_text(encoding="utf-8")
        assert "&lt;img src=x onerror=alert(1)>" in text, written
        for raw in ("<img", "<script", "<b "):
            assert raw not in text, (written, raw)


@pytest.mark.parametrize(
    ("field", "value"),
    [("checks", 5), ("checks", [{"name": "memory", "turn": "x"}]), ("model", [1]),
     ("provider_label", {"a": 1}), ("tags", [{"a": 1}]), ("expected", [1]),
     ("expected", [{"turn": 2}]), ("why", 5), ("prompts", 5)],
)  # fmt: skip
def test_rows_with_fields_of_the_wrong_type_never_500(client, runs, root, field, value):
    """Every page that reads the rows: a row of the wrong shape is skipped with a warning
    (as `converse report` skips it) or shown, never a 500."""
    path = root / "runs" / RUN / "results.jsonl"
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    for row in rows:
        row[field] = value
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    failed = next(r for r in rows if r["status"] == "fail")
    case = {"suite": failed["suite"], "case": failed["case_id"], "provider": failed["provider"]}
    for page, params in [("/", None), (f"/runs/{RUN}", None), (f"/runs/{RUN}/case", case),
                         (f"/runs/{RUN}/review", None), (f"/runs/{RUN}/release", None),
                         ("/compare", {"a": RUN, "b": BASE})]:  # fmt: skip
        status = client.get(page, params=params).status_code
        assert status < 500, (page, status)
