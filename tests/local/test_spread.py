"""The thresholds still lie where the default embedder's spread on the examples file puts them."""

from __future__ import annotations

import pytest

from pipeline.memory.search import FORGET_MARGIN, FORGET_MIN_SIMILARITY
from pipeline.providers.local.classifier import MIN_CONFIDENCE
from pipeline.providers.local.continuation import REPLY_MIN_SIMILARITY
from pipeline.providers.local.spread import spread


@pytest.mark.slow
def test_thresholds_lie_within_the_brackets_of_the_onnx_spread() -> None:
    figures = spread("onnx")
    forget, confidence, replies = figures["forget"], figures["confidence"], figures["replies"]
    assert forget["pairs_p95"] < FORGET_MIN_SIMILARITY < forget["pairs_p99"]
    assert forget["gap_p50"] < FORGET_MARGIN < forget["gap_p75"]
    assert confidence["right_p5"] > MIN_CONFIDENCE
    assert confidence["right_below_0.30"] < 0.01
    assert replies["other_p95"] < REPLY_MIN_SIMILARITY
