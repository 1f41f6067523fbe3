"""Project notes, forget descriptions, recall topics, statuses and questions, built from parts.

Each is a template filled from wide pools (and now and then a vocabulary stand-in,
training/vocab.py), so the reader meets far more of them than a fixed list holds. Written for
training; the words test checks every entry.
"""

from __future__ import annotations

import random
import re

from training import values as v
from training.vocab import maybe_vocab

# fmt: off
PARTS = (
    "deck", "staging cluster", "kitchen cabinets", "landing page", "second chapter",
    "garden bed", "dough", "wedding cake", "quilt border", "API", "database", "logo",
    "drum track", "back fence", "loft conversion", "newsletter", "budget sheet",
    "bathroom floor", "chorus", "costume", "poster", "script", "menu", "shed roof",
    "conference booth", "login page", "mural", "seating plan", "playlist", "itinerary",
    "invoice template", "greenhouse", "podcast intro", "grant application", "pitch deck",
    "float", "thesis", "front door", "vegetable patch", "mobile app", "shelving unit",
)

TOOLS = (
    "Kubernetes", "Postgres", "oak veneer", "linseed oil", "Figma", "a pressure washer",
    "Terraform", "Canva", "a mitre saw", "a rye starter", "Redis", "Notion", "GitHub Actions",
    "chalk paint", "Google Sheets", "a laser cutter", "Ableton", "WordPress", "a router table",
    "Trello", "a sous vide", "Blender", "Squarespace", "epoxy resin", "Scrivener",
)

MEASURES = (
    "5 mm gaps", "72 percent hydration", "three coats", "a 2 metre clearance",
    "40 pixels of padding", "two days to cure", "a 6 percent brine", "24 chapters at most",
    "a 30 degree slope", "four hours in the oven", "12 inch squares", "a 15 minute slot",
    "double the screws", "a 90 second limit", "half a bag of cement", "a 3:1 ratio",
)

DEADLINES = (
    "friday", "the end of march", "the 14th", "next sprint", "christmas", "half term",
    "the launch", "easter", "the first of june", "month end", "the open day", "noon thursday",
)

MONEY = ("1800 euros", "£450", "$12k", "two grand", "300 quid", "950 dollars", "£3.50 a head")

MATERIALS = (
    "reclaimed pine", "corrugated steel", "recycled plastic", "walnut", "birch ply",
    "concrete", "linen", "brass", "cedar shingles", "slate", "bamboo", "galvanised mesh",
)

PLACES = (
    "bed three", "the church hall", "Frankfurt", "the back garden", "room 204",
    "the shared drive", "the north wall", "the lock-up", "us-east-1", "the community centre",
    "the top shelf", "my mum's garage",
)

SUPPLIERS = ("Jewson", "a firm in Leeds", "Hetzner", "the co-op", "an Etsy seller", "Screwfix")

NOTE_TEMPLATES = (
    "the {part} needs {measure}", "we're using {tool} for the {part}",
    "{person} is in charge of the {part}", "the {part} has to be done by {deadline}",
    "the budget for the {part} is {money}", "the {part} is going to be {colour}",
    "we decided against {tool}", "the {part} is made of {material}",
    "the {part} goes in {place}", "{tool} is what we use for the {part}",
    "the client wants the {part} in {colour}", "we review the {part} every {day}",
    "the {part} should have {measure}", "don't use {tool} on the {part}",
    "the {part} supplier is {supplier}", "{person} signs off the {part}",
    "our team uses {tool} for the {part} and it lives in {place}",
    "the {part} is on hold until {deadline}", "we agreed {measure} for the {part}",
    "the {part} stays in {place}", "{person} is bringing {tool}", "the {part} costs {money}",
    "the {part} and the {part2} share {tool}", "the {part} launches on {deadline}",
)

# A project topic as someone names it: the part, or the part with a word after it.
TOPIC_TAILS = ("", "", " stuff", " plan", " decision", " note", " bit", " details")

# --- forget descriptions and recall topics ---------------------------------------------------

FORGET_SHAPES = (
    ("that ", "{said}", ""), ("the ", "{topic}", " thing"), ("what I said about ", "{topic}", ""),
    ("", "{said}", ""), ("the bit about ", "{topic}", ""), ("everything about ", "{topic}", ""),
    ("anything on ", "{topic}", ""), ("the part where I said ", "{said}", ""),
    ("", "my {rel}", ""), ("the stuff about ", "my {rel}", ""), ("", "my {owned}", ""),
    ("the fact ", "{said}", ""), ("the ", "{topic}", " one"), ("", "{topic}", " pls"),
)

OWNED = (
    "address", "birthday", "job", "shoe size", "age", "meds", "allergy", "diagnosis",
    "ex", "old number", "car", "diet", "salary", "weight", "home town", "pet",
)

