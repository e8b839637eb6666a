import re
from io import StringIO

import pytest
from django.contrib.auth.models import Group, User
from django.core.management import call_command

from cardroom.roles import ROLES, role_of
from tables.demo import DEMO_USERS

pytestmark = pytest.mark.django_db


def load_demo() -> str:
    """Run the command as a developer would and return what it printed."""
    out = StringIO()
    call_command("load_demo", stdout=out)
    return out.getvalue()


def snapshot() -> list[tuple]:
    users = User.objects.order_by("username").values_list(
        "username", "password", "first_name", "last_name", "is_staff", "is_active", "groups__name"
    )
    return [*users, *Group.objects.order_by("name").values_list("name")]


def test_load_demo_creates_the_three_role_groups_and_one_user_per_role():
    load_demo()
    assert set(Group.objects.values_list("name", flat=True)) == set(ROLES)
    assert {role_of(User.objects.get(username=d.username)) for d in DEMO_USERS} == set(ROLES)


def test_running_load_demo_twice_changes_nothing():
    load_demo()
    first = snapshot()
    load_demo()
    assert snapshot() == first
    assert (User.objects.count(), Group.objects.count()) == (3, 3)


def test_each_demo_user_is_in_its_role_group():
    load_demo()
    for demo in DEMO_USERS:
        user = User.objects.get(username=demo.username)
        assert list(user.groups.values_list("name", flat=True)) == [demo.role]


def test_each_demo_user_can_log_in_with_the_printed_password(client):
    printed = load_demo()
    logins = re.findall(r"^\s+(\w+)\s+(\S+)\s", printed, flags=re.MULTILINE)
    assert {username for username, _ in logins} == {"floor", "dealer", "compliance"}
    for username, password in logins:
        assert client.login(username=username, password=password), username
        client.logout()


def test_load_demo_restores_a_changed_demo_password(client):
    load_demo()
    floor = User.objects.get(username="floor")
    floor.set_password("something-else")
    floor.save()
    printed = load_demo()
    password = re.search(r"^\s+floor\s+(\S+)", printed, flags=re.MULTILINE).group(1)
    assert client.login(username="floor", password=password)
