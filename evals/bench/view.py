"""`converse bench view`: how soon `converse view` serves its first page, and how long the
server takes to build the page of a run with 2,000 rows.

Everything runs on a synthetic run folder in a temporary directory (rows written by
`synthetic_run`, not by a model): classify cases on a made-up provider, a tenth of them
failing, with tags and prompt references. Start-up is timed from spawning the process to
the first 200 from `/`; page times are the server's own (the `x-render-ms` header), so
the network and the client are not in them.
"""

from __future__ import annotations

import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from evals.bench.output import percentile
from pipeline.config import PROJECT_ROOT
from pipeline.errors import ConverseError

_CONVERSE = "import sys; from evals.cli import main; sys.argv[0] = 'converse'; main()"
INTENTS = ("remember_about_me", "add_knowledge", "general_conversation", "forget_about_me")


def _sha(family: str, version: str) -> str:
    try:
        from pipeline.prompting import default_library

        return default_library().source(family, version)[1].sha256
    except ConverseError:
        return "0" * 64


def synthetic_run(
    root: Path,
    run_id: str,
    rows: int,
    *,
    fail_every: int = 10,
    suite: str = "synthetic_classify",
    classifier: str = "v1",
    offset: int = 0,
) -> Path:
    """A run folder under root/runs with `rows` classify rows (every `fail_every`-th fails).

    `offset` shifts which cases fail, so two runs differ case by case.
    """
    folder = root / "runs" / run_id
    folder.mkdir(parents=True, exist_ok=True)
    meta = {
        "run_id": run_id,
        "created_at": "2026-11-26T12:00:00+00:00",
        "finished_at": "2026-11-26T12:01:00+00:00",
        "git": {"commit": "0123456789abcdef0123456789abcdef01234567", "dirty": False},
        "config": {
            "suites": [suite],
            "providers": ["synthetic"],
            "variants": [{}],
            "epochs": 1,
            "concurrency": 1,
            "use_cache": False,
        },
        "suite_info": [
            {"name": suite, "target": "classify", "cases": rows, "gate": {"accuracy": 0.8}}
        ],
        "gates_passed": True,
    }
    (folder / "run.json").write_text(json.dumps(meta), encoding="utf-8")
    sha = _sha("classifier", classifier)
    with (folder / "results.jsonl").open("w", encoding="utf-8") as out:
        for i in range(rows):
            expected = INTENTS[i % len(INTENTS)]
            failed = (i + offset) % fail_every == 0
            got = INTENTS[(i + 1) % len(INTENTS)] if failed else expected
            row = {
                "run_id": run_id,
                "suite": suite,
                "target": "classify",
                "case_id": f"case-{i:05d}",
                "tags": [f"tag-{i % 23}", "synthetic"],
                "input": {"message": f"synthetic message number {i}"},
                "provider": "synthetic",
                "provider_label": "synthetic (written by the bench, not a model)",
                "model": "none",
                "variant": "active",
                "prompt": {"classifier": classifier},
                "prompts": [{"family": "classifier", "version": classifier, "sha256": sha}],
                "epoch": 0,
                "expected": {"intent": expected},
                "got": {"intent": got, "params": {}},
                "status": "fail" if failed else "pass",
                "pass": not failed,
                "error": None,
                "why": f"intent {got} != {expected}" if failed else "",
                "checks": [
                    {"name": "intent", "expected": expected, "got": got, "pass": not failed}
                ],
                "latency_ms": 1.0 + (i % 7),
                "tokens": {"input": 100, "output": 5},
                "cost_usd": None,
            }
            out.write(json.dumps(row) + "\n")
    return folder


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _get(port: int, path: str) -> tuple[int, float]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("GET", path)
        response = conn.getresponse()
        response.read()
        return response.status, float(response.getheader("x-render-ms") or "nan")
    finally:
        conn.close()


def _serve(root: Path) -> tuple[subprocess.Popen[bytes], int, float]:
    """Start `converse view`; (process, port, ms from spawn to the first 200 from `/`)."""
    port = _free_port()
    # the child's environment, not a setting read here
    env = {
        **os.environ,
        "CONVERSE_REPORTS_DIR": str(root),
        "PYTHONPATH": os.pathsep.join(
            p for p in (str(PROJECT_ROOT), os.environ.get("PYTHONPATH")) if p
        ),
    }
    argv = [sys.executable, "-c", _CONVERSE, "view", "--port", str(port)]
    started = time.perf_counter()
    process = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    while time.perf_counter() - started < 30:
        if process.poll() is not None:
            err = (process.stderr.read() if process.stderr else b"").decode(errors="replace")
            raise ConverseError(f"`converse view` exited: {err.strip()[-300:]}", "run it by hand")
        try:
            status, _ = _get(port, "/")
        except OSError:
            time.sleep(0.01)
            continue
        if status == 200:
            return process, port, (time.perf_counter() - started) * 1000
    process.kill()
    raise ConverseError("`converse view` served nothing in 30 s", "run it by hand to see why")


def _verdict(root: Path, run_id: str, i: int) -> None:
    """Record a verdict as the Review page does, so the next page reads the reviews anew."""
    from evals.report import add_review
    from evals.runner.results import RunDir

    failed = f"case-{(i * 10) % 2000:05d}"  # synthetic_run fails every tenth case
    add_review(RunDir(run_id, root), failed, "pass", "accepted", suite="synthetic_classify")


def _stop(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()


def _python_ms(starts: int) -> float:
    """A bare interpreter's start, measured beside the viewer's so a busy machine shows."""
    times = []
    for _ in range(starts):
        started = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def run(rows: int = 2_000, requests: int = 50, starts: int = 3) -> dict[str, Any]:
    """Measure; figures keyed as the issue names them.

    run_page_first_ms is the first open of the run page after start (pandas and the report
    code loading, the rows read); run_page_p95_ms is over the opens after it (the page is
    kept until a file of the run changes); run_page_after_verdict_p95_ms over opens that
    each follow a new verdict (the reviews re-read and the page rebuilt, the rows kept).
    """
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        synthetic_run(root, "20260101-000000-0001", rows)
        start_ms: list[float] = []
        for _ in range(starts):
            process, port, ms = _serve(root)
            start_ms.append(ms)
            _stop(process)
        process, port, _ = _serve(root)
        try:
            page = "/runs/20260101-000000-0001"
            status, cold = _get(port, page)
            if status != 200:
                raise ConverseError(f"the run page answered {status}", "open it in a browser")
            warm = [_get(port, page)[1] for _ in range(requests)]
            review = [_get(port, page + "/review?i=5")[1] for _ in range(requests)]
            changed = []
            for i in range(min(requests, 20)):
                _verdict(root, "20260101-000000-0001", i)
                changed.append(_get(port, page)[1])
        finally:
            _stop(process)
    return {
        "start_to_first_page_ms": round(statistics.median(start_ms), 1),
        "run_page_first_ms": round(cold, 1),
        "run_page_p95_ms": round(percentile(warm, 95), 1),
        "run_page_median_ms": round(statistics.median(warm), 1),
        "review_page_p95_ms": round(percentile(review, 95), 1),
        "run_page_after_verdict_p95_ms": round(percentile(changed, 95), 1),
        "python_ms": round(_python_ms(starts), 1),
        "rows": rows,
        "n": requests,
        "starts": starts,
        "load_avg_1m": round(os.getloadavg()[0], 2),
    }
