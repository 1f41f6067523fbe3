"""A loopback Messages-API server answering from scripted fixtures, for synthetic cassettes."""

from evals.loopback.answers import Answer, ErrorAnswer, load_answers
from evals.loopback.ratelimit import RateLimits
from evals.loopback.server import SYNTHETIC_MODEL, LoopbackServer, Seen, tokens

__all__ = [
    "SYNTHETIC_MODEL",
    "Answer",
    "ErrorAnswer",
    "LoopbackServer",
    "RateLimits",
    "Seen",
    "load_answers",
    "tokens",
]
