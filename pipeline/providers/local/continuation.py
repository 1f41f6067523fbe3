"""History-aware continuations: what the prior companion turn offered, and how the reply answers it.

The prior companion turn decides (docs/intents.md, "Continuations"). Its intent and operation
data say what was offered when the pipeline produced it; when only its text is known (eval
suites, imported histories) the offer is read from the wording, and the fact from the
companion's restatement or from the operator's message before it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from pipeline.domain import HistoryTurn, Role
from pipeline.english.correction import correction_body, without_interjections
from pipeline.english.cues import asks_something_else, is_correction, limits_to_project
from pipeline.english.extract import forget_description, personal_fact
from pipeline.english.language import is_question, words, wordset
from pipeline.english.refine import shares_content
from pipeline.providers.base import ClassifyRequest

OfferKind = Literal["remember", "retraction", "ambiguous", "cross_promotion"]
ReplyKind = Literal["confirm", "reject", "decline", "refine", "choose", "other"]

_F = re.IGNORECASE
_ASKS = re.compile(
    r"\?|\b(?:want me to|should i|shall i|would you like|do you want|is that right|"
    r"is that correct|did i get that right|have i got that right|let me know)\b",
    _F,
)
_CROSS_PROMOTION = re.compile(
    r"\b(?:across|in|for|to|into) (?:all )?(?:of )?your (?:other )?(?:projects|engagements)\b"
    r"|\b(?:every|any|all) (?:of )?your projects\b|\beverywhere\b|\bbeyond this (?:project|one)\b"
    r"|\bother projects\b|\bacross projects\b|\bpersonal (?:memory|notes|facts)\b"
    r"|\bremember (?:that|this|it) (?:about|for) you\b|\bglobally\b",
    _F,
)
_CANDIDATES = re.compile(r"#\d+.*#\d+|\bwhich (?:one|of)\b|\bnot sure which\b", _F)
_RESTATED = (
    re.compile(
        r"\bremember (?:that )?(?P<fact>.+?)(?:\s+instead)?\s*"
        r"(?:[—–]|\s-\s|\.(?!\d)|[?!;]|,? is that|,? right\b|\s+across\b|$)",
        _F,
    ),
    re.compile(
        r"(?:^|[—–:,.!]\s*)(?P<fact>(?:you(?:'re|’re| are| have|'ve| prefer| like| love| hate"
        r"| live| work| can't| don't| get| go| were| was)|your\s)[^.?!—–]*)",
        _F,
    ),
)
_STOP_USING = re.compile(
    r"\b(?:stop using|stop remembering|forget|remove|delete|drop|erase)\s+"
    r"(?:that\s+|the (?:note|fact) (?:that|about)\s+)?"
    r"(?P<fact>[^?]+?)\s*(?:\?|—|–|$)",
    _F,
)

AFFIRM = re.compile(
    r"^(?:yes|yeah|yea|yep|yup|ya|yes please|sure|surely|correct|right|exactly|absolutely|"
    r"definitely|certainly|indeed|of course|ok|okay|k|affirmative|perfect|great|good|fine|true|"
    r"mhm+|uh[- ]?huh|please|please do|go ahead|go for it|do it|do that|sounds good|sounds right|"
    r"that'?s (?:right|it|correct|the one|true|fine|good|perfect|accurate)|"
    r"that is (?:right|correct)|you got it|spot on|bingo|agreed|confirm(?:ed)?|that one|"
    r"this one|all good|yes sir|aye|totally|"
    # "both right" after two facts offered in one turn, or "all correct"
    r"(?:both|all)(?: of (?:them|those|these))?(?: are| is)? (?:right|correct|true|good|fine)"
    r")\b",
    _F,
)
NEGATE = re.compile(
    r"^(?:no|nope|nah|nay|not really|negative|never ?mind|nevermind|forget it|forget that|"
    r"forget i said|scratch that|cancel|ignore|don't|do not|please don't|let's not|skip|drop it|"
    r"no need|not needed|wrong|incorrect|not now|no thanks|not necessary|leave it|"
    # a verdict on the offer: "that's wrong", "that's not right"
    r"that(?:'?s| is) (?:wrong|incorrect|not (?:right|correct|true|it|quite it))|not right)\b",
    _F,
)
CORRECT = re.compile(
    r"^(?:actually|close|almost|nearly|not quite|not exactly|kind of|sort of|well|wait|sorry|"
    r"oops|correction|i mean|rather|make (?:that|it)|change (?:that|it) to|more like|"
    r"it should be|should be|technically|mostly|partly|partially)\b",
    _F,
)
_CONTRAST = re.compile(r"\b(?:not|rather than|instead of|instead)\b|^(?:just|only)\b|\bonly$", _F)
_SCOPE = re.compile(
    r"\b(?:just|only|keep (?:it|that|this)|leave (?:it|that)|stay|stays|specific to|limited to|"
    r"relevant to)\b.*\b(?:here|this (?:one|project|\w+)|local|scoped|separate|the \w+)\b"
    r"|\bnot (?:across|everywhere|globally|all of them|for all|in all|in the others|in other|"
    r"my other|for my other)\b|\b(?:other|rest of my) projects (?:don't|do not|won't)\b"
    r"|\bone-off\b|\bout of (?:my|the) other\b|^(?:here|this \w+) only\b|\bthis project only\b"
    r"|^(?:just|only) (?:here|this one|for this)\b",
    _F,
)
# Words a reply uses to talk about the offer rather than to state a new value.
_META = wordset(
    "thanks thank you bother leave it that this fine ok okay joking kidding just saying "
    "important matter matters doesn't does worth saving save store remember keep need "
    "needed don't do not please forget never mind i i'm was me it's that's is really all "
    "at anything nothing said know really sure yes yeah no nope nah right correct exactly "
    "remove delete drop one go ahead sounds good great perfect cool across everywhere "
    "projects project them those these the a an of in for my your all good totally "
    "definitely absolutely of course k to was were be want you we us our mean meant thing "
    "stuff anyway ignore cancel skip necessary now later maybe sorry wrong incorrect untrue "
    "quite scrap ditch bin lose both either neither"
)


@dataclass(frozen=True)
class Offer:
    """What the prior companion turn is waiting for an answer to."""

    kind: OfferKind
    fact: str = ""
    description: str = ""
    # The intent that asked (forget_about_me or retract_knowledge for a retraction question)
    intent: str = "remember_about_me"
    # What the offer listed: display numbers and texts (candidates of an ambiguous match)
    items: tuple[tuple[int, str], ...] = ()
    # The display number of the one fact or note the offer is about, when known
    number: int | None = None


def _previous_operator(history: tuple[HistoryTurn, ...]) -> HistoryTurn | None:
    for turn in reversed(history[:-1]):
        if turn.role is Role.OPERATOR:
            return turn
    return None


def _restated_fact(text: str) -> str:
    """The fact as the companion restated it ("I'll remember that you ..."), or ""."""
    for pattern in _RESTATED:
        found = pattern.search(text)
        if found:
            fact = _CROSS_PROMOTION.sub("", found.group("fact")).strip(" ,.;:?")
            fact = re.sub(r"\s+(?:also|too|as well)$", "", fact, flags=_F)
            if fact and found_you(fact):
                return fact[:1].upper() + fact[1:]
    return ""


def _offered_fact(prior: HistoryTurn, history: tuple[HistoryTurn, ...]) -> str:
    """The offered fact: from operation data, else the companion's restatement when it is a
    whole clause ("you avoid gluten"), else the operator's message before the offer."""
    data = prior.operation_data
    for key in ("personal_fact", "knowledge"):
        value = data.get(key)
        if isinstance(value, str) and value.strip():
            return value.strip() if key == "personal_fact" else personal_fact(value)
    restated = _restated_fact(prior.content)
    if restated and not restated.lower().startswith("your "):
        return restated
    operator = _previous_operator(history)
    return personal_fact(operator.content) if operator is not None else restated


