"""The `converse view` web app: server-rendered pages over the run folders.

Every page is rendered by Jinja with autoescaping, so run ids, case ids and model answers
are text wherever they are shown. A request that cannot be answered gets a short page with
a 4xx status saying what was wrong and what to do; a traceback never reaches the browser.
"""

from __future__ import annotations

import sys
import threading
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit

from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.base import BaseHTTPMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Route

from evals.view.errors import ViewError
from evals.view.runs import filtered, list_runs
from pipeline.errors import ConverseError

# The Runs page reads run.json and rows only; pandas and the report code load with the first
# page that needs them (run, case, review, compare, release), so the server starts at once.

TEMPLATES = Path(__file__).parent / "templates"
# Header carrying how long the server took to build a page (read by `converse bench view`).
TIMING_HEADER = "x-render-ms"
# Every answer forbids framing, in the header every browser reads and the older one.
NO_FRAMING = {"content-security-policy": "frame-ancestors 'none'", "x-frame-options": "DENY"}
# Form fields are short: a note, a version. Anything longer is refused before it is parsed.
MAX_FORM_BYTES = 64_000


def _environment() -> Environment:
    env = Environment(
        loader=FileSystemLoader(TEMPLATES),
        autoescape=select_autoescape(["html"]),
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.globals["qs"] = lambda **kw: urlencode({k: v for k, v in kw.items() if v is not None})
    return env


class Viewer:
    """The pages over one reports folder."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.env = _environment()
        self._warming: threading.Thread | None = None

    def warm(self) -> None:
        """Import pandas and the report code in the background once the first page is out,
        so the first run page opened does not wait for them."""
        if self._warming is None:

            def load() -> None:
                from evals.view import pages, run_data  # noqa: F401

            self._warming = threading.Thread(target=load, name="view-warm", daemon=True)
            self._warming.start()

    def page(self, name: str, status: int = 200, **context: Any) -> HTMLResponse:
        """A rendered template."""
        html = self.env.get_template(name).render(**context)
        return HTMLResponse(html, status_code=status)

    async def runs(self, request: Request) -> Response:
        """Every run, newest first, filtered by suite and provider."""
        suite = request.query_params.get("suite", "")
        provider = request.query_params.get("provider", "")
        every = list_runs(self.root)
        response = self.page(
            "runs.html",
            runs=filtered(every, suite, provider),
            total=len(every),
            suites=sorted({s for r in every for s in r.suites}),
            providers=sorted({p for r in every for p in r.providers}),
            suite=suite,
            provider=provider,
            root=str(self.root),
        )
        self.warm()
        return response

    async def run(self, request: Request) -> Response:
        """One run: gates, failures first, tables."""
        from evals.view import pages
        from evals.view.run_data import loaded, reviews_problem

        found = loaded(request.path_params["run_id"], self.root)
        return self.page(
            "run.html", **pages.run_page(found), reviews_problem=reviews_problem(found.run)
        )

    async def case(self, request: Request) -> Response:
        """One case of a run, with everything its rows recorded."""
        from evals.view import pages
        from evals.view.run_data import case_key, loaded

        found = loaded(request.path_params["run_id"], self.root)
        q = request.query_params
        key = case_key(q.get("suite", ""), q.get("case", ""), q.get("provider", ""))
        context = pages.case_page(found, key)
        if not context["rows"]:
            raise ViewError(404, f"run {found.run.run_id} has no case {key[1]!r}", "follow a link")
        failed = found.failed_keys
        context["review_at"] = failed.index(key) if key in failed else None
        return self.page("case.html", **context)

    async def review(self, request: Request) -> Response:
        """The failing cases one at a time, with keys for next, previous and each verdict."""
        from evals.view import pages
        from evals.view.run_data import loaded, reviews_problem
        from evals.view.verdicts import KINDS, reviewer

        found = loaded(request.path_params["run_id"], self.root)
        problem = reviews_problem(found.run)
        if problem:
            raise ViewError(
                409, problem, "fix or move that file; no verdict is recorded until then"
            )
        keys = found.failed_keys
        if not keys:
            return self.page("review.html", run_id=found.run.run_id, total=0, KINDS=KINDS)
        done = sum(1 for k in keys if found.reviewed(k))
        if done == len(keys) and "i" not in request.query_params:
            # every failure has its verdict: say so, rather than show a case a key would re-judge
            return self.page(
                "review.html", run_id=found.run.run_id, total=len(keys), done=done, all_done=True
            )
        # Without a position, start at the first failure nobody has judged yet.
        first_open = next((n for n, k in enumerate(keys) if not found.reviewed(k)), 0)
        try:
            wanted = int(request.query_params.get("i", str(first_open)))
            at = min(max(wanted, 0), len(keys) - 1)
        except ValueError:
            raise ViewError(400, "i is the failure's position, a number", "follow a link") from None
        key = keys[at]
        return self.page(
            "review.html",
            run_id=found.run.run_id,
            total=len(keys),
            at=at,
            done=done,
            case=pages.case_page(found, key),
            reviewer=reviewer(),
            KINDS=KINDS,
        )

    async def record(self, request: Request) -> Response:
        """Save one verdict, then show the next failure."""
        from evals.view.run_data import case_key, loaded, reviews_problem
        from evals.view.verdicts import save

        found = loaded(request.path_params["run_id"], self.root)
        problem = reviews_problem(found.run)
        if problem:
            raise ViewError(409, problem, "fix or move that file; nothing was recorded")
        form = await _form(request)
        key = case_key(form.get("suite", ""), form.get("case", ""), form.get("provider", ""))
        if key not in found.failed_keys:
            raise ViewError(404, f"run {found.run.run_id} has no failing case {key[1]!r}")
        save(found.run, key, form.get("kind", ""), form.get("note", ""))
        # on to the next failure without a verdict (after this one, then from the start); none
        # left: the "all reviewed" page, where no key records anything
        after = loaded(request.path_params["run_id"], self.root)
        keys = after.failed_keys
        at = keys.index(key)
        order = keys[at + 1 :] + keys[: at + 1]
        url = request.url_for("review", run_id=found.run.run_id)
        following = next((k for k in order if not after.reviewed(k)), None)
        if following is not None:
            url = url.include_query_params(i=keys.index(following))
        return RedirectResponse(str(url), status_code=303)

    async def compare(self, request: Request) -> Response:
        """Run `a` (this run) against run `b` (the baseline)."""
        from evals.view import pages
        from evals.view.run_data import loaded

        a, b = request.query_params.get("a", ""), request.query_params.get("b", "")
        every = list_runs(self.root)
        if not a or not b:
            return self.page("compare_pick.html", runs=every, a=a, b=b)
        from evals.report.provenance import check_allowed

        try:
            allow = check_allowed(request.query_params.getlist("allow"))
        except ValueError as exc:
            raise ViewError(400, str(exc), "tick the dimensions on the page") from None
        context = pages.compare_page(loaded(a, self.root), loaded(b, self.root), allow)
        return self.page("compare.html", **context)

    async def release_page(self, request: Request) -> Response:
        """What blocks a release of the run, and the button that writes its report."""
        from evals.view.release import blockers
        from evals.view.run_data import loaded

        found = loaded(request.path_params["run_id"], self.root)
        return self.page(
            "release.html", run_id=found.run.run_id, blockers=blockers(found), written=None
        )

    async def write_release(self, request: Request) -> Response:
        """Write reports/releases/VERSION.md, as `converse report RUN --release VERSION`."""
        from evals.view.release import blockers, release
        from evals.view.run_data import loaded

        found = loaded(request.path_params["run_id"], self.root)
        form = await _form(request)
        path = release(found, form.get("version", "").strip(), self.root, form.get("override", ""))
        return self.page(
            "release.html",
            run_id=found.run.run_id,
            blockers=blockers(found),
            written=str(path),
        )


def host_name(header: str) -> str:
    """The name a Host header addresses, without its port: `[::1]:8766`, `[::1]` and `::1`
    are all `::1`; `localhost:8766` is `localhost`."""
    value = header.strip().lower()
    if value.startswith("["):
        return value[1 : value.find("]")] if "]" in value else value
    return value.rsplit(":", 1)[0] if value.count(":") == 1 else value


async def _form(request: Request) -> dict[str, str]:
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > MAX_FORM_BYTES):
        raise ViewError(413, "the form is too large", f"send at most {MAX_FORM_BYTES:,} bytes")
    form = await request.form(max_files=0, max_fields=20)
    return {k: v for k, v in form.items() if isinstance(v, str)}


def create_app(root: Path, *, allowed_hosts: tuple[str, ...] | None = None) -> Starlette:
    """The app over the reports folder `root` (its runs are in root/runs).

    `allowed_hosts` (None: any) are the Host header names served: a page of another site
    that resolves its own name to 127.0.0.1 cannot read or write through the viewer.
    """
    viewer = Viewer(root)
    routes = [
        Route("/", viewer.runs, name="runs"),
        Route("/compare", viewer.compare, name="compare"),
        Route("/runs/{run_id}", viewer.run, name="run"),
        Route("/runs/{run_id}/case", viewer.case, name="case"),
        Route("/runs/{run_id}/review", viewer.review, name="review"),
        Route("/runs/{run_id}/review", viewer.record, methods=["POST"], name="record"),
        Route("/runs/{run_id}/release", viewer.release_page, name="release"),
        Route("/runs/{run_id}/release", viewer.write_release, methods=["POST"]),
    ]

    def refused(status: int, message: str, hint: str = "") -> HTMLResponse:
        return viewer.page("error.html", status=status, message=message, hint=hint)

    async def answer(request: Request, call_next: Any) -> Response:
        host = host_name(request.headers.get("host") or "")
        if allowed_hosts is not None and host not in allowed_hosts:
            return refused(
                403,
                f"host {host!r} is not served",
                "open the address printed, or start the viewer with --allowed-host "
                f"{host or 'NAME'}",
            )
        origin = request.headers.get("origin")
        foreign = (origin and urlsplit(origin).netloc != request.url.netloc) or (
            request.headers.get("sec-fetch-site") == "cross-site"
        )
        if request.method == "POST" and foreign:
            return refused(403, "a form from another site was refused", "use the viewer's pages")
        try:
            response: Response = await call_next(request)
        except Exception as exc:  # a bug: one line in the log, a short page in the browser
            print(f"converse view: {type(exc).__name__}: {exc}", file=sys.stderr)
            response = refused(500, "the page could not be built", "see the server's log")
        return response

    async def guard(request: Request, call_next: Any) -> Response:
        started = time.perf_counter()
        response = await answer(request, call_next)
        # No other site may frame a page (a hidden review form under a decoy: clickjacking).
        response.headers.update(NO_FRAMING)
        response.headers[TIMING_HEADER] = f"{(time.perf_counter() - started) * 1000:.2f}"
        return response

    async def view_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, ViewError)
        return refused(exc.status, exc.message, exc.hint)

    async def converse_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, ConverseError)
        return refused(422, exc.message, exc.hint)

    async def not_found(request: Request, exc: Exception) -> Response:
        return refused(404, "no such page", "start from the list of runs")

    async def not_allowed(request: Request, exc: Exception) -> Response:
        return refused(405, "that method is not allowed here", "use the page's buttons")

    return Starlette(
        routes=routes,
        middleware=[Middleware(BaseHTTPMiddleware, dispatch=guard)],
        exception_handlers={
            ViewError: view_error,
            ConverseError: converse_error,
            404: not_found,
            405: not_allowed,
        },
    )
