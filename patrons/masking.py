"""The one rule for showing an ID number: masked everywhere (screens, API, exports, the audit
log) but the last four characters; the whole number only through compliance's audited
"show" (``patrons.identity.identity_reveal``)."""

from __future__ import annotations

MASK = "•"


def masked_id(number: str | None) -> str:
    """``"D1234567"`` → ``"••••4567"``; a number of six characters or fewer is all mask."""
    if not number:
        return ""
    shown = number[-4:] if len(number) > 6 else ""
    return MASK * (len(number) - len(shown)) + shown
