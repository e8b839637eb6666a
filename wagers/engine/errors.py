"""The one error the engine raises for input it refuses."""


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
