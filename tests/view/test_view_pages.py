"""Every page of `converse view` through Starlette's test client, on run folders in tmp."""

from __future__ import annotations

import json
import re

from evals.bench.view import synthetic_run
from evals.report import load_reviews
from evals.runner import RunDir
from tests.view.conftest import BASE, CONVO, RUN


def test_runs_page_lists_every_run_with_its_provenance(client, runs, convo_run):
    page = client.get("/")
    assert page.status_code == 200
    text = page.text
    for run_id in (BASE, RUN, CONVO):
        assert f'href="/runs/{run_id}"' in text
    assert "0123456789ab" in text and "classifier=v1" in text and "classifier=v2" in text
    assert "synthetic_classify" in text and 'class="badge dirty"' in text  # the convo run
    assert "1 template(s)</summary>classifier/v2" in text  # what each run's rows used
    assert text.index(CONVO) < text.index(RUN) < text.index(BASE)  # newest first


def test_runs_page_filters_by_suite_and_provider(client, runs, convo_run):
    by_suite = client.get("/", params={"suite": "convo"}).text
    assert CONVO in by_suite and f"/runs/{RUN}" not in by_suite
    by_provider = client.get("/", params={"provider": "synthetic"}).text
    assert f"/runs/{RUN}" in by_provider and f"/runs/{CONVO}" not in by_provider
    assert "No run matches" in client.get("/", params={"provider": "nobody"}).text


def test_run_page_puts_gates_and_failures_before_the_tables(client, runs):
    text = client.get(f"/runs/{RUN}").text
    order = [text.index(h) for h in ('id="gates"', 'id="failures"', 'id="summary"',
                                     'id="tags"', 'id="confusion"')]  # fmt: skip
    assert order == sorted(order)
    assert 'class="card pass"' in text and "accuracy: PASS" in text
    assert "(0 of 4 reviewed)" in text
    for case in ("case-00007", "case-00017", "case-00027", "case-00037"):
        assert case in text
    assert "95% CI" in text and "76.9% – 96.0%" in text  # Wilson interval of 36/40
    assert "tag-7" in text  # per-tag tables
    assert "expected \\ got" in text and "forget_about_me" in text  # confusion matrix


def test_case_page_of_a_single_message_shows_prompt_refs_and_answer(client, runs):
    page = client.get(
        f"/runs/{RUN}/case",
        params={"suite": "synthetic_classify", "case": "case-00007", "provider": "synthetic"},
    )
    assert page.status_code == 200
    assert "classifier/v2" in page.text and "synthetic message number 7" in page.text
    assert "remember_about_me" in page.text  # the answer the row keeps
    assert "intent remember_about_me != forget_about_me" in page.text
    assert f'href="/runs/{RUN}/review?i=0"' in page.text  # the first failure of four
    assert "Not reviewed. <a href" in page.text  # two sentences, not "reviewed.Review"


def test_case_page_of_a_conversation_shows_turns_memory_and_the_failed_check(client, convo_run):
    page = client.get(
        f"/runs/{CONVO}/case",
        params={"suite": "convo", "case": "refine-allergy", "provider": "local"},
    )
    assert page.status_code == 200
    text = page.text
    assert "+ #1 held: You&#39;re allergic to shellfish" in text  # memory change on turn 1
    assert "2 ✗" in text and "✗ memory has no held fact with [shrimp]" in text
    assert "no, just shrimp" in text and "persona/v1" in text


