"""Naming perturbations: a transform, a preset, or transforms joined with `+`, and the seeded
rewrite of one message under one of them."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from random import Random

from evals.perturb.transforms import TRANSFORMS, protected_spans
from pipeline.errors import ConverseError

# Named chains of transforms; `all` is not a chain but every transform on its own.
PRESETS: dict[str, tuple[str, ...]] = {
    "casual": ("lower", "no_final_punct"),
}
ALL = "all"
NONE = "none"
DEFAULT_SEED = 0


class PerturbError(ConverseError):
    """A perturbation name that no transform or preset has."""


@dataclass(frozen=True)
class Perturbation:
    """One variant of every message: its name (the rows' `perturbation` column) and the
    transforms it applies, in order."""

    name: str
    steps: tuple[str, ...]

    def apply(self, text: str, needles: tuple[str, ...], seed: int, where: str) -> str:
        """The message rewritten; `where` (case id and message position) and the seed choose
        every random step, so a message is rewritten the same way in every run."""
        for step in self.steps:
            rng = Random(f"{seed}|{step}|{where}")
            text = TRANSFORMS[step](text, rng, needles)
        return text


def valid_names() -> list[str]:
    """Every name `--perturb` and a suite's `perturb:` accept."""
    return [*TRANSFORMS, *PRESETS, ALL, NONE]


def _unknown(name: str) -> PerturbError:
    return PerturbError(
        f"unknown perturbation {name!r}; valid: {', '.join(valid_names())}",
        "join transforms with + to chain them, e.g. lower+keyboard_typos",
    )


def parse_perturbations(names: Iterable[str]) -> tuple[Perturbation, ...]:
    """Perturbations from names (each may be a comma-separated list): a transform, a preset,
    `a+b` (a then b), `all` (each transform alone) or `none` (no perturbation)."""
    items = [part.strip() for name in names for part in name.split(",") if part.strip()]
    found: dict[str, Perturbation] = {}
    for item in items:
        if item == NONE:
            continue
        if item == ALL:
            for name in TRANSFORMS:
                found.setdefault(name, Perturbation(name, (name,)))
            continue
        steps: list[str] = []
        for part in item.split("+"):
            part = part.strip()
            if part in TRANSFORMS:
                steps.append(part)
            elif part in PRESETS:
                steps.extend(PRESETS[part])
            else:
                raise _unknown(part)
        found.setdefault(item, Perturbation(item, tuple(steps)))
    if NONE in items and found:
        raise PerturbError(
            "`none` cannot be combined with other perturbations", "give `none` alone"
        )
    return tuple(found.values())


def needle_safe(before: str, after: str, needles: tuple[str, ...]) -> bool:
    """Whether every needle occurs in the rewritten message as often as in the original
    (case-insensitively): the guard every rewrite passes before it is used."""
    return all(
        len(protected_spans(before, [n])) <= len(protected_spans(after, [n])) for n in needles
    )
