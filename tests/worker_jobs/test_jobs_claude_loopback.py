"""The worker's jobs on Claude's structured generator, against the loopback server (scripted
answers in the Anthropic wire format, no network): the request shape each job sends, pairs and
messages fenced as data, and the answers applied to memory."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from evals.loopback import Answer
from evals.loopback.structured import loopback_structured
from pipeline.clock import utcnow
from pipeline.english import ENGLISH
from pipeline.jobs import reflect
from pipeline.prompting import default_library
from pipeline.providers.structured import StructuredGenerator
from pipeline.store import Store
from pipeline.store.people import get_person
from tests.conversations.helpers import talk
from tests.worker_jobs.helpers import facts, live, run

SAME_FACT = "tidying the long-term memory"
INSIGHTS = "reflecting, in the background"


@contextmanager
def _claude(answers: list[Answer]) -> Iterator[tuple[StructuredGenerator, list[dict[str, Any]]]]:
    with loopback_structured(answers) as found:
        yield found


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_claude_judges_a_batch_and_the_paraphrase_is_merged(store: Store, make_person) -> None:
    make_person(store)
    facts(
        store,
        "ana",
        "You work as a nurse",
        "You work as a nurse at the clinic",
        "You work as a teacher at the clinic",
    )
    verdicts = {
        "verdicts": [
            {"pair": 1, "same_fact": False},
            {"pair": 2, "same_fact": True},
        ]
    }
    answers = [Answer(kind="classify", system_contains=SAME_FACT, tool_input=verdicts)]
    with _claude(answers) as (generator, sent):
        done = run(store, "ana", utcnow(), generator=generator)
    assert len(sent) == 1  # both pairs in one request
    assert done.checked == 2 and done.merged == 1 and not done.errors
    assert done.methods and all(m.startswith("claude ") for m in done.methods)
    body = json.dumps(sent[0]["messages"])
    assert "<untrusted" in body and "You work as a teacher at the clinic" in body
    assert live(store, "ana") == [
        "You work as a nurse at the clinic",
        "You work as a teacher at the clinic",
    ]
    schema = sent[0]["tools"][0]["input_schema"]
    assert schema["$defs"]["PairVerdict"]["properties"]["pair"]["enum"] == [1, 2]


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_claude_insights_are_checked_and_stored(store: Store, make_person) -> None:
    make_person(store)
    talk(store, "ana", "Honestly I only trust advice once I have tried it myself.")
    insights = {
        "insights": [
            {"summary": "Ana trusts advice she has tested herself.", "tags": ["trust"]},
            {"summary": "You trust tested advice.", "tags": ["trust"]},
        ]
    }
    answers = [Answer(kind="classify", system_contains=INSIGHTS, tool_input=insights)]
    with _claude(answers) as (generator, sent), store.read() as session:
        person = get_person(session, "ana")
        done = reflect(
            store,
            person,
            now=utcnow(),
            library=default_library(),
            generator=generator,
            lexicon=ENGLISH,
        )
    assert (done.written, done.rejected) == (1, 1)
    assert sent[0]["max_tokens"] <= 220
    assert "tried it myself" in json.dumps(sent[0]["messages"])
