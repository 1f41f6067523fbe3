"""Every setting a turn may read, checked at once, before a message is accepted.

A turn reads the conversation settings (pipeline/settings.py), the compaction instructions
file, the relation settings and the search index settings at different points. Checked only
where each is read, a bad value would refuse the turn after its message was stored in the
inbox, and the next chat would answer that message (a refused "yes" confirming a fact later).
The turn queue calls `check_turn_settings` before storing anything.
"""

from __future__ import annotations

from pipeline.memory.relations import relation_settings
from pipeline.settings import Settings, settings
from pipeline.store.ann import ann_settings


def check_turn_settings() -> Settings:
    """The conversation settings, once every setting a turn reads is known to be valid;
    otherwise the InvalidMessage naming the first bad one."""
    found = settings()
    found.custom_compaction_instructions()  # an unreadable file now, not in the middle of a turn
    relation_settings()
    ann_settings()
    return found
