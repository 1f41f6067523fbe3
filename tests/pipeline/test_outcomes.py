"""A handler's outcome is typed: a wrong action fails where the handler builds it, with an error
naming the intent, and the next turn reads the previous turn's outcome through its model."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import ClassVar
from unittest.mock import MagicMock

import pytest
from pydantic import ValidationError

from pipeline.actions import Action
from pipeline.domain import HistoryTurn, Person, Role, RouteResult
from pipeline.intents import INTENTS, route
from pipeline.intents.context import HandlerContext
from pipeline.intents.conversation import CapabilitiesOutcome
from pipeline.intents.forget import ForgetOutcome
from pipeline.intents.knowledge import AddKnowledgeOutcome
from pipeline.intents.outcome import ConversationOutcome, Item, Outcome, Refused
from pipeline.intents.remember import RememberOutcome
from pipeline.intents.spec import IntentSpec, IntentSpecError
from pipeline.intents.taxonomy import leaves_pending, outcome_of
from pipeline.reading import ClassifiedIntent


def _ctx(intent: str) -> HandlerContext:
    return HandlerContext(
        session=MagicMock(),
        person=Person(id=1, name="Ana", personal_engagement_id=None),
        project=None,
        classified=ClassifiedIntent(intent=intent),
        prior_companion=None,
        now=datetime(2026, 1, 1, tzinfo=UTC),
    )


def test_a_handler_recording_another_intents_action_fails_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def describes_by_committing(_ctx: HandlerContext) -> RouteResult:
        # describe_capabilities records `described`; `committed` is another intent's action
        return CapabilitiesOutcome(action=Action.COMMITTED, capabilities=[]).routed()

    spec = replace(INTENTS["describe_capabilities"], handler=describes_by_committing)
    monkeypatch.setitem(INTENTS, spec.name, spec)
    with pytest.raises(ValidationError) as raised:
        route(_ctx("describe_capabilities"))
    message = str(raised.value)
    assert "describe_capabilities cannot record the action 'committed'" in message
    assert "it records one of: described" in message


def test_an_action_given_as_a_string_or_a_misspelt_field_fails() -> None:
    # mypy (with the pydantic plugin) rejects both lines; at run time they fail too
    with pytest.raises(ValidationError, match="instance of Action"):
        AddKnowledgeOutcome(action="held", knowledge="x", assertion_display_number=1)  # type: ignore[arg-type]
    with pytest.raises(ValidationError, match="knowlege"):
        AddKnowledgeOutcome(action=Action.HELD, knowlege="x", assertion_display_number=1)  # type: ignore[call-arg]
    with pytest.raises(ValidationError, match="needs_project"):
        Refused(error="need_project")


def test_the_operation_data_is_the_dump_of_what_the_handler_set() -> None:
    result = RememberOutcome(
        action=Action.HELD, personal_fact="You're vegetarian", assertion_display_number=4
    ).routed()
    assert result.intent == "remember_about_me"
    assert result.operation_data == {
        "action": "held",
        "personal_fact": "You're vegetarian",
        "assertion_display_number": 4,
    }
    assert result.operation_data["action"] is Action.HELD


def test_the_previous_turn_is_read_through_its_intents_model() -> None:
    data = ForgetOutcome(
        action=Action.AMBIGUOUS,
        forget_description="the car",
        candidates=[Item(display_number=2, content="Your car is red")],
    ).dump()
    # stored as JSON: the action and items come back as plain strings and dicts, with the
    # later acts beside them (pipeline/turn_commit.py)
    stored = {**data, "action": "ambiguous", "candidates": [dict(data["candidates"][0])]}
    turn = HistoryTurn(
        role=Role.COMPANION,
        content="Which one?",
        intent="forget_about_me",
        operation_data={**stored, "also": []},
    )
    outcome = outcome_of(turn)
    assert isinstance(outcome, ForgetOutcome)
    assert outcome.action is Action.AMBIGUOUS
    assert outcome.candidates == [Item(display_number=2, content="Your car is red")]
    assert leaves_pending(turn)
    assert ForgetOutcome.of(turn) == outcome and RememberOutcome.of(turn) is None


@pytest.mark.parametrize(
    ("intent", "data"),
    [
        ("forget_about_me", {"action": "erased"}),  # an erased turn
        ("forget_about_me", {"error": "no_personal_engagement"}),
        ("forget_about_me", {"action": "held", "personal_fact": "x"}),  # another intent's
        ("remember_about_me", {"action": "held", "personal_fact": 3}),  # not its shape
        ("no_such_intent", {"action": "held"}),
        (None, {}),
    ],
)
def test_a_stored_dict_the_model_cannot_read_is_no_outcome(
    intent: str | None, data: dict[str, object]
) -> None:
    turn = HistoryTurn(role=Role.COMPANION, content="...", intent=intent, operation_data=data)
    assert outcome_of(turn) is None
    assert not leaves_pending(turn)


def test_a_spec_whose_pending_action_its_outcome_never_records_fails_when_declared() -> None:
    with pytest.raises(IntentSpecError, match=r"pending actions \['which_item'\]"):
        IntentSpec(
            "chat_again",
            True,
            (),
            "x",
            pending=(Action.WHICH_ITEM,),
            handler=lambda ctx: ConversationOutcome(action=Action.NONE).routed(),
            outcome=RememberOutcome,
        )


def test_a_spec_with_help_for_a_parameter_it_lacks_or_an_empty_example_fails_when_declared() -> (
    None
):
    with pytest.raises(IntentSpecError) as raised:
        IntentSpec(
            "tide_times",
            False,
            ("harbour",),
            "x",
            param_help={"port": "the port"},
            examples=("low tide at Brighton?", "  "),
        )
    assert str(raised.value) == (
        "intent 'tide_times': param_help names ['port'], which are not among its params; "
        "its examples must be non-empty messages"
    )


def test_every_declared_spec_is_consistent_and_every_outcome_names_its_intent() -> None:
    assert {name: spec.problems() for name, spec in INTENTS.items()} == {
        name: [] for name in INTENTS
    }
    for spec in INTENTS.values():
        assert spec.outcome is not None and issubclass(spec.outcome, Outcome)
        assert spec.outcome.INTENT in (spec.name, "")  # "": the stubs' shared model


class _Tally(Outcome):
    INTENT: ClassVar[str] = "tally"
    ACTIONS: ClassVar[frozenset[Action]] = frozenset({Action.LISTED})


def test_a_model_with_no_intent_names_itself_in_the_error() -> None:
    with pytest.raises(ValidationError, match="tally cannot record the action 'found'"):
        _Tally(action=Action.FOUND)


def test_the_stubs_shared_outcome_is_never_routed_without_its_intent() -> None:
    from pipeline.intents.stubs import NotAvailable

    with pytest.raises(TypeError, match="NotAvailable names no intent"):
        NotAvailable(action=Action.NOT_AVAILABLE, capability="x").routed()


def test_the_dump_keeps_the_order_the_handler_gave_its_fields() -> None:
    """The instruction templates show the operation data as JSON: its key order is part of the
    prompt (and of the recorded cassettes), so it is the handler's, not the model's."""
    data = ForgetOutcome(
        action=Action.AMBIGUOUS,
        forget_description="the car",
        candidates=[Item(content="Your car is red", display_number=2)],
    ).dump()
    assert list(data) == ["action", "forget_description", "candidates"]
    assert list(data["candidates"][0]) == ["content", "display_number"]
    retracted = ForgetOutcome(
        action=Action.RETRACTED, person="Ana", retracted_fact="x", assertion_display_number=3
    ).dump()
    assert list(retracted) == ["action", "person", "retracted_fact", "assertion_display_number"]


def test_docs_list_each_intents_outcome_model_and_its_actions() -> None:
    docs = (Path(__file__).resolve().parents[2] / "docs" / "intents.md").read_text("utf-8")
    section = docs.split("## Typed outcomes", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `(\w+)` \| `(\w+)` \| (.+) \|$", section, flags=re.MULTILINE)
    documented = {
        intent: (model, set(re.findall(r"`([a-z_]+)`", acts))) for intent, model, acts in rows
    }
    live = {n: s for n, s in INTENTS.items() if s.live and s.outcome is not None}
    assert set(documented) == set(live)
    for name, spec in live.items():
        model, actions = documented[name]
        assert spec.outcome is not None and model == spec.outcome.__name__
        # "as `retract_knowledge`" names the intent whose actions it shares
        shared = {a for n in actions & set(live) for a in documented[n][1]}
        assert (actions - set(live)) | shared == {a.value for a in spec.outcome.ACTIONS}, name
