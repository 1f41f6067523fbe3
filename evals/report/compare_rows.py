"""One paired comparison of a suite and provider between two runs, and the rows the
comparison's tables and JSON are made of (evals/report/compare.py pairs the runs)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import pandas as pd

from evals.power import PairedPower, paired_power
from evals.report.provenance import Attribution
from evals.report.tables import pct
from evals.stats import mcnemar_exact, wilcoxon


def p_text(value: float | None) -> str:
    """A p-value as the tables print it."""
    return "—" if value is None else f"{value:.4f}"


def _wilcoxon(a: pd.Series, b: pd.Series) -> float | None:
    diffs = (a.to_numpy() - b.to_numpy()).astype(float)
    if len(diffs) < 6 or not diffs.any():
        return None if len(diffs) < 6 else 1.0
    p = wilcoxon(a.to_numpy(dtype=float).tolist(), b.to_numpy(dtype=float).tolist())
    return None if math.isnan(p) else p


def _arrow(before: float, after: float, digits: int = 2) -> str:
    return f"{before:.{digits}f} → {after:.{digits}f}"


def _asked_again(now: bool, then: bool) -> str:
    sides = [who for who, flag in (("this run", now), ("baseline", then)) if flag]
    return f"asked again after an error ({' and '.join(sides)})" if sides else ""


@dataclass(frozen=True)
class Pair:
    """The shared cases of one suite and provider in both runs, and what their pairing says."""

    suite: str
    provider: str
    variants: tuple[str, str]
    frames: tuple[pd.DataFrame, pd.DataFrame]
    joined: pd.DataFrame
    credit: Attribution
    flaky: tuple[str, int]
    worse: pd.DataFrame
    better: pd.DataFrame
    p: float
    power: PairedPower

    @classmethod
    def of(
        cls,
        suite: str,
        provider: str,
        variants: tuple[str, str],
        frames: tuple[pd.DataFrame, pd.DataFrame],
        joined: pd.DataFrame,
        credit: Attribution,
        flaky: tuple[str, int],
    ) -> Pair:
        """The pair, with its regressions, fixes, McNemar's exact p and its power."""
        worse = joined[joined["passed_base"] & ~joined["passed"]]
        better = joined[~joined["passed_base"] & joined["passed"]]
        p = mcnemar_exact(len(worse), len(better))
        power = paired_power(len(joined), len(worse), len(better), p)
        return cls(
            suite, provider, variants, frames, joined, credit, flaky, worse, better, p, power
        )

    @property
    def label(self) -> str:
        """The provider's label, as the tables show it."""
        return str(self.joined["label"].iloc[0])

    @property
    def accuracies(self) -> tuple[float, float]:
        """(this run, the baseline) over the shared cases."""
        return float(self.joined["passed"].mean()), float(self.joined["passed_base"].mean())

    @property
    def prompt(self) -> str:
        """The prompt versions, or how they changed."""
        before, after = self.joined["prompt_base"].iloc[0], self.joined["prompt"].iloc[0]
        return str(after) if before == after else f"{before} → {after}"

    @property
    def models(self) -> list[str]:
        """(the baseline's model, this run's)."""
        a, b = self.frames
        return [str(x) for x in (b["model"].iloc[0], a["model"].iloc[0])]

    @property
    def samples(self) -> list[str]:
        """(this run's sample, the baseline's), "" when a run was whole."""
        a, b = self.frames
        return [str(x) for x in (a["sample"].iloc[0], b["sample"].iloc[0])]

    @property
    def verdict(self) -> str:
        """The finding, credited to what the runs differ in."""
        return self.credit.label(self.power.verdict)

    def _asked(self) -> tuple[int, int]:
        a, b = self.frames
        return int(a["asked_again"].sum()), int(b["asked_again"].sum())

    def change_row(self) -> dict[str, object]:
        """The pair's row of the changes table."""
        sampled = "; ".join(
            f"{who} is a {text}"
            for who, text in zip(("this run", "baseline"), self.samples, strict=True)
            if text
        )
        now, then = self.accuracies
        worse, better = len(self.worse), len(self.better)
        models = self.models
        asked = self._asked()
        return {
            "Suite": self.suite + (f" ({sampled})" if sampled else ""),
            "Provider": self.label,
            "Model": models[1] if models[0] == models[1] else " → ".join(models),
            "Prompt": self.prompt,
            "Changed": "; ".join(d.text() for d in self.credit.differences) or "nothing recorded",
            "Shared cases": len(self.joined),
            "Baseline": pct(then),
            "This run": pct(now),
            "Change": f"{now - then:+.1%}",
            "Regressions": worse,
            "Fixes": better,
            "McNemar exact p": p_text(self.p) if worse + better else "—",
            "MDE (80% power)": self.power.mde_text(),
            "Flaky": f"{self.flaky[1]} {'left out' if self.flaky[0] == 'exclude' else 'counted'}",
            # answers asked again after an earlier error (the cache never keeps errors): a
            # case that differs from a run that answered it from the cache says why
            "Asked again after an error": f"{asked[0]} / {asked[1]}",
            "Verdict": self.verdict,
        }

    def record(self, suite_tags: list[dict[str, object]]) -> dict[str, object]:
        """The pair as the comparison's JSON records it."""
        now, then = self.accuracies
        samples, models, asked = self.samples, self.models, self._asked()
        return {
            "suite": self.suite,
            "provider": self.provider,
            "provider_label": self.label,
            "variant": self.variants[0],
            "baseline_variant": self.variants[1],
            "prompt": self.prompt,
            "baseline_accuracy": round(then, 4),
            "accuracy": round(now, 4),
            **self.power.as_json(),
            "attribution": self.verdict,
            "model": models[1],
            "baseline_model": models[0],
            "provenance": self.credit.as_json(),
            "sentence": self.verdict + self.power.sentence()[len(self.power.verdict) :],
            "sample": samples[0] or None,
            "baseline_sample": samples[1] or None,
            "flaky": {"mode": self.flaky[0], "cases": self.flaky[1]},
            "asked_again_after_error": {"this_run": asked[0], "baseline": asked[1]},
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

    def metrics_row(self) -> dict[str, object]:
        """Latency and tokens, before and after, with Wilcoxon's signed-rank p."""
        joined = self.joined
        return {
            "Suite": self.suite,
            "Provider": self.label,
            "Prompt": self.prompt,
            "Median latency ms": _arrow(
                joined["latency_base"].median(), joined["latency"].median()
            ),
            "Latency Wilcoxon p": p_text(_wilcoxon(joined["latency"], joined["latency_base"])),
            "Mean tokens": _arrow(joined["tokens_base"].mean(), joined["tokens"].mean(), 1),
            "Tokens Wilcoxon p": p_text(_wilcoxon(joined["tokens"], joined["tokens_base"])),
        }

    def moved(self, frame: pd.DataFrame, *, regression: bool) -> list[dict[str, object]]:
        """The regressions (or fixes), case by case."""
        return [
            {
                "Suite": self.suite,
                "Provider": self.label,
                "Case": row.case_id,
                "Expected": row.expected,
                "Baseline got": row.got_base,
                "This run got": row.got,
                "Why": row.why if regression else row.why_base,
                "Note": _asked_again(row.asked_again, row.asked_again_base),
            }
            for row in frame.itertuples(index=False)
        ]
