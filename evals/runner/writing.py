"""The writing target: a case's input through the real write path it names, and every new
memory item that path wrote, with the writing rules it broke as first written.

Compaction runs on the sandbox store exactly as after a turn (the threshold lowered so a short
conversation is due, as the compaction target does); extraction and closure read only what
they are given.
"""

from __future__ import annotations

import time
from datetime import timedelta
from typing import Any

from evals.dataset.writing import WritingCase
from evals.runner.outcome import NOW, Outcome
from evals.runner.providers import Bound
from evals.runner.sandbox import Sandbox
from pipeline.compaction import compact_if_due
from pipeline.conversations import CompressionInput, compress
from pipeline.domain import Role
from pipeline.errors import ConverseError
from pipeline.extraction import extract_facts
from pipeline.memory.writing import Admitted, Verdict
from pipeline.providers import ExtractiveSummarizer
from pipeline.settings import Settings
from pipeline.store import add_turn

_SETTINGS = Settings.model_validate({"compaction_keep_turns": 2}).model_copy(
    update={"compaction_threshold_tokens": 20}
)


def _item(admitted: Admitted) -> dict[str, Any]:
    return {
        "text": admitted.first.text,
        "problems": list(admitted.first.problems),
        "stored": admitted.text,
    }


def _extraction(case: WritingCase, bound: Bound) -> tuple[list[Admitted], str]:
    assert case.message is not None
    found = extract_facts(
        case.message,
        operator_name=case.person,
        library=bound.library,
        generator=bound.structured,
        lexicon=bound.lexicon,
    )
    return list(found.checked), found.method


def _compaction(case: WritingCase, bound: Bound, sandbox: Sandbox) -> tuple[list[Admitted], str]:
    person, _ = sandbox.seeded([], [], [], NOW, name=case.person)
    now, last = NOW, 0
    for role, text in case.roles:
        now += timedelta(minutes=1)
        with sandbox.store.write() as session:
            last = add_turn(
                session,
                person_id=person.id,
                engagement_id=None,
                role=Role(role),
                content=text,
                intent="general_conversation",
                channel="eval",
                created_at=now,
            ).id
    done = compact_if_due(
        sandbox.store,
        person_id=person.id,
        engagement_id=None,
        last_turn_id=last,
        summarizer=bound.summarizer or ExtractiveSummarizer(),
        library=bound.library,
        settings=_SETTINGS,
        now=now,
        lexicon=bound.lexicon,
    )
    if done is None:
        raise ConverseError("the conversation was not compacted", "lengthen its turns")
    return list(done.checked), done.method


def _closure(case: WritingCase, bound: Bound) -> tuple[list[Admitted], str]:
    data = CompressionInput(operator_name=case.person, turns=tuple(case.roles))
    extraction = compress(data, bound.library, bound.structured, lexicon=bound.lexicon)
    stage = next(s for s in extraction.stages if s.stage == "narrative")
    # A model's narrative that was rejected is replaced before it is returned: the draft holds
    # the replacement, and the first-pass verdict is the rejected one's (`narrative_problems`).
    verdict = Verdict(extraction.narrative, extraction.narrative_problems)
    return [Admitted(verdict, extraction.narrative)], stage.method


def run_writing(case: WritingCase, bound: Bound, sandbox: Sandbox) -> Outcome:
    """The path's new items and their first-pass verdicts."""
    started = time.perf_counter()
    try:
        if case.path == "extraction":
            items, method = _extraction(case, bound)
        elif case.path == "compaction":
            items, method = _compaction(case, bound, sandbox)
        else:
            items, method = _closure(case, bound)
    except ConverseError as exc:
        return Outcome(got={}, error=exc.one_line(), model=bound.model)
    elapsed = (time.perf_counter() - started) * 1000
    return Outcome(
        got={"path": case.path, "method": method, "items": [_item(a) for a in items]},
        model=bound.model,
        latency_ms=elapsed,
        cassette=bound.cassette,
    )
