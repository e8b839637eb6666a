"""Players under the law, and the cardrooms they play in (see ``patrons.apps``)."""

from .cardrooms import DEFAULT_DENOMINATIONS as DEFAULT_DENOMINATIONS
from .cardrooms import DEFAULT_LARGEST_CAGE_AMOUNT as DEFAULT_LARGEST_CAGE_AMOUNT
from .cardrooms import Cardroom as Cardroom
from .cardrooms import Player as Player
from .cardrooms import default_denominations as default_denominations
from .records import CTR_THRESHOLD as CTR_THRESHOLD
from .records import DEFAULT_LOG_THRESHOLD as DEFAULT_LOG_THRESHOLD
from .records import DEFAULT_STRUCTURING_BAND as DEFAULT_STRUCTURING_BAND
from .records import DEFAULT_STRUCTURING_COUNT as DEFAULT_STRUCTURING_COUNT
from .records import CashPolicy as CashPolicy
from .records import CashTransaction as CashTransaction
from .records import CurrencyTransactionReport as CurrencyTransactionReport
from .records import Exclusion as Exclusion
from .records import ExclusionListImport as ExclusionListImport
from .records import IdType as IdType
from .records import Incident as Incident
from .records import IncidentEntry as IncidentEntry
from .records import PlayerIdentity as PlayerIdentity
from .records import ReviewNote as ReviewNote
from .records import StructuringFlag as StructuringFlag
from .records import SuspiciousActivityReview as SuspiciousActivityReview