def pending_offer(request: ClassifyRequest) -> Offer | None:
    """The offer the prior companion turn made, if the message answers one."""
    prior = request.prior_companion
    if prior is None:
        return None
    data = prior.operation_data
    action = data.get("action")
    text = prior.content
    asks = bool(_ASKS.search(text))
    if prior.intent in ("forget_about_me", "retract_knowledge"):
        if action == "confirm_retraction" or (
            action is None and asks and not _CANDIDATES.search(text)
        ):
            matched = str(data.get("matched_fact") or "")
            if not matched:
                found = _STOP_USING.search(text)
                matched = found.group("fact").strip() if found else ""
            if not has_new_content(matched):
                matched = ""
            operator = _previous_operator(request.history)
            described = forget_description(operator.content) if operator is not None else ""
            number = data.get("assertion_display_number")
            return Offer(
                "retraction",
                fact=matched,
                description=matched or described,
                intent=str(prior.intent),
                number=number if isinstance(number, int) else None,
            )
        if action == "ambiguous" or (action is None and _CANDIDATES.search(text)):
            return Offer(
                "ambiguous",
                description=str(data.get("forget_description") or ""),
                intent=str(prior.intent),
                items=_listed(data.get("candidates")),
            )
        return None
    if _CROSS_PROMOTION.search(text) and asks:
        # The offer names the personal part of a project note; the note itself may be mostly
        # about the project ("keep the runs flat, my hip flares up on hills").
        restated = _restated_fact(text)
        return Offer("cross_promotion", fact=restated or _offered_fact(prior, request.history))
    offered = action in ("held", "refined") or (action is None and asks)
    if prior.intent == "remember_about_me" and offered:
        return Offer("remember", fact=_offered_fact(prior, request.history))
    return _earlier_offer(request)