def test_review_saves_through_converse_reviews_file_and_moves_on(client, runs):
    page = client.get(f"/runs/{RUN}/review")
    assert "0 of 4 reviewed" in page.text and "case-00007" in page.text
    form = {"suite": "synthetic_classify", "case": "case-00007", "provider": "synthetic",
            "i": "0", "kind": "label error", "note": "v2 is right here"}  # fmt: skip
    saved = client.post(f"/runs/{RUN}/review", data=form, follow_redirects=False)
    assert saved.status_code == 303 and saved.headers["location"].endswith("review?i=1")
    after = client.get(saved.headers["location"]).text
    assert "1 of 4 reviewed" in after and "case-00017" in after
    (review,) = load_reviews(RunDir.existing(RUN))[
        ("synthetic_classify", "case-00007", "synthetic")
    ]
    assert (review.verdict, review.note, review.reviewer) == (
        "pass", "label error: v2 is right here", "rev-a")  # fmt: skip
    # a second verdict on the same case is kept beside the first, the newest counting
    client.post(f"/runs/{RUN}/review", data={**form, "kind": "model error", "note": ""})
    history = load_reviews(RunDir.existing(RUN))[("synthetic_classify", "case-00007", "synthetic")]
    assert [r.verdict for r in history] == ["pass", "fail"] and history[-1].note == "model error"
    run_page = client.get(f"/runs/{RUN}").text
    assert "(1 of 4 reviewed)" in run_page and 'class="badge model-error"' in run_page


def test_compare_shows_mcnemar_regressions_fixes_and_the_prompt_diff(client, runs):
    text = client.get("/compare", params={"a": RUN, "b": BASE}).text
    assert "McNemar exact p" in text and "1.0000" in text  # 4 regressions, 4 fixes
    regressions = text[text.index('id="regressions"') : text.index('id="fixes"')]
    assert "case-00007" in regressions and "case-00000" not in regressions
    fixes = text[text.index('id="fixes"') :]
    assert "case-00000" in fixes
    diff = text[text.index('id="prompts"') : text.index('id="per-tag"')]
    assert "classifier: v1" in diff and "v2" in diff
    assert re.search(r'<span class="add">\+', diff) and re.search(r'<span class="del">-', diff)


def test_compare_without_runs_offers_a_choice(client, runs):
    page = client.get("/compare")
    assert page.status_code == 200 and f'<option value="{RUN}"' in page.text


def test_release_lists_blockers_and_writes_only_when_every_failure_is_reviewed(client, runs, root):
    page = client.get(f"/runs/{RUN}/release").text
    assert "Failing cases without a verdict (4)" in page
    refused = client.post(f"/runs/{RUN}/release", data={"version": "1.2.0"})
    assert refused.status_code == 409 and "have no reviewer verdict" in refused.text
    assert not (root / "releases" / "1.2.0.md").exists()
    for i, case in enumerate(("case-00007", "case-00017", "case-00027", "case-00037")):
        form = {"suite": "synthetic_classify", "case": case, "provider": "synthetic",
                "i": str(i), "kind": "accepted", "note": ""}  # fmt: skip
        assert client.post(f"/runs/{RUN}/review", data=form).status_code == 200
    written = client.post(f"/runs/{RUN}/release", data={"version": "1.2.0"})
    assert written.status_code == 200 and "Release report written" in written.text
    report = (root / "releases" / "1.2.0.md").read_text(encoding="utf-8")
    assert report.startswith("# Release 1.2.0") and "accepted" in report
    again = client.post(f"/runs/{RUN}/release", data={"version": "1.2.0"})
    assert again.status_code == 409 and "already exists" in again.text
    assert (root / "releases" / "1.2.0.md").read_text(encoding="utf-8") == report


def test_the_review_file_written_is_the_one_converse_review_reads(client, runs):
    form = {"suite": "synthetic_classify", "case": "case-00017", "provider": "synthetic",
            "i": "1", "kind": "model error", "note": "wrong intent"}  # fmt: skip
    client.post(f"/runs/{RUN}/review", data=form)
    lines = (RunDir.existing(RUN).path / "reviews.jsonl").read_text().splitlines()
    assert [json.loads(line)["verdict"] for line in lines] == ["fail"]


