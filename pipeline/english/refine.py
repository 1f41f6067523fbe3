"""Refinements: put the corrected value into the offered fact, so the old value is gone.

"You're allergic to all shellfish" + "no, just shrimp" -> "You're allergic to shrimp";
"Your birthday is March 15th" + "actually it's March 16th" -> "Your birthday is March 16th".
The rules are about the shape of English corrections ("X, not Y", "actually it's X",
"just X", a new date for a date), in this order:

1. "X, not Y" / "not Y, X" / "X instead of Y": Y is found in the fact and replaced by X.
2. A value with a type (date, time, weekday, number) replaces the fact's value of that type.
3. A whole first-person clause ("actually I'm 43") is the new fact, in the second person.
4. A prepositional qualifier ("only on weekdays") replaces the fact's phrase with the same
   preposition, or is appended.
5. Otherwise the value replaces the fact's object: the phrase ending in a word the value
   shares with it, or everything after the fact's last verb or preposition.
"""

from __future__ import annotations

import re

from pipeline.english.correction import clean, correction_body
from pipeline.english.extract import to_second_person
from pipeline.english.language import wordset

_F = re.IGNORECASE
_MONTH = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
)
_ORD = r"\d{1,2}(?:st|nd|rd|th)?"
_NUMBER_WORDS = (
    r"one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen"
    r"|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty"
    r"|ninety|hundred|a couple of|a few|several"
)
_UNIT = r"(?:second|minute|hour|day|week|fortnight|month|year|decade)s?"
_TYPED = (
    # Identifiers: an e-mail address, a URL or a handle replaces the whole old one.
    re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+|\bhttps?://\S+|(?<!\w)@\w+", _F),
    re.compile(
        r"\b(?:north|south|east|west)(?:[- ]?(?:east|west))?(?:ern)?\b|\b(?:north|south)(?:east|"
        r"west)\b",
        _F,
    ),
    # Relative time first: "two months ago" replaces "last month", not just a number.
    re.compile(
        rf"\b(?:(?:\d+|{_NUMBER_WORDS}|a|an|one) {_UNIT} ago|(?:last|this|next|past) "
        rf"(?:{_UNIT}|spring|summer|fall|autumn|winter|weekend)|yesterday|today|tomorrow"
        r"|the (?:other|day before) (?:day|yesterday)|(?:a )?while ago|recently)\b",
        _F,
    ),
    re.compile(
        rf"\b(?:{_MONTH}\.? {_ORD}|(?:the )?{_ORD}(?: of)? {_MONTH}"
        r"|the \d{1,2}(?:st|nd|rd|th))\b",
        _F,
    ),
    re.compile(
        r"\b\d{1,2}(?::\d\d)?\s*(?:am|pm|a\.m\.|p\.m\.)|\b(?:noon|midnight)\b"
        r"|\b\d{1,2}[:.]\d\d\b",  # "7:45", or "7.45" as times are written in Britain
        _F,
    ),
    # A bare ordinal ("28th" for "25th"), once a date with its month or article found none.
    re.compile(r"\b\d{1,2}(?:st|nd|rd|th)\b", _F),
    # "March" and "May" only capitalised: "may" and "march" are verbs too.
    re.compile(
        r"\b(?:(?i:january|february|april|june|july|august|september|october|november|december)"
        r"|March|May)\b"
    ),
    re.compile(r"\b(?:mon|tues|wednes|thurs|fri|satur|sun)days?\b", _F),
    re.compile(
        rf"\b(?:\d+(?:[.,]\d+)?(?:\s*%| percent)?|(?:{_NUMBER_WORDS})(?:[- ](?:one|two|three"
        r"|four|five|six|seven|eight|nine))?)\b(?! (?:of|to) )",
        _F,
    ),
)
_NARROW = re.compile(
    r"^(?:just|only|mostly|mainly|specifically|simply)\s+|\s+(?:only|though|instead|then)$", _F
)
_CONTRAST = (
    re.compile(r"^(?P<x>.+?)[,;]?\s+(?:not|rather than|instead of|and not)\s+(?P<y>[^,;]+)", _F),
    re.compile(r"^not\s+(?P<y>[^,;]+?)[,;]\s*(?:but\s+|it's\s+|just\s+|only\s+)?(?P<x>.+)$", _F),
)
_CLAUSE = re.compile(
    r"^(?:(?:i|i'm|i've|i'd|i am|i was|we|we're|we've|im)\b"
    r"|[A-Z][\w-]*(?:'s|’s| is| are| was| were| has| have)\s"
    r"|(?:my|our)\b.*\b(?:is|are|was|were|has|have|had|does|do|turns|lives|works|can't|doesn't)\b)",
    _F,
)
_PREPOSITIONS = wordset(
    "on in at after before during until till for with without except from by around"
)
_BOUNDARY = _PREPOSITIONS | wordset(
    "to of about is are am was were 're 's 've have has had got like likes love loves "
    "hate hates prefer prefers eat eats avoid avoids use uses called named be being can't "
    "cannot don't doesn't need needs want wants live lives work works"
)
_WORD = re.compile(r"[A-Za-z0-9]+(?:['’][A-Za-z]+)?")


