"""Scenes with something pending: answers that confirm, reject, correct, choose or ignore it."""

from __future__ import annotations

import random
import re

from training import replies_words as rw
from training import values as v
from training import words as w
from training.facts import Fact, random_fact, topic_of
from training.scenes import Context, Scene, chat, fact_act, question, recall, statement, status
from training.schema import Draft
from training.vocab import maybe_vocab

OFFER_ASKS = (
    "Want me to remember that {f}?",
    "Should I keep a note that {f}?",
    "Got it. Shall I hold on to this: {f}?",
    "Noted: {f}. Keep that?",
    "I can remember that {f}. OK?",
)
OFFERS_ASK = ("I caught {k} things: {items}. Which should I keep?", "Keep which of these? {items}")
RETRACTION_ASKS = ("Just checking: forget that {f}?", "You want me to drop this: {f}?")
CANDIDATES_ASK = (
    "A few things match: {items}. Which one should I forget?",
    "Which of these goes? {items}",
)
CROSS_ASKS = (
    "Saved for this project. Should I remember that {f} across all your projects?",
    "Want me to keep that {f} everywhere, not just here?",
)


def _items(facts: list[Fact]) -> str:
    return " ".join(f"{i}. {fact.offered.capitalize()}" for i, fact in enumerate(facts, 1))


def _offered(rng: random.Random, fact: Fact) -> str:
    """What the companion offers back: the fact, or (half the time) one no template states."""
    if rng.random() < 0.5:
        return fact.offered
    return f"you {rng.choice(w.OFFER_VERBS)} {rng.choice(w.OFFER_OBJECTS)}"


def _offer_context(rng: random.Random, fact: Fact) -> Context:
    return Context(
        "offer", rng.choice(OFFER_ASKS).format(f=_offered(rng, fact)), rng.random() < 0.3
    )


def _affirm_text(rng: random.Random) -> str:
    pick = rng.random()
    if pick < 0.15:
        return rng.choice(w.AFFIRM_FOREIGN)
    if pick < 0.3:
        return rng.choice(w.AFFIRM_EMOJI) * rng.choice((1, 1, 2))
    return rng.choice(w.AFFIRMS)


def _reject_text(rng: random.Random) -> str:
    pick = rng.random()
    if pick < 0.12:
        return rng.choice(w.REJECT_FOREIGN)
    if pick < 0.25:
        return rng.choice(w.REJECT_EMOJI)
    return rng.choice(w.REJECTS)


def offer_confirm(rng: random.Random) -> tuple[Context, Draft]:
    """A yes to one offered fact, sometimes with a new fact after it."""
    fact = random_fact(rng)
    draft = Draft([(_affirm_text(rng), None)], relation="confirm", intent="remember_about_me")
    if rng.random() < 0.35:
        new = random_fact(rng)
        draft.segments.append((rng.choice((" — oh and ", ". also ", ", and btw ", " + ")), None))
        fact_act(draft, new)
        draft.profile_field = new.profile_field
    return _offer_context(rng, fact), draft


def offer_reject(rng: random.Random) -> tuple[Context, Draft]:
    """A no to one offered fact, sometimes with a fact that is to be kept instead."""
    fact = random_fact(rng)
    draft = Draft([(_reject_text(rng), None)], relation="reject", intent="general_conversation")
    if rng.random() < 0.35:
        new = random_fact(rng)
        draft.segments.append((rng.choice((" — but do keep that ", ". but ", ", however ")), None))
        fact_act(draft, new)
        draft.intent = "remember_about_me"
        draft.profile_field = new.profile_field
    return _offer_context(rng, fact), draft


def offer_correct(rng: random.Random) -> tuple[Context, Draft]:
    """A correction of the offered value, behind a cue, an apology or a formal lead-in."""
    fact = random_fact(rng)
    while not fact.correctable():
        fact = random_fact(rng)
    new_value = fact.other_value(rng)
    draft = Draft(
        [], relation="correct", intent="remember_about_me", profile_field=fact.profile_field
    )
    lead = rng.choice(w.CORRECTION_LEADS)
    tail = rng.choice(w.CORRECTION_TAILS).format(old=fact.value)
    if rng.random() < 0.3:  # the whole corrected statement, not just the value
        head, rest = fact.said_with(new_value)
        draft.segments += [
            (lead.replace("it's ", ""), None),
            (head, None),
            (new_value, "CORRECTION"),
        ]
        draft.segments += [(rest + tail, None)]
    else:
        draft.segments += [(lead, None), (new_value, "CORRECTION"), (tail, None)]
    return _offer_context(rng, fact), draft