RECALL_TOPICS = (
    "{topic}", "my {rel}", "{hobby}", "my {owned}", "the {part}", "what I do for work",
    "where I live", "my {rel}'s name", "the {topic} thing", "my schedule", "what I can't eat",
)

# --- statuses: something ongoing with a time to it -------------------------------------------

DEVICES = (
    "phone screen", "laptop hinge", "boiler", "car battery", "washing machine", "bike chain",
    "fridge", "dishwasher", "printer", "front tyre", "router", "oven door", "shower pump",
    "garage door", "headphones", "kettle", "tumble dryer", "smoke alarm", "hearing aid",
)

BROKEN_STATES = (
    "is cracked", "packed in", "died again", "is making a weird noise", "is leaking",
    "has stopped working", "keeps beeping", "is on the blink", "won't turn on", "is flat",
)

FIX_PLANS = (
    "getting it fixed {day}", "someone's coming {day}", "taking it in {day}",
    "the repair guy is booked for {day}", "should be sorted by {day}",
    "a new one arrives {day}", "the engineer comes {day}", "dropping it off {day}",
)

ONGOING = (
    "I'm off sick till {day}", "I'm on call all week", "I'm in the middle of moving flats",
    "we're renovating the kitchen this month", "I'm fasting until {day}",
    "my {rel} is staying with us till {day}", "I'm between jobs right now",
    "I'm revising for exams till {day}", "the builders are in until {day}",
    "I'm on antibiotics for another week", "I'm doing dry january", "I'm housesitting till {day}",
    "I'm on jury duty this week", "my {rel} is in hospital till {day}",
    "we're on holiday in {country} till {day}", "I'm working a double shift today",
    "the heating's off until {day}", "I'm training to {goal} at the moment",
)

# --- questions for conversation ---------------------------------------------------------------

QUESTIONS = (
    "how long do I boil an egg for", "any tips for sleeping in the heat",
    "what should I cook tonight", "is it worth learning rust", "how do I get wax out of a rug",
    "what's a good name for a sourdough starter", "should I repaint the hallway grey",
    "what's the capital of mongolia", "why do cats knead blankets", "how far is a 10k in miles",
    "how do I fix a squeaky door", "what goes well with {food}", "is {country} nice in {month}",
    "how do I get better at {hobby}", "what's a good gift for my {rel}",
    "can you explain how {tool} works", "how do I keep {food} fresh", "why is the sky blue",
    "what should I read next", "how many calories in {food}", "is it too late to learn {lang}",
    "what's the best way to clean {thing}", "how do I say thank you in {lang}",
    "any ideas for a rainy {day_one}", "how do you make {food} less bitter",
    "what time is sunset in {city}", "do you think I should get {thing}",
)
# fmt: on

_DAY_ONE = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_FIELD = re.compile(r"\{(\w+)\}")


def fill(rng: random.Random, template: str, chance: float = 0.2, **given: str) -> str:
    """A template with each {field} filled from its pool (given values win)."""
    pools: dict[str, tuple[str, ...]] = {
        "part": PARTS, "part2": PARTS, "tool": TOOLS, "measure": MEASURES,
        "deadline": DEADLINES, "money": MONEY, "material": MATERIALS, "place": PLACES,
        "supplier": SUPPLIERS, "person": v.PEOPLE, "colour": v.COLOURS, "day": _DAY_ONE,
        "day_one": _DAY_ONE, "rel": v.RELATIVES, "hobby": v.HOBBIES, "owned": OWNED,
        "food": v.FOODS, "country": v.COUNTRIES, "month": v.MONTHS, "lang": v.LANGUAGES,
        "thing": v.THINGS, "city": v.CITIES, "goal": v.GOALS,
    }  # fmt: skip

    def one(match: re.Match[str]) -> str:
        name = match.group(1)
        if name in given:
            return given[name]
        return maybe_vocab(rng, rng.choice(pools[name]), chance)

    return _FIELD.sub(one, template)


def project_note(rng: random.Random) -> str:
    """A fact about a project."""
    return fill(rng, rng.choice(NOTE_TEMPLATES), 0.25)


def project_topic(rng: random.Random) -> str:
    """A project topic as someone names it."""
    return maybe_vocab(rng, rng.choice(PARTS), 0.25) + rng.choice(TOPIC_TAILS)


def status_text(rng: random.Random) -> str:
    """Something ongoing with a time to it."""
    if rng.random() < 0.5:
        device = maybe_vocab(rng, rng.choice(DEVICES), 0.2)
        plan = fill(rng, rng.choice(FIX_PLANS))
        return f"{rng.choice(('my ', 'the ', ''))}{device} {rng.choice(BROKEN_STATES)}, {plan}"
    return fill(rng, rng.choice(ONGOING))


def general_question(rng: random.Random) -> str:
    """A question for conversation that asks nothing of memory."""
    return fill(rng, rng.choice(QUESTIONS), 0.25)
