"""The embedding model's spread on the examples file, from which the thresholds are derived.

`python -m pipeline.providers.local.spread [onnx|torch ...]` prints, per embedder, the figures
docs/local-model.md derives its thresholds from. Only the examples file is used, never an
eval suite:

- forget matching (FORGET_MIN_SIMILARITY 0.42, FORGET_MARGIN 0.15): cosine of every
  forget_about_me example to every remember_about_me example (mostly unrelated pairs), its
  95th and 99th percentiles (the floor lies between them), and each request's gap between its
  best and second-best fact, median and 75th percentile (the margin lies between them);
- classifier confidence (MIN_CONFIDENCE 0.30): 5-fold cross-validation of the probe plus
  nearest examples, and the confidence of right and wrong predictions;
- reply kinds (REPLY_MIN_SIMILARITY 0.55): each reply example's top-3 mean cosine to the
  other examples of its own kind and of the nearest other kind (leave one out).
"""

from __future__ import annotations

import json
import sys
from typing import Any

import numpy as np
import numpy.typing as npt

from pipeline.english.language import cue_matrix
from pipeline.memory.embeddings import Vectors
from pipeline.providers.local import probe
from pipeline.providers.local.examples import Examples, load_examples
from pipeline.providers.local.model import MiniLMEmbedder
from pipeline.providers.local.nearest import Groups

FOLDS = 5
KNN_WEIGHT = 2.0  # the classifier's (pipeline/providers/local/classifier.py)


def _pct(values: npt.ArrayLike, q: float) -> float:
    return round(float(np.percentile(np.asarray(values), q)), 3)


def forget_spread(examples: Examples, vectors: Vectors) -> dict[str, float]:
    """Percentiles of forget-request x personal-fact cosines, and of best-second gaps."""
    labels = np.array(examples.labels)
    requests = vectors[labels == "forget_about_me"]
    facts = vectors[labels == "remember_about_me"]
    similarity = requests @ facts.T
    ordered = -np.sort(-similarity, axis=1)
    gap = ordered[:, 0] - ordered[:, 1]
    return {
        "pairs_p95": _pct(similarity, 95),
        "pairs_p99": _pct(similarity, 99),
        "gap_p50": _pct(gap, 50),
        "gap_p75": _pct(gap, 75),
    }


def confidence_spread(examples: Examples, vectors: Vectors) -> dict[str, float]:
    """Cross-validated confidence of right and wrong predictions on the examples file."""
    intents = examples.intents
    labels = np.array([intents.index(label) for label in examples.labels], dtype=np.int64)
    inputs = probe.design(vectors, cue_matrix(list(examples.texts)))
    folds = np.arange(len(labels)) % FOLDS
    confidence = np.zeros(len(labels), dtype=np.float32)
    predicted = np.zeros(len(labels), dtype=np.int64)
    for fold in range(FOLDS):
        train, test = folds != fold, folds == fold
        weights = probe.fit(inputs[train], labels[train], len(intents))
        nearest = Groups.of(labels[train], len(intents)).top_mean(vectors[test] @ vectors[train].T)
        probs = probe.probabilities(inputs[test] @ weights + KNN_WEIGHT * nearest)
        predicted[test] = probs.argmax(axis=1)
        confidence[test] = probs.max(axis=1)
    right = predicted == labels
    return {
        "cv_accuracy": round(float(right.mean()), 3),
        "right_p5": _pct(confidence[right], 5),
        "right_p10": _pct(confidence[right], 10),
        "wrong_p50": _pct(confidence[~right], 50),
        "wrong_p75": _pct(confidence[~right], 75),
        "wrong_below_0.30": round(float((confidence[~right] < 0.30).mean()), 3),
        "right_below_0.30": round(float((confidence[right] < 0.30).mean()), 3),
    }


def reply_spread(examples: Examples, replies: Vectors) -> dict[str, float]:
    """Leave-one-out top-3 cosine of reply examples to their own kind and to the others."""
    kinds = tuple(dict.fromkeys(examples.reply_kinds))
    groups = np.array([kinds.index(k) for k in examples.reply_kinds], dtype=np.int64)
    similarity = replies @ replies.T
    np.fill_diagonal(similarity, -1.0)
    means = Groups.of(groups, len(kinds)).top_mean(similarity)
    own = means[np.arange(len(groups)), groups]
    means[np.arange(len(groups)), groups] = -1.0
    other = means.max(axis=1)
    return {
        "own_p10": _pct(own, 10),
        "own_p25": _pct(own, 25),
        "other_p75": _pct(other, 75),
        "other_p90": _pct(other, 90),
        "other_p95": _pct(other, 95),
    }


def spread(backend: str) -> dict[str, Any]:
    """Every figure for one embedder."""
    examples = load_examples()
    embedder = MiniLMEmbedder(backend)
    vectors = embedder.embed(list(examples.texts))
    replies = embedder.embed(list(examples.reply_texts))
    return {
        "embedder": embedder.embedder_id,
        "forget": forget_spread(examples, vectors),
        "confidence": confidence_spread(examples, vectors),
        "replies": reply_spread(examples, replies),
    }


if __name__ == "__main__":
    for name in sys.argv[1:] or ["onnx"]:
        print(json.dumps(spread(name)))