def offer_unrelated(rng: random.Random) -> tuple[Context, Draft]:
    """A message that answers nothing pending: a new fact, a question, chat or a status."""
    fact = random_fact(rng)
    scene = rng.choice((statement, question, chat, status, recall, _no_but_unrelated))
    _, draft = scene(rng)
    draft.relation = "unrelated"
    return _offer_context(rng, fact), draft


def _no_but_unrelated(rng: random.Random) -> tuple[Context, Draft]:
    opener = rng.choice(
        ("honestly no idea ", "nah I can't decide ", "no clue ", "nope, still no word on ")
    )
    text = opener + rng.choice(("what to wear tomorrow", "what to cook", "the flat", "which train"))
    return Context(), Draft([(text, None)], intent="general_conversation")


def offers_answer(rng: random.Random) -> tuple[Context, Draft]:
    """An answer to several numbered offers: all of them, some by number, or none."""
    k = rng.choice((2, 3, 3, 4))
    facts = [random_fact(rng) for _ in range(k)]
    ctx = Context(
        "offers", rng.choice(OFFERS_ASK).format(k=k, items=_items(facts)), rng.random() < 0.3, k
    )
    pick = rng.random()
    if pick < 0.4:  # "all 3" is every item, never item 3
        phrase = rng.choice(w.ALL_PICKS)
        if k != 2 and phrase.startswith("both"):
            phrase = "all of em"
        text = phrase.format(
            k=rng.choice((str(k), str(k), "three" if k == 3 else "four" if k == 4 else "two"))
        )
        return ctx, Draft(
            [(text, None)], relation="confirm", chosen="all", intent="remember_about_me"
        )
    if pick < 0.5:
        return ctx, Draft(
            [(rng.choice(w.NONE_PICKS), None)], relation="reject", intent="general_conversation"
        )
    if pick < 0.9:
        return ctx, _pick(rng, k, "remember_about_me")
    _, draft = offer_unrelated(rng)
    return ctx, draft


def _pick(rng: random.Random, k: int, intent: str) -> Draft:
    a, b = sorted(rng.sample(range(1, k + 1), 2))
    form = rng.choice(w.PICK_FORMS)
    text = form.format(a=a, b=b, ord=w.ORDINALS[a - 1])
    chosen = [a, b] if "{b}" in form else [a]
    return Draft([(text, None)], relation="choose", chosen=chosen, intent=intent)


def retraction_answer(rng: random.Random) -> tuple[Context, Draft]:
    """An answer to "forget this?": yes, no, another thing instead, or something else."""
    fact = random_fact(rng)
    project = rng.random() < 0.25
    intent = "retract_knowledge" if project else "forget_about_me"
    ctx = Context("retraction", rng.choice(RETRACTION_ASKS).format(f=_offered(rng, fact)), project)
    pick = rng.random()
    if pick < 0.35:
        text = rng.choice(w.CONFIRM_RETRACTION) if rng.random() < 0.7 else _affirm_text(rng)
        return ctx, Draft([(text, None)], relation="confirm", intent=intent)
    if pick < 0.65:
        return ctx, Draft([(rng.choice(w.REJECT_RETRACTION), None)], relation="reject")
    if pick < 0.85:
        other = random_fact(rng)
        lead = rng.choice(("no, the one about ", "not that, ", "wrong one, I meant ", "no no, "))
        draft = Draft(
            [(lead, None), (topic_of(other, rng), "CORRECTION")], relation="correct", intent=intent
        )
        return ctx, draft
    _, draft = offer_unrelated(rng)
    return ctx, draft


