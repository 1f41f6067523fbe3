"""The examples file: well-formed, cached by content, and disjoint from every eval case."""

from __future__ import annotations

import hashlib
import re
from dataclasses import replace
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

# A message this close to a labelled example (cosine of their all-MiniLM-L6-v2 vectors) is a
# paraphrase the nearest-example classifier has effectively seen: the case would score recall
# of the examples file, not generalisation.
NEAR_DUPLICATE = 0.9

# Short replies to an offer ("yes", "forget it") are shared by any two sets of conversations;
# one to three words leave nothing to reword, so these may equal or nearly equal an example.
# Keep the list small and explicit: a longer message never belongs here.
SHARED_SHORT_REPLIES = frozenset({"forget it"})

# Messages quoted verbatim from the behaviour documentation (docs/intents.md, which carries the
# specification's examples) must pass as written even when an example was modelled on them;
# they are exempt from the near-duplicate check only, never from the exact one.
INTENTS_DOC = PROJECT_ROOT / "docs" / "intents.md"
DOCUMENTED_QUOTES = frozenset(
    {
        "I set the oven to 220 for this recipe",
        "no, just this project",
    }
)

# Targets whose messages reach the intent classifier. A forget_match case's `message` is a
# forget description handed straight to the matcher, which never reads the examples.
CLASSIFIED_TARGETS = {"classify", "converse", "conversation"}


def _norm(text: str) -> str:
    return re.sub(r"[^\w']+", " ", text.casefold()).strip()


def _case_messages(case: dict[str, Any]) -> list[str]:
    """The single message of a case, or every operator message of a whole conversation."""
    found = [str(case["message"])] if case.get("message") else []
    for turn in case.get("turns") or []:
        if isinstance(turn, dict) and turn.get("message"):
            found.append(str(turn["message"]))
    return found


def _eval_messages(targets: set[str] | None = None) -> list[tuple[str, str]]:
    found = []
    for folder in EVAL_DIRS:
        for path in sorted(folder.glob("*.yaml")):
            data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
            if targets is not None and data.get("target") not in targets:
                continue
            for case in data.get("cases") or []:
                if isinstance(case, dict):
                    for message in _case_messages(case):
                        found.append((f"{path.name}:{case.get('id')}", message))
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
    leaked = [
        (case, message)
        for case, message in cases
        if _norm(message) in known and _norm(message) not in SHARED_SHORT_REPLIES
    ]
    assert leaked == []


def test_conversation_turns_are_among_the_checked_messages() -> None:
    checked = {case.split(":")[0] for case, _ in _eval_messages()}
    assert "conversations.yaml" in checked


def test_allowlists_stay_short_and_documented() -> None:
    assert all(1 <= len(reply.split()) <= 3 for reply in SHARED_SHORT_REPLIES)
    doc = INTENTS_DOC.read_text(encoding="utf-8")
    assert [quote for quote in DOCUMENTED_QUOTES if quote not in doc] == []


@pytest.mark.slow
def test_no_eval_case_message_nearly_repeats_an_example(embedder: Any) -> None:
    examples = load_examples()
    known = list(examples.texts + examples.reply_texts)
    cases = [
        (case, message)
        for case, message in _eval_messages(CLASSIFIED_TARGETS)
        if _norm(message) not in SHARED_SHORT_REPLIES and message not in DOCUMENTED_QUOTES
    ]
    assert len(cases) > 500, "the classified suites should all be in the check"
    similarity = embedder.embed([m for _, m in cases]) @ embedder.embed(known).T
    nearest = similarity.argmax(axis=1)
    close = [
        (case, message, known[j], round(float(similarity[i, j]), 3))
        for i, ((case, message), j) in enumerate(zip(cases, nearest, strict=True))
        if similarity[i, j] >= NEAR_DUPLICATE
    ]
    assert close == []


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


def test_an_intent_the_file_lacks_brings_its_spec_examples(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "examples.yaml"
    path.write_text("intents:\n  general_conversation: ['hello there']\n", encoding="utf-8")
    before = load_examples(path)
    web = INTENTS["web_search"]
    monkeypatch.setitem(INTENTS, "web_search", replace(web, examples=("find oat prices online",)))
    talk = INTENTS["general_conversation"]
    monkeypatch.setitem(
        INTENTS, "general_conversation", replace(talk, examples=("not added: the file has it",))
    )
    after = load_examples(path)
    assert after.texts == ("hello there", "find oat prices online")
    assert after.labels == ("general_conversation", "web_search")
    assert after.sha256 != before.sha256  # the added examples join the cache key


def test_the_released_examples_file_is_read_as_it_was() -> None:
    """No released intent brings examples of its own, so the file's sha256 is the cache key."""
    examples = load_examples()
    file_sha = hashlib.sha256(
        (PROJECT_ROOT / "fixtures" / "local_model" / "examples.yaml").read_bytes()
    ).hexdigest()
    assert examples.sha256 == file_sha
