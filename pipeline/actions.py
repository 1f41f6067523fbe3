"""What a handler did, as the companion turn records it (its operation's `action`).

One enumeration for every intent: a handler writes `Action.HELD`, never the string, so a
mistyped action is an error where it is written (mypy), not a test failure far away. The
values are the strings the turns store and the instruction templates compare against
(`result.action == "held"`), so stored turns and prompts read the same."""

from __future__ import annotations

from enum import StrEnum


class Action(StrEnum):
    """Every action a turn's operation can record."""

    HELD = "held"
    REFINED = "refined"
    COMMITTED = "committed"
    ALREADY_KNOWN = "already_known"
    HELD_MANY = "held_many"
    COMMITTED_ALL = "committed_all"
    COMMITTED_SOME = "committed_some"
    DECLINED_ALL = "declined_all"
    REJECTED = "rejected"
    KEPT_IN_PROJECT = "kept_in_project"
    CONFIRM_RETRACTION = "confirm_retraction"
    AMBIGUOUS = "ambiguous"
    NO_MATCH = "no_match"
    RETRACTED = "retracted"
    KEPT = "kept"
    FOUND = "found"
    NONE = "none"
    RESTORED = "restored"
    RESTORE_UNCLEAR = "restore_unclear"
    RESTORE_NO_MATCH = "restore_no_match"
    NOT_AVAILABLE = "not_available"
    LISTED = "listed"
    HEARTBEAT = "heartbeat"
    DESCRIBED = "described"
    STATUS_NOTED = "status_noted"
    WHICH_ITEM = "which_item"
    ERASED = "erased"
