from django.apps import AppConfig


class CageConfig(AppConfig):
    """The money around the hands: table inventory, fills and credits, drop and count, shift
    and gaming-day close, and the table-games statistics. Above the hands (it reads them and
    the fee ledger), below compliance."""

    name = "cage"
