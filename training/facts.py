"""Personal facts for the generator: what the person says, what the companion offers back.

A fact is a template of training/templates.py filled with values: the slot {v} (what a
correction replaces) and the fixed extras ({rel}, {pet}, ...). Now and then a value is a
stand-in drawn from the encoder's vocabulary (training/vocab.py), so the reader learns where a
fact ends from the sentence, not from the value.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from training import values as v
from training.templates import SECOND_SLOT, TEMPLATES
from training.vocab import maybe_vocab

# How often a slot value, and an extra (a name, a relative), is a vocabulary stand-in.
VOCAB_SLOT = 0.3
VOCAB_EXTRA = 0.12

EXTRAS: dict[str, tuple[str, ...]] = {
    "rel": v.RELATIVES,
    "pet": v.PET_KINDS,
    "name": v.PEOPLE,
    "petname": v.PET_NAMES,
    "day": v.WEEKDAYS_OWN,
    "month": v.MONTHS,
    "city": v.CITIES,
    "room": v.ROOMS,
    "v2": SECOND_SLOT,
}


@dataclass(frozen=True)
class Fact:
    """One filled fact: the template, the slot's value and the extras' values."""

    template: int
    value: str
    extras: tuple[tuple[str, str], ...]

    def _format(self, text: str, value: str | None = None) -> str:
        return text.format(v=self.value if value is None else value, **dict(self.extras))

    @property
    def said(self) -> str:
        """The fact as the person says it (first person)."""
        return self._format(TEMPLATES[self.template][0])

    @property
    def offered(self) -> str:
        """The fact as the companion offers it back (second person)."""
        return self._format(TEMPLATES[self.template][1])

    def said_with(self, value: str) -> tuple[str, str]:
        """The person's words with another slot value: the words before it and after it."""
        head, _, tail = TEMPLATES[self.template][0].partition("{v}")
        return self._format(head), self._format(tail)

    @property
    def profile_field(self) -> str:
        """The profile field the fact changes, or "none"."""
        return TEMPLATES[self.template][3]

    def other_value(self, rng: random.Random) -> str:
        """A different value of the same slot (what a correction names instead)."""
        values = TEMPLATES[self.template][2]
        pick = rng.choice([x for x in values if x != self.value] or [self.value])
        return maybe_vocab(rng, pick, VOCAB_SLOT) or pick

    def correctable(self) -> bool:
        """Whether the fact has a value a correction can replace."""
        return len(TEMPLATES[self.template][2]) > 1


def random_fact(rng: random.Random) -> Fact:
    """A fact from a random template with random slot values (some from the vocabulary)."""
    index = rng.randrange(len(TEMPLATES))
    value = maybe_vocab(rng, rng.choice(TEMPLATES[index][2]), VOCAB_SLOT)
    extras = tuple(
        (key, maybe_vocab(rng, rng.choice(pool), VOCAB_EXTRA)) for key, pool in EXTRAS.items()
    )
    return Fact(index, value, extras)


def topic_of(fact: Fact, rng: random.Random | None = None) -> str:
    """A short description of the fact, as someone names it to forget or recall it: its
    value, or for a fact without one its last words."""
    if fact.value:
        return fact.value
    words = fact.said.split()
    return " ".join(words[-2:] if rng and rng.random() < 0.5 else words[-1:])
