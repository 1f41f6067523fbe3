"""A deterministic status detector for the template responder, which has no model.

It finds sentences that report where an ongoing thing stands, by the shape of the sentence,
not by a list of cases:

- a thing *is at / in* a place or state, or *is away / off / out* ("the car is at the shop until
  Friday", "Mum is in hospital", "my laptop is in for repair");
- a thing *is being* done to ("the roof is being fixed");
- a thing *is* in a state word that only an ongoing matter has (delayed, pending, booked, on
  hold, back, fixed, broken, stuck, ...) ("the visa is still pending");
- a thing *won't / isn't ... until* a time ("the parcel won't arrive until Monday");
- a thing *arrives / comes back / is due / starts ...* at a time ("the sofa arrives Thursday");
- the person is *waiting on / for / to hear from* something ("still waiting on the plumber");
- with the verb left out, a thing *has a fault or is still open* ("boiler playing up again",
  "washing machine leaking again", "laptop not working").

The subject must be a named thing ("my car", "the boiler", "Dad's flight", or at the start of
a clause without its article: "washing machine's leaking again, plumber due monday") or the
person ("I", "we") with a time ("I'm off work until Monday"). Questions and conditionals ("if
the car is...") are not reports. docs/memory.md, "Status notes", says what this catches and misses.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pipeline.english.extract import to_second_person

_DAYS = r"monday|tuesday|wednesday|thursday|friday|saturday|sunday"
_TIME = (
    rf"(?:until|till|til|through|by|before|after|since|for|from|next|this|tomorrow|tonight|"
    rf"today|later|soon|on (?:{_DAYS})|{_DAYS}|the \d+\w*|\d+\w*|end of|mid-?\w+|in (?:a|\d+|"
    rf"two|three|four|five|six|a few|a couple of) \w+|at least)\b"
)
_OWNER = r"(?:my|our|the|his|her|their|[A-Z][a-z]+'s)"
_NOUN = r"[\w'-]+"
# "my car", "the new boiler", "Dad's flight", "my sister Ana's visa": up to four words.
_THING = rf"(?:{_OWNER}\s+(?:{_NOUN}\s+){{0,3}}?{_NOUN}|mum|mom|dad|grandma|grandpa)"
_SELF = r"(?:i|we)"
_BE = (
    r"(?:\s+is|\s+are|'s|'re|\s+was|\s+has been|\s+have been|\s+will be|\s+is still|"
    r"\s+are still|'s still|'re still|\s+am|'m|'m still|\s+am still|\s+got|\s+has got|"
    r"\s+just got)"
)
_STATE = (
    r"(?:delayed|pending|booked|scheduled|postponed|rescheduled|cancell?ed|on hold|back|"
    r"fixed|repaired|finished|done|ready|broken|stuck|closed|sold|approved|rejected|"
    r"submitted|sent off|on order|out of stock|in progress|under repair|under way|underway|"
    r"off work|off sick|away|out|in hospital|recovering|grounded|quarantined|booked in|"
    r"being \w+|due(?: back)?|gone|lost|missing|late|overdue|on the way|in transit|"
    r"cracked|leaking|flat|sick|ill|unwell|laid off|on leave|on holiday|on vacation)"
)
_PLACE = rf"(?:at|in|with|on)\s+(?:{_OWNER}\s+|a\s+|an\s+)?{_NOUN}"
_ARRIVE = (
    r"(?:arrives?|comes? back|gets? back|gets? in|gets? delivered|is delivered|ships?|lands?|"
    r"returns?|starts?|ends?|opens?|reopens?|gets? out|goes? in|finishes?|is due|due)"
)

_THING_STATE = re.compile(
    rf"\b(?P<subject>{_THING}){_BE}\s+(?:now\s+|currently\s+|finally\s+|still\s+)?"
    rf"(?P<rest>(?:{_STATE}|{_PLACE})\b.*)",
    re.IGNORECASE,
)
_SELF_STATE = re.compile(
    rf"\b(?P<subject>{_SELF}){_BE}\s+(?:now\s+|currently\s+|still\s+)?"
    rf"(?P<rest>(?:{_STATE}|{_PLACE}).*?\b{_TIME}.*)",
    re.IGNORECASE,
)
_NOT_UNTIL = re.compile(
    rf"\b(?P<subject>{_THING})\s+(?:won't|will not|isn't|is not|aren't|are not|can't|cannot)"
    rf"\s+(?P<rest>.*\b(?:until|till|before)\b.*)",
    re.IGNORECASE,
)
_ARRIVES = re.compile(
    rf"\b(?P<subject>{_THING})\s+(?:should\s+|finally\s+|only\s+)?(?P<rest>{_ARRIVE}\b.*?\b{_TIME}.*)",
    re.IGNORECASE,
)
_WAITING = re.compile(
    rf"\b(?:i'm|i am|we're|we are|still|been)\s+(?:still\s+)?waiting\s+"
    rf"(?:on|for|to hear(?: back)? from)\s+(?P<subject>(?:{_OWNER}\s+|a\s+|an\s+)?"
    rf"(?:{_NOUN}\s+){{0,3}}?{_NOUN})(?=\s*(?:$|[,.;!]|\s+(?:to|about|until|before|so|and|but)\b))",
    re.IGNORECASE,
)
# A thing named without an article or owner, as typed in a hurry ("washing machine's leaking
# again, plumber due monday"): only at the start of a clause, and never a pronoun or a word
# that opens a clause without naming a thing.
_NOT_A_THING = (
    r"i|you|he|she|it|we|they|this|that|these|those|there|here|what|who|which|where|when|how|"
    r"why|so|and|but|or|if|also|still|just|now|then|today|tomorrow|tonight|yesterday|lol|ok|"
    r"okay|well|yes|no|not|everything|something|nothing|anything|someone|everyone|anyone|"
    r"one|all|let's|me|got|get|been|is|are|was|were|has|have|had|will|would|can|could|should|"
    r"may|might|must|do|does|did|"
    # words that open a clause about the person or a mood, with its subject left out ("pretty
    # stuck on this", "feeling broken today", "loving this weather")
    r"im|i'm|ive|i've|u|ur|ya|us|pretty|really|kinda|sorta|totally|completely|so|very|quite|"
    r"super|bit|proper|literally|honestly|absolutely|utterly|feeling|getting|going|being|"
    r"doing|loving|having|trying|thinking|looking|hoping|stuck|feel|seems|looks"
)
_BARE_THING = rf"(?!(?:{_NOT_A_THING})\b)(?:{_NOUN}\s+(?!(?:{_NOT_A_THING})\b)){{0,2}}?{_NOUN}"
_BARE_STATE = re.compile(
    rf"^(?P<subject>{_BARE_THING}){_BE}\s+(?:now\s+|currently\s+|finally\s+|still\s+)?"
    rf"(?P<rest>(?:{_STATE}|{_PLACE})\b.*)",
    re.IGNORECASE,
)
# With the verb left out too ("washing machine leaking again", "boiler playing up"): only a
# fault a thing has or a matter still open, in a form that cannot be a past tense with the
# subject acting ("Maya cancelled again", "EasyJet cancelled the flight", "the printer jammed
# twice" are events, not states); never a person's state ("stuck", "sick", "away") nor a place
# ("hard at a silly video today" is the end of "I laughed so hard ...").
_FAULT = (
    r"(?:leaking|dripping|flooding|overheating|flickering|rattling|squeaking|beeping|smoking|"
    r"playing up|acting up|on the blink|not working|stopped working|broken(?: down)?|busted|"
    r"kaput|frozen|down (?:again|still|since)|making (?:a |an |that |this |the )?(?:\w+ )?"
    r"noises?|pending|overdue|booked in|in for (?:repair|a repair|a service|service)|"
    r"under repair|being \w+)"
)
_BARE_FAULT = re.compile(
    rf"^(?P<subject>{_BARE_THING})\s+(?:still\s+|now\s+|totally\s+|completely\s+)?"
    rf"(?P<rest>{_FAULT}\b.*)",
    re.IGNORECASE,
)
_BARE_ARRIVES = re.compile(
    rf"^(?P<subject>{_BARE_THING})\s+(?:should\s+|finally\s+|only\s+)?"
    rf"(?P<rest>{_ARRIVE}\b.*?\b{_TIME}.*)",
    re.IGNORECASE,
)
_CLAUSE = re.compile(r"\s*[,;]\s*|\s+(?:and|but|so)\s+", re.IGNORECASE)
_CONDITIONAL = re.compile(r"^\s*(?:if|when|whether|unless|in case|what if|imagine)\b", re.I)
_SENTENCES = re.compile(r"(?<=[.!?;])\s+|\s+(?:—|–|-)\s+|\n+")


@dataclass(frozen=True)
class StatusReport:
    """A status the message reports: the thing (topic) and the sentence, in the second person."""

    topic: str
    text: str


def _topic(subject: str) -> str:
    words = subject.strip()
    return "you" if words.casefold() in ("i", "we") else words


def _report(sentence: str) -> StatusReport | None:
    waiting = _WAITING.search(sentence)
    if waiting:
        return StatusReport(_topic(waiting["subject"]), sentence)
    for rule in (_NOT_UNTIL, _ARRIVES, _THING_STATE, _SELF_STATE):
        hit = rule.search(sentence)
        if hit:
            return StatusReport(_topic(hit["subject"]), sentence[hit.start() :])
    return None


def _bare_reports(sentence: str) -> list[StatusReport]:
    """Reports whose thing is named without an article, one a clause."""
    found = []
    for clause in _CLAUSE.split(sentence):
        if _CONDITIONAL.match(clause):
            continue
        for rule in (_BARE_ARRIVES, _BARE_STATE, _BARE_FAULT):
            hit = rule.match(clause.strip())
            if hit:
                found.append(StatusReport(hit["subject"], clause.strip()))
                break
    return found


def detect_status(message: str) -> list[StatusReport]:
    """Every status the message reports, at most one a topic (the last one wins)."""
    found: dict[str, StatusReport] = {}
    for sentence in _SENTENCES.split(message.replace("’", "'")):
        sentence = sentence.strip().strip(",").strip()
        if not sentence or sentence.endswith("?") or _CONDITIONAL.match(sentence):
            continue
        report = _report(sentence)
        reports = [report] if report is not None else _bare_reports(sentence)
        for each in reports:
            text = to_second_person(each.text.rstrip(".!; "))
            found[each.topic.casefold()] = StatusReport(each.topic, text)
    return list(found.values())
