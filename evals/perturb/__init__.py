"""Meaning-preserving perturbations of suite messages, and the robustness figures they give."""

from evals.perturb.cases import PERTURBED_TARGETS, messages, needles, perturb_case
from evals.perturb.robustness import (
    perturbation_figures,
    perturbation_of,
    robustness,
    robustness_failures,
    split_rows,
)
from evals.perturb.spec import (
    DEFAULT_SEED,
    PRESETS,
    Perturbation,
    PerturbError,
    parse_perturbations,
    valid_names,
)
from evals.perturb.transforms import TRANSFORMS, protected_spans

__all__ = [
    "DEFAULT_SEED",
    "PERTURBED_TARGETS",
    "PRESETS",
    "TRANSFORMS",
    "PerturbError",
    "Perturbation",
    "messages",
    "needles",
    "parse_perturbations",
    "perturb_case",
    "perturbation_figures",
    "perturbation_of",
    "protected_spans",
    "robustness",
    "robustness_failures",
    "split_rows",
    "valid_names",
]