def candidates_answer(rng: random.Random) -> tuple[Context, Draft]:
    """An answer to "which of these should I forget?"."""
    k = rng.choice((2, 3))
    facts = [random_fact(rng) for _ in range(k)]
    ctx = Context("candidates", rng.choice(CANDIDATES_ASK).format(items=_items(facts)), False, k)
    pick = rng.random()
    if pick < 0.6:
        return ctx, _pick(rng, k, "forget_about_me")
    if pick < 0.8:
        text = rng.choice(w.ALL_PICKS).format(k=k) if k == 3 else rng.choice(("both", "both pls"))
        return ctx, Draft([(text, None)], relation="choose", chosen="all", intent="forget_about_me")
    _, draft = offer_unrelated(rng)
    return ctx, draft


def cross_answer(rng: random.Random) -> tuple[Context, Draft]:
    """An answer to "remember that across all your projects?"."""
    fact = random_fact(rng)
    ctx = Context("cross_promotion", rng.choice(CROSS_ASKS).format(f=_offered(rng, fact)), True)
    if rng.random() < 0.5:
        text = rng.choice(w.CROSS_YES) if rng.random() < 0.6 else _affirm_text(rng)
        return ctx, Draft([(text, None)], relation="confirm", intent="remember_about_me")
    text = rng.choice(w.CROSS_NO) if rng.random() < 0.6 else _reject_text(rng)
    return ctx, Draft([(text, None)], relation="reject")


# --- answers in many shapes (phrase lists in training/replies_words.py) ---------------------

AVOID_OFFERS = ("you don't eat {v}", "you never have {v}", "you've cut out {v}", "you avoid {v}")
_SLOTS = re.compile(r"(\{new\})")


def _shaped(shape: str, new: str, **fills: str) -> list[tuple[str, str | None]]:
    """A shape's segments: {new} labelled CORRECTION (the value alone), the rest filled."""
    return [
        (new, "CORRECTION") if part == "{new}" else (part.format(**fills), None)
        for part in _SLOTS.split(shape)
        if part
    ]


def _correction_pick(rng: random.Random) -> tuple[str, str, str, str, str]:
    """An offer and its correction: (offered text, old, new, shape, profile field)."""
    pick = rng.random()
    if pick < 0.35:
        fact = random_fact(rng)
        while not fact.correctable() or not fact.value:
            fact = random_fact(rng)
        new = fact.other_value(rng)
        return fact.offered, fact.value, new, rng.choice(rw.CORRECTION_SHAPES), fact.profile_field
    if pick < 0.85:
        pool = rng.choice((rw.WAY_OFFERS, rw.AMOUNT_OFFERS, rw.VALUE_OFFERS, rw.VALUE_OFFERS))
        offer, values, field = rng.choice(pool)
        old, new = rng.sample(values, 2)
        shapes: tuple[str, ...] = rw.CORRECTION_SHAPES
        if pool is rw.VALUE_OFFERS:
            new = maybe_vocab(rng, new, 0.15)
        elif rng.random() < 0.5:
            shapes = rw.WAY_SHAPES + rw.AMOUNT_SHAPES if pool is rw.WAY_OFFERS else rw.AMOUNT_SHAPES
        return offer.format(v=old), old, new, rng.choice(shapes), field
    offer, group, members = rng.choice(rw.SCOPE_OFFERS)
    # Only scope shapes: "haha no, okra" after "you dislike vegetables" could be a yes.
    return offer.format(v=group), group, rng.choice(members), rng.choice(rw.SCOPE_SHAPES), "none"


def offer_correct_shaped(rng: random.Random) -> tuple[Context, Draft]:
    """A correction whose CORRECTION span is exactly the new value: "nah it's 15 km",
    "not all nuts, just peanuts", "Portland, Maine, not Cork", "sorry, the 9th of May"."""
    offered, old, new, shape, field = _correction_pick(rng)
    ctx = Context("offer", rng.choice(OFFER_ASKS).format(f=offered), rng.random() < 0.3)
    segments = _shaped(shape, new, old=old)
    return ctx, Draft(segments, relation="correct", intent="remember_about_me", profile_field=field)


