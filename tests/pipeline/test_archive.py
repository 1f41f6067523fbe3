"""Deep recall (pipeline/memory/archive.py): past turns and facts by shared keywords, in the
turn's scope only, within a token budget of whole lines."""

from __future__ import annotations

from datetime import timedelta

from pipeline.clock import utcnow
from pipeline.domain import ActorKind, NormativeForce, Role
from pipeline.english import ENGLISH
from pipeline.memory.archive import recall, within_budget
from pipeline.store import Store
from pipeline.store import assertions as repo
from pipeline.store.people import create_person, create_project
from pipeline.store.turns import add_turn


def test_within_budget_keeps_whole_lines_at_four_characters_a_token() -> None:
    lines = ["a" * 30, "b" * 30, "c" * 30]
    assert within_budget(lines, 15) == lines[:1]  # 60 characters: the second line needs 61
    assert within_budget(lines, 16) == lines[:2]
    assert within_budget(lines, 0) == []


def test_recall_finds_turns_of_this_scope_and_facts_within_the_budget(sqlite_store: Store) -> None:
    now = utcnow()
    with sqlite_store.write() as session:
        person = create_person(session, "Ana")
        project = create_project(session, person, "Garden", "Vegetables")
        for content, engagement in [
            ("I booked the dentist for the ninth of March", None),
            ("the dentist in the garden project", project.id),
            ("I had soup", None),
        ]:
            add_turn(
                session,
                person_id=person.id,
                engagement_id=engagement,
                role=Role.OPERATOR,
                content=content,
                intent="general_conversation",
                operation_data={},
                channel="test",
                meta={},
            )
        assert person.personal_engagement_id is not None
        repo.add_assertion(
            session,
            person.personal_engagement_id,
            "Your dentist is Dr Okafor",
            ActorKind.COMPANION,
            NormativeForce.COMMITTED,
        )
    with sqlite_store.read() as session:
        found = recall(
            session,
            person_id=person.id,
            operator_name="Ana",
            fact_engagement_ids=[person.personal_engagement_id],
            turn_engagement_id=None,
            query="when is my dentist appointment?",
            now=now + timedelta(days=1),
        )
        tight = recall(
            session,
            person_id=person.id,
            operator_name="Ana",
            fact_engagement_ids=[person.personal_engagement_id],
            turn_engagement_id=None,
            query="dentist",
            now=now,
            budget_tokens=12,
        )
    assert found.facts == 1 and found.turns == 1
    assert "Dr Okafor" in found.lines[0] and "ninth of March" in found.lines[1]
    assert "garden project" not in found.text and "soup" not in found.text
    assert len(tight.text) <= 12 * 4


def test_a_lent_lexicons_stop_words_name_nothing_in_a_search(sqlite_store: Store) -> None:
    now = utcnow()
    with sqlite_store.write() as session:
        person = create_person(session, "Ana")
        add_turn(
            session,
            person_id=person.id,
            engagement_id=None,
            role=Role.OPERATOR,
            content="the thing about the van",
            intent="general_conversation",
            operation_data={},
            channel="test",
            meta={},
        )
    assert person.personal_engagement_id is not None

    def search(query: str, stop_words: frozenset[str]) -> str:
        with sqlite_store.read() as session:
            return recall(
                session,
                person_id=person.id,
                operator_name="Ana",
                fact_engagement_ids=[person.personal_engagement_id],
                turn_engagement_id=None,
                query=query,
                now=now,
                stop_words=stop_words,
            ).text

    english = ENGLISH.stop_words
    assert "van" in search("the thing", frozenset())  # no lexicon: every word counts
    assert search("the thing", english) == ""  # "the" and "thing" name nothing in English
    assert "van" in search("the van", english)
