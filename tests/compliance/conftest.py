"""The compliance tests read what the audit tests' world writes: the same cardroom in New York
and the same test-controlled clock."""

from tests.audit.conftest import cardroom, clock  # noqa: F401 - fixtures, found by name