def _stem(word: str) -> str:
    word = word.lower().replace("’", "'")
    return word[:5] if len(word) >= 5 else word


def _find_words(fact: str, phrase: str) -> tuple[int, int] | None:
    """The character span in `fact` of `phrase`, exactly or word by word on 5-letter stems."""
    found = re.search(re.escape(phrase), fact, _F)
    if found:
        return found.span()
    target = [_stem(w) for w in _WORD.findall(phrase) if w.lower() not in ("a", "an", "the", "all")]
    if not target:
        return None
    spans = [(m.start(), m.end(), _stem(m.group(0))) for m in _WORD.finditer(fact)]
    for i in range(len(spans) - len(target) + 1):
        if [s for _, _, s in spans[i : i + len(target)]] == target:
            return spans[i][0], spans[i + len(target) - 1][1]
    return None


def _over_repeated(fact: str, span: tuple[int, int], value: str) -> tuple[int, int]:
    """The span stretched over words after it that the value already ends with: "two" in
    "for two weeks in July" replaced by "three weeks" takes "two weeks" with it."""
    tail = [w.lower() for w in _WORD.findall(value)][1:]
    after = list(_WORD.finditer(fact[span[1] :]))
    end = span[1]
    for i, word in enumerate(tail):
        if i >= len(after) or after[i].group(0).lower() != word:
            break
        end = span[1] + after[i].end()
    return span[0], end


def _replace(fact: str, span: tuple[int, int], value: str) -> str:
    return clean(fact[: span[0]] + value + fact[span[1] :])


_JOIN = re.compile(r"^\s*(?:,\s*and|,\s*or|,|and|or|&|to|-|–)\s*$", _F)


def _run(pattern: re.Pattern[str], text: str) -> tuple[int, int] | None:
    """The first typed value and those joined to it ("Tuesdays and Thursdays")."""
    matches = list(pattern.finditer(text))
    if not matches:
        return None
    start, end = matches[0].span()
    for nxt in matches[1:]:
        if not _JOIN.match(text[end : nxt.start()]):
            break
        end = nxt.end()
    return start, end


_ENDS = re.compile(r"^(?:it )?(?:ends|ending) (?:in|with)?\s*(?P<v>\S+)", _F)


def _last_number(fact: str, value: str) -> str | None:
    """ "It ends 2209" puts the value in place of the fact's last number."""
    found = _ENDS.match(value)
    if not found:
        return None
    numbers = list(re.finditer(r"\d[\d-]*", fact))
    if not numbers:
        return None
    last = numbers[-1]
    return _replace(fact, last.span(), found.group("v").strip(" ,.;"))


_DAY = re.compile(r"\b\d{1,2}(?:st|nd|rd|th)?\b", _F)
_NAMED_MONTH = re.compile(rf"\b{_MONTH}\b", _F)


def _typed(fact: str, value: str) -> str | None:
    for pattern in _TYPED:
        new = _run(pattern, value)
        old = _run(pattern, fact)
        if new and old:
            new_text = value[new[0] : new[1]]
            old_text = fact[old[0] : old[1]]
            if new_text.lower() != old_text.lower():
                return _replace(fact, old, _day_in_date(old_text, new_text))
    return None


