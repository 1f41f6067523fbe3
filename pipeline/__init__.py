"""The converse pipeline: a companion that remembers personal things, turn by turn."""

from pipeline.converse import TurnOutcome, converse
from pipeline.store import Store, open_store

__all__ = ["Store", "TurnOutcome", "converse", "open_store"]