def test_reviews_applied_to_a_kept_frame_equal_the_reports_own_frame(runs):
    from evals.report import add_review
    from evals.report.frame import frame
    from evals.view.run_data import with_reviews

    run = RunDir.existing(RUN)
    for verdict, note in (("pass", "first"), ("fail", "second")):
        add_review(run, "case-00007", verdict, note, suite="synthetic_classify")
    add_review(run, "case-00017", "pass", "only", suite="synthetic_classify")
    rows = run.latest_rows()
    reviews = load_reviews(run)
    assert with_reviews(frame(rows), reviews).equals(frame(rows, reviews))
    assert (frame(rows, reviews)["review_history"] != "").sum() == 1


def test_untracked_prompt_files_mark_a_run_dirty_and_are_named(client, runs, root):
    meta_path = root / "runs" / RUN / "run.json"
    meta = json.loads(meta_path.read_text())
    meta["git"] = {"commit": "c" * 40, "dirty": True, "untracked_prompts": ["prompts/x/v9.j2"]}
    meta_path.write_text(json.dumps(meta))
    listing = client.get("/").text
    assert "1 untracked prompt file(s)" in listing and 'title="prompts/x/v9.j2"' in listing
    assert "untracked prompt files: prompts/x/v9.j2" in client.get(f"/runs/{RUN}").text
    meta["git"] = "not an object"  # a damaged run.json is named on the page, not guessed at
    meta_path.write_text(json.dumps(meta))
    damaged = client.get(f"/runs/{RUN}")
    assert damaged.status_code == 422 and "field git" in damaged.text


def test_git_state_counts_untracked_prompt_files_as_dirty(monkeypatch):
    from evals.runner import gitinfo

    answers = {"rev-parse": "abc", "status": "", "ls-files": "prompts/persona/v9.j2\n"}
    monkeypatch.setattr(gitinfo, "_git", lambda *args: answers[args[0]])
    state = gitinfo.git_state.__wrapped__()
    assert state == {"commit": "abc", "dirty": True, "untracked_prompts": ["prompts/persona/v9.j2"]}
    answers["ls-files"] = ""
    assert gitinfo.git_state.__wrapped__() == {"commit": "abc", "dirty": False}


def test_review_starts_at_the_first_failure_without_a_verdict(client, runs):
    form = {"suite": "synthetic_classify", "case": "case-00007", "provider": "synthetic",
            "i": "0", "kind": "accepted", "note": ""}  # fmt: skip
    client.post(f"/runs/{RUN}/review", data=form)
    page = client.get(f"/runs/{RUN}/review").text
    assert "failure 2 of 4" in page and "case-00017" in page
    assert "failure 1 of 4" in client.get(f"/runs/{RUN}/review", params={"i": "0"}).text
    assert "failure 4 of 4" in client.get(f"/runs/{RUN}/review", params={"i": "99"}).text


def test_a_single_message_case_shows_the_system_prompt_it_was_sent() -> None:
    from evals.view.sent import sent_prompt
    from pipeline.prompting import default_library

    ref = default_library().source("classifier")[1]
    row = {
        "input": {"message": "yes", "project": "Weeknight cooking"},
        "prompts": [{"family": "classifier", "version": ref.version, "sha256": ref.sha256}],
    }
    what, text = sent_prompt(row)
    assert f"classifier/{ref.version}" in what and "Weeknight cooking" in text
    row["prompts"][0]["sha256"] = "0" * 64  # the template changed since the run
    what, text = sent_prompt(row)
    assert "has changed since the run" in text
    assert sent_prompt({"prompts": [{"family": "local_model/examples", "version": "x"}]}) is None


def _set_model(root, run_id, model):
    path = root / "runs" / run_id / "results.jsonl"
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    path.write_text("".join(json.dumps({**r, "model": model}) + "\n" for r in rows))


