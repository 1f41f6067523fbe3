"""`converse record --suite NAME | --all`: record a suite's Claude calls to a cassette.

Against the real API (ANTHROPIC_API_KEY, and ANTHROPIC_BASE_URL if set) the cassette goes to
fixtures/cassettes/real/suites/NAME.yaml; with --synthetic ANSWERS the loopback server answers
and it goes to fixtures/cassettes/synthetic/suites/NAME.yaml. A classify suite records one
classifier call per case; a conversation suite plays every conversation through the pipeline, as
`converse eval` does, and records each turn's classifier and responder calls. The cases run
through the eval's own target code, so `converse eval --provider claude --replay` sends exactly
the requests that were recorded. A cassette is replaced only when every call of its suite
succeeded; otherwise the command exits 3 (a provider failed) naming the failed cases, and the
cassette that was there stays as it was. `--all` records every suite that makes model calls.
"""

from __future__ import annotations

import os
import shlex
from pathlib import Path

from evals.cassettes.config import REAL, SYNTHETIC, cassettes_dir
from evals.cassettes.session import cassette_claude
from evals.cassettes.stale import relative
from evals.dataset.load import Suite, load_suite, load_suites, suites_dir
from evals.runner.outcome import Outcome
from evals.runner.providers import Bound
from evals.runner.sandbox import Sandbox
from evals.runner.targets import run_case
from evals.settings import eval_settings
from evals.targets import spec_of, targets_where
from pipeline.cli.common import console
from pipeline.errors import ConverseError, ProviderError
from pipeline.prompting import default_library
from pipeline.providers import anthropic_key_set

NO_KEY = (
    "converse record calls the real Anthropic API and ANTHROPIC_API_KEY is not set",
    "export ANTHROPIC_API_KEY=... (it never reaches a cassette), or pass --synthetic ANSWERS "
    "to record from the loopback server",
)
# The targets whose Claude calls are recorded (evals/targets.py); the others run the
# pipeline's code.
RECORDED = targets_where("recorded")


def suite_path(suite: str) -> Path:
    """A suite file: a path as given, else evals/suites/NAME.yaml."""
    given = Path(suite)
    if given.suffix in (".yaml", ".yml") or given.exists():
        return given
    return eval_settings().suites_dir / f"{suite}.yaml"


def record_command(suite: str, *, synthetic: Path | None = None) -> str:
    """The command that records one suite (what `converse eval` tells a run without one)."""
    command = ["converse", "record", "--suite", suite]
    if synthetic is not None:
        command += ["--synthetic", str(synthetic)]
    return shlex.join(command)


def _overrides(prompts: list[str]) -> dict[str, str]:
    found: dict[str, str] = {}
    for option in prompts:
        family, sep, version = option.partition("=")
        if not sep or not family or not version:
            raise ConverseError(
                f"--prompt {option!r} is not FAMILY=VERSION", "e.g. --prompt classifier=v2"
            )
        found[family.strip()] = version.strip()
    return found


def _describe(outcome: Outcome, target: str) -> str:
    if outcome.error:
        return f"error: {outcome.error}"
    line = spec_of(target).recorded_line
    return line(outcome.got) if line is not None else ""


def _spec(suite: Suite) -> str:
    """How the suite is named on a command line: its name when it lives in evals/suites."""
    in_default = suite.path.resolve().parent == suites_dir().resolve()
    return suite.name if in_default and suite.path.stem == suite.name else str(suite.path)


def command_for(suite: Suite) -> str:
    """The command that records a suite's cassette (what `converse eval` prints without one)."""
    return record_command(_spec(suite))