def _earlier_offer(request: ClassifyRequest) -> Offer | None:
    """An offer made before the last exchange and still held, when the message plainly
    corrects something ("actually it's the day shift not nights" after a question in
    between): the newest such offer, named by its number."""
    if not is_correction(request.message):
        return None
    numbers = earlier_offers(request)
    if not numbers:
        return None
    for turn in reversed(request.history):
        data = turn.operation_data
        if turn.role is Role.COMPANION and data.get("assertion_display_number") == numbers[-1]:
            fact = str(data.get("personal_fact") or "")
            return Offer("remember", fact=fact, number=numbers[-1]) if fact else None
    return None


def _listed(raw: object) -> tuple[tuple[int, str], ...]:
    """(display number, text) of the items an operation data list names."""
    if not isinstance(raw, list):
        return ()
    return tuple(
        (item["display_number"], str(item.get("content", "")))
        for item in raw
        if isinstance(item, dict) and isinstance(item.get("display_number"), int)
    )


def offered_many(request: ClassifyRequest) -> tuple[tuple[int, str], ...]:
    """The facts the prior companion turn offered together (several at once), if it did."""
    prior = request.prior_companion
    if prior is None or prior.operation_data.get("action") != "held_many":
        return ()
    return _listed(prior.operation_data.get("facts"))


def earlier_offers(request: ClassifyRequest) -> tuple[int, ...]:
    """Display numbers of single facts that recent companion turns offered and no later turn
    settled: what "yes, both are right" confirms besides the newest offer."""
    offered: dict[int, None] = {}
    for turn in request.history:
        data = turn.operation_data
        number = data.get("assertion_display_number")
        if turn.role is not Role.COMPANION or not isinstance(number, int):
            continue
        if turn.intent == "remember_about_me" and data.get("action") in ("held", "refined"):
            offered[number] = None
        else:  # committed, rejected, or a note's number: never confirmed by a later "both"
            offered.pop(number, None)
    return tuple(offered)


