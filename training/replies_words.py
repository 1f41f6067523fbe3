"""Phrase lists for answers to something pending (training/answers.py): corrections in many
shapes, answers to a cross-promotion question, confirmations that restate the offer, "forget I
said anything" rejects and choices by description.

In a shape, {new} is the corrected value (the CORRECTION span, exactly), {old} the offered
one, {subj} a project's subject. Written for training; the words test
(tests/reader/test_reader_words.py) checks every entry.
"""

from __future__ import annotations

# fmt: off

# --- corrections ----------------------------------------------------------------------------

# Any offered value: a cue before or after the new value, at times the old one beside it.
CORRECTION_SHAPES = (
    "nah it's {new}", "more like {new}", "make that {new}", "close, but {new}", "{new} actually",
    "not quite — {new}", "I meant {new}", "sorry, {new}", "apologies, I misspoke: {new}",
    "to correct myself: {new}", "wait no {new}", "{new}, not {old}", "{new} not {old} lol",
    "almost! it's {new}", "hmm, {new} rather", "no wait, {new}", "it changed, it's {new} now",
    "{new}, I should've said", "oh I typed that wrong, {new}", "let me rephrase: {new}",
    "scratch {old}, {new}", "not {old} — {new}", "{old}? no, {new}", "please amend that to {new}",
    "kindly change it to {new}", "update it to {new} pls", "change {old} to {new}",
    "put {new} instead", "actually {new} is right", "well, {new} to be precise",
    "more precisely, {new}", "err no, {new}", "nope — {new}", "ya but {new} not {old}",
    "sorry my english, i mean {new}", "no no is {new}", "is not {old}, is {new}",
    "{new} 🙃 not {old}", "oops {new}", "i said it wrong its {new}", "um it's actually {new}",
    "wrong one, it's {new}", "{new} — my mistake", "that's old info, {new} now",
    "haha no, {new}", "if I'm honest it's {new}", "nearly. {new}", "ehh {new} really",
    "It is in fact {new}, not {old}.", "I must correct that: {new}.", "not {old} but {new}",
    "{new}!! not {old}", "hmm no. {new}", "so close lol, {new}", "noo its {new}",
)

# Amounts that change: distances, durations, counts, doses, sums.
AMOUNT_SHAPES = (
    "only {new} these days", "closer to {new}", "roughly {new} now", "down to {new} lately",
    "up to {new} now", "about {new}, give or take", "{new} these days, not {old}",
    "it's gone up to {new}", "more like {new} now tbh", "nowadays {new}",
)

# A trip each way (commutes, rides, walks).
WAY_SHAPES = (
    "it's {new} each way, not {old}", "{new} each way actually", "nah {new} each way",
    "{new} one way, {old} is there and back", "it's {new} each direction",
)

# A group narrowed to one member ("not all nuts, just peanuts").
SCOPE_SHAPES = (
    "not all {old}, just {new}", "only {new}", "just {new}, other {old} are fine",
    "not {old} in general, only {new}", "{new} specifically, not all {old}", "it's only {new}",
    "just {new} actually, the rest is ok", "no not all {old}. only {new}",
)

# Offers with a slot for the value, (offer, values, profile field): a trip's length,
Offer = tuple[str, tuple[str, ...], str]
WAY_OFFERS: tuple[Offer, ...] = (
    ("you cycle {v} to work", ("12 km", "15 km", "8 km", "20 miles", "3 miles", "6.5 km"), "none"),
    ("your commute is {v}", ("40 minutes", "an hour and a half", "25 mins", "about an hour",
     "fifty minutes"), "none"),
    ("you walk {v} to the station", ("1.2 km", "ten minutes", "half a mile", "900 metres"),
     "none"),
)

# an amount that changes over time,
AMOUNT_OFFERS: tuple[Offer, ...] = (
    ("you've been vegetarian for {v}", ("8 years", "three years", "18 months", "a decade",
     "11 years"), "none"),
    ("you run {v} a week", ("30 km", "20 miles", "45 km", "12 miles", "60k"), "none"),
    ("you take {v} of sertraline", ("50 mg", "100 mg", "25mg", "150 milligrams"), "none"),
    ("your rent is {v} a month", ("£1,250", "$1,800", "900 euros", "1400 dollars", "£975"),
     "none"),
    ("you sleep about {v} a night", ("six hours", "7 hrs", "five and a half hours", "8 hours"),
     "none"),
    ("you drink {v} of coffee a day", ("two cups", "4 mugs", "one espresso", "three shots"),
     "none"),
)

# a date, a place or a name.
VALUE_OFFERS: tuple[Offer, ...] = (
    ("your book club meets on {v}", ("the last Friday of the month",
     "the first Tuesday of every month", "alternate Thursdays", "the second Sunday",
     "every other Wednesday"), "none"),
    ("your daughter's birthday is {v}", ("March 3rd", "the 14th of June", "4 July",
     "October 21", "the 2nd of February"), "none"),
    ("your anniversary is {v}", ("the 9th of May", "August 30th", "New Year's Eve",
     "12 December"), "none"),
    ("you grew up in {v}", ("Portland, Maine", "Portland, Oregon", "Cork", "Kuala Lumpur",
     "St. John's, Newfoundland", "the Scottish Borders", "Tromsø"), "none"),
    ("you live in {v}", ("Halifax, Nova Scotia", "Ghent", "Santa Fe", "Newcastle upon Tyne",
     "Cluj-Napoca", "Wellington"), "city"),
    ("your brother is called {v}", ("Tomasz", "Jean-Luc", "Ifeanyi", "Ruairí", "Mateo",
     "Hiroshi"), "none"),
    ("you'd like to be called {v}", ("Bex", "Dr. Okafor", "Sam", "Mags", "Jo-Ann"),
     "preferred_name"),
)

