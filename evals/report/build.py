"""`converse report RUN_ID`: report.md and report.html from a run's rows.

The page is ordered for a review before a release: the gates' verdicts, the summary, then every
failure and error, the comparison with a baseline, and the detail (tags, confusions, latency).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from evals.report import tables
from evals.report.calibration_report import calibration_section
from evals.report.closure import TITLE as CLOSURE
from evals.report.closure import closure_section
from evals.report.compare import Comparison, compare, compare_sections
from evals.report.costs import cost_tables
from evals.report.document import (
    Details,
    Image,
    Section,
    Table,
    Text,
    Verdicts,
    render_html,
    render_markdown,
)
from evals.report.flaky import flaky_blocks
from evals.report.frame import frame
from evals.report.gates import gate_verdicts
from evals.report.grouped import failure_blocks, per_tag_blocks
from evals.report.heatmap import confusion, save_heatmap
from evals.report.provenance import run_provenance
from evals.report.reading import reading_section
from evals.report.reviews import load_reviews
from evals.report.robustness import robustness_section
from evals.report.transcript import conversation_section
from evals.report.writing import TITLE as WRITING
from evals.report.writing import writing_section
from evals.runner.results import RUN_ID, RunDir, RunError
from evals.runner.run_meta import gates_of, reducers_of
from evals.runner.summary import GroupResult, summarize
from pipeline.providers.claude import PRICES_SOURCE, PRICES_VERSION

LABEL_NOTE = (
    "Provider labels say what produced each number: `scripted` answers come from a fixture "
    "(not a model), `local` is the embedded offline baseline (a small embedding model, not an "
    "LLM), `pipeline` rows exercise deterministic code with no model at all, and Claude numbers "
    "replayed from synthetic cassettes are marked as such."
)


# Which baseline a report was last compared with, kept in the run's folder so that a report
# rebuilt without --compare keeps its comparison.
BASELINE_FILE = "baseline.json"
_SHORT = ("Provider", "Providers", "Prompt")


@dataclass(frozen=True)
class BuiltReport:
    """Where the report went, and what it was built from."""

    markdown: Path
    html: Path
    groups: list[GroupResult]
    frame: pd.DataFrame
    comparison: Comparison | None = None


def _slug(*parts: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", "-".join(parts)).strip("-").lower()[:80]


def _header(run: RunDir, meta: dict[str, Any], df: pd.DataFrame) -> Section:
    git = meta.get("git") or {}
    commit = (git.get("commit") or "unknown")[:12] + (" (dirty)" if git.get("dirty") else "")
    config = meta.get("config", {})
    scorers = sorted({f"{s}" for s in df["target"].unique()}) if not df.empty else []
    lines = [
        f"Run `{run.run_id}`, started {meta.get('created_at', '?')}, finished "
        f"{meta.get('finished_at', '(not finished)')}; commit `{commit}`.",
        f"Suites: {', '.join(s['name'] for s in meta.get('suite_info', []))}. "
        f"Providers: {', '.join(sorted(df['provider_label'].unique())) if not df.empty else '—'}. "
        f"Models: {models_of(df)}. "
        f"Epochs: {config.get('epochs', 1)}. Targets: {', '.join(scorers)}. "
        f"Reading: {config.get('reading') or 'provider'}"
        + (
            " (the suites' gold readings replayed, template replies)."
            if config.get("reading") == "gold"
            else " (each provider's own)."
        ),
        LABEL_NOTE,
        "Accuracy is passed / scored; errors (a provider that failed, timed out or answered "
        "something unusable) are not wrong answers and are counted apart. Intervals are 95% "
        "Wilson score intervals.",
    ]
    return Section("Run", [Text(line) for line in lines])


def models_of(df: pd.DataFrame) -> str:
    """Each provider's model, 'local-llm: qwen2.5-coder-1.5b; claude: claude-sonnet-4-5'."""
    if df.empty:
        return "—"
    pairs = df[["provider", "model"]].drop_duplicates().sort_values(["provider", "model"])
    return "; ".join(f"{p}: {m or 'no model'}" for p, m in pairs.itertuples(index=False))


def _gates(
    run: RunDir, meta: dict[str, Any], groups: list[GroupResult], models: str = ""
) -> Section:
    git = meta.get("git") or {}
    commit = (git.get("commit") or "unknown")[:12] + (" (dirty)" if git.get("dirty") else "")
    failing = [f for g in groups for f in g.gate_failures]
    overall = "Every gate passed." if not failing else "Gates failed: " + "; ".join(failing) + "."
    return Section(
        "Gates",
        [
            Verdicts(gate_verdicts(groups)),
            Text(
                f"{overall} Run `{run.run_id}` at commit `{commit}`, finished "
                f"{meta.get('finished_at', '(not finished)')}; models: {models or '—'}; "
                "details under Run, at the end."
            ),
        ],
    )


