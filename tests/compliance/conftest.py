"""The compliance tests read what the audit tests' world writes: the same cardroom in New York,
made on the test's clock (tests/conftest.py's ``clock``, which starts where the audit tests'
does)."""

from tests.audit.conftest import cardroom  # noqa: F401 - a fixture, found by name
