from django.apps import AppConfig


class PatronsConfig(AppConfig):
    """Players under the law: identity (ID numbers encrypted at rest), the cash log with its
    multiple transaction log, currency transaction reports and structuring watch, exclusion
    lists, suspicious-activity reviews and the incident log. Below the tables (whose services
    run its checks inside their transactions), above the audit log; its relations to tables
    and hands are lazy references."""

    name = "patrons"
