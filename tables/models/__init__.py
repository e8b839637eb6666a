"""Tables, their versioned settings, sessions, seats, stacks and the designated-player rotation.

Rows the rules say are never edited (settings versions, stack entries, rotation offers) are
append-only in the database (``core.db.AppendOnly`` in the migrations). Writes go through
``tables.services``; reads through ``tables.selectors``. Cardrooms and players live a layer
down, in ``patrons`` (which needs them).
"""

from tables.staff_models import Signature as Signature
from tables.staff_models import StaffLineage as StaffLineage
from tables.staff_models import StaffProfile as StaffProfile
from tables.staff_models import TwoPersonChange as TwoPersonChange
from tables.staff_models import TwoPersonDecision as TwoPersonDecision

from .dealer_shifts import DealerAssignment as DealerAssignment
from .dealer_shifts import DealerShift as DealerShift
from .devices import DeviceToken as DeviceToken
from .devices import ShufflerDevice as ShufflerDevice
from .memberships import CardroomMembership as CardroomMembership
from .racks import Rack as Rack
from .seats import GameStop as GameStop
from .seats import HouseBankEntry as HouseBankEntry
from .seats import IncidentTable as IncidentTable
from .seats import RotationRecord as RotationRecord
from .seats import Seating as Seating
from .seats import StackEntry as StackEntry
from .seats import TableCash as TableCash
from .shifts import ShiftDefinition as ShiftDefinition
from .tables import BANKING_CHOICES as BANKING_CHOICES
from .tables import PaytableKind as PaytableKind
from .tables import Table as Table
from .tables import TableSession as TableSession
from .tables import TableSettings as TableSettings
from .tables import Tender as Tender
from .waitlist import Waitlist as Waitlist
from .waitlist import WaitlistEntry as WaitlistEntry
