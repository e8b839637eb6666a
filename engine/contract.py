"""The settle-json contract (shared/spec/settle-json.md): JSON in, a ``Round``; a ``Settlement``,
JSON out. The input is read in ``round_json``, the output written in ``settlement_json``; every
refusal names the JSON path of the value at fault.
"""

from __future__ import annotations

import json
from typing import Any

from .errors import RoundError
from .round_json import round_from_json
from .settlement import settle
from .settlement_json import settlement_to_json, settlement_to_json_text


def settle_json(data: object) -> dict[str, Any]:
    """Settle one round given in the settle-json format; refusals come back as ``{"error"}``."""
    try:
        return settlement_to_json(settle(round_from_json(data)))
    except RoundError as error:
        return {"error": error.as_dict()}


def settle_json_text(data: object) -> tuple[str, bool]:
    """``settle_json`` as JSON text, exactly ``json.dumps(settle_json(data))``, and whether the
    round was refused: what ``settle_round`` prints, written without the dicts in between."""
    try:
        return settlement_to_json_text(settle(round_from_json(data))), False
    except RoundError as error:
        return json.dumps({"error": error.as_dict()}), True
