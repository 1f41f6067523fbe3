"""What produced a run's numbers, per suite × provider × prompt variant, and what differs
between two runs.

A comparison credits a change to the prompt only when the prompt is the one thing that
differs: two runs on different models, suites, samples or code are different experiments, and
a McNemar p says nothing about which difference moved the verdicts. Each dimension here is
read from the rows and run.json (older runs lack some; an unknown value is never a difference).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from evals.perturb import split_rows

# Every dimension, in the order a difference is named; `--allow-change` takes these names.
DIMENSIONS = (
    "provider",
    "model",
    "weights",
    "settings",
    "suite",
    "sample",
    "perturbation",
    "commit",
    "prompt",
)
# Perturbed rows are never paired in a comparison: a different perturbation is listed, but it
# cannot have moved a compared verdict.
NOT_CONFOUNDING = frozenset({"perturbation"})
_SECRET_WORDS = ("key", "token", "secret", "password")

Key = tuple[str, str, str]  # suite, provider, variant


@dataclass(frozen=True)
class Difference:
    """One dimension whose value differs between the baseline and this run."""

    dimension: str
    before: str
    after: str

    def text(self) -> str:
        """'model: smollm2 → qwen2.5'."""
        return f"{self.dimension}: {self.before or '—'} → {self.after or '—'}"


@dataclass(frozen=True)
class Attribution:
    """What a comparison's change can be credited to."""

    differences: tuple[Difference, ...]
    allowed: frozenset[str]

    @property
    def changed(self) -> list[str]:
        """The names of the dimensions that differ."""
        return [d.dimension for d in self.differences]

    @property
    def confounders(self) -> list[str]:
        """Differences other than the prompt that were not allowed on purpose."""
        return [
            d
            for d in self.changed
            if d != "prompt" and d not in self.allowed and d not in NOT_CONFOUNDING
        ]

    @property
    def attributable(self) -> bool:
        """Whether the change can be credited to what was compared."""
        return not self.confounders

    def subject(self) -> str:
        """What a finding is credited to: 'prompt', 'model qwen → smol', 'model and prompt'."""
        compared = [
            d
            for d in self.differences
            if d.dimension == "prompt"
            or (d.dimension in self.allowed and d.dimension not in NOT_CONFOUNDING)
        ]
        if not compared:
            return "no recorded difference"
        parts = [
            d.dimension if d.dimension == "prompt" else f"{d.dimension} {d.before} → {d.after}"
            for d in compared
        ]
        return _and(parts)

    def label(self, verdict: str) -> str:
        """The verdict with what it is credited to, or why it cannot be credited."""
        if self.confounders:
            what = _and(sorted(set(self.changed) - NOT_CONFOUNDING, key=DIMENSIONS.index))
            said = verdict.replace("finding: ", "finding ")
            return f"{what} changed: cannot attribute ({said})"
        if not verdict.startswith("finding") or not self.differences:
            return verdict
        return f"{verdict} ({self.subject()})"

    def as_json(self) -> dict[str, object]:
        """The differences for `--json`."""
        return {
            "changed": self.changed,
            "differences": [d.__dict__ for d in self.differences],
            "allowed": sorted(self.allowed),
            "attributable": self.attributable,
        }


def _and(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _settings(options: Any) -> str:
    if not isinstance(options, Mapping):
        return ""
    shown = [
        f"{k}={'***' if any(w in str(k).lower() for w in _SECRET_WORDS) else v}"
        for k, v in sorted(options.items())
    ]
    return ", ".join(shown) or "defaults"


def _joined(values: Iterable[Any]) -> str:
    return ", ".join(sorted({str(v) for v in values if v not in (None, "", {})}))


def _sample(value: Any) -> str:
    if not isinstance(value, Mapping):
        return "whole suite"
    return f"{value.get('n')} of {value.get('of')}, seed {value.get('seed')}"


def _listed(value: object) -> list[Any]:
    """A row's list field, or nothing when the row holds something else there."""
    return value if isinstance(value, list) else []


def _prompts(rows: list[dict[str, Any]]) -> str:
    labels = _joined(
        ", ".join(f"{k}={v}" for k, v in sorted((r.get("prompt") or {}).items())) for r in rows
    )
    refs = sorted(
        {
            f"{p.get('family')}/{p.get('version')}@{str(p.get('sha256') or '')[:8]}"
            for r in rows
            for p in _listed(r.get("prompts"))
            if isinstance(p, Mapping)
        }
    )
    digest = hashlib.sha256("\n".join(refs).encode()).hexdigest()[:8] if refs else ""
    return f"{labels} (templates {digest})" if digest else labels


def _commit(meta: Mapping[str, Any]) -> str:
    git = meta.get("git")
    if not isinstance(git, Mapping) or not git.get("commit"):
        return ""
    return str(git["commit"])[:12] + (" (dirty)" if git.get("dirty") else "")


def _perturbation(meta: Mapping[str, Any]) -> str:
    config = meta.get("config")
    if not isinstance(config, Mapping) or not config.get("perturb"):
        return "none"
    names = config["perturb"]
    listed = ",".join(str(n) for n in names) if isinstance(names, list) else str(names)
    return f"{listed} (seed {config.get('perturb_seed', 0)})"


def run_provenance(
    meta: Mapping[str, Any], rows: list[dict[str, Any]]
) -> dict[Key, dict[str, str]]:
    """Per (suite, provider, variant): each dimension's value ("" when the run did not say)."""
    config = meta.get("config")
    options = config.get("provider_options") if isinstance(config, Mapping) else None
    info = meta.get("suite_info")
    suites = {
        str(s.get("name")): str(s.get("cases_sha256") or "")[:12]
        for s in (info if isinstance(info, list) else [])
        if isinstance(s, Mapping)
    }
    grouped: dict[Key, list[dict[str, Any]]] = {}
    for row in split_rows(rows)[0]:
        key = (str(row["suite"]), str(row["provider"]), str(row.get("variant", "active")))
        grouped.setdefault(key, []).append(row)
    out: dict[Key, dict[str, str]] = {}
    for key, group in grouped.items():
        suite, provider, _ = key
        cassettes = _joined(r.get("cassette") for r in group)
        provider_options = options.get(provider) if isinstance(options, Mapping) else None
        out[key] = {
            "provider": provider + (f" (replayed from {cassettes})" if cassettes else ""),
            "model": _joined(r.get("model") for r in group),
            "weights": _joined(str(r.get("weights_sha256") or "")[:12] for r in group),
            "settings": _settings(provider_options) if isinstance(config, Mapping) else "",
            "suite": suites.get(suite, ""),
            "sample": _joined(_sample(r.get("sample")) for r in group),
            "perturbation": _perturbation(meta),
            "commit": _commit(meta),
            "prompt": _prompts(group),
        }
    return out


def differences(before: Mapping[str, str], after: Mapping[str, str]) -> tuple[Difference, ...]:
    """The dimensions both runs recorded and that differ, in DIMENSIONS order."""
    return tuple(
        Difference(d, before[d], after[d])
        for d in DIMENSIONS
        if before.get(d) and after.get(d) and before[d] != after[d]
    )


def check_allowed(names: Iterable[str]) -> frozenset[str]:
    """`--allow-change` names, or ValueError naming an unknown one and the valid ones."""
    wanted = frozenset(n.strip() for name in names for n in name.split(",") if n.strip())
    unknown = sorted(wanted - set(DIMENSIONS))
    if unknown:
        valid = ", ".join(DIMENSIONS)
        raise ValueError(f"--allow-change {unknown[0]!r} is not a dimension; valid: {valid}")
    return wanted
