"""The examples file: well-formed, cached by content, and disjoint from every eval case."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import yaml

from pipeline.config import PROJECT_ROOT
from pipeline.errors import ConverseError
from pipeline.intents.taxonomy import INTENTS
from pipeline.providers.local.examples import REPLY_KINDS, cached_arrays, load_examples

EVAL_DIRS = [PROJECT_ROOT / "evals" / "suites", PROJECT_ROOT / "evals" / "heldout"]


def _norm(text: str) -> str:
    return re.sub(r"[^\w']+", " ", text.casefold()).strip()


def _eval_messages() -> list[tuple[str, str]]:
    found = []
    for folder in EVAL_DIRS:
        for path in sorted(folder.glob("*.yaml")):
            data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
            for case in data.get("cases") or []:
                if isinstance(case, dict) and case.get("message"):
                    found.append((f"{path.name}:{case.get('id')}", str(case["message"])))
    return found


def test_examples_cover_every_intent_and_reply_kind() -> None:
    examples = load_examples()
    assert set(examples.intents) == set(INTENTS)
    assert set(examples.reply_kinds) == set(REPLY_KINDS)
    assert len(examples.texts) == len(examples.labels) > 400
    assert len(examples.sha256) == 64


def test_no_eval_case_message_is_among_the_examples() -> None:
    examples = load_examples()
    known = {_norm(t) for t in examples.texts + examples.reply_texts}
    cases = _eval_messages()
    assert cases, "no eval cases found; the check would be empty"
    leaked = [case for case, message in cases if _norm(message) in known]
    assert leaked == []


def test_unknown_intent_is_reported_with_the_file(tmp_path: Path) -> None:
    path = tmp_path / "examples.yaml"
    path.write_text("intents:\n  make_coffee: ['brew one']\n", encoding="utf-8")
    with pytest.raises(ConverseError, match="unknown intent 'make_coffee'"):
        load_examples(path)


def test_embeddings_are_cached_by_file_content(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fake_embedder: Any
) -> None:
    monkeypatch.setenv("CONVERSE_CACHE_DIR", str(tmp_path / "cache"))
    path = tmp_path / "examples.yaml"
    path.write_text(
        "intents:\n  general_conversation: ['hello there', 'how are you']\n"
        "replies:\n  confirm: ['yes']\n",
        encoding="utf-8",
    )
    embedder = fake_embedder
    derived = []

    def derive(vectors: np.ndarray, replies: np.ndarray) -> dict[str, np.ndarray]:
        derived.append(1)
        return {"extra": vectors.sum(axis=0)}

    first = cached_arrays(load_examples(path), embedder, "v1", derive)
    second = cached_arrays(load_examples(path), embedder, "v1", derive)
    assert embedder.embedded == ["hello there", "how are you", "yes"]
    assert len(derived) == 1
    assert np.array_equal(first["examples"], second["examples"])
    assert second["replies"].shape == (1, embedder.dim)
    path.write_text(path.read_text(encoding="utf-8") + "  reject: ['no']\n", encoding="utf-8")
    cached_arrays(load_examples(path), embedder, "v1", derive)
    assert len(derived) == 2
