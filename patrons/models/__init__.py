"""Players under the law, and the cardrooms they play in (see ``patrons.apps``)."""

from .cardrooms import DEFAULT_DENOMINATIONS as DEFAULT_DENOMINATIONS
from .cardrooms import DEFAULT_LARGEST_CAGE_AMOUNT as DEFAULT_LARGEST_CAGE_AMOUNT
from .cardrooms import Cardroom as Cardroom
from .cardrooms import Player as Player
from .cardrooms import default_denominations as default_denominations
from .cash_log import CASH_IN_KINDS as CASH_IN_KINDS
from .cash_log import CASH_OUT_KINDS as CASH_OUT_KINDS
from .cash_log import CTR_THRESHOLD as CTR_THRESHOLD
from .cash_log import DEFAULT_LOG_THRESHOLD as DEFAULT_LOG_THRESHOLD
from .cash_log import DEFAULT_STRUCTURING_BAND as DEFAULT_STRUCTURING_BAND
from .cash_log import DEFAULT_STRUCTURING_COUNT as DEFAULT_STRUCTURING_COUNT
from .cash_log import KIND_DIRECTION as KIND_DIRECTION
from .cash_log import CashKind as CashKind
from .cash_log import CashTransaction as CashTransaction
from .cash_log import CurrencyTransactionReport as CurrencyTransactionReport
from .cash_log import StructuringFlag as StructuringFlag
from .ctr_filer import CtrFiler as CtrFiler
from .incidents import Incident as Incident
from .incidents import IncidentEntry as IncidentEntry
from .records import CashPolicy as CashPolicy
from .records import Exclusion as Exclusion
from .records import ExclusionListImport as ExclusionListImport
from .records import IdType as IdType
from .records import PlayerIdentity as PlayerIdentity
from .reviews import ReviewNote as ReviewNote
from .reviews import SuspiciousActivityReview as SuspiciousActivityReview
