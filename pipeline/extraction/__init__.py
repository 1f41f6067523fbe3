"""Multi-fact extraction from one long message (specification 004, section 13)."""

from pipeline.extraction.extract import Extracted, FactsAnswer, extract_facts
from pipeline.extraction.split import split_facts

__all__ = ["Extracted", "FactsAnswer", "extract_facts", "split_facts"]
