from django.apps import AppConfig


class ComplianceConfig(AppConfig):
    """Compliance reports and exports: they read every app below them and change nothing but
    their own records."""

    name = "compliance"
