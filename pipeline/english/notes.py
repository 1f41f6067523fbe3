"""The English the template responder reads a project note by: whether a clause of it is about
the person (so it may be offered across projects), and whether a message asks about an
earlier conversation. Read by pipeline/providers/local/responder.py; the core never imports it."""

from __future__ import annotations

import re

# What makes a project note about the person rather than the project's subject: a first-person
# statement about diet, health, family, home, schedule or taste. The cross-promotion
# instruction asks for an offer only when a fact clearly matters beyond the project.
PERSONAL_NOTE = re.compile(
    r"\b(?:i|i'm|im|i am|i've|my|we're a|our family)\b.*\b(?:allerg\w*|vegetarian|vegan|"
    r"pescatarian|gluten|lactose|dairy|celiac|coeliac|kosher|halal|diabet\w*|don't eat|"
    r"can't eat|do not eat|avoid\w*|intoleran\w*|wife|husband|partner|son|daughter|kids?|"
    r"children|baby|mom|dad|mother|father|sister|brother|family|live|living|moved|based|"
    r"birthday|left-handed|right-handed|colou?r-?blind|pregnan\w*|knee|back|shoulder|"
    r"wheelchair|hip|wrist|ankle|neck|migraine\w*|asthma|hate|love|prefer|can't stand|"
    r"night shift|early riser|morning person|"
    r"night owl|work(?:ing)? from home|commute|sober|don't drink|tall|short|steering clear|"
    r"uses? a|coming)\b",
    re.IGNORECASE,
)
# A message that asks about an earlier conversation: the template responder searches itself.
ASKS_PAST = re.compile(
    r"\b(?:did i (?:ever )?(?:tell|mention|say)|what did i (?:say|tell|mention)|do you remember|"
    r"remember (?:when|what|how|where|who|the|my)|last time|i (?:told|mentioned|said) (?:you|that)|"
    r"what was (?:the|my|that)|remind me (?:what|when|where|who|how|which))\b",
    re.IGNORECASE,
)
CLAUSE_BREAK = re.compile(r"\s*(?:[,;:—–]|\s-\s|\b(?:since|because|as|so that|so)\b)\s*", re.I)
# A clause that opens in the first person.
FIRST_PERSON = re.compile(r"(?:i|i'm|i've|my|i am)\b", re.IGNORECASE)
