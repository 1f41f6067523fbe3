"""Scenes with nothing pending: one message with its labels, before any style is applied.

Each scene returns the context it happens in and a draft. Answers to something pending are in
training/answers.py.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from training import asks, notes, talk
from training import values as v
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
        time=rng.choice(v.CLOCK_TIMES),
        city=rng.choice(v.CITIES),
        relative=rng.choice(v.RELATIVES),
        name=rng.choice(v.PEOPLE),
        pet=rng.choice(v.PET_KINDS),
        job=rng.choice(v.JOBS),
        hobby=rng.choice(v.HOBBIES),
        food=rng.choice(v.FOODS),
        language=rng.choice(v.LANGUAGES),
        n=rng.randint(1, 9),
        topic=notes.project_topic(rng),
        fact=random_fact(rng).said,
        appt=rng.choice(asks.APPOINTMENTS),
        subject=rng.choice(asks.SUBJECTS),
        project=rng.choice(asks.PROJECTS),
        format=rng.choice(asks.FORMATS),
        shop=rng.choice(asks.SHOPS),
        explain=rng.choice(talk.EXPLAIN),
        colour=rng.choice(v.COLOURS),
        country=rng.choice(v.COUNTRIES),
        month=rng.choice(v.MONTHS),
        thing=rng.choice(v.THINGS),
    )


def lead(rng: random.Random, pool: tuple[str, ...]) -> str:
    """A lead-in from `pool`, its courtesy word dropped at times ("pls forget " -> "forget ")."""
    text = rng.choice(pool)
    first, _, rest = text.partition(" ")
    if rest and first.lower() in COURTESY and rng.random() < 0.5:
        return rest
    return text


COURTESY = ("pls", "please", "plz", "kindly", "just")


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
        draft.segments.append((lead(rng, w.FACT_LEADS), None))
        fact_act(draft, fact)
    elif frame < 0.9:  # a request phrased as a question is still a request
        draft.segments.append((lead(rng, w.POLITE_KEEP), None))
        fact_act(draft, fact)
        draft.segments.append((rng.choice(("?", "?", "", " pls?", " thanks")), None))
    else:
        draft.segments.append((rng.choice(w.FORMAL_KEEP), None))
        fact_act(draft, fact)
        draft.segments.append((".", None))
    return _plain_context(rng), draft


def several_facts(rng: random.Random) -> tuple[Context, Draft]:
    """Two or three facts in one message."""
    facts = [random_fact(rng) for _ in range(rng.choice((2, 2, 3)))]
    draft = Draft([], intent="remember_about_me", profile_field=facts[0].profile_field)
    joins = (
        ", and ",
        ". also ",
        " + ",
        "; ",
        " and on top of that ",
        ". oh and ",
        " and ",
        ". ",
        ", plus ",
        " / ",
        "! and ",
        ", also ",
        " — ",
        ". Additionally, ",
        " n ",
    )
    for i, fact in enumerate(facts):
        if i:
            draft.segments.append((rng.choice(joins), None))
        fact_act(draft, fact)
    return _plain_context(rng), draft


def fact_and_question(rng: random.Random) -> tuple[Context, Draft]:
    """A fact to keep and a question to answer, in either order."""
    fact = random_fact(rng)
    question = notes.general_question(rng)
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
    """A question about what the person said before: behind a lead, or inside a frame
    ("how much did I tell you the deck cost")."""
    fact = random_fact(rng)
    draft = Draft([], intent="ask_about_past_input", question=True)
    draft.acts.append(Act("ask_about_past_input", question=True, span=0))
    if rng.random() < 0.4:
        head, tail = rng.choice(talk.RECALL_FRAMES)
        topic = notes.fill(rng, rng.choice(NOUN_TOPICS), 0.25, topic=topic_of(fact, rng))
        end = rng.choice(("?", "?", "", "??"))
        draft.segments += [(head, None), (topic, "QUERY"), (tail + end, None)]
        return _plain_context(rng), draft
    shape = rng.choice(notes.RECALL_TOPICS)
    topic = notes.fill(rng, shape, 0.25, topic=topic_of(fact, rng))
    tail = rng.choice(("?", "", " again?", " haha", "??", " last week?", " before?", " pls"))
    draft.segments += [(rng.choice(w.RECALL_ASKS), None), (topic, "QUERY"), (tail, None)]
    return _plain_context(rng), draft


# Recall topics that are names of things, which fit inside a frame ("what date did I give you
# for my birthday"); "where I live" does not.
NOUN_TOPICS = tuple(t for t in notes.RECALL_TOPICS if " I " not in f" {t} ")


def forget(rng: random.Random) -> tuple[Context, Draft]:
    """A request to forget something personal (the FORGET span is the whole description:
    "forget that I live in Miami" spans "I live in Miami"), or to remove a project note."""
    project = rng.random() < 0.35
    intent = "retract_knowledge" if project else "forget_about_me"
    if rng.random() < 0.35:
        return _plain_context(rng, project), _forget_frame(rng, intent)
    polite = rng.random() < 0.5
    draft = Draft([(lead(rng, w.POLITE_FORGET if polite else w.PLAIN_FORGET), None)], intent=intent)
    draft.acts.append(Act(intent, span=0))
    if project:
        if rng.random() < 0.3:
            draft.segments += [("the note that ", None), (notes.project_note(rng), "FORGET")]
        else:
            head, tail = rng.choice((("the ", " note"), ("the ", ""), ("", ""), ("our ", " notes")))
            draft.segments += [(head, None), (notes.project_topic(rng), "FORGET"), (tail, None)]
    else:
        fact = random_fact(rng)
        head, body, tail = rng.choice(notes.FORGET_SHAPES)
        text = notes.fill(rng, body, 0.2, said=fact.said, topic=topic_of(fact, rng))
        draft.segments += [(head, None), (text, "FORGET"), (tail, None)]
    if polite:
        draft.segments.append((rng.choice(("?", "?", "", " please?")), None))
    return _plain_context(rng, project), draft


def _forget_frame(rng: random.Random, intent: str) -> Draft:
    """A forget request whose own words surround the description ("you don't need to keep my
    address anymore", "scratch the deck from the notes")."""
    draft = Draft([], intent=intent)
    draft.acts.append(Act(intent, span=0))
    if intent == "retract_knowledge":
        head, body, tail = rng.choice(talk.NOTE_FORGET_FRAMES)
        text = body.format(topic=notes.project_topic(rng), note=notes.project_note(rng))
    else:
        fact = random_fact(rng)
        head, body, tail = rng.choice(talk.FORGET_FRAMES)
        text = notes.fill(rng, body, 0.2, said=fact.said, topic=topic_of(fact, rng))
    draft.segments += [(head, None), (text, "FORGET"), (tail, None)]
    return draft


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


KNOWLEDGE_FRAMES = (
    ("", ""),
    ("", ""),
    ("can you note that ", "?"),
    ("for this project, ", ""),
    ("fyi: ", "."),
    ("add to the notes: ", ""),
    ("note for the project — ", ""),
    ("quick one for the file: ", ""),
    ("could you add that ", "?"),
    ("would you mind jotting down that ", "?"),
    ("please log that ", ""),
    ("decision: ", ""),
    ("update: ", ""),
    ("jot down that ", ""),
    ("heads up team, ", ""),
    ("for the record: ", "."),
    ("we settled it: ", ""),
    ("Please record that ", "."),
    ("just so it's written somewhere, ", ""),
)


def knowledge(rng: random.Random) -> tuple[Context, Draft]:
    """One or two facts about the project, stated or asked to be noted."""
    head, tail = rng.choice(KNOWLEDGE_FRAMES)
    draft = Draft([(head, None)] if head else [], intent="add_knowledge")
    count = 2 if rng.random() < 0.2 else 1
    for i in range(count):
        if i:
            draft.segments.append((rng.choice((", and ", ". also ", "; ", ". ")), None))
        draft.acts.append(Act("add_knowledge", span=draft.labelled()))
        draft.segments.append((notes.project_note(rng), "KNOWLEDGE"))
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


def mention_question(rng: random.Random) -> tuple[Context, Draft]:
    """A question behind a hypothetical, a disclaimer or a mood ("I'm wiped out today, should
    I skip the gym?"): it mentions the person but states nothing to keep."""
    head, ask = rng.choice(talk.MENTION_QUESTIONS)
    draft = Draft([], intent="general_conversation", question=True)
    draft.acts.append(Act("general_conversation", question=True, span=0))
    if head:
        draft.segments.append((_fill(rng, head), None))
    tail = rng.choice(("?", "?", "??", "", "? thanks", "? just wondering"))
    draft.segments += [(_fill(rng, ask), "QUESTION"), (tail, None)]
    return _plain_context(rng), draft


def own_note(rng: random.Random) -> tuple[Context, Draft]:
    """What the person did or decided for the project's work, in the first person ("I ordered
    oak for the shelves"): a project note, the KNOWLEDGE span the whole statement."""
    template = rng.choice(talk.OWN_NOTES)
    text = notes.fill(
        rng,
        template,
        0.25,
        code=rng.choice(talk.CODE),
        bpm=rng.choice(talk.TEMPOS),
        platform=rng.choice(talk.PLATFORMS),
        temp=rng.choice(talk.TEMPERATURES),
    )
    draft = Draft([(rng.choice(talk.OWN_NOTE_LEADS), None)], intent="add_knowledge")
    draft.acts.append(Act("add_knowledge", span=0))
    draft.segments += [(text, "KNOWLEDGE"), (rng.choice(("", "", ".", " btw", "!")), None)]
    return _plain_context(rng, True), draft


def question(rng: random.Random) -> tuple[Context, Draft]:
    """A question for the companion that asks nothing of memory."""
    draft = Draft([], intent="general_conversation", question=True)
    draft.acts.append(Act("general_conversation", question=True, span=0))
    draft.segments += [
        (notes.general_question(rng), "QUESTION"),
        (rng.choice(("?", "", "??", "? thanks")), None),
    ]
    return _plain_context(rng), draft


def status(rng: random.Random) -> tuple[Context, Draft]:
    """Something ongoing with a time to it: a status report, not a fact to keep."""
    draft = Draft([], intent="general_conversation", status=True)
    draft.acts.append(Act("general_conversation", status=True, span=0))
    draft.segments.append((notes.status_text(rng), "STATUS"))
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
    (own_note, 3),
    (_spanless("list_knowledge", asks.LIST_ASKS, True), 3),
    (_spanless("commit_knowledge", asks.COMMIT_ASKS, True), 2),
    (_spanless("describe_capabilities", asks.CAPABILITY_ASKS), 3),
    (_spanless("set_reminder", asks.REMINDER_ASKS), 2),
    (_spanless("web_search", asks.SEARCH_ASKS), 2),
    (_spanless("share_project", asks.SHARE_ASKS, True), 2),
    (_spanless("export_project", asks.EXPORT_ASKS, True), 2),
    (chat, 7),
    (question, 4),
    (mention_question, 3),
    (status, 4),
)