_VALUE_KINDS = (
    re.compile(
        r"\b(?:\d+(?:st|nd|rd|th)?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|"
        r"twelve|twenty|thirty|forty|fifty|hundred|half|dozen)\b",
        _F,
    ),
    re.compile(r"\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\b|\bweekends?\b", _F),
    re.compile(r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b", _F),
)


def same_kind_of_value(body: str, fact: str) -> bool:
    """Whether a reply names a value of a kind the fact holds (a number, a weekday, a month):
    "five of us now" corrects "you cook for four people"."""
    return any(kind.search(body) and kind.search(fact) for kind in _VALUE_KINDS)


def found_you(text: str) -> bool:
    """Whether a restated fact is about the person ("you ...", "your ...")."""
    return bool(re.match(r"\s*(?:that\s+)?(?:you|your)\b", text, _F))


def has_new_content(body: str) -> bool:
    """Whether a reply carries a value of its own, beyond yes/no and talk about the offer."""
    return any(w not in _META for w in words(body))


REFUSAL = re.compile(
    r"\b(?:don'?t|do not|didn'?t|not|never|no need to|(?:rather|prefer) (?:you )?(?:not|didn'?t)|"
    r"let'?s not|won'?t need to|shouldn'?t)\s+(?:\w+\s+){0,2}?"
    r"(?:store|save|saving|remember|keep|note|record|track|bother|worry|need|use)\b"
    r"(?! (?:me|him|her|them|us)\b)"
    r"|\bforget (?:it|that|i said|about it|i mentioned)\b|\bscratch that\b|\bnever ?mind\b"
    r"|\b(?:just|only) (?:an idea|a thought|saying|thinking|kidding|joking|venting)\b"
    r"|\bwas (?:just )?(?:joking|kidding|saying|venting)\b"
    r"|\bnot (?:important|worth|relevant|needed|necessary|sure yet|certain|definite)\b"
    r"|\bdoesn'?t matter\b|\bignore (?:that|it|me)\b|\bleave it\b|\bdrop it\b|\bskip it\b"
    r"|\b(?:scrap|ditch|bin|delete|lose) (?:that|it|this)\b",
    _F,
)


def read_reply(
    message: str, offer: Offer, reply_scores: dict[str, float], project: str | None = None
) -> ReplyKind:
    """Whether the message confirms, rejects, declines, refines — or is something else.

    Sentence form decides when it is clear (a leading yes / no / actually, "X, not Y", a
    scope like "just this project"); otherwise the nearest reply examples do, and a long
    message that is none of these is a new message ("other").
    """
    text = without_interjections(message)
    if asks_something_else(text):  # "wait, what else can you do?" is a new message
        return "other"
    tokens = words(text)
    body = correction_body(text)
    new_content = has_new_content(body)
    correcting = bool(CORRECT.match(text) or _TRAILING_CORRECTION.search(text))
    if offer.kind == "ambiguous":
        if NEGATE.match(text) and not new_content:
            return "reject"
        if re.search(
            r"#?\b\d+\b|\b(?:first|second|third|fourth|fifth|last|latter|former)\b", text, _F
        ):
            return "choose"
        return "choose" if len(tokens) <= 8 and not text.endswith("?") else "other"
    if offer.kind == "cross_promotion" and (
        _SCOPE.search(text)
        or NEGATE.match(text)
        or (project is not None and limits_to_project(text, project))
    ):
        return "decline"
    if REFUSAL.search(text) and not (AFFIRM.match(text) and offer.kind == "retraction"):
        return "reject"
    if new_content and text.rstrip().endswith("?"):
        return "other"  # "no clue what to wear tomorrow, any ideas?" asks something new
    if correcting and new_content:
        return "refine"
    if AFFIRM.match(text):
        if new_content and re.search(r"\b(?:but|only|just|except|actually|not)\b", text, _F):
            return "refine"
        return "confirm"
    if NEGATE.match(text):
        if new_content and offer.kind != "retraction":
            # "no, just shrimp" corrects; "nah, my flight got moved to friday and ..." that
            # shares nothing with the offer says something else, and the offer stays held
            related = (
                len(words(body)) <= 4
                or shares_content(body, offer.fact)
                or same_kind_of_value(body, offer.fact)
            )
            return "refine" if related else "other"
        return "reject"
    if new_content and _CONTRAST.search(text) and len(tokens) <= 12:
        return "refine"
    best = max(reply_scores, key=lambda k: reply_scores[k]) if reply_scores else ""
    if best and reply_scores[best] >= REPLY_MIN_SIMILARITY and len(tokens) <= 8:
        kind = {"decline_cross_promotion": "decline"}.get(best, best)
        if kind == "decline" and offer.kind != "cross_promotion":
            kind = "reject"
        if kind == "refine" and not new_content:
            kind = "confirm"
        return kind  # type: ignore[return-value]
    # A short value, or a statement about the same thing that names another value of a kind
    # the offer holds, corrects the offer. A statement that only shares a word with it ("car
    # is back now, all fixed", "remind me what I said about the car") is something else, and
    # the offer stays held: with no cue, the safe reading is unrelated.
    related = len(tokens) <= 4 or (
        offer.kind == "remember"
        and shares_content(body, offer.fact)
        and same_kind_of_value(body, offer.fact)
    )
    if new_content and related and not is_question(text):
        return "refine"
    return "other"


_TRAILING_CORRECTION = re.compile(r"[\s,]+(?:actually|instead)[\s.!]*$", _F)
# Cosine similarity to the nearest reply examples above which their kind is trusted.
REPLY_MIN_SIMILARITY = 0.55
