"""Round trips through pipeline.converse.converse with the Claude providers, on synthetic cassettes."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from rich.console import Console

from pipeline.cli.render import show_turn
from pipeline.converse import TurnOutcome, converse
from pipeline.domain import ActorKind, NormativeForce, Person, ProfileField
from pipeline.memory import consent
from pipeline.prompting import default_library
from pipeline.providers.registry import Providers
from pipeline.store import Store
from pipeline.store import assertions as repo
from pipeline.store.people import create_person, create_project
from pipeline.store.turns import recent_turns

pytestmark = [pytest.mark.vcr, pytest.mark.block_network]

PROJECT = "Weeknight cooking"


@dataclass
class World:
    store: Store
    person: Person
    project_id: int
    providers: Providers

    def say(self, message: str, project: str | None = None) -> TurnOutcome:
        return converse(
            self.store,
            person=self.person.name,
            project=project,
            message=message,
            providers=self.providers,
        )

    def personal(self) -> list[tuple[str, NormativeForce]]:
        assert self.person.personal_engagement_id is not None
        return self._state(self.person.personal_engagement_id)

    def project(self) -> list[tuple[str, NormativeForce]]:
        return self._state(self.project_id)

    def _state(self, engagement_id: int) -> list[tuple[str, NormativeForce]]:
        with self.store.read() as session:
            return [(a.content, a.force) for a in repo.list_assertions(session, engagement_id)]

    def commit_personal(self, content: str) -> None:
        assert self.person.personal_engagement_id is not None
        with self.store.write() as session:
            repo.add_assertion(
                session,
                self.person.personal_engagement_id,
                content,
                ActorKind.COMPANION,
                NormativeForce.COMMITTED,
            )


def _world(store: Store, providers: Providers) -> World:
    with store.write() as session:
        person = create_person(session, "Ana")
        project = create_project(session, person, PROJECT, "Quick dinners for two on weeknights")
    return World(store, person, project.id, providers)


@pytest.fixture
def world(sqlite_store: Store, claude: Callable[..., Providers]) -> World:
    """The default models (current: structured output for the classifier)."""
    return _world(sqlite_store, claude())


@pytest.fixture
def forced_tool_world(sqlite_store: Store, claude: Callable[..., Providers]) -> World:
    """A legacy classifier model that takes a forced tool call (Claude Haiku 4.5)."""
    return _world(sqlite_store, claude(classifier_model="claude-haiku-4-5"))


def families(outcome: TurnOutcome) -> list[str]:
    return [ref.family for ref in outcome.companion_turn.prompt_refs]


def test_synthetic_remember_is_held_then_committed(world: World) -> None:
    first = world.say("I'm allergic to shellfish")
    assert (first.classified.intent, first.route.operation_data["action"]) == (
        "remember_about_me",
        "held",
    )
    assert world.personal() == [("You're allergic to shellfish", NormativeForce.HELD)]
    assert first.reply.text == "I'll remember that you're allergic to shellfish — is that right?"
    assert (first.reply.provider, first.reply.model) == ("claude", "synthetic-fixture")

    second = world.say("yes")
    assert second.route.operation_data["action"] == "committed"
    assert world.personal() == [("You're allergic to shellfish", NormativeForce.COMMITTED)]
    assert second.reply.text == "Got it, I'll remember that."
    # The same system prompts again, but with the default models both prefixes are shorter than
    # the model's minimum cacheable length (Haiku 4.5: 4,096; Sonnet 4.6: 1,024), so, as with the
    # real API, nothing is written to or read from the prompt cache.
    for usage in (second.classified.usage, second.reply.usage):
        assert usage.cache_read_input_tokens == usage.cache_creation_input_tokens == 0


def test_synthetic_the_answers_profile_field_holds_a_change_for_consent(world: World) -> None:
    said = world.say("off to Lisbon for good next month")
    assert said.classified.profile_field is ProfileField.CITY
    with world.store.read() as session:
        waiting = consent.pending(session, world.person)
    assert [(p.assertion.content, p.field) for p in waiting] == [
        ("You're off to Lisbon for good next month", ProfileField.CITY)
    ]
    # the shellfish answer says no field: the lent wording patterns read it, and name none
    world.say("I'm allergic to shellfish")
    with world.store.read() as session:
        assert len(consent.pending(session, world.person)) == 1


def test_synthetic_prompt_refs_and_usage_are_persisted_on_every_turn(world: World) -> None:
    world.say("I'm allergic to shellfish")
    world.say("yes")
    with world.store.read() as session:
        turns = recent_turns(session, world.person.id, None, 10)
    library = default_library()
    companions = [t for t in turns if t.role.value == "companion"]
    assert len(companions) == 2
    for turn in companions:
        assert [r.family for r in turn.prompt_refs] == [
            "classifier",
            "persona",
            "instructions/remember_about_me",
        ]
        for ref in turn.prompt_refs:
            assert ref == library.source(ref.family, ref.version)[1]
        for role in ("classifier", "responder"):
            assert turn.meta[role]["provider"] == "claude"
            assert turn.meta[role]["model"] == "synthetic-fixture"
            usage = turn.meta[role]["usage"]
            assert usage["input_tokens"] > 0 and usage["output_tokens"] > 0
            assert usage["cache_read_input_tokens"] == usage["cache_creation_input_tokens"] == 0
            assert turn.meta[role]["error"] is None


def test_synthetic_forget_is_confirmed_then_retracted(world: World) -> None:
    world.commit_personal("You live in Miami")

    asked = world.say("Forget that I live in Miami")
    assert asked.classified.params == {"forget_description": "live in Miami"}
    assert asked.route.operation_data["action"] == "confirm_retraction"
    assert world.personal() == [("You live in Miami", NormativeForce.COMMITTED)]
    assert asked.reply.text == "You want me to stop using that you live in Miami?"

    done = world.say("yes")
    assert done.route.operation_data["action"] == "retracted"
    assert world.personal() == [("You live in Miami", NormativeForce.RETRACTED)]
    assert "converse memory erase 1" in done.reply.text and "settings" not in done.reply.text


def test_synthetic_cross_promotion_offer_confirmed_lands_in_personal_memory(world: World) -> None:
    offered = world.say("My oven runs hot, so I bake this lasagna at 200 instead of 220", PROJECT)
    assert offered.classified.intent == "add_knowledge"
    assert "cross_promotion" in families(offered)
    assert "CROSS-PROJECT MEMORY" in offered.prompt.text
    assert offered.reply.text.endswith("want me to remember that across your projects?")
    assert world.project() == [("Bake this lasagna at 200 instead of 220", NormativeForce.HELD)]

    # The person has just said yes to this very fact: it is committed, not offered again.
    confirmed = world.say("yes, please", PROJECT)
    assert confirmed.classified.intent == "remember_about_me"
    assert confirmed.route.operation_data["cross_promoted"] is True
    assert world.personal() == [("Your oven runs hot", NormativeForce.COMMITTED)]
    assert world.project() == [("Bake this lasagna at 200 instead of 220", NormativeForce.HELD)]


def test_synthetic_personal_memory_reaches_a_later_project_turn(world: World, vcr) -> None:
    world.commit_personal("You're allergic to shellfish")

    outcome = world.say("What should I cook tonight?", PROJECT)

    assert families(outcome)[1:] == [
        "persona",
        "engagement_context",
        "personal_memory",
        "cross_promotion",
        "instructions/general_conversation",
    ]
    assert "- You're allergic to shellfish (noted just now)" in outcome.personal_memory
    assert outcome.personal_memory in outcome.prompt.text
    body = json.loads(vcr.requests[-1].body)
    cached, instruction = body["system"]
    assert cached["cache_control"] == {"type": "ephemeral"}
    assert '<untrusted kind="personal_memory">\nPERSONAL MEMORY' in cached["text"]
    assert "- You're allergic to shellfish (noted just now)" in cached["text"]
    assert "cache_control" not in instruction
    assert instruction["text"].startswith("TASK:")
    assert body["messages"][-1] == {"role": "user", "content": "What should I cook tonight?"}
    assert (
        outcome.reply.text == "How about a lemony chicken traybake? No shellfish anywhere near it."
    )


BAD_CLASSIFIER_OUTPUT = [
    ("no-tool-call", "I'm allergic to peanuts", "answered without calling classify_intent"),
    ("invalid-json", "I live in Lisbon", "the classify_intent input is not valid JSON"),
    ("unknown-intent", "I have a cat named Miso", "unknown intent 'remember_pet'"),
    ("missing-parameter", "The beds get six hours of sun", "add_knowledge without its parameter"),
    ("wrong-type", "I was born in 1990", "the classify_intent input does not match its schema"),
    ("refusal", "I'm training for a marathon", "the model refused to classify"),
    ("max-tokens", "My sister lives in Porto", "cut off at max_tokens"),
    ("overloaded", "I drink my coffee black", "HTTP 529 overloaded_error: Overloaded"),
    ("rate-limited", "I'm left-handed", "HTTP 429 rate_limit_error"),
    ("server-error", "I speak Portuguese", "HTTP 500 api_error: Internal server error"),
    ("not-json", "I work night shifts", "answered with a body that is not JSON"),
]


@pytest.mark.parametrize(
    ("message", "error"),
    [c[1:] for c in BAD_CLASSIFIER_OUTPUT],
    ids=[c[0] for c in BAD_CLASSIFIER_OUTPUT],
)
def test_synthetic_bad_classifier_output_degrades_and_changes_nothing(
    forced_tool_world: World, message: str, error: str
) -> None:
    """The forced-tool shape's failure paths (the structured-output ones: test_models_loopback)."""
    world = forced_tool_world
    world.commit_personal("You're allergic to shellfish")
    world.say("My oven runs hot, so I bake this lasagna at 200 instead of 220", PROJECT)
    before = (world.personal(), world.project())

    outcome = world.say(message, PROJECT)

    assert outcome.classified.intent == "general_conversation"
    assert error in (outcome.classified.error or "")
    assert outcome.route.changes == ()
    assert (world.personal(), world.project()) == before
    assert outcome.operator_turn.intent == "general_conversation"
    assert outcome.operator_turn.meta["error"] == outcome.classified.error
    assert outcome.companion_turn.meta["classifier"]["error"] == outcome.classified.error
    console = Console(record=True, width=400)
    show_turn(console, outcome, "claude")
    assert (
        f"classifier failed ({outcome.classified.error}); treated as conversation, nothing stored was changed"
        in console.export_text()
    )


