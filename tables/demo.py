"""Demo data for a fresh clone: the role groups and one user per role."""

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import transaction

from cardroom.roles import COMPLIANCE_AUDITOR, DEALER, FLOOR_SUPERVISOR, ROLES

# Shared by every demo user and printed by `load_demo`: this is demo data, not a secret.
DEMO_PASSWORD = "cardroom-demo"


@dataclass(frozen=True)
class DemoUser:
    username: str
    first_name: str
    last_name: str
    role: str
    # Floor supervisors configure tables, for now through the admin site.
    is_staff: bool = False


DEMO_USERS = (
    DemoUser("floor", "Morgan", "Reyes", FLOOR_SUPERVISOR, is_staff=True),
    DemoUser("dealer", "Sam", "Carter", DEALER),
    DemoUser("compliance", "Alex", "Nguyen", COMPLIANCE_AUDITOR),
)


@transaction.atomic
def load_demo_data() -> list[DemoUser]:
    """Create (or restore) the demo data; running it again changes nothing."""
    groups = {name: Group.objects.get_or_create(name=name)[0] for name in ROLES}
    User = get_user_model()
    for demo in DEMO_USERS:
        user, _ = User.objects.update_or_create(
            username=demo.username,
            defaults={
                "first_name": demo.first_name,
                "last_name": demo.last_name,
                "is_staff": demo.is_staff,
                "is_active": True,
            },
        )
        # Only when needed: set_password salts afresh, so calling it always would rewrite
        # the row on every run.
        if not user.check_password(DEMO_PASSWORD):
            user.set_password(DEMO_PASSWORD)
            user.save(update_fields=["password"])
        user.groups.set([groups[demo.role]])
    return list(DEMO_USERS)
