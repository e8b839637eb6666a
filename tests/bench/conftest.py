"""The API tests' world (a cardroom with its people and a hand in each state), for the benches'
tests."""

from tests.api.conftest import *  # noqa: F403 - the fixtures, by name