def offer_restate(rng: random.Random) -> tuple[Context, Draft]:
    """A yes that says the offered value again ("correct — Leeds"): a confirm, no new fact."""
    if rng.random() < 0.35:
        food = rng.choice(v.FOODS)
        offered, text = (
            rng.choice(AVOID_OFFERS).format(v=food),
            rng.choice(rw.RESTATE_NONE_SHAPES).format(v=food),
        )
    else:
        fact = random_fact(rng)
        while not fact.value:
            fact = random_fact(rng)
        offered, text = fact.offered, rng.choice(rw.RESTATE_SHAPES).format(v=fact.value)
    ctx = Context("offer", rng.choice(OFFER_ASKS).format(f=offered), rng.random() < 0.3)
    return ctx, Draft([(text, None)], relation="confirm", intent="remember_about_me")


def offer_forget_it(rng: random.Random) -> tuple[Context, Draft]:
    """ "forget I said anything" after an offer: a reject of the offer, not a forget request."""
    draft = Draft([(rng.choice(rw.FORGET_IT_REJECTS), None)], relation="reject")
    if rng.random() < 0.25:
        k = rng.choice((2, 3))
        items = _items([random_fact(rng) for _ in range(k)])
        prev = rng.choice(OFFERS_ASK).format(k=k, items=items)
        return Context("offers", prev, rng.random() < 0.3, k), draft
    return _offer_context(rng, random_fact(rng)), draft


def cross_project_answer(rng: random.Random) -> tuple[Context, Draft]:
    """Everywhere, or just this project, often naming the project's subject."""
    subj = rng.choice(rw.PROJECT_SUBJECTS)
    prev = rng.choice(rw.CROSS_ASKS_PROJECT).format(subj=subj, f=_offered(rng, random_fact(rng)))
    ctx = Context("cross_promotion", prev, True)
    said = subj if rng.random() < 0.8 else rng.choice(rw.PROJECT_SUBJECTS)
    if rng.random() < 0.5:
        text = rng.choice(rw.CROSS_ACCEPTS).format(subj=said)
        return ctx, Draft([(text, None)], relation="confirm", intent="remember_about_me")
    text = rng.choice(rw.CROSS_DECLINES).format(subj=said)
    return ctx, Draft([(text, None)], relation="reject", intent="general_conversation")


def _described(rng: random.Random, k: int) -> tuple[list[Fact], list[str]]:
    """k facts, each with a topic that names it and no other item."""
    while True:
        facts = [random_fact(rng) for _ in range(k)]
        topics = [topic_of(f, rng) for f in facts]
        texts = [f.offered.lower() for f in facts]
        if all(
            len(t) > 2
            and t.lower() in texts[i]
            and all(t.lower() not in o for o in texts[:i])
            and all(t.lower() not in o for o in texts[i + 1 :])
            for i, t in enumerate(topics)
        ):
            return facts, topics


def choose_by_description(rng: random.Random) -> tuple[Context, Draft]:
    """A choice among offers or forget candidates by what the item is about."""
    k = rng.choice((2, 3, 3, 4))
    facts, topics = _described(rng, k)
    forget = rng.random() < 0.45
    if forget:
        prev = rng.choice(CANDIDATES_ASK).format(items=_items(facts))
        ctx, intent = Context("candidates", prev, False, k), "forget_about_me"
    else:
        prev = rng.choice(OFFERS_ASK).format(k=k, items=_items(facts))
        ctx, intent = Context("offers", prev, rng.random() < 0.3, k), "remember_about_me"
    a, b = sorted(rng.sample(range(k), 2))
    if not forget and k > 2 and rng.random() < 0.25:
        text = rng.choice(rw.DESCRIBED_PAIRS).format(t=topics[a], u=topics[b])
        chosen = [a + 1, b + 1]
    else:
        text = rng.choice(rw.DESCRIBED_FORGETS if forget else rw.DESCRIBED_PICKS).format(
            t=topics[a]
        )
        chosen = [a + 1]
    return ctx, Draft([(text, None)], relation="choose", chosen=chosen, intent=intent)


ANSWERS: tuple[tuple[Scene, int], ...] = (
    (offer_confirm, 8),
    (offer_reject, 5),
    (offer_correct, 7),
    (offer_unrelated, 6),
    (offers_answer, 6),
    (retraction_answer, 5),
    (candidates_answer, 3),
    (cross_answer, 2),
    (offer_correct_shaped, 9),
    (offer_restate, 3),
    (offer_forget_it, 3),
    (cross_project_answer, 5),
    (choose_by_description, 4),
)
