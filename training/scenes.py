"""Scenes with nothing pending: one message with its labels, before any style is applied.

Each scene returns the context it happens in and a draft. Answers to something pending are in
training/answers.py.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from training import words as w
from training.facts import Fact, random_fact, topic_of
from training.schema import Act, Draft


@dataclass(frozen=True)
class Context:
    """What the reader is told besides the message."""

    pending: str = "none"
    prev: str = ""
    project: bool = False
    items: int = 0


QUESTION_STARTS = ("wha", "how c", "remind me wh")
AFTER_NOTHING = (
    "",
    "Sure thing.",
    "That sounds like a lot.",
    "Happy to help with that.",
    "Noted for this project.",
    "Here's what I'd try first.",
    "Ha, fair.",
    "Morning! What's up?",
)
AFTER_FORGET = ("Done, I've forgotten that {f}.", "OK, that's gone: {f}.", "Removed: {f}.")


def _fill(rng: random.Random, template: str) -> str:
    return template.format(
        day=rng.choice(w.DAY_NAMES),
        time=rng.choice(w.CLOCK_TIMES),
        city=rng.choice(w.CITIES),
        relative=rng.choice(w.RELATIVES),
        name=rng.choice(w.NAMES),
        pet=rng.choice(w.PET_KINDS),
        job=rng.choice(w.JOBS),
        hobby=rng.choice(w.HOBBIES),
        food=rng.choice(w.FOODS),
        language=rng.choice(w.LANGUAGES),
        n=rng.randint(1, 9),
        topic=rng.choice(w.PROJECT_TOPICS),
        fact=random_fact(rng).said,
    )


def _plain_context(rng: random.Random, project: bool | None = None) -> Context:
    prev = rng.choice(AFTER_NOTHING)
    return Context("none", prev, rng.random() < 0.4 if project is None else project)


def fact_act(draft: Draft, fact: Fact, text: str | None = None) -> None:
    """Append a FACT segment and its remember_about_me act."""
    draft.acts.append(
        Act("remember_about_me", profile_field=fact.profile_field, span=draft.labelled())
    )
    draft.segments.append((text or fact.said, "FACT"))


def statement(rng: random.Random) -> tuple[Context, Draft]:
    """A personal fact, plainly or behind a lead, a question-form request or a formal frame."""
    fact = random_fact(rng)
    draft = Draft([], intent="remember_about_me", profile_field=fact.profile_field)
    frame = rng.random()
    if frame < 0.35:
        fact_act(draft, fact)
    elif frame < 0.6:
        draft.segments.append((rng.choice(w.FACT_LEADS), None))
        fact_act(draft, fact)
    elif frame < 0.9:  # a request phrased as a question is still a request
        draft.segments.append((rng.choice(w.POLITE_KEEP), None))
        fact_act(draft, fact)
        draft.segments.append(("?", None))
    else:
        draft.segments.append((rng.choice(w.FORMAL_KEEP), None))
        fact_act(draft, fact)
        draft.segments.append((".", None))
    return _plain_context(rng), draft


def several_facts(rng: random.Random) -> tuple[Context, Draft]:
    """Two or three facts in one message."""
    facts = [random_fact(rng) for _ in range(rng.choice((2, 2, 3)))]
    draft = Draft([], intent="remember_about_me", profile_field=facts[0].profile_field)
    joins = (", and ", ". also ", " + ", "; ", " and on top of that ", ". oh and ")
    for i, fact in enumerate(facts):
        if i:
            draft.segments.append((rng.choice(joins), None))
        fact_act(draft, fact)
    return _plain_context(rng), draft


def fact_and_question(rng: random.Random) -> tuple[Context, Draft]:
    """A fact to keep and a question to answer, in either order."""
    fact = random_fact(rng)
    question = rng.choice(w.GENERAL_QUESTIONS)
    draft = Draft([], intent="remember_about_me", question=True, profile_field=fact.profile_field)
    ask = Act("general_conversation", question=True)
    if rng.random() < 0.7:
        fact_act(draft, fact)
        draft.segments.append((rng.choice(w.QUESTION_JOINS), None))
        ask.span = draft.labelled()
        draft.segments += [(question, "QUESTION"), ("?", None)]
        draft.acts.append(ask)
    else:
        ask.span = 0
        draft.acts.append(ask)
        draft.segments += [(question, "QUESTION"), ("? ", None)]
        fact_act(draft, fact)
        draft.intent = "general_conversation"
    return _plain_context(rng), draft


def recall(rng: random.Random) -> tuple[Context, Draft]:
    """A question about what the person said before."""
    fact = random_fact(rng)
    topic = rng.choice((topic_of(fact), f"my {rng.choice(w.RELATIVES)}", rng.choice(w.HOBBIES)))
    draft = Draft([(rng.choice(w.RECALL_ASKS), None)], intent="ask_about_past_input", question=True)
    draft.acts.append(Act("ask_about_past_input", question=True, span=0))
    draft.segments += [(topic, "QUERY"), (rng.choice(("?", "", " again?", " haha")), None)]
    return _plain_context(rng), draft


def forget(rng: random.Random) -> tuple[Context, Draft]:
    """A request to forget something personal, or to remove a project note."""
    project = rng.random() < 0.35
    intent = "retract_knowledge" if project else "forget_about_me"
    polite = rng.random() < 0.5
    draft = Draft(
        [(rng.choice(w.POLITE_FORGET if polite else w.PLAIN_FORGET), None)], intent=intent
    )
    draft.acts.append(Act(intent, span=0))
    if project:
        draft.segments += [
            ("the ", None),
            (rng.choice(w.PROJECT_TOPICS), "FORGET"),
            (" note", None),
        ]
    else:
        fact = random_fact(rng)
        shape = rng.random()
        if shape < 0.4:
            draft.segments += [("that ", None), (fact.said, "FORGET")]
        elif shape < 0.7:
            draft.segments += [("the ", None), (topic_of(fact), "FORGET"), (" thing", None)]
        else:
            draft.segments += [("what I said about ", None), (topic_of(fact), "FORGET")]
    if polite:
        draft.segments.append(("?", None))
    return _plain_context(rng, project), draft


def restore(rng: random.Random) -> tuple[Context, Draft]:
    """A request to put back something just forgotten or removed."""
    project = rng.random() < 0.3
    intent = "retract_knowledge" if project else "forget_about_me"
    fact = random_fact(rng)
    prev = rng.choice(AFTER_FORGET).format(f=fact.offered)
    template = rng.choice(w.RESTORE_ASKS)
    draft = Draft([], intent=intent, restore=True)
    act = Act(intent, restore=True)
    if "{topic}" in template:
        head, tail = template.split("{topic}")
        act.span = 0
        draft.segments += [(head, None), (topic_of(fact), "FORGET"), (tail, None)]
    else:
        draft.segments.append((template.format(n=rng.randint(1, 9)), None))
    draft.acts.append(act)
    return Context("none", prev, project), draft


def knowledge(rng: random.Random) -> tuple[Context, Draft]:
    """A fact about the project, stated or asked to be noted."""
    note = rng.choice(w.PROJECT_FACTS)
    draft = Draft([], intent="add_knowledge")
    frame = rng.random()
    lead, tail = (
        ("", "")
        if frame < 0.4
        else ("can you note that ", "?")
        if frame < 0.7
        else ("for this project, ", "")
        if frame < 0.85
        else ("fyi: ", ".")
    )
    if lead:
        draft.segments.append((lead, None))
    draft.acts.append(Act("add_knowledge", span=0))
    draft.segments.append((note, "KNOWLEDGE"))
    if tail:
        draft.segments.append((tail, None))
    return _plain_context(rng, True), draft


def _spanless(intent: str, phrases: tuple[str, ...], project: bool | None = None) -> Scene:
    def scene(rng: random.Random) -> tuple[Context, Draft]:
        text = _fill(rng, rng.choice(phrases))
        question = text.endswith("?") or text.startswith(QUESTION_STARTS)
        draft = Draft([(text, None)], intent=intent, question=question)
        draft.acts.append(Act(intent, question=question))
        return _plain_context(rng, project), draft

    return scene


def chat(rng: random.Random) -> tuple[Context, Draft]:
    """Small talk, irony, moods, hypotheticals and reported speech: nothing to keep."""
    pool = rng.choice((w.SMALL_TALK, w.SMALL_TALK, w.HYPOTHETICALS, w.REPORTED))
    text = _fill(rng, rng.choice(pool))
    draft = Draft([(text, None)], intent="general_conversation")
    return _plain_context(rng), draft


def question(rng: random.Random) -> tuple[Context, Draft]:
    """A question for the companion that asks nothing of memory."""
    draft = Draft([], intent="general_conversation", question=True)
    draft.acts.append(Act("general_conversation", question=True, span=0))
    draft.segments += [
        (rng.choice(w.GENERAL_QUESTIONS), "QUESTION"),
        (rng.choice(("?", "", "??")), None),
    ]
    return _plain_context(rng), draft


def status(rng: random.Random) -> tuple[Context, Draft]:
    """Something ongoing with a time to it: a status report, not a fact to keep."""
    draft = Draft([], intent="general_conversation", status=True)
    draft.acts.append(Act("general_conversation", status=True, span=0))
    if rng.random() < 0.6:
        device = rng.choice(w.DEVICES)
        text = f"{device} {rng.choice(w.BROKEN_STATES)}, {_fill(rng, rng.choice(w.FIX_PLANS))}"
        text = rng.choice(("my ", "the ", "")) + text
    else:
        text = _fill(rng, rng.choice(w.ONGOING))
    draft.segments.append((text, "STATUS"))
    return _plain_context(rng), draft


Scene = Callable[[random.Random], tuple[Context, Draft]]

SCENES: tuple[tuple[Scene, int], ...] = (
    (statement, 12),
    (several_facts, 4),
    (fact_and_question, 4),
    (recall, 5),
    (forget, 5),
    (restore, 3),
    (knowledge, 5),
    (_spanless("list_knowledge", w.LIST_ASKS, True), 1),
    (_spanless("commit_knowledge", w.COMMIT_ASKS, True), 1),
    (_spanless("describe_capabilities", w.CAPABILITY_ASKS), 1),
    (_spanless("set_reminder", w.REMINDER_ASKS), 1),
    (_spanless("web_search", w.SEARCH_ASKS), 1),
    (_spanless("share_project", w.SHARE_ASKS, True), 1),
    (_spanless("export_project", w.EXPORT_ASKS, True), 1),
    (chat, 7),
    (question, 4),
    (status, 4),
)
