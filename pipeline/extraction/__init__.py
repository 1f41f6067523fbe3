"""Multi-fact extraction from one long message (specification 004, section 13)."""

from pipeline.english.split import split_facts
from pipeline.extraction.extract import Extracted, FactsAnswer, extract_facts

__all__ = ["Extracted", "FactsAnswer", "extract_facts", "split_facts"]