def _day_in_date(old: str, new: str) -> str:
    """A day alone ("the 12th") corrects the day of a date that names its month ("june 11"
    -> "june 12th"), so the month is not lost; any other value replaces the old whole."""
    day = _DAY.search(new)
    if day is None or _NAMED_MONTH.search(new) or not _NAMED_MONTH.search(old):
        return new
    if _DAY.search(old) is None:
        return new
    return _DAY.sub(day.group(0), old, count=1)


_FUNCTION_STEMS = wordset(
    "you you're your i i'm my a an the to of in on at for and or is are was be"
)
_DETERMINERS = wordset("a an the your my his her their our this that some")


def _object_span(fact: str, value: str) -> tuple[int, int]:
    """The span of `fact` that the value replaces (see the module docstring, rule 5).

    With words in common, the run of shared words ("spicy food" for "very spicy food"),
    stretched right over as many words as the value adds after them ("Portland, Oregon" for
    "Portland, Maine") and left over adjectives when the value brings its own determiner
    ("a bad knee" for "your left knee"). Without, everything after the last boundary word.
    """
    words = [m.group(0).lower().replace("’", "'") for m in _WORD.finditer(fact)]
    places = [m.span() for m in _WORD.finditer(fact)]
    if not words:
        return len(fact), len(fact)
    value_words = [w.lower() for w in _WORD.findall(value)]
    value_stems = [_stem(w) for w in value_words]
    shared = [i for i, w in enumerate(words) if _stem(w) in value_stems and w not in _BOUNDARY]
    if not shared:
        start = len(words) - 1
        while start > 0 and not _is_boundary(words[start - 1]):
            start -= 1
        return places[start][0], places[-1][1]
    start = end = shared[-1]
    while start > 0 and start - 1 in shared:
        start -= 1
    added_after = (
        len(value_words)
        - 1
        - max(i for i, stem in enumerate(value_stems) if stem == _stem(words[end]))
    )
    for _ in range(added_after):
        if end + 1 >= len(words) or _is_boundary(words[end + 1]):
            break
        end += 1
    if value_words[0] in _DETERMINERS:
        while start > 0 and not _is_boundary(words[start - 1]):
            start -= 1
    return places[start][0], places[end][1]


def _is_boundary(word: str) -> bool:
    return word in _BOUNDARY or word.split("'")[-1] in ("re", "s", "ve") or word.startswith("you")


def shares_content(a: str, b: str) -> bool:
    """Whether two statements share a content word (on 5-letter stems)."""
    stems_a = {_stem(w) for w in _WORD.findall(a)} - _FUNCTION_STEMS
    stems_b = {_stem(w) for w in _WORD.findall(b)} - _FUNCTION_STEMS
    return bool(stems_a & stems_b)


def _value(text: str) -> str:
    """A correction value in the second person, its own capitalisation kept ("Leeds", "shrimp")."""
    return to_second_person(_NARROW.sub("", _NARROW.sub("", clean(text))).strip(), capitalize=False)


_NARROWING = re.compile(r"^(?:just|only|mostly|mainly|specifically|simply)\b|\bonly$", _F)
_NEGATED = re.compile(
    r"\b(?:don't|do not|doesn't|never|not|no|can't|cannot|avoid|won't|refuse|refuses)\b", _F
)
# A quantified phrase that a narrowing correction replaces ("all nuts", "anywhere", "both of
# your kids").
_QUANTIFIED = re.compile(
    r"\b(?:anywhere|everywhere|anything|everything|at all|all (?:of )?(?:the |your |my )?\w+|"
    r"both (?:of )?(?:your |my |the )?\w+|every \w+)",
    _F,
)
_PLURAL_VERB = {"are": "is", "have": "has", "were": "was", "do": "does", "don't": "doesn't"}


def _replace_quantified(fact: str, value: str) -> str | None:
    """ "Both of your kids are allergic to eggs" + "the youngest, Theo" -> "Your youngest,
    Theo, is allergic to eggs"; "fly anywhere" + "long-haul flights" -> "fly long-haul
    flights"."""
    found = _QUANTIFIED.search(fact)
    if found is None or shares_content(value, fact):
        return None
    if _NEGATED.search(fact):
        value = re.sub(r"^(?:no|not|any)\s+", "", value, flags=_F)
    if found.start() > 0 and not re.fullmatch(r"your\s+", fact[: found.start()], _F):
        return _replace(fact, found.span(), value)
    subject = re.sub(r"^(?:the|my)\s+", "your ", value, flags=_F).rstrip(" ,")
    rest = fact[found.end() :].lstrip()
    verb, _, tail = rest.partition(" ")
    verb = _PLURAL_VERB.get(verb.lower(), verb)
    separator = ", " if "," in subject else " "
    return clean(f"{subject[:1].upper()}{subject[1:]}{separator}{verb} {tail}")


