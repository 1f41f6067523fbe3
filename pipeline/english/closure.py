"""English patterns of the deterministic conversation compression (pipeline/conversations/
fallback.py, labelled `deterministic (no model)`): what a sentence states as a task, a
decision, a wait, an open or resolved question, a cleared blocker, an insight or a person."""

from __future__ import annotations

import re

SENTENCES = re.compile(r"(?<=[.!?])\s+|\n+")
_I = r"(?:i|we)"
TASKS = (
    re.compile(rf"\b{_I} (?:need|have|want|plan|ought) to (?P<x>.+)", re.I),
    re.compile(r"\b(?:remind me to|to-?do:?) (?P<x>.+)", re.I),
    re.compile(rf"\b{_I}(?:'ll| will| should| must) (?P<x>(?!be\b).+)", re.I),
)
DONE = re.compile(rf"\b{_I} (?:finally )?(?:finished|completed|sent|submitted) (?P<x>.+)", re.I)
DECISIONS = (
    re.compile(rf"\b{_I}(?:'ve| have)? decided (?:to |that |on )?(?P<x>.+)", re.I),
    re.compile(r"\blet'?s go with (?P<x>.+)", re.I),
    re.compile(rf"\b{_I}(?:'m| am|'re| are) going with (?P<x>.+)", re.I),
)
WAITING = (
    re.compile(r"\bwaiting (?:on|for) (?P<who>[A-Z][\w'-]+)(?: to| for| about)? ?(?P<x>.*)"),
    re.compile(r"\bwaiting to hear (?:back )?from (?P<who>[A-Z][\w'-]+)(?: about| on)? ?(?P<x>.*)"),
    # Someone else promised the person something: "She'll email me the date", "They said
    # they'd call me when it comes through", "Lena is going to introduce me".
    re.compile(
        r"(?:^|[,;]\s*|\band\s+)(?P<who>[A-Z][\w'-]+|(?i:she|he|they))"
        r"(?:'ll| will| is going to|'s going to| are going to|'re going to| promised to"
        r"| said (?i:she|he|they)'d| said (?i:she|he|they) would)"
        r" (?P<x>(?:email|call|send|text|ring|get back to|introduce|let|tell|show|mail|ping"
        r"|bring|confirm to|update) (?:me|us)\b.*)"
    ),
)
PRONOUNS = frozenset({"she", "he", "they"})
OPEN_QUESTIONS = (
    re.compile(
        r"\b(?:i wonder|i'm not sure|i am not sure|not sure) (?P<x>(?:if|whether|how|what|which"
        r"|when|where|who) .+)",
        re.I,
    ),
    re.compile(r"\bstill (?:need to figure out|don't know|do not know) (?P<x>.+)", re.I),
)
# "haven't figured out X" leaves X open: a negated verb is no resolution.
RESOLVED = re.compile(
    r"(?<!n't )(?<!not )(?<!never )\b(?:figured out|worked out|found out) (?P<x>.+)", re.I
)
BLOCKERS = (
    re.compile(r"\b(?:unblocked|finally (?:got|fixed|sorted)) (?P<x>.+)", re.I),
    re.compile(r"\b(?P<x>.+?) (?:is|was) no longer (?:blocking|a blocker)\b", re.I),
)
INSIGHTS = re.compile(r"\bi (?:realized|realised|noticed|learned|learnt) (?:that )?(?P<x>.+)", re.I)
RELATIONS = (
    "wife|husband|partner|son|daughter|mother|mom|mum|father|dad|sister|brother|boss|manager"
    "|colleague|friend|doctor|neighbour|neighbor|aunt|uncle|grandma|grandpa|coach|teacher"
)
# The relation in any case, the name capitalised: "my sister Lena", never "my sister live".
PEOPLE = re.compile(rf"\b(?i:my) (?P<rel>(?i:{RELATIONS})),? (?P<name>[A-Z][a-z]+)\b")
# A question asks; it states nothing to extract ("where does my sister live again?"). At most
# it opens a thread, through the open-question patterns.
QUESTION = re.compile(
    r"\?\s*$|^(?:who|what|where|when|why|how|which|whose|do|does|did|is|are|was|were|can"
    r"|could|would|will|should|shall|have|has|am)\b",
    re.I,
)
BECAUSE = re.compile(r"\s+(?:because|since|as) ", re.I)
STOP = set(
    [
        "the",
        "a",
        "an",
        "and",
        "or",
        "but",
        "to",
        "of",
        "for",
        "in",
        "on",
        "at",
        "with",
        "about",
        "from",
        "this",
        "that",
        "these",
        "those",
        "it",
        "its",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "i",
        "we",
        "you",
        "my",
        "our",
        "your",
        "me",
        "us",
        "will",
        "would",
        "should",
        "could",
        "have",
        "has",
        "had",
        "do",
        "does",
        "did",
        "not",
        "no",
        "yes",
        "just",
        "still",
        "need",
        "want",
        "get",
        "got",
    ]
)