@pytest.mark.parametrize(
    ("message", "error"),
    [
        ("Tell me something about my boss", "the model refused to reply (stop_reason refusal)"),
        ("What's a good substitute for buttermilk?", "HTTP 529 overloaded_error: Overloaded"),
    ],
    ids=["refusal", "overloaded"],
)
def test_synthetic_responder_failure_falls_back_offline(
    world: World, message: str, error: str
) -> None:
    outcome = world.say(message, PROJECT)
    assert outcome.classified.error is None
    assert outcome.reply.provider == "fallback"
    assert error in outcome.companion_turn.meta["responder"]["error"]
    console = Console(record=True, width=400)
    show_turn(console, outcome, "claude")
    assert "responder failed" in console.export_text()


def test_synthetic_failed_classification_after_an_offer_leaves_the_offer_held(world: World) -> None:
    world.say("I'm allergic to shellfish")
    outcome = world.say("I drink my coffee black")
    assert outcome.classified.error
    assert world.personal() == [("You're allergic to shellfish", NormativeForce.HELD)]


@pytest.fixture
def acts_world(sqlite_store: Store, claude: Callable[..., Providers]) -> World:
    """The classifier prompt that asks for a list of acts (classifier v4)."""
    return _world(sqlite_store, claude(library=default_library({"classifier": "v4"})))


def test_synthetic_v4_a_confirmation_and_a_new_fact_are_two_acts(acts_world: World) -> None:
    first = acts_world.say("I'm allergic to shellfish")
    assert [a.intent for a in first.classified.all_acts()] == ["remember_about_me"]
    assert [(r.family, r.version) for r in first.classified.prompt_refs] == [("classifier", "v4")]
    second = acts_world.say("yes, and I've also got a bad knee")
    assert second.classified.error is None
    assert [(a.intent, a.reading is not None) for a in second.classified.acts] == [
        ("remember_about_me", True),
        ("remember_about_me", False),
    ]
    assert acts_world.personal() == [
        ("You've got a bad knee", NormativeForce.HELD),
        ("You're allergic to shellfish", NormativeForce.COMMITTED),
    ]
    assert second.reply.model == "synthetic-fixture"
