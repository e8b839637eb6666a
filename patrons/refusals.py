"""What a refusal of a player on an exclusion list tells the person who asked.

The lists are confidential. A dealer (anyone but the floor and compliance) is told only to
call a floor supervisor, under the neutral code ``call_floor``, whatever the list, the kind or
the action. A floor supervisor or a compliance auditor, who keep the lists and answer that
call, is told which entry it is — its kind, its list, since when and until when — under the
code ``excluded``.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User

from core.errors import Conflict
from core.roles import COMPLIANCE_AUDITOR, FLOOR_SUPERVISOR, role_of

from .models import Exclusion

#: The code a dealer's refusal carries: the same for every list and every action.
CALL_FLOOR = "call_floor"
#: The code of the same refusal for the floor and compliance, whose message gives the reason.
EXCLUDED = "excluded"
#: Who is told the reason: the people who keep the lists and answer the call.
TOLD_THE_REASON = (FLOOR_SUPERVISOR, COMPLIANCE_AUDITOR)

#: What the dealer is told, by action: nothing about any list.
NEUTRAL = {
    "register": "This player cannot be registered; call a floor supervisor.",
    "seat": "This player cannot be seated; call a floor supervisor.",
    "buy chips": "This player cannot buy chips; call a floor supervisor.",
    "join": "This player cannot join the waitlist; call a floor supervisor.",
    "play": "This player cannot play on; call a floor supervisor.",
    "redeem chips": "This player's chips cannot be redeemed here; call a floor supervisor.",
}

#: What the floor and compliance are told, by action, before the reason.
_REASONED = {
    "register": "{who} cannot be registered",
    "seat": "{who} cannot be seated",
    "buy chips": "{who} cannot buy chips",
    "join": "{who} cannot join the waitlist",
    "play": "{who} cannot play on",
    "redeem chips": "{who}'s chips cannot be redeemed at the cage",
}
#: What the floor does about a held seat (``play``): the chips leave through a supervisor.
_HELD = " The seat is held: no wagers, and the chips leave the table through a floor supervisor."


def told_the_reason(user: User | None) -> bool:
    return role_of(user) in TOLD_THE_REASON


def exclusion_reason(exclusion: Exclusion) -> str:
    """An entry in the floor's words: ``barred on the cardroom's own list since 2026-04-02,
    for life (exclusion #5)``."""
    kind = exclusion.kind.replace("_", "-")
    if exclusion.source == Exclusion.Source.CARDROOM:
        where = "the cardroom's own list"
    else:
        where = f"the state list {exclusion.reference}".rstrip()
    term = f"until {exclusion.ends_on:%Y-%m-%d}" if exclusion.ends_on else "for life"
    since = f"{exclusion.starts_on:%Y-%m-%d}"
    return f"{kind} on {where} since {since}, {term} (exclusion #{exclusion.pk})"


def refusal_words(
    action: str, exclusion: Exclusion, *, by: User | None, who: Any
) -> tuple[str, str]:
    """The code and message refusing ``action`` for ``who``, as ``by`` may be told them."""
    if not told_the_reason(by):
        return CALL_FLOOR, NEUTRAL[action]
    message = f"{_REASONED[action].format(who=who)}: {exclusion_reason(exclusion)}."
    return EXCLUDED, message + (_HELD if action == "play" else "")


def held_refusal(
    action: str, exclusion: Exclusion | None, *, by: User | None, who: Any, field: str
) -> Conflict:
    """The refusal an action on a held seat meets (``tables.holds``). ``exclusion`` is read
    only for the floor and compliance: a dealer's refusal needs nothing of it."""
    if exclusion is None or not told_the_reason(by):
        return Conflict(NEUTRAL[action], field=field, code=CALL_FLOOR)
    code, message = refusal_words(action, exclusion, by=by, who=who)
    return Conflict(message, field=field, code=code)
