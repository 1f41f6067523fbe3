"""The personal-memory block: format, budget, relative time (spec D7, prompt tests)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from pipeline.domain import ActorKind, NormativeForce
from pipeline.memory.block import HEADER, format_block, load_personal_memory
from pipeline.memory.relative_time import relative_time
from pipeline.store import assertions as repo

NOW = datetime(2026, 5, 6, 12, 0, tzinfo=UTC)


def test_the_block_is_formatted_as_specified():
    memories = [
        ("You're allergic to all shellfish", NOW - timedelta(days=3)),
        ("Your birthday is March 15th", NOW - timedelta(days=8)),
        ("You prefer metric units", NOW - timedelta(days=15)),
    ]
    assert format_block(memories, NOW) == (
        "PERSONAL MEMORY\n"
        "Things you've told me about yourself:\n"
        "- You're allergic to all shellfish (noted 3 days ago)\n"
        "- Your birthday is March 15th (noted last week)\n"
        "- You prefer metric units (noted 2 weeks ago)"
    )


def test_no_memories_give_the_empty_string():
    assert format_block([], NOW) == ""


def test_truncation_drops_the_oldest_and_keeps_the_block_within_2000_characters():
    memories = [(f"Fact number {i:03d} " + "x" * 60, NOW - timedelta(hours=i)) for i in range(100)]
    block = format_block(memories, NOW)
    assert len(block) <= 2000
    kept = [line for line in block.splitlines() if line.startswith("- ")]
    assert 0 < len(kept) < 100
    # the newest are kept, in order, and the first dropped is the next-oldest one
    assert [line[2:17] for line in kept] == [f"Fact number {i:03d}" for i in range(len(kept))]
    next_bullet = (
        f"\n- {memories[len(kept)][0]} (noted {relative_time(memories[len(kept)][1], NOW)})"
    )
    assert len(block) + len(next_bullet) > 2000


def test_a_block_exactly_at_the_budget_keeps_every_bullet():
    suffix = " (noted just now)"
    room = 2000 - len(HEADER) - 2 * (3 + len(suffix))
    memories = [("a" * (room // 2), NOW), ("b" * (room - room // 2), NOW - timedelta(minutes=1))]
    block = format_block(memories, NOW)
    assert len(block) == 2000
    one_over = [("a" * (room // 2 + 1), NOW), memories[1]]
    assert "\n- b" not in format_block(one_over, NOW)


def test_a_single_assertion_longer_than_the_budget_is_cut_to_fit():
    block = format_block([("z" * 5000, NOW - timedelta(days=3))], NOW)
    assert len(block) == 2000
    assert block.endswith("… (noted 3 days ago)")
    assert block.startswith(HEADER + "\n- zzz")


def test_unicode_counts_code_points():
    block = format_block([("Café ☕ 東京 🍣", NOW)], NOW)
    assert block.endswith("- Café ☕ 東京 🍣 (noted just now)")


@pytest.mark.parametrize(
    ("elapsed", "text"),
    [
        (timedelta(minutes=59), "just now"),
        (timedelta(hours=2), "2 hours ago"),
        (timedelta(hours=1), "1 hour ago"),
        (timedelta(hours=30), "yesterday"),
        (timedelta(days=3), "3 days ago"),
        (timedelta(days=7), "last week"),
        (timedelta(days=14), "2 weeks ago"),
        (timedelta(days=45), "last month"),
        (timedelta(days=95), "3 months ago"),
        (timedelta(days=400), "last year"),
        (timedelta(days=800), "2 years ago"),
    ],
)
def test_relative_time(elapsed, text):
    assert relative_time(NOW - elapsed, NOW) == text


def test_load_personal_memory_reads_only_committed_newest_first(store, make_person):
    person, _ = make_person(store)
    engagement = person.personal_engagement_id
    with store.write() as session:
        for days, content, force in [
            (10, "You live in Miami", NormativeForce.COMMITTED),
            (3, "You're allergic to all shellfish", NormativeForce.COMMITTED),
            (1, "You might move to Lisbon", NormativeForce.HELD),
            (2, "You dislike cilantro", NormativeForce.RETRACTED),
        ]:
            repo.add_assertion(
                session,
                engagement,
                content,
                ActorKind.COMPANION,
                force,
                created_at=NOW - timedelta(days=days),
            )
    with store.read() as session:
        block = load_personal_memory(session, engagement, NOW)
    assert block == (
        f"{HEADER}\n- You're allergic to all shellfish (noted 3 days ago)\n"
        "- You live in Miami (noted last week)"
    )


def test_load_personal_memory_is_empty_without_committed_assertions(store, make_person):
    person, _ = make_person(store)
    with store.write() as session:
        repo.add_assertion(
            session,
            person.personal_engagement_id,
            "You live in Miami",
            ActorKind.COMPANION,
            NormativeForce.HELD,
        )
    with store.read() as session:
        assert load_personal_memory(session, person.personal_engagement_id, NOW) == ""


def test_load_personal_memory_truncates_from_the_store(store, make_person):
    person, _ = make_person(store)
    with store.write() as session:
        for i in range(150):
            repo.add_assertion(
                session,
                person.personal_engagement_id,
                f"Stored fact {i:03d} " + "y" * 40,
                ActorKind.COMPANION,
                NormativeForce.COMMITTED,
                created_at=NOW - timedelta(hours=150 - i),
            )
    with store.read() as session:
        block = load_personal_memory(session, person.personal_engagement_id, NOW)
    assert len(block) <= 2000
    assert "Stored fact 149" in block and "Stored fact 000" not in block
