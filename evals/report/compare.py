"""A run against a baseline: case-by-case regressions and fixes, and paired tests.

Each case collapses to one verdict per run (pass when most of its scored epochs passed); cases
that errored in either run are left out of the pairing and counted apart. A case whose epochs
disagree is flaky: `flaky="count"` keeps it at its majority verdict, `flaky="exclude"` leaves it
out of the pairing. Every comparison states what it could detect (evals/power.py) and calls its
change a finding or within noise; per-tag p-values are Holm-adjusted over the suite's tags.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import pandas as pd

from evals.power import ALPHA, METHOD, MULTIPLE, POWER, holm, paired_power
from evals.report.attribution import attribute_moves, attribution_json, attribution_section
from evals.report.document import Section, Table, Text
from evals.report.tables import pct
from evals.stats import mcnemar_exact, wilcoxon

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
        prompt=("prompt", "first"),
        expected=("expected_text", "first"),
        got=("got_text", "last"),
        why=("why", "last"),
        tags=("tags", "first"),
        epochs=("passed", "size"),
        sample=("sample", "first"),
        passes=("passed", "sum"),
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


def _wilcoxon(a: pd.Series, b: pd.Series) -> float | None:
    diffs = (a.to_numpy() - b.to_numpy()).astype(float)
    if len(diffs) < 6 or not diffs.any():
        return None if len(diffs) < 6 else 1.0
    p = wilcoxon(a.to_numpy(dtype=float).tolist(), b.to_numpy(dtype=float).tolist())
    return None if math.isnan(p) else p


def _p(value: float | None) -> str:
    return "—" if value is None else f"{value:.4f}"


def _arrow(before: float, after: float, digits: int = 2) -> str:
    return f"{before:.{digits}f} → {after:.{digits}f}"


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


def _tag_changes(joined: pd.DataFrame, suite: str, label: str) -> list[dict[str, object]]:
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
                "McNemar exact p": _p(p),
                "Holm p": _p(p_holm),
                "Verdict": _verdict(p_holm, after - before),
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


def compare(
    current: pd.DataFrame, baseline: pd.DataFrame, baseline_id: str, flaky: str = "count"
) -> Comparison:
    """Compare `current` with `baseline` (both from report.frame.frame).

    `flaky`: "count" keeps cases whose epochs disagree at their majority verdict; "exclude"
    leaves them out of the pairing (flaky in either run).
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
        worse = joined[joined["passed_base"] & ~joined["passed"]]
        better = joined[~joined["passed_base"] & joined["passed"]]
        p = mcnemar_exact(len(worse), len(better))
        power = paired_power(len(joined), len(worse), len(better), p)
        acc_now, acc_base = joined["passed"].mean(), joined["passed_base"].mean()
        delta = float(acc_now - acc_base)
        label = joined["label"].iloc[0]
        samples = [str(x) for x in (a["sample"].iloc[0], b["sample"].iloc[0])]
        sampled = "; ".join(
            f"{who} is a {text}"
            for who, text in zip(("this run", "baseline"), samples, strict=True)
            if text
        )
        before, after = joined["prompt_base"].iloc[0], joined["prompt"].iloc[0]
        prompt = after if before == after else f"{before} → {after}"
        changes.append(
            {
                "Suite": suite + (f" ({sampled})" if sampled else ""),
                "Provider": label,
                "Prompt": prompt,
                "Shared cases": len(joined),
                "Baseline": pct(float(acc_base)),
                "This run": pct(float(acc_now)),
                "Change": f"{delta:+.1%}",
                "Regressions": len(worse),
                "Fixes": len(better),
                "McNemar exact p": _p(p) if len(worse) + len(better) else "—",
                "MDE (80% power)": power.mde_text(),
                "Flaky": f"{flaky_count} {'left out' if flaky == 'exclude' else 'counted'}",
                "Verdict": power.verdict,
            }
        )
        suite_tags = _tag_changes(joined, suite, label)
        tags += suite_tags
        records.append(
            {
                "suite": suite,
                "provider": provider,
                "provider_label": label,
                "variant": cv,
                "baseline_variant": bv,
                "prompt": prompt,
                "baseline_accuracy": round(float(acc_base), 4),
                "accuracy": round(float(acc_now), 4),
                **power.as_json(),
                "sentence": power.sentence(),
                "sample": samples[0] or None,
                "baseline_sample": samples[1] or None,
                "flaky": {"mode": flaky, "cases": flaky_count},
                "tags": [
                    {
                        "tag": t["Tag"],
                        "n": t["Shared cases"],
                        "regressions": t["Regressions"],
                        "fixes": t["Fixes"],
                        "change": round(float(t["_delta"]), 4),  # type: ignore[arg-type]
                        "mcnemar_exact_p": round(float(t["_p"]), 6),  # type: ignore[arg-type]
                        "holm_p": round(float(t["_p_holm"]), 6),  # type: ignore[arg-type]
                        "tags_compared": t["_tags"],
                        "verdict": t["Verdict"],
                    }
                    for t in suite_tags
                ],
            }
        )
        lat_p = _wilcoxon(joined["latency"], joined["latency_base"])
        tok_p = _wilcoxon(joined["tokens"], joined["tokens_base"])
        metrics.append(
            {
                "Suite": suite,
                "Provider": label,
                "Prompt": prompt,
                "Median latency ms": _arrow(
                    joined["latency_base"].median(), joined["latency"].median()
                ),
                "Latency Wilcoxon p": _p(lat_p),
                "Mean tokens": _arrow(joined["tokens_base"].mean(), joined["tokens"].mean(), 1),
                "Tokens Wilcoxon p": _p(tok_p),
            }
        )
        for frame, bucket in ((worse, regressions), (better, fixes)):
            for row in frame.itertuples(index=False):
                bucket.append(
                    {
                        "Suite": suite,
                        "Provider": label,
                        "Case": row.case_id,
                        "Expected": row.expected,
                        "Baseline got": row.got_base,
                        "This run got": row.got,
                        "Why": row.why if bucket is regressions else row.why_base,
                    }
                )
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
        "Latency and tokens: Wilcoxon signed-rank test on the paired cases."
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