# A group and one of its members, for scope shapes: (offer, group, members).
SCOPE_OFFERS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("you're allergic to {v}", "nuts", ("peanuts", "cashews", "walnuts", "almonds")),
    ("you can't eat {v}", "shellfish", ("prawns", "lobster", "crab", "mussels")),
    ("you avoid {v}", "dairy products", ("cheese", "cow's milk", "cream")),
    ("you're scared of {v}", "animals", ("big dogs", "geese", "horses")),
    ("you dislike {v}", "vegetables", ("aubergine", "Brussels sprouts", "okra")),
    ("you don't drink {v}", "fizzy drinks", ("cola", "energy drinks", "tonic water")),
    ("you're allergic to {v}", "pets", ("cats", "rabbits", "guinea pigs")),
)

# --- confirmations that restate the offer, and rejects that drop it -------------------------

RESTATE_SHAPES = (
    "correct — {v}", "yes, strictly {v}", "exactly, {v}", "yep, {v} it is", "right, {v}",
    "mhm {v}", "yes, {v} — that's it", "spot on, {v}", "{v}, yes", "{v} yep", "yes!! {v}",
    "yes that's correct, {v}", "indeed, {v}", "yup {v} 👍", "true, {v}",
)

# After an offer not to eat or drink something.
RESTATE_NONE_SHAPES = (
    "that's right, no {v} at all", "yes, strictly no {v}", "correct — no {v}, ever",
    "zero {v}, yes", "yep none of the {v}", "right, I stay away from {v} completely",
)

FORGET_IT_REJECTS = (
    "forget I said anything", "forget about it", "never mind that", "just forget it",
    "scrap that, forget I mentioned it", "don't worry about it, forget it", "nvm forget it",
    "forget that I even brought it up", "eh forget it, not important", "oh never mind, forget it",
    "please disregard that", "ignore me, forget it", "forget it lol", "never mind, not worth it",
    "ah forget I spoke", "Please forget I raised it.", "forget it forget it", "meh never mind that",
    "nah forget I said that 🙈", "oh just forget about it",
)

# --- cross-promotion: everywhere, or just this project --------------------------------------

# A project's subject, as the person names it (after "the").
PROJECT_SUBJECTS = (
    "cooking", "recipe book", "meal prep", "camping trip", "Lisbon trip", "road trip",
    "band recording", "album", "demo", "puppy training", "puppy", "renovation", "kitchen reno",
    "bathroom", "novel", "manuscript", "budget", "savings plan", "garden", "allotment", "veg patch",
    "app build", "app", "wedding", "wedding planning", "thesis", "marathon training",
    "house move", "podcast", "baby shower", "dinner party",
)

CROSS_ASKS_PROJECT = (
    "Noted for the {subj}. Is that true across all your projects, or just this one?",
    "I've saved that {f} for the {subj}. Should I remember it everywhere or only here?",
    "Should I remember that {f} across all your projects, or just this one?",
    "That sounds personal. Keep that {f} for every project, or only the {subj}?",
)

CROSS_DECLINES = (
    "just for the {subj} stuff", "only relevant for the {subj}", "keep it to the {subj}",
    "it only really matters for this {subj}", "nah just here", "only for this one",
    "that's a {subj} thing only", "no, it's specific to the {subj}", "leave it with the {subj}",
    "just in the {subj} please", "it doesn't apply outside the {subj}",
    "only while we're doing the {subj}", "no that's just about the {subj}", "nope, {subj} only",
    "not everywhere, only the {subj}", "this project only thx", "keep it local",
    "just here pls", "no need elsewhere", "only applies to the {subj}",
    "for the {subj} only, not in general", "strictly a {subj} thing",
    "it's only true when it comes to the {subj}", "limit it to the {subj}",
    "i only meant for the {subj}", "keep it in this project, it's a {subj} detail",
    "not a general thing, just the {subj}", "only here, it's about the {subj}",
    "no no only this project", "Only for this project, please.", "just this one thx",
    "doesnt matter outside the {subj}", "nah it's only for the {subj} lol",
)

CROSS_ACCEPTS = (
    "yes, everywhere", "all my projects please", "yeah that's true in general",
    "yep it's true for me generally", "go global with it", "that applies to everything",
    "everywhere pls", "yes it's about me not just the {subj}",
    "not just the {subj}, it's me in general", "remember it for all of them",
    "across the board yes", "make it a general thing", "yes that's a me thing",
    "it's true of me full stop", "yeah I'm like that in every context", "all projects yeah",
    "sure, it goes for everything", "definitely everywhere", "that's personal, keep it for all",
    "yes, store it as a personal fact", "yea all of em", "it holds beyond the {subj} too",
    "not only for the {subj}, for everything", "yes generally true", "apply it everywhere thx",
    "it's a life thing not a {subj} thing", "yes — in general, not only here",
    "Yes, please keep it for every project.", "everywhere 👍", "ya true always",
)

# --- a choice among several items by what they are about ------------------------------------

DESCRIBED_PICKS = (
    "the {t} one", "the one about {t}", "just the {t} bit", "keep the {t} one",
    "only the one about {t}", "the {t} thing, not the others", "the {t} one pls",
    "that one about {t}", "the bit about {t} is right", "uh the {t} one", "{t} one only",
    "the one that mentions {t}",
)

DESCRIBED_PAIRS = (
    "the {t} one and the {u} one", "the ones about {t} and {u}", "{t} and {u}, not the rest",
)

DESCRIBED_FORGETS = (
    "the {t} one", "the one about {t}", "forget the {t} one", "drop the one about {t}",
    "the {t} thing", "it's the one about {t}", "the {t} one, delete that",
    "that one — {t}", "wipe the {t} one pls",
)
# fmt: on
