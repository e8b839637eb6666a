"""The roles, as Django group names, and the sets of roles the rules name. Everything that
checks a role imports them here."""

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, Group, Permission, User

FLOOR_SUPERVISOR = "Floor supervisor"
DEALER = "Dealer"
COMPLIANCE_AUDITOR = "Compliance auditor"
#: The count team: enters what it finds in the drop boxes, and nothing else (cage).
COUNT_TEAM = "Count team"

# In order of precedence, for the rare user placed in more than one group.
ROLES = (FLOOR_SUPERVISOR, DEALER, COMPLIANCE_AUDITOR, COUNT_TEAM)
#: The roles that read the floor: tables, hands, players (every role but the count team,
#: which reads only the drop boxes it counts).
READERS = (FLOOR_SUPERVISOR, DEALER, COMPLIANCE_AUDITOR)
#: Who works a table: the floor supervisor, and the dealer (on duty there, the services add).
TABLE_STAFF = (FLOOR_SUPERVISOR, DEALER)
#: Who reads the audit log, reports and exports.
AUDITORS = (COMPLIANCE_AUDITOR, FLOOR_SUPERVISOR)


def role_of(user: AbstractBaseUser | AnonymousUser | None) -> str | None:
    """The user's role, or None: anonymous users and users in no role group have none."""
    if not isinstance(user, User) or not user.is_authenticated:
        return None
    held = set(user.groups.filter(name__in=ROLES).values_list("name", flat=True))
    return next((role for role in ROLES if role in held), None)


# The apps whose records supervisors and auditors may look through in the read-only admin.
_ADMIN_APPS = ("tables", "wagers", "rake", "audit", "cage", "compliance")


def setup_role_groups() -> list[Group]:
    """The role groups; supervisors and auditors may view every record in the admin
    (which changes nothing: every write goes through the services). Safe to run again."""
    groups = [Group.objects.get_or_create(name=name)[0] for name in ROLES]
    viewing = Permission.objects.filter(
        codename__startswith="view_", content_type__app_label__in=_ADMIN_APPS
    )
    for group in groups:
        if group.name in (FLOOR_SUPERVISOR, COMPLIANCE_AUDITOR):
            group.permissions.add(*viewing)
    return groups