def _narrow_span(fact: str, value: str) -> tuple[int, int]:
    """For "just X": the whole object the value narrows, from the word after its verb or
    preposition to the end of the clause ("meat or dairy" for "just red meat")."""
    span = _object_span(fact, value)
    words = list(_WORD.finditer(fact))
    first = next(i for i, m in enumerate(words) if m.end() > span[0]) if words else 0
    while first > 0 and not _is_boundary(words[first - 1].group(0).lower()):
        first -= 1
    clause_end = re.search(r"[,.;!?]|\s[—–-]\s|$", fact[span[1] :])
    end = span[1] + (clause_end.start() if clause_end else 0)
    return (words[first].start() if words else span[0]), end


def refine_fact(fact: str, reply: str) -> str:
    """The offered fact with the reply's correction applied (second person, like the fact)."""
    body = correction_body(reply)
    if not body:
        return fact
    if not fact:
        return to_second_person(body)
    for pattern in _CONTRAST:
        found = pattern.match(body)
        if found:
            span = _find_words(fact, clean(found.group("y")))
            if span is not None:
                value = _value(found.group("x"))
                return _replace(fact, _over_repeated(fact, span, value), value)
            body = clean(found.group("x"))
            break
    ends = _last_number(fact, body)
    if ends is not None:
        return ends
    typed = _typed(fact, body)
    if typed is not None:
        return typed
    if _CLAUSE.match(body):
        return to_second_person(body)
    value = _value(body)
    quantified = _replace_quantified(fact, value)
    if quantified is not None:
        return quantified
    fact_stems = {_stem(w) for w in _WORD.findall(fact)}
    body_words = _WORD.findall(body)
    if len(body_words) >= 4 and not {_stem(w) for w in body_words} & fact_stems - _FUNCTION_STEMS:
        return to_second_person(body)
    if _NARROWING.search(body):
        if _NEGATED.search(fact):  # "don't eat meat" + "just no red meat": one negation
            value = re.sub(r"^(?:no|not|any)\s+", "", value, flags=_F)
        if value.split(" ", 1)[0].lower() not in _PREPOSITIONS:
            return _replace(fact, _narrow_span(fact, value), value)
    first = value.split(" ", 1)[0].lower()
    if first in _PREPOSITIONS:
        same = re.search(rf"\b{first}\b[^,;]*$", fact, _F)
        if same:
            return _replace(fact, same.span(), value)
        return f"{fact} {value}"
    return _replace(fact, _whole_slashed(fact, _object_span(fact, value), value), value)


def _whole_slashed(fact: str, span: tuple[int, int], value: str) -> tuple[int, int]:
    """A value written with a slash ("she/they") replaces the whole slash-joined token of the
    fact that it shares a word with ("they/them"), never a part of it."""
    if "/" not in value:
        return span
    start, end = span
    while start > 0 and not fact[start - 1].isspace():
        start -= 1
    while end < len(fact) and not fact[end].isspace() and fact[end] not in ",;!?":
        end += 1
    token = fact[start:end].rstrip(".")
    return (start, start + len(token)) if "/" in token else span


def parallel_fact(fact: str, addition: str) -> str:
    """A second fact shaped like the first: "You've got a ginger cat called Miso" + "a
    greyhound called Rufus" -> "You've got a greyhound called Rufus" (the first fact's subject
    and verb, the new object)."""
    value = _value(addition)
    words = list(_WORD.finditer(fact))
    for i, match in enumerate(words[:-1]):
        word = match.group(0).lower().replace("’", "'")
        if i > 0 and _is_boundary(word) and not word.startswith("you"):
            clause_end = re.search(r"[,.;!?]|\s[—–-]\s|\s(?:and|but|so)\s|$", fact[match.end() :])
            end = match.end() + (clause_end.start() if clause_end else 0)
            return _replace(fact, (words[i + 1].start(), end), value)
    return to_second_person(addition)
