"""The engine's two errors: ``RoundError`` for input it refuses, ``ConservationError`` for a
defect of its own."""


class RoundError(ValueError):
    """A round that cannot be settled as given.

    ``field`` is the JSON path of the value at fault in the settle-json format
    (``spots[1].raise``, ``dealer.cards``, ``table.ante_max``); ``message`` is written for the
    dealer or supervisor who has to fix it.
    """

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message

    def as_dict(self) -> dict[str, str]:
        return {"message": self.message, "field": self.field}


class ConservationError(Exception):
    """R15 failed: money was created or lost. A defect, never an input problem: nothing may be
    paid or booked. Not a ``RoundError``, so no caller shows it to a dealer as a refusal; raised
    by the engine's settlement and by the booking layer's own R15 check."""