def test_runs_picker_and_compare_show_the_model_and_what_else_changed(client, runs, root):
    _set_model(root, BASE, "smollm2-360m")
    _set_model(root, RUN, "qwen2.5-1.5b")
    listed = client.get("/").text
    assert "synthetic: qwen2.5-1.5b" in listed and "synthetic: smollm2-360m" in listed
    picker = client.get("/compare").text
    assert f"{RUN} (synthetic_classify; synthetic: qwen2.5-1.5b)" in picker
    text = client.get("/compare", params={"a": RUN, "b": BASE}).text
    changed = text[text.index('id="what-changed"') : text.index('id="per-suite"')]
    assert "model: smollm2-360m → qwen2.5-1.5b" in changed
    assert "prompt: classifier=v1" in changed  # both changed: nothing is credited
    assert "model and prompt changed: cannot attribute" in changed
    allowed = client.get("/compare", params={"a": RUN, "b": BASE, "allow": "model"}).text
    assert 'value="model" checked' in allowed
    bad = client.get("/compare", params={"a": RUN, "b": BASE, "allow": "modle"})
    assert bad.status_code == 400 and "is not a dimension" in bad.text


def test_a_failed_gate_blocks_the_release_until_a_reason_is_typed(client, root):
    synthetic_run(root, RUN, 10, fail_every=2)  # 50% against a gate of 80%
    page = client.get(f"/runs/{RUN}/release").text
    assert 'id="blocked"' in page and 'name="override"' in page
    refused = client.post(f"/runs/{RUN}/release", data={"version": "2.0.0"})
    assert refused.status_code == 409 and "gate failed: synthetic_classify" in refused.text
    assert not (root / "releases" / "2.0.0.md").exists()
    form = {"version": "2.0.0", "override": "ships behind a flag; gate fixed in 2.0.1"}
    written = client.post(f"/runs/{RUN}/release", data=form)
    assert written.status_code == 200 and "Release report written" in written.text
    report = (root / "releases" / "2.0.0.md").read_text(encoding="utf-8")
    first = report.split("\n## ")[1]
    assert first.startswith("Released over blockers")
    assert "ships behind a flag; gate fixed in 2.0.1" in first and "- gate failed:" in first


FAILED_CASES = ("case-00007", "case-00017", "case-00027", "case-00037")


def _verdict(client, case, i, kind="accepted", note=""):
    form = {"suite": "synthetic_classify", "case": case, "provider": "synthetic",
            "i": str(i), "kind": kind, "note": note}  # fmt: skip
    return client.post(f"/runs/{RUN}/review", data=form, follow_redirects=False)


def test_the_last_verdict_leads_to_an_all_reviewed_page_and_keys_add_no_duplicates(client, runs):
    for i, case in enumerate(FAILED_CASES):
        moved = _verdict(client, case, i)
        assert moved.status_code == 303
    assert "?i=" not in moved.headers["location"]  # nothing left to review
    done = client.get(moved.headers["location"]).text
    assert 'id="all-reviewed"' in done and "4 of 4 reviewed" in done
    assert 'id="verdict-form"' not in done  # no key records anything here
    for _ in range(3):  # the same key again on the last case: one verdict, not four
        _verdict(client, FAILED_CASES[-1], 3)
    lines = (RunDir.existing(RUN).path / "reviews.jsonl").read_text().splitlines()
    assert len(lines) == 4
    changed = _verdict(client, FAILED_CASES[-1], 3, kind="model error", note="on second look")
    assert changed.status_code == 303
    page = client.get(f"/runs/{RUN}/review", params={"i": 3}).text
    assert "model error: on second look" in page and "Earlier: pass by rev-a" in page
    assert len(load_reviews(RunDir.existing(RUN))[("synthetic_classify", FAILED_CASES[-1],
                                                   "synthetic")]) == 2  # fmt: skip


def test_a_verdict_goes_on_to_the_next_failure_without_one(client, runs):
    _verdict(client, FAILED_CASES[2], 2)
    moved = _verdict(client, FAILED_CASES[3], 3)
    assert moved.headers["location"].endswith("?i=0")  # wraps to the first one still open


def test_a_note_longer_than_the_field_is_refused(client, runs):
    refused = _verdict(client, FAILED_CASES[0], 0, note="x" * 2001)
    assert refused.status_code == 400 and "the note is 2,001 characters" in refused.text
    assert not (RunDir.existing(RUN).path / "reviews.jsonl").exists()
