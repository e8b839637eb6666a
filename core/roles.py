"""The roles, as Django group names, and the sets of roles the rules name. Everything that
checks a role imports them here."""

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, Group, Permission, User
from django.db.models import Q

FLOOR_SUPERVISOR = "Floor supervisor"
DEALER = "Dealer"
COMPLIANCE_AUDITOR = "Compliance auditor"
#: The count team: enters what it finds in the drop boxes, and nothing else (cage).
COUNT_TEAM = "Count team"
#: Creates cardrooms and the accounts that approve or sign, and, with a second administrator,
#: switches R17's self-approval on or off: kept apart from the floor supervisors whose changes
#: it governs.
ADMINISTRATOR = "Administrator"
#: The cage: its counts, chip sales and redemptions, fills and credits sent and received.
CASHIER = "Cashier"

# In order of precedence, for the rare user placed in more than one group.
ROLES = (FLOOR_SUPERVISOR, DEALER, COMPLIANCE_AUDITOR, COUNT_TEAM, CASHIER, ADMINISTRATOR)
#: The roles that approve or sign a control: an account is made in one, or given one, only by
#: an administrator or through a two-person change (a dealer account a floor supervisor makes).
SIGNING_ROLES = (FLOOR_SUPERVISOR, COMPLIANCE_AUDITOR, COUNT_TEAM, CASHIER, ADMINISTRATOR)
#: Who reads what a view opens to everyone: every role but the count team, which reads only
#: the drop boxes it counts (an administrator reads configuration; the views of play, stacks
#: and the audit log name their own readers).
READERS = (FLOOR_SUPERVISOR, DEALER, COMPLIANCE_AUDITOR, ADMINISTRATOR)
#: Who reads play — hands, players, the cage's records, stopped games: every reader but the
#: administrators, who read configuration (cardrooms, tables, settings, paytables, shifts).
PLAY_READERS = (FLOOR_SUPERVISOR, DEALER, COMPLIANCE_AUDITOR)
#: Who works a table: the floor supervisor, and the dealer (on duty there, the services add).
TABLE_STAFF = (FLOOR_SUPERVISOR, DEALER)
#: Who reads the audit log, reports and exports.
AUDITORS = (COMPLIANCE_AUDITOR, FLOOR_SUPERVISOR)


_CACHE = "_cardroom_role"


def role_of(user: AbstractBaseUser | AnonymousUser | None) -> str | None:
    """The user's role, or None: anonymous users and users in no role group have none. Kept
    on the user object, as Django keeps its permissions (a request loads its user afresh, so
    one request asks the database once, however many checks it makes)."""
    if not isinstance(user, User) or not user.is_authenticated:
        return None
    if hasattr(user, _CACHE):
        cached: str | None = getattr(user, _CACHE)
        return cached
    held = set(user.groups.filter(name__in=ROLES).values_list("name", flat=True))
    role = next((role for role in ROLES if role in held), None)
    setattr(user, _CACHE, role)
    return role


def role_known(user: User, role: str | None) -> None:
    """Tell ``role_of`` the user's role, known from elsewhere (the API's cache of it per
    token), so that it does not ask the database."""
    setattr(user, _CACHE, role)


# The apps whose records supervisors and auditors may look through in the read-only admin.
_ADMIN_APPS = ("tables", "wagers", "rake", "audit", "cage", "compliance")
# patrons' records in the admin: cardrooms and players (the law's records are not there).
_ADMIN_PATRONS = ("cardroom", "player")
# What administrators look through there: configuration, not play, stacks or the audit log.
_CONFIGURATION = (
    "cardroom",
    "table",
    "tablesettings",
    "settingchange",
    "selfapprovalchange",
)


def setup_role_groups() -> list[Group]:
    """The role groups; supervisors and auditors may view every record in the admin (which
    changes nothing: every write goes through the services), administrators the configuration
    records. Safe to run again."""
    groups = [Group.objects.get_or_create(name=name)[0] for name in ROLES]
    viewing = Permission.objects.filter(codename__startswith="view_").filter(
        Q(content_type__app_label__in=_ADMIN_APPS)
        | Q(content_type__app_label="patrons", content_type__model__in=_ADMIN_PATRONS)
    )
    configuration = viewing.filter(
        content_type__app_label__in=("tables", "patrons"), content_type__model__in=_CONFIGURATION
    )
    for group in groups:
        if group.name in (FLOOR_SUPERVISOR, COMPLIANCE_AUDITOR):
            group.permissions.add(*viewing)
        elif group.name == ADMINISTRATOR:
            group.permissions.add(*configuration)
    return groups
