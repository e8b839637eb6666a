"""Shared fixtures: the personas the tests talk about."""

import pytest
from django.contrib.auth.models import Group, User

from cardroom.roles import COMPLIANCE_AUDITOR, DEALER, FLOOR_SUPERVISOR

PASSWORD = "a-test-password"


@pytest.fixture
def password() -> str:
    """Every user made by ``make_user`` has this password."""
    return PASSWORD


@pytest.fixture
def make_user(db):
    """Make a user, optionally in a role group: ``make_user("ana", role=DEALER)``."""

    def make(username: str, *, role: str | None = None, **fields) -> User:
        user = User.objects.create_user(username=username, password=PASSWORD, **fields)
        if role:
            user.groups.add(Group.objects.get_or_create(name=role)[0])
        return user

    return make


@pytest.fixture
def supervisor(make_user):
    return make_user("supervisor", role=FLOOR_SUPERVISOR, first_name="Fran", last_name="Ortiz")


@pytest.fixture
def dealer(make_user):
    return make_user("dealer", role=DEALER, first_name="Dee", last_name="Lee")


@pytest.fixture
def auditor(make_user):
    return make_user("auditor", role=COMPLIANCE_AUDITOR, first_name="Ari", last_name="Kim")
