"""A run against a baseline: case-by-case regressions and fixes, and paired tests.

Each case collapses to one verdict per run (pass when most of its scored epochs passed); cases
that errored in either run are left out of the pairing and counted apart. A case whose epochs
disagree is flaky: `flaky="count"` keeps it at its majority verdict, `flaky="exclude"` leaves it
out of the pairing. Every comparison states what it could detect (evals/power.py) and calls its
change a finding or within noise; per-tag p-values are Holm-adjusted over the suite's tags.
A finding is credited to the prompt only when the prompt is the one recorded difference
between the runs (evals/report/provenance.py); otherwise it names what else changed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import pandas as pd

from evals.power import ALPHA, METHOD, MULTIPLE, POWER, holm
from evals.report.attribution import attribute_moves, attribution_json, attribution_section
from evals.report.compare_rows import Pair, p_text
from evals.report.document import Section, Table, Text
from evals.report.provenance import Attribution, Key, differences
from evals.report.tables import pct
from evals.stats import mcnemar_exact

KEY = ["suite", "provider", "case_id"]
FLAKY_MODES = ("count", "exclude")


def _per_case(df: pd.DataFrame) -> pd.DataFrame:
    scored = df[~df["errored"]]
    cases = scored.groupby([*KEY, "variant"], sort=True).agg(
        rate=("passed", "mean"),
        latency=("latency_ms", "median"),
        tokens=("input_tokens", "mean"),
        out_tokens=("output_tokens", "mean"),
        label=("provider_label", "first"),
        model=("model", "first"),
        prompt=("prompt", "first"),
        expected=("expected_text", "first"),
        got=("got_text", "last"),
        why=("why", "last"),
        tags=("tags", "first"),
        epochs=("passed", "size"),
        sample=("sample", "first"),
        passes=("passed", "sum"),
        asked_again=("asked_again", "max"),
    )
    cases["passed"] = cases["rate"] > 0.5
    cases["flaky"] = (cases["passes"] > 0) & (cases["passes"] < cases["epochs"])
    cases["tokens"] = cases["tokens"] + cases["out_tokens"]
    return cases.reset_index()


def _pair_variants(
    current: pd.DataFrame, baseline: pd.DataFrame
) -> list[tuple[str, str, str, str]]:
    """(suite, provider, current variant, baseline variant): same variant, else the only one."""
    pairs = []
    base_variants = baseline.groupby(["suite", "provider"])["variant"].unique()
    for (suite, provider), variants in (
        current.groupby(["suite", "provider"])["variant"].unique().items()
    ):
        if (suite, provider) not in base_variants.index:
            continue
        have = list(base_variants.loc[(suite, provider)])
        for variant in variants:
            if variant in have:
                pairs.append((suite, provider, variant, variant))
            elif len(have) == 1:
                pairs.append((suite, provider, variant, have[0]))
    return pairs


def _verdict(p: float, delta: float) -> str:
    if p < ALPHA:
        return "finding: better" if delta > 0 else "finding: worse"
    return "within noise"


@dataclass(frozen=True)
class Comparison:
    """A run against a baseline: per suite × provider, per tag, and case by case."""

    baseline_id: str
    changes: pd.DataFrame
    metrics: pd.DataFrame
    per_tag: pd.DataFrame
    regressions: pd.DataFrame
    fixes: pd.DataFrame
    flaky: str = "count"
    # per suite x provider: the figures of `converse report --json` (power, verdict, tags)
    records: tuple[dict[str, object], ...] = ()
    # flaky cases (either run) over every pairing, counted or left out as `flaky` says
    flaky_cases: int = 0
    # each regression and fix with why it moved: the reading or the decision (attribution.py)
    attribution: pd.DataFrame = field(default_factory=pd.DataFrame)

    def as_json(self) -> dict[str, object]:
        """The comparison for `converse report --compare --json`."""
        return {
            "baseline": self.baseline_id,
            "flaky": self.flaky,
            "power_method": METHOD,
            "power": POWER,
            "alpha": ALPHA,
            "multiple_comparisons": MULTIPLE,
            "comparisons": list(self.records),
            "attribution": attribution_json(self.attribution),
        }


def _tag_changes(
    joined: pd.DataFrame, suite: str, label: str, credit: Attribution
) -> list[dict[str, object]]:
    """Per tag: accuracy on the shared cases before and after, only where a case changed.

    Each tag's McNemar p is adjusted with Holm–Bonferroni over every tag of the pairing (those
    where nothing changed have p = 1 and still count), so a tag is a finding only when it
    stands out among all the tags looked at.
    """
    tagged = joined.explode("tags").dropna(subset=["tags"])
    counted: list[tuple[str, pd.DataFrame, int, int, float]] = []
    for tag, group in tagged.groupby("tags", sort=True):
        worse = int((group["passed_base"] & ~group["passed"]).sum())
        better = int((~group["passed_base"] & group["passed"]).sum())
        counted.append((str(tag), group, worse, better, mcnemar_exact(worse, better)))
    adjusted = holm([p for *_, p in counted])
    records: list[dict[str, object]] = []
    for (tag, group, worse, better, p), p_holm in zip(counted, adjusted, strict=True):
        if not worse and not better:
            continue
        before, after = float(group["passed_base"].mean()), float(group["passed"].mean())
        records.append(
            {
                "Suite": suite,
                "Provider": label,
                "Tag": tag,
                "Shared cases": len(group),
                "Baseline": pct(before),
                "This run": pct(after),
                "Change": f"{after - before:+.1%}",
                "Regressions": worse,
                "Fixes": better,
                "McNemar exact p": p_text(p),
                "Holm p": p_text(p_holm),
                "Verdict": credit.label(_verdict(p_holm, after - before)),
                "_delta": after - before,
                "_p": p,
                "_p_holm": p_holm,
                "_tags": len(counted),
            }
        )
    return records


def _pairing(a: pd.DataFrame, b: pd.DataFrame, flaky: str) -> tuple[pd.DataFrame, int]:
    """The shared cases, and how many flaky ones (in either run) they hold or left out."""
    joined = a.merge(b, on=KEY, suffixes=("", "_base"))
    either = joined["flaky"] | joined["flaky_base"]
    if flaky == "exclude":
        return joined[~either].reset_index(drop=True), int(either.sum())
    return joined, int(either.sum())


Provenance = Mapping[Key, Mapping[str, str]]


def _credit(
    provenance: tuple[Provenance, Provenance] | None,
    allow: frozenset[str],
    now: Key,
    then: Key,
) -> Attribution:
    if provenance is None:
        return Attribution((), allow)
    after, before = provenance[0].get(now) or {}, provenance[1].get(then) or {}
    return Attribution(differences(before, after), allow)


def compare(
    current: pd.DataFrame,
    baseline: pd.DataFrame,
    baseline_id: str,
    flaky: str = "count",
    *,
    provenance: tuple[Provenance, Provenance] | None = None,
    allow: frozenset[str] = frozenset(),
) -> Comparison:
    """Compare `current` with `baseline` (both from report.frame.frame).

    `flaky`: "count" keeps cases whose epochs disagree at their majority verdict; "exclude"
    leaves them out of the pairing (flaky in either run). `provenance` (this run's, the
    baseline's; evals/report/provenance.run_provenance) names what else differs between the
    runs; a finding is credited to the prompt only when nothing else does, or to the
    dimensions in `allow` (`--allow-change model`) when they were compared on purpose.
    """
    if flaky not in FLAKY_MODES:
        raise ValueError(f"flaky={flaky!r}: one of {', '.join(FLAKY_MODES)}")
    cur, base = _per_case(current), _per_case(baseline)
    changes: list[dict[str, object]] = []
    metrics: list[dict[str, object]] = []
    tags: list[dict[str, object]] = []
    regressions: list[dict[str, object]] = []
    fixes: list[dict[str, object]] = []
    records: list[dict[str, object]] = []
    flaky_total = 0
    for suite, provider, cv, bv in _pair_variants(cur, base):
        a = cur[(cur.suite == suite) & (cur.provider == provider) & (cur.variant == cv)]
        b = base[(base.suite == suite) & (base.provider == provider) & (base.variant == bv)]
        joined, flaky_count = _pairing(a, b, flaky)
        if joined.empty:
            continue
        flaky_total += flaky_count
        credit = _credit(provenance, allow, (suite, provider, cv), (suite, provider, bv))
        pair = Pair.of(suite, provider, (cv, bv), (a, b), joined, credit, (flaky, flaky_count))
        changes.append(pair.change_row())
        suite_tags = _tag_changes(joined, suite, pair.label, credit)
        tags += suite_tags
        records.append(pair.record(suite_tags))
        metrics.append(pair.metrics_row())
        regressions += pair.moved(pair.worse, regression=True)
        fixes += pair.moved(pair.better, regression=False)
    per_tag = pd.DataFrame.from_records(tags)
    if not per_tag.empty:
        per_tag = per_tag.sort_values(["_delta", "Suite", "Tag"], kind="stable")
        per_tag = per_tag.drop(columns=["_delta", "_p", "_p_holm", "_tags"]).reset_index(drop=True)
    return Comparison(
        baseline_id,
        pd.DataFrame.from_records(changes),
        pd.DataFrame.from_records(metrics),
        per_tag,
        pd.DataFrame.from_records(regressions),
        pd.DataFrame.from_records(fixes),
        flaky,
        tuple(records),
        flaky_total,
        attribute_moves(current, baseline, regressions, fixes),
    )


_SHORT = ("Provider", "Prompt")


def compare_sections(comparison: Comparison, *, remembered: bool = False) -> list[Section]:
    """The comparison as report sections: per suite, per tag, regressions and fixes."""
    how = (
        " (remembered from an earlier `converse report RUN --compare OTHER`; "
        "`--no-compare` drops it)"
        if remembered
        else ""
    )
    flaky = (
        "flaky cases (epochs that disagree, in either run) are left out"
        if comparison.flaky == "exclude"
        else "flaky cases (epochs that disagree) count at their majority verdict"
    )
    intro = Text(
        f"Compared with baseline run `{comparison.baseline_id}`{how} on the cases both runs "
        "scored. Each case is one verdict per run (the majority of its epochs); cases that "
        f"errored in either run are left out, and {flaky} (`--flaky count|exclude`). McNemar's "
        f"exact test on the discordant cases: p < {ALPHA} is a finding, anything else is within "
        f"noise. MDE is the minimum detectable effect: the least change in accuracy these shared "
        f"cases detect with {POWER:.0%} power at α {ALPHA}, at the observed share of cases that "
        f"changed verdict ({METHOD}; McNemar's exact test is a little more conservative). "
        "Latency and tokens: Wilcoxon signed-rank test on the paired cases. Changed: every "
        "recorded difference between the runs besides the cases (provider, model, weights, "
        "provider settings, suite, sample, perturbation, commit, prompt); a finding is credited "
        "to the prompt only when the prompt is the one difference, and otherwise says what else "
        "changed and that it cannot be attributed (`--allow-change model` compares models on "
        "purpose and names them)."
    )
    sentences = [
        Text(f"- {r['suite']} on {r['provider_label']}: {r['sentence']}.")
        for r in comparison.records
    ]
    tag_note = Text(
        "Tags where at least one shared case changed verdict, largest drop first; every other "
        "tag has the same verdicts in both runs. Holm p: McNemar's p adjusted with "
        f"{MULTIPLE} over every tag of the suite (those where nothing changed count too); the "
        "verdict reads the adjusted p."
    )
    return [
        Section(
            "Comparison with the baseline",
            [intro, Table(comparison.changes, short=_SHORT), *sentences],
        ),
        Section(
            "Per tag against the baseline",
            [tag_note, Table(comparison.per_tag, short=_SHORT)],
            3,
        ),
        Section(
            "Latency and tokens against the baseline",
            [Table(comparison.metrics, short=_SHORT)],
            3,
        ),
        Section(
            "Regressions (passed in the baseline, fail now)",
            [Table(comparison.regressions, short=_SHORT)],
            3,
        ),
        Section(
            "Fixes (failed in the baseline, pass now)",
            [Table(comparison.fixes, short=_SHORT)],
            3,
        ),
        attribution_section(comparison.attribution),
    ]
