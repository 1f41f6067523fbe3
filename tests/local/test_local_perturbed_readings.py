"""The local classifier reads a message the same way however it is typed: a slipped key, a
written-out form, a question without its mark, filler, or a status without its article.
One test per class, in phrasing written apart from every suite."""

from __future__ import annotations

import pytest

from pipeline.domain import HistoryTurn, Role, RouteResult
from pipeline.providers.base import ClassifyRequest
from pipeline.providers.local import LocalClassifier, MiniLMEmbedder
from pipeline.providers.local.model import loaded_model
from pipeline.providers.local.responder import which_to_forget
from pipeline.reading import ClassifiedIntent, Relation


def _classify(
    classifier: LocalClassifier, message: str, project: str | None = None
) -> ClassifiedIntent:
    return classifier.classify(ClassifyRequest(message=message, project_name=project))


@pytest.mark.parametrize(
    ("tidy", "slipped", "project"),
    [
        ("how does this thing work?", "how doea this thing wotk?", None),
        ("lock in the note about the insulation", "llck in the note about the insulation", "Loft"),
        (
            "I've got a dodgy knee so no ladders for me",
            "I'vw got a dodgy knee so no ladders for me",
            "Loft",
        ),
        ("my nephew turns six in August", "my nephew tirns six in August", None),
    ],
)
def test_a_slipped_key_outside_the_cue_words_keeps_the_intent(
    classifier: LocalClassifier, tidy: str, slipped: str, project: str | None
) -> None:
    assert (
        _classify(classifier, slipped, project).intent
        == _classify(classifier, tidy, project).intent
    )


def test_a_stored_fact_keeps_what_was_typed(classifier: LocalClassifier) -> None:
    read = _classify(classifier, "my nephew Oskar tirns six in August")
    assert "Oskar" in read.params["personal_fact"]  # a name is never "corrected"


@pytest.mark.parametrize(
    ("contracted", "written_out", "project"),
    [
        ("don't store that, it was a one-off", "do not store that, it was a one-off", "Loft"),
        ("I'm allergic to latex gloves", "I am allergic to latex gloves", "Pottery class"),
        ("we're vegetarian at home", "we are vegetarian at home", None),
    ],
)
def test_a_written_out_form_reads_like_its_contraction(
    classifier: LocalClassifier, contracted: str, written_out: str, project: str | None
) -> None:
    assert (
        _classify(classifier, written_out, project).intent
        == _classify(classifier, contracted, project).intent
    )


@pytest.mark.parametrize(
    ("message", "project"),
    [
        ("is it worth repotting a cactus in winter", "Balcony garden"),
        ("what's a sensible budget for a first road bike", None),
        ("would I need planning permission for a shed this size", "Garden office"),
        ("I've got twenty minutes — what can I cook with leeks and eggs", "Weeknight cooking"),
    ],
)
def test_a_question_without_its_mark_is_asked_not_stored(
    classifier: LocalClassifier, message: str, project: str | None
) -> None:
    read = _classify(classifier, message, project)
    assert read.question is True
    assert read.intent not in ("remember_about_me", "add_knowledge")


def test_filler_before_the_question_mark_leaves_a_question(classifier: LocalClassifier) -> None:
    read = _classify(classifier, "how long should sourdough proof overnight lol?", "Baking")
    assert read.question is True
    assert read.intent != "add_knowledge"


@pytest.mark.parametrize(
    "message",
    [
        "dishwasher's broken again, engineer due thursday",
        "boiler's on the blink, landlord coming friday",
    ],
)
def test_a_status_without_its_article_outside_a_project_is_conversation(
    classifier: LocalClassifier, message: str
) -> None:
    # not a project note, which would need a project ("That needs a project")
    assert _classify(classifier, message).intent == "general_conversation"


def test_a_slipped_value_in_a_correction_replaces_the_old_one(
    classifier: LocalClassifier,
) -> None:
    fact = "You started at the gym last month"
    history = (
        HistoryTurn(role=Role.OPERATOR, content="I started at the gym last month"),
        HistoryTurn(
            role=Role.COMPANION,
            content="I'll remember that you started at the gym last month — is that right?",
            intent="remember_about_me",
            operation_data={"action": "held", "personal_fact": fact, "assertion_display_number": 1},
        ),
    )
    read = classifier.classify(
        ClassifyRequest(message="no, it was three wesks ago", history=history)
    )
    assert read.reading is not None and read.reading.relation is Relation.CORRECT
    assert "three weeks ago" in read.reading.corrected
    assert "last month" not in read.reading.corrected and "gym" in read.reading.corrected


def test_the_embedder_reads_past_emoji_and_filler_and_keeps_every_other_text(
    embedder: MiniLMEmbedder,
) -> None:
    plain, padded, smiled = embedder.embed(
        ["my allotment in Hove", "my allotment in Hove lol", "my allotment in Hove 🙂"]
    )
    assert (plain == padded).all() and (plain == smiled).all()
    # a text with neither is embedded exactly as the model embeds it
    as_given = loaded_model(embedder.backend).encode(["You live with your mate, x"])
    assert (embedder.embed(["You live with your mate, x"]) == as_given).all()


class _Searching:
    """Stands in for the turn's toolbox: records each search and answers with fixed lines."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.asked: list[str] = []

    def search(self, query: str, *, include_context: bool = False) -> list[str]:
        self.asked.append(query)
        return self.lines


def _forget_result(action: str, stored: int = 2) -> RouteResult:
    data = {"action": action, "forget_description": "my old flat", "stored_count": stored}
    return RouteResult(intent="forget_about_me", operation_data=data)


def test_a_forget_that_matched_nothing_lists_what_is_nearest_to_choose_from() -> None:
    tools = _Searching(["- fact, noted 2 days ago: You rent a studio in Hove"])
    said = which_to_forget(_forget_result("no_match"), tools)  # type: ignore[arg-type]
    assert tools.asked == ["my old flat"]
    assert len(said) == 1 and "You rent a studio in Hove" in said[0] and "which" in said[0]


@pytest.mark.parametrize(
    ("result", "lines"),
    [
        (_forget_result("confirm_retraction"), ["- fact: You rent a studio in Hove"]),
        (_forget_result("no_match", stored=0), ["- fact: You rent a studio in Hove"]),
        (_forget_result("no_match"), []),
    ],
)
def test_nothing_is_listed_after_a_match_with_nothing_stored_or_nothing_near(
    result: RouteResult, lines: list[str]
) -> None:
    assert which_to_forget(result, _Searching(lines)) == []  # type: ignore[arg-type]
