"""Personal facts for the generator: what the person says, what the companion offers back.

A fact template has the person's wording, the companion's second-person wording, the slot
whose value a correction replaces, and the profile field the fact changes.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from training import words as w

DATES = ("3rd", "9th", "12th", "17th", "21st", "28th", "30th")
MONTHS_OWN = ("in March", "in July", "in October", "in January", "in May")

# (person's words, companion's words, slot values, profile field); {v} is the correctable slot.
TEMPLATES: tuple[tuple[str, str, tuple[str, ...], str], ...] = (
    ("I'm allergic to {v}", "you're allergic to {v}", w.FOODS, "none"),
    ("I can't eat {v}", "you can't eat {v}", w.FOODS, "none"),
    ("I don't touch {v}", "you avoid {v}", w.FOODS, "none"),
    ("my name's {v}", "your name is {v}", w.NAMES, "preferred_name"),
    ("call me {v}", "you'd like to be called {v}", w.NAMES, "preferred_name"),
    ("I go by {v} these days", "you go by {v}", w.NAMES, "preferred_name"),
    ("my pronouns are {v}", "your pronouns are {v}", w.PRONOUN_SETS, "pronouns"),
    ("I use {v}", "you use {v} pronouns", w.PRONOUN_SETS, "pronouns"),
    ("I live in {v}", "you live in {v}", w.CITIES, "city"),
    ("I just moved to {v}", "you moved to {v}", w.CITIES, "city"),
    ("I'm based in {v} now", "you're based in {v}", w.CITIES, "city"),
    ("I'd rather chat in {v}", "you'd like to chat in {v}", w.LANGUAGES, "language"),
    ("my first language is {v}", "your first language is {v}", w.LANGUAGES, "language"),
    ("please talk to me in {v} from now on", "you want replies in {v}", w.LANGUAGES, "language"),
    ("I work as {v}", "you work as {v}", w.JOBS, "none"),
    ("I'm {v} by trade", "you're {v}", w.JOBS, "none"),
    ("I'm really into {v}", "you're into {v}", w.HOBBIES, "none"),
    ("I've been doing {v} for years", "you do {v}", w.HOBBIES, "none"),
    ("I've got {v}", "you have {v}", w.AILMENTS, "none"),
    ("I'm {v} years old", "you're {v}", w.AGES, "none"),
    ("I turned {v} last month", "you're {v}", w.AGES, "none"),
    ("my {rel} is {v}", "your {rel} is {v}", w.KID_AGES, "none"),
    ("my {rel} is called {v}", "your {rel} is called {v}", w.NAMES, "none"),
    ("I have a {pet} named {v}", "you have a {pet} named {v}", w.NAMES, "none"),
    ("I swim on {v}", "you swim on {v}", w.WEEKDAYS_OWN, "none"),
    ("I do the school run on {v}", "you do the school run on {v}", w.WEEKDAYS_OWN, "none"),
    ("I get up at {v}", "you get up at {v}", w.CLOCK_TIMES, "none"),
    ("my shift starts at {v}", "your shift starts at {v}", w.CLOCK_TIMES, "none"),
    ("my {rel}'s birthday is the {v}", "your {rel}'s birthday is the {v}", DATES, "none"),
    ("my anniversary is {v}", "your anniversary is {v}", MONTHS_OWN, "none"),
    ("my {rel} is vegetarian", "your {rel} is vegetarian", ("",), "none"),
    (
        "I'm scared of {v}",
        "you're scared of {v}",
        ("wasps", "heights", "deep water", "clowns"),
        "none",
    ),
    (
        "I prefer {v} meetings",
        "you prefer {v} meetings",
        ("morning", "short", "walking", "camera-off"),
        "none",
    ),
)


@dataclass(frozen=True)
class Fact:
    """One filled fact: the person's words, the companion's, and the slot's value."""

    template: int
    value: str
    rel: str
    pet: str

    @property
    def said(self) -> str:
        """The fact as the person says it (first person)."""
        return TEMPLATES[self.template][0].format(v=self.value, rel=self.rel, pet=self.pet)

    @property
    def offered(self) -> str:
        """The fact as the companion offers it back (second person)."""
        return TEMPLATES[self.template][1].format(v=self.value, rel=self.rel, pet=self.pet)

    @property
    def profile_field(self) -> str:
        """The profile field the fact changes, or "none"."""
        return TEMPLATES[self.template][3]

    def other_value(self, rng: random.Random) -> str:
        """A different value of the same slot (what a correction names instead)."""
        values = TEMPLATES[self.template][2]
        return rng.choice([v for v in values if v != self.value] or [self.value])

    def correctable(self) -> bool:
        """Whether the fact has a value a correction can replace."""
        return len(TEMPLATES[self.template][2]) > 1


def random_fact(rng: random.Random) -> Fact:
    """A fact from a random template with random slot values."""
    index = rng.randrange(len(TEMPLATES))
    value = rng.choice(TEMPLATES[index][2])
    return Fact(index, value, rng.choice(w.RELATIVES), rng.choice(w.PET_KINDS))


def topic_of(fact: Fact) -> str:
    """A short description of the fact, as someone names it to forget it: its value, or for
    a fact without one its last word."""
    return fact.value or fact.said.split()[-1]