def record_suite(
    suite: Suite,
    spec: str,
    *,
    synthetic: Path | None,
    out: Path | None,
    overrides: dict[str, str],
) -> None:
    """Record one suite's calls; ProviderError (the cassette left as it was) when any failed."""
    kind = SYNTHETIC if synthetic is not None else REAL
    cassette = (out or cassettes_dir()) / kind / "suites" / f"{suite.name}.yaml"
    command = ["converse", "record", "--suite", spec]
    if synthetic is not None:
        command += ["--synthetic", str(synthetic)]
    if out is not None:
        command += ["--out", str(out)]
    for family, version in overrides.items():
        command += ["--prompt", f"{family}={version}"]
    rerecord = shlex.join(command)
    library = default_library(overrides)
    # Recorded beside the cassette and moved into place only when every call succeeded: a
    # failed recording must never replace a good cassette with an empty or broken one.
    partial = cassette.with_name(f".{cassette.name}.recording-{os.getpid()}")
    failed: list[str] = []
    sandbox = Sandbox()
    try:
        with cassette_claude(
            partial,
            mode="record",
            rerecord=rerecord,
            answers=synthetic,
            library=library,
            overrides=overrides,
        ) as session:
            providers = session.providers
            bound = Bound(
                "claude", providers.label, providers.model, "", providers.classifier,
                providers.responder, library, dict(overrides), summarizer=providers.summarizer,
                structured=providers.structured, providers=providers,
            )  # fmt: skip
            for case in suite.cases:
                outcome = run_case(suite.target, case, bound, sandbox)
                if outcome.error is not None:
                    failed.append(case.id)
                console.print(
                    f"  {case.id}: {_describe(outcome, suite.target)}",
                    markup=False,
                    highlight=False,
                )
                for note in session.retries.take_notes() if session.retries else ():
                    console.print(f"    {note}", markup=False, highlight=False)
            calls = len(session.cassette.requests)
        if failed:
            what = spec_of(suite.target).case_noun
            raise ProviderError(
                f"{len(failed)} of {len(suite.cases)} {what} failed ({', '.join(failed)}); "
                f"{relative(cassette)} was left as it was",
                f"fix the cause and re-run `{rerecord}`",
            )
        if partial.exists():
            partial.replace(cassette)
    finally:
        sandbox.close()
        partial.unlink(missing_ok=True)
    console.print(
        f"Recorded {calls} calls for {len(suite.cases)} cases of {suite.name} to "
        f"{relative(cassette)} "
        f"({'synthetic: loopback answers' if synthetic is not None else 'real API'}).",
        highlight=False,
        soft_wrap=True,
    )


def record(
    suite: str | None, all_suites: bool, synthetic: Path | None, out: Path | None, prompt: list[str]
) -> None:
    """Record one suite's Claude calls, or every suite's that makes any (`converse record`,
    evals/commands/record.py)."""
    if (suite is None) == (not all_suites):
        raise ConverseError(
            "name the suite to record with --suite NAME, or record every suite with --all",
            "e.g. converse record --suite intent_boundaries, or converse record --all",
        )
    # What there is to record is settled before the key is asked for.
    chosen = load_suite(suite_path(suite)) if suite is not None else None
    if chosen is not None and chosen.target not in RECORDED:
        raise ConverseError(
            f"suite {chosen.name} ({chosen.target}) makes no model calls, so there is nothing "
            "to record",
            f"run it as it is with `converse eval --suite {suite}`",
        )
    if synthetic is None and not anthropic_key_set():
        raise ConverseError(*NO_KEY)
    overrides = _overrides(prompt)
    if chosen is not None and suite is not None:
        record_suite(chosen, suite, synthetic=synthetic, out=out, overrides=overrides)
        return
    every = load_suites()
    recorded = [s for s in every if s.target in RECORDED]
    for skipped in (s for s in every if s.target not in RECORDED):
        console.print(
            f"{skipped.name}: skipped ({skipped.target} makes no model calls)",
            markup=False,
            highlight=False,
        )
    failures: list[str] = []
    for each in recorded:
        console.print(f"{each.name} ({each.target}):", markup=False, highlight=False)
        try:
            record_suite(each, _spec(each), synthetic=synthetic, out=out, overrides=overrides)
        except ProviderError as exc:
            console.print(f"  {exc.one_line()}", markup=False, highlight=False, soft_wrap=True)
            failures.append(each.name)
    if failures:
        raise ProviderError(
            f"{len(failures)} of {len(recorded)} suites were not recorded "
            f"({', '.join(failures)}); their cassettes were left as they were",
            "fix the cause and re-run the command printed under each",
        )
