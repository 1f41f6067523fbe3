"""The compaction threshold is measured by the summarizer's model when it can count tokens
(Claude's count_tokens), else estimated at 4 characters a token; a failed count falls back to
the estimate and is logged once."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta

import pytest

from pipeline import compaction
from pipeline.compaction import compact_if_due, measure
from pipeline.domain import Engagement, HistoryTurn, Person, Role
from pipeline.english import ENGLISH
from pipeline.errors import ProviderError
from pipeline.prompting import default_library
from pipeline.providers.summarize import SummarizeRequest, Summary, TokenCounter
from pipeline.settings import Settings
from pipeline.store import Store
from pipeline.store.turns import add_turn

T0 = datetime(2026, 5, 4, 9, 0, tzinfo=UTC)
TEXT = "the kitchen tiles are being laid this week, and the grout is grey "  # 66 characters


class Counting:
    """A summarizer whose model counts `per_turn` tokens a turn, or fails to count."""

    def __init__(self, name: str, per_turn: int = 0, fail: bool = False) -> None:
        self.name = name
        self.per_turn = per_turn
        self.fail = fail
        self.counted: list[int] = []
        self.summarized = 0

    def count_tokens(self, turns: Sequence[HistoryTurn]) -> int:
        self.counted.append(len(turns))
        if self.fail:
            raise ProviderError("the count endpoint answered HTTP 500", "later")
        return self.per_turn * len(turns)

    def summarize(self, request: SummarizeRequest) -> Summary:
        self.summarized += 1
        return Summary(f"{len(request.turns)} turns folded", method=self.name)


def _store_turns(store: Store, person: Person, count: int) -> int:
    last = 0
    with store.write() as session:
        for i in range(count):
            last = add_turn(
                session,
                person_id=person.id,
                engagement_id=None,
                role=Role.OPERATOR if i % 2 == 0 else Role.COMPANION,
                content=TEXT,
                intent="general_conversation",
                created_at=T0 + timedelta(minutes=i),
            ).id
    return last


def _compact(store: Store, person: Person, last: int, summarizer: Counting):  # type: ignore[no-untyped-def]
    settings = Settings(compaction_threshold_tokens=500, compaction_keep_turns=2)
    return compact_if_due(
        store,
        person_id=person.id,
        engagement_id=None,
        last_turn_id=last,
        summarizer=summarizer,
        library=default_library(),
        settings=settings,
        now=T0 + timedelta(hours=1),
        lexicon=ENGLISH,
    )


def test_a_counting_summarizer_is_a_token_counter() -> None:
    assert isinstance(Counting("x"), TokenCounter)


def test_the_models_count_decides_when_it_says_more_than_the_estimate(
    store: Store, make_person: Callable[..., tuple[Person, Engagement]]
) -> None:
    person, _ = make_person(store)
    last = _store_turns(store, person, 20)  # 1,320 characters: 330 tokens by the estimate
    counter = Counting("counting", per_turn=30)  # 600 tokens by the model's count
    done = _compact(store, person, last, counter)
    assert counter.counted == [20]
    assert done is not None and done.measured_by == "count_tokens"
    assert done.folded_turns == 18


def test_the_models_count_decides_when_it_says_less_than_the_estimate(
    store: Store, make_person: Callable[..., tuple[Person, Engagement]]
) -> None:
    person, _ = make_person(store)
    last = _store_turns(store, person, 40)  # 2,640 characters: 660 tokens by the estimate
    counter = Counting("counting", per_turn=10)  # 400 tokens by the model's count
    assert _compact(store, person, last, counter) is None
    assert counter.counted == [40] and counter.summarized == 0


def test_far_below_the_threshold_no_count_is_asked(
    store: Store, make_person: Callable[..., tuple[Person, Engagement]]
) -> None:
    person, _ = make_person(store)
    last = _store_turns(store, person, 3)  # 198 characters, under half a character a token
    counter = Counting("counting", per_turn=1_000)
    assert _compact(store, person, last, counter) is None
    assert counter.counted == []


def test_a_failed_count_falls_back_to_the_estimate_and_is_logged_once(
    store: Store,
    make_person: Callable[..., tuple[Person, Engagement]],
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(compaction, "_warned", set())
    person, _ = make_person(store)
    last = _store_turns(store, person, 40)  # 660 tokens by the estimate: over 500
    counter = Counting("flaky", fail=True)
    with caplog.at_level(logging.WARNING, logger="pipeline.compaction"):
        done = _compact(store, person, last, counter)
        again = measure([HistoryTurn(role=Role.OPERATOR, content=TEXT)] * 40, counter)
    assert done is not None and done.measured_by == "estimate"
    assert again == (40 * len(TEXT) / 4, "estimate")
    warnings = [r for r in caplog.records if "could not count tokens" in r.getMessage()]
    assert len(warnings) == 1
    assert "flaky" in warnings[0].getMessage() and "HTTP 500" in warnings[0].getMessage()


def test_a_summarizer_that_cannot_count_is_measured_by_the_estimate() -> None:
    class Plain:
        name = "plain"

        def summarize(self, request: SummarizeRequest) -> Summary:
            return Summary("x")

    turns = [HistoryTurn(role=Role.OPERATOR, content="a" * 400)]
    assert measure(turns, Plain()) == (100.0, "estimate")
