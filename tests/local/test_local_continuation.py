"""Continuations: which offer the prior companion turn made, and how a reply answers it."""

from __future__ import annotations

import pytest

from pipeline.domain import HistoryTurn, Role
from pipeline.providers.base import ClassifyRequest
from pipeline.providers.local.continuation import Offer, pending_offer, read_reply


def operator(text: str) -> HistoryTurn:
    return HistoryTurn(role=Role.OPERATOR, content=text)


def companion(text: str, intent: str | None = None, **data: object) -> HistoryTurn:
    return HistoryTurn(role=Role.COMPANION, content=text, intent=intent, operation_data=data)


def offer_after(*history: HistoryTurn, message: str = "yes") -> Offer | None:
    return pending_offer(ClassifyRequest(message=message, history=history))


def test_offer_from_operation_data() -> None:
    found = offer_after(
        operator("I'm allergic to shellfish"),
        companion(
            "Shall I keep that?",
            "remember_about_me",
            action="held",
            personal_fact="You're allergic to all shellfish",
        ),
    )
    assert found == Offer("remember", fact="You're allergic to all shellfish")


def test_offer_read_from_the_companions_wording() -> None:
    found = offer_after(
        operator("my birthday is March 15th"),
        companion(
            "I'll remember that your birthday is March 15th — is that right?", "remember_about_me"
        ),
    )
    assert found is not None and found.kind == "remember"
    assert found.fact == "Your birthday is March 15th"


def test_fact_falls_back_to_the_operators_message() -> None:
    found = offer_after(
        operator("I'm training for a marathon"),
        companion("Nice! Want me to keep that in mind?", "remember_about_me"),
    )
    assert found is not None and found.fact == "You're training for a marathon"


def test_committed_fact_is_no_longer_an_offer() -> None:
    assert offer_after(companion("Got it.", "remember_about_me", action="committed")) is None


def test_retraction_offer_keeps_the_matched_fact_or_the_description() -> None:
    with_data = offer_after(
        companion(
            "You want me to stop using that you live in Miami?",
            "forget_about_me",
            action="confirm_retraction",
            matched_fact="You live in Miami",
        )
    )
    assert with_data == Offer(
        "retraction",
        fact="You live in Miami",
        description="You live in Miami",
        intent="forget_about_me",
    )
    from_text = offer_after(
        operator("please forget my knee surgery"),
        companion("I found one note about that. Should I forget it?", "forget_about_me"),
    )
    assert from_text is not None and from_text.kind == "retraction"
    assert from_text.description == "my knee surgery"


def test_cross_promotion_offer_takes_the_fact_from_the_exchange() -> None:
    found = offer_after(
        operator("I'm allergic to tree nuts, so the menu is nut-free"),
        companion(
            "Added to the menu notes. Want me to remember that across all your projects?",
            "add_knowledge",
        ),
    )
    assert found is not None and found.kind == "cross_promotion"
    assert "tree nuts" in found.fact


REMEMBER = Offer("remember", fact="You're allergic to all shellfish")
CROSS = Offer("cross_promotion", fact="You're allergic to tree nuts")
RETRACT = Offer("retraction", fact="You live in Miami", description="You live in Miami")


@pytest.mark.parametrize(
    ("offer", "reply", "kind"),
    [
        (REMEMBER, "yes", "confirm"),
        (REMEMBER, "oh yes, that's right", "confirm"),
        (REMEMBER, "no, just shrimp", "refine"),
        (REMEMBER, "actually only crab", "refine"),
        (REMEMBER, "never mind", "reject"),
        (REMEMBER, "nah, don't bother saving that", "reject"),
        (REMEMBER, "hmm, let's not store that for now", "reject"),
        (CROSS, "sure, everywhere", "confirm"),
        (CROSS, "no, just this project", "decline"),
        (CROSS, "no need, it only matters for the wedding", "decline"),
        (RETRACT, "yes, that's the one", "confirm"),
        (RETRACT, "no, keep it", "reject"),
        (REMEMBER, "What can you do for me?", "other"),
    ],
)
def test_reply_kinds(offer: Offer, reply: str, kind: str) -> None:
    assert read_reply(reply, offer, {}) == kind


def test_nearest_reply_examples_decide_when_the_form_does_not() -> None:
    assert read_reply("roger", REMEMBER, {"confirm": 0.9, "reject": 0.2}) == "confirm"
    assert read_reply("roger", REMEMBER, {"confirm": 0.2, "reject": 0.9}) == "reject"