def _failures(run: RunDir, df: pd.DataFrame) -> Section:
    failed = df[df["status"] == "fail"]
    keys = failed[["suite", "case_id", "provider"]].drop_duplicates()
    open_keys = failed[failed["review"] == ""][["suite", "case_id", "provider"]].drop_duplicates()
    intro = Text(
        f"{len(keys)} failing case(s), {len(open_keys)} without a reviewer verdict. Record one "
        f"with `converse review {run.run_id} SUITE/CASE --pass|--fail --note TEXT`; a release "
        "report is refused while any failing case has none."
    )
    return Section("Failed cases", [intro, *failure_blocks(df)])


def _confusions(run: RunDir, df: pd.DataFrame) -> Section:
    section = Section("Confusion matrices")
    with_labels = df[df["expected_label"].notna()]
    if with_labels.empty:
        section.blocks.append(Text("No suite in this run has classes to confuse."))
        return section
    for (suite, label, prompt), group in with_labels.groupby(tables.GROUP, sort=True):
        matrix = confusion(group["expected_label"], group["got_label"])
        title = f"{suite} — {label} — prompt {prompt}"
        path = save_heatmap(
            matrix, run.path / f"confusion-{_slug(suite, label, prompt)}.svg", title
        )
        shown = matrix.reset_index().rename(columns={"expected": "expected \\ got"})
        section.blocks += [
            Text(f"**{title}**"),
            Image(path, f"confusion matrix: {title}"),
            Details("The counts as a table", [Table(shown)]),
        ]
    return section


def _sample_note(groups: list[GroupResult]) -> list[Text]:
    sampled = sorted({f"{g.suite} ({g.sample_label()})" for g in groups if g.sample})
    if not sampled:
        return []
    return [
        Text(
            "**This run is a sample** (`converse eval --sample N`): "
            + "; ".join(sampled)
            + ". Each suite's cases were drawn stratified by their first tag; accuracy, its "
            "95% Wilson interval and the gate are the sample's, an estimate of the whole suite "
            "(no finite-population correction, so the interval errs wide)."
        )
    ]


# The sections of a target's own, by title (a spec's `report_section` names one), in the
# order they follow the summary; each is None when the run has no suite of its targets.
TARGET_SECTIONS: dict[str, Callable[[list[GroupResult]], Section | None]] = {
    WRITING: writing_section,
    CLOSURE: closure_section,
}


def build_sections(
    run: RunDir, meta: dict[str, Any], df: pd.DataFrame, groups: list[GroupResult]
) -> list[Section]:
    """Every section of a run report, failures first after the summary."""
    sections = [
        _gates(run, meta, groups, models_of(df)),
        Section("Summary", [*_sample_note(groups), Table(tables.summary(groups), short=_SHORT)]),
        _failures(run, df),
    ]
    own = (make(groups) for make in TARGET_SECTIONS.values())
    sections[2:2] = [section for section in own if section is not None]
    reading = reading_section(groups, meta)
    if reading is not None:  # right after the summary: it says whose mistake each failure is
        sections.insert(2, reading)
    conversations = conversation_section(df)
    if conversations is not None:
        sections[-1].blocks.insert(1, Text("Failed conversations are shown turn by turn below."))
        sections.append(conversations)
    sections += [
        Section("Errors", [Table(tables.errors(df), short=_SHORT)]),
        Section("Accuracy per tag", per_tag_blocks(df)),
        _confusions(run, df),
    ]
    agreement = tables.agreement(df)
    if not agreement.empty:
        sections.append(
            Section("Agreement across epochs", [Table(agreement, short=_SHORT), *flaky_blocks(df)])
        )
    sections += [
        Section("Latency and tokens", [
            Text(
                "Latency counts answers computed in this run; cached answers are excluded. "
                "Tokens are totals, cache reads and writes apart from other input; the cost is "
                f"at the Claude prices of {PRICES_VERSION} ({PRICES_SOURCE}), 5-minute cache "
                'writes, and "unpriced" when a model has no price (synthetic answers, local '
                "providers). "
                "Cut off: replies that stopped at max_tokens, accepted as they were."
            ),
            Table(tables.latency_tokens(df), short=_SHORT),
        ]),
        Section("Cost", [
            Text(
                f"At the Claude prices of {PRICES_VERSION} (each model's source page is named in "
                "pipeline/providers/claude/prices.py). A group with a row whose model has no "
                "price shows \"unpriced\", with the priced part and the unpriced rows beside it."
            ),
            *(Table(table, caption=title, short=_SHORT) for title, table in cost_tables(df)),
        ]),
        Section("Reviews", [Table(tables.reviews(df), short=_SHORT)]),
        _header(run, meta, df),
    ]  # fmt: skip
    return sections


def load_run(
    run_id: str, root: Path | None = None
) -> tuple[RunDir, dict[str, Any], pd.DataFrame, list[GroupResult]]:
    """A run's folder, run.json, rows as a frame, and its groups with gates."""
    run = RunDir.existing(run_id, root)
    meta = run.read_meta()
    rows = run.latest_rows()
    if not rows:
        raise RunError(f"run {run_id} has no results yet", f"run `converse eval --resume {run_id}`")
    groups = summarize(rows, gates_of(meta), reducers_of(meta))
    return run, meta, frame(rows, load_reviews(run)), groups


def stored_baseline(run: RunDir) -> str | None:
    """The baseline the run's report was last compared with (None when none, or unreadable)."""
    try:
        data = json.loads((run.path / BASELINE_FILE).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return None
    found = data.get("baseline") if isinstance(data, dict) else None
    return found if isinstance(found, str) and RUN_ID.fullmatch(found) else None


def stored_flaky(run: RunDir) -> str:
    """How the remembered comparison treats flaky cases ("count" unless it said "exclude")."""
    try:
        data = json.loads((run.path / BASELINE_FILE).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return "count"
    return "exclude" if isinstance(data, dict) and data.get("flaky") == "exclude" else "count"


def _baseline(
    run: RunDir, compare_with: str | None, forget: bool, flaky: str | None
) -> tuple[str | None, bool, str]:
    """(the baseline to compare with, whether it was remembered rather than asked for, how
    flaky cases are treated)."""
    path = run.path / BASELINE_FILE
    if forget:
        path.unlink(missing_ok=True)
        return None, False, flaky or "count"
    remembered = stored_baseline(run)
    asked = compare_with is not None
    if not asked and flaky is not None:
        compare_with = remembered  # a new --flaky for the remembered baseline
    if compare_with is not None:
        mode = flaky or "count"
        tmp = run.path / f".{BASELINE_FILE}.tmp"
        payload = {"baseline": compare_with, "flaky": mode}
        tmp.write_text(json.dumps(payload) + "\n", encoding="utf-8")
        tmp.replace(path)
        return compare_with, not asked, mode
    return remembered, True, stored_flaky(run)


def _comparison(
    current: tuple[RunDir, dict[str, Any], pd.DataFrame],
    baseline_id: str,
    remembered: bool,
    root: Path | None,
    flaky: str,
    allow: frozenset[str] = frozenset(),
    pair: tuple[str, str] | None = None,
) -> tuple[Comparison | None, list[Section]]:
    run, meta, df = current
    try:
        base_run = RunDir.existing(baseline_id, root)
    except RunError:
        if not remembered:
            raise
        gone = Text(
            f"This report was compared with run `{baseline_id}`, which no longer exists; "
            "`converse report RUN --compare OTHER` compares with another run, `--no-compare` "
            "drops the comparison."
        )
        return None, [Section("Comparison with the baseline", [gone])]
    base_rows = base_run.latest_rows()
    if pair is not None:  # the baseline's provider stands in for this run's, case by case
        this, baseline_provider = pair
        base_rows = [
            {**row, "provider": this} if row.get("provider") == baseline_provider else row
            for row in base_rows
        ]
    baseline = frame(base_rows, load_reviews(base_run))
    provenance = (
        run_provenance(meta, run.latest_rows()),
        run_provenance(base_run.read_meta(), base_rows),
    )
    comparison = compare(df, baseline, baseline_id, flaky, provenance=provenance, allow=allow)
    return comparison, compare_sections(comparison, remembered=remembered)


def build_report(
    run_id: str,
    *,
    compare: str | None = None,
    forget_compare: bool = False,
    root: Path | None = None,
    flaky: str | None = None,
    allow: frozenset[str] = frozenset(),
    pair: tuple[str, str] | None = None,
) -> BuiltReport:
    """Write report.md and report.html into the run's folder.

    `compare` names a baseline run; it is remembered in the run's folder (with `flaky`, how
    the comparison treats cases whose epochs disagree: "count" or "exclude"), so a later build
    without it keeps the comparison until `forget_compare`. `allow` names the provenance
    dimensions compared on purpose (`--allow-change`; not remembered). `pair` (this run's
    provider, the baseline's) compares two providers case by case, e.g. two readers (not
    remembered).
    """
    run, meta, df, groups = load_run(run_id, root)
    if compare is not None:
        RunDir.existing(compare, root)  # before it is remembered
    baseline_id, remembered, flaky_mode = _baseline(run, compare, forget_compare, flaky)
    sections = build_sections(run, meta, df, groups)
    rows = run.latest_rows()
    robust = robustness_section(groups, rows)
    if robust is not None:  # right after the summary: it qualifies every figure in it
        sections.insert(2, robust)
    calibration = calibration_section(run.path, rows)
    if calibration is not None:  # detail, beside the confusion matrices
        at = next(i for i, s in enumerate(sections) if s.title == "Confusion matrices")
        sections.insert(at, calibration)
    comparison = None
    if baseline_id is not None:
        comparison, compared = _comparison(
            (run, meta, df), baseline_id, remembered, root, flaky_mode, allow, pair
        )
        at = next(i for i, s in enumerate(sections) if s.title == "Accuracy per tag")
        sections[at:at] = compared
    title = f"converse eval report — run {run_id}"
    markdown = run.path / "report.md"
    page = run.path / "report.html"
    markdown.write_text(render_markdown(title, sections), encoding="utf-8")
    page.write_text(render_html(title, sections), encoding="utf-8")
    return BuiltReport(markdown, page, groups, df, comparison)
