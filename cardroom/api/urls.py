"""``/api/v1/``: every capability of tables, hands, audit and reports; schema and docs."""

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.http import HttpRequest, JsonResponse
from django.http.response import HttpResponseBase
from django.urls import path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView
from rest_framework.permissions import IsAuthenticated

from cardroom.api import (
    age,
    alarms,
    audit_log,
    cage,
    compliance,
    dealers,
    device_hands,
    device_waiting,
    devices,
    exclusion_ends,
    exclusions,
    fincen,
    hold_reports,
    memberships,
    paytables,
    persons,
    ratings,
    staff,
    waitlist,
)
from cardroom.api import hands as wagers
from cardroom.api import patron_reviews as reviews
from cardroom.api import patrons as law
from cardroom.api import sar_cases as sar
from cardroom.api.tables import cardrooms as table_cardrooms
from cardroom.api.tables import configuration as table_configuration
from cardroom.api.tables import rotation as table_rotation
from cardroom.api.tables import seating as table_seating
from cardroom.api.tables import sessions as table_sessions
from cardroom.api.tables import setting_changes as table_setting_changes

from . import auth
from .fields import MAX_ID
from .permissions import RolePermission

urlpatterns = [
    path("auth/token/", auth.TokenLogin.as_view(), name="api-token"),
    path("auth/token/revoke/", auth.TokenRevoke.as_view(), name="api-token-revoke"),
    path("auth/me/", auth.Me.as_view(), name="api-me"),
    path("auth/setup/", staff.AccountSetUp.as_view(), name="api-account-setup"),
    path("auth/pin/", staff.OwnPin.as_view(), name="api-own-pin"),
    # staff accounts: made alone (dealers; an administrator's any) or through a two-person change
    path("staff/", staff.StaffList.as_view(), name="api-staff"),
    path("staff/<int:pk>/role/", staff.StaffRole.as_view()),
    path("staff/<int:pk>/deactivate/", staff.StaffDeactivate.as_view()),
    path("staff/<int:pk>/setup-link/", staff.StaffSetupLink.as_view()),
    path("staff/<int:pk>/cardrooms/", memberships.StaffCardrooms.as_view()),
    path("staff-changes/", staff.StaffChangeList.as_view(), name="api-staff-changes"),
    *[
        path(
            f"staff-changes/<int:pk>/{decision}/",
            staff.StaffChangeDecision.as_view(decision=decision),
        )
        for decision in ("approve", "reject", "withdraw")
    ],
    path("cardrooms/", table_cardrooms.CardroomList.as_view(), name="api-cardrooms"),
    path(
        "cardrooms/<int:pk>/self-approval-changes/",
        table_cardrooms.SelfApprovalChangeList.as_view(),
    ),
    *[
        path(
            f"self-approval-changes/<int:pk>/{decision}/",
            table_cardrooms.SelfApprovalDecisionView.as_view(decision=decision),
        )
        for decision in ("approve", "reject", "withdraw")
    ],
    path("tables/", table_configuration.TableList.as_view(), name="api-tables"),
    path("tables/<int:pk>/", table_configuration.TableDetail.as_view(), name="api-table"),
    path("tables/<int:pk>/settings/", table_configuration.TableSettingsList.as_view()),
    path("tables/<int:pk>/open/", table_sessions.TableOpen.as_view()),
    path("tables/<int:pk>/close/", table_sessions.TableClose.as_view()),
    path("tables/<int:pk>/dealer/", table_sessions.TableDealer.as_view()),
    # dealers' shifts: clock-in and out, tables, breaks, the push rotation, hours and hands
    path("cardrooms/<int:pk>/dealers/", dealers.DealerBoard.as_view()),
    path("cardrooms/<int:pk>/dealer-push/", dealers.DealerPush.as_view()),
    path("cardrooms/<int:pk>/dealer-days/", dealers.DealerDays.as_view()),
    path("cardrooms/<int:pk>/dealer-rotation/", dealers.DealerRotation.as_view()),
    path("dealers/<int:pk>/clock-out/", dealers.DealerClockOut.as_view()),
    path("dealers/<int:pk>/assign/", dealers.DealerAssign.as_view()),
    path("dealers/<int:pk>/break/", dealers.DealerBreak.as_view(step="start")),
    path("dealers/<int:pk>/back/", dealers.DealerBreak.as_view(step="end")),
    path("tables/<int:pk>/setting-changes/", table_setting_changes.SettingChangeList.as_view()),
    path("tables/<int:pk>/seatings/", table_seating.SeatingList.as_view()),
    path("tables/<int:pk>/rotation/", table_rotation.RotationLog.as_view()),
    path("tables/<int:pk>/rotation/compliance/", table_rotation.RotationCompliance.as_view()),
    path("tables/<int:pk>/hands/", wagers.HandStart.as_view()),
    # a table's card-reading shuffler: the floor registers it; it posts the hands it deals
    path("tables/<int:pk>/devices/", devices.DeviceList.as_view()),
    path("devices/<int:pk>/rotate-token/", devices.DeviceTokenRotate.as_view()),
    path("devices/<int:pk>/revoke/", devices.DeviceRevoke.as_view()),
    path("device/hands/", device_hands.DeviceHands.as_view()),
    # what the shuffler reads before it deals: the hand waiting for cards, how many hands
    path("device/hand/", device_waiting.DeviceWaiting.as_view()),
    path("tables/<int:pk>/math/", paytables.TableMath.as_view()),
    path("cardrooms/<int:pk>/paytables/", paytables.PaytableCatalogue.as_view()),
    path("cardrooms/<int:pk>/paytable-changes/", paytables.PaytableChangeList.as_view()),
    *[
        path(
            f"paytable-changes/<int:pk>/{decision}/",
            paytables.PaytableChangeDecision.as_view(decision=decision),
        )
        for decision in ("approve", "reject", "withdraw")
    ],
    *[
        path(
            f"setting-changes/<int:pk>/{decision}/",
            table_setting_changes.SettingChangeDecision.as_view(decision=decision),
        )
        for decision in ("approve", "reject", "withdraw")
    ],
    path("players/", table_seating.PlayerList.as_view()),
    path("seatings/<int:pk>/", table_seating.SeatingDetail.as_view()),
    path("seatings/<int:pk>/stack/", table_seating.StackHistory.as_view()),
    path("seatings/<int:pk>/add-chips/", table_seating.SeatingAddChips.as_view()),
    path("seatings/<int:pk>/cash-out/", table_seating.SeatingCashOut.as_view()),
    path("seatings/<int:pk>/sit-out/", table_seating.SeatingSitOut.as_view()),
    path("seatings/<int:pk>/come-back/", table_seating.SeatingComeBack.as_view()),
    path("seatings/<int:pk>/leave/", table_seating.SeatingLeave.as_view()),
    path("seatings/<int:pk>/dp-waiver/", table_seating.SeatingDpWaiver.as_view()),
    path("seatings/<int:pk>/proposition/", table_seating.SeatingProposition.as_view()),
    # the waitlist: lists, its clocks, joining, the order, seat calls, taking a seat, seat changes
    path("waitlists/", waitlist.WaitlistList.as_view(), name="api-waitlists"),
    path("cardrooms/<int:pk>/waitlist-timing/", waitlist.WaitlistTiming.as_view()),
    path("waitlists/<int:pk>/entries/", waitlist.WaitlistJoin.as_view()),
    path("tables/<int:pk>/seat-calls/", waitlist.SeatCall.as_view()),
    path("waitlist-entries/<int:pk>/remove/", waitlist.EntryRemove.as_view()),
    path("waitlist-entries/<int:pk>/arrive/", waitlist.EntryArrive.as_view()),
    path("waitlist-entries/<int:pk>/move/", waitlist.EntryMove.as_view()),
    path("waitlist-entries/<int:pk>/pass/", waitlist.EntryPass.as_view()),
    path("waitlist-entries/<int:pk>/seat/", waitlist.EntrySeat.as_view()),
    path("seatings/<int:pk>/move/", waitlist.SeatingMove.as_view()),
    path("hands/", wagers.HandList.as_view(), name="api-hands"),
    path("hands/<int:pk>/", wagers.HandDetail.as_view(), name="api-hand"),
    path("hands/<int:pk>/wagers/", wagers.HandWager.as_view()),
    path("hands/<int:pk>/wagers/batch/", wagers.HandWagers.as_view()),
    path("hands/<int:pk>/wagers/currency/", wagers.HandCurrencyWager.as_view()),
    path("hands/<int:pk>/deal/", wagers.HandDeal.as_view()),
    path("hands/<int:pk>/cards/", wagers.HandCards.as_view()),
    path("hands/<int:pk>/decisions/", wagers.HandDecision.as_view()),
    path("hands/<int:pk>/decisions/batch/", wagers.HandDecisions.as_view()),
    path("hands/<int:pk>/dead-spots/", wagers.HandDeadSpot.as_view()),
    path("hands/<int:pk>/misdeal/", wagers.HandMisdeal.as_view()),
    path("hands/<int:pk>/cancel/", wagers.HandCancel.as_view()),
    path("hands/<int:pk>/settle/", wagers.HandSettle.as_view()),
    path("hands/<int:pk>/corrections/", wagers.HandCorrect.as_view()),
    path("settle-preview/", wagers.SettlePreview.as_view()),
    path("audit/events/", audit_log.EventList.as_view()),
    path("audit/verify/", audit_log.Verify.as_view()),
    path("audit/verify/<int:pk>/", audit_log.VerifyDetail.as_view()),
    path("books/verify/", audit_log.BooksVerify.as_view()),
    path("books/verify/<int:pk>/", audit_log.BooksVerifyDetail.as_view()),
    path("state/verify/", audit_log.StateVerify.as_view()),
    path("state/verify/<int:pk>/", audit_log.StateVerifyDetail.as_view()),
    path("audit/checkpoints/", audit_log.CheckpointList.as_view()),
    path("audit/alarms/", alarms.Alarms.as_view()),
    path(
        "audit/checkpoint-problems/<int:pk>/acknowledge/",
        alarms.CheckpointProblemAcknowledge.as_view(),
    ),
    path("reports/tables/<int:pk>/days/<str:day>/", compliance.TableDayReport.as_view()),
    path("reports/players/<int:pk>/", compliance.PlayerReport.as_view()),
    path("reports/players/<int:pk>/ratings/", ratings.PlayerRatings.as_view()),
    path("reports/seatings/<int:pk>/rating/", ratings.SessionRating.as_view()),
    path("reports/seatings/<int:pk>/rating/value/", ratings.SessionRatingValue.as_view()),
    path("reports/hold/tables/<int:pk>/", hold_reports.HoldReport.as_view()),
    path("exports/", compliance.ExportList.as_view()),
    path("exports/<int:pk>/", compliance.ExportDetail.as_view()),
    path("exports/<int:pk>/download/", compliance.ExportDownload.as_view()),
    # players under the law: identity, cash reporting, exclusions, reviews, incidents; R16 stops
    path("players/<int:pk>/identity/", law.PlayerIdentityView.as_view()),
    path("players/<int:pk>/identity/reveal/", law.PlayerIdentityReveal.as_view()),
    path("players/<int:pk>/reviews/", reviews.PlayerReviewOpen.as_view()),
    path("players/<int:pk>/link/", persons.PlayerLink.as_view()),
    path("cardrooms/<int:pk>/person-matches/", persons.MatchList.as_view()),
    path("person-matches/<int:pk>/resolve/", persons.MatchResolve.as_view()),
    path("cardrooms/<int:pk>/cash-log/", law.CashLog.as_view()),
    path("cardrooms/<int:pk>/ctrs/", law.CtrList.as_view()),
    path("cardrooms/<int:pk>/mtl.csv", law.CashCsv.as_view(kind="mtl")),
    path("cardrooms/<int:pk>/ctrs.csv", law.CashCsv.as_view(kind="ctr")),
    path("cardrooms/<int:pk>/structuring-flags/", law.StructuringFlags.as_view()),
    path("cardrooms/<int:pk>/cash-policy/", law.CashPolicyView.as_view()),
    path("cardrooms/<int:pk>/minimum-age/", age.CardroomMinimumAge.as_view()),
    path("ctrs/<int:pk>/file/", law.CtrFile.as_view()),
    path("cardrooms/<int:pk>/ctr-filer/", fincen.CtrFilerView.as_view()),
    path("cardrooms/<int:pk>/ctrs/fincen-batch.xml", fincen.FincenBatch.as_view()),
    path("exclusions/", exclusions.ExclusionList.as_view()),
    path("exclusions/import/", exclusions.ExclusionImport.as_view()),
    path("exclusions/import/<int:pk>/", exclusions.ExclusionImportDetail.as_view()),
    path("exclusions/<int:pk>/end/", exclusions.ExclusionEnd.as_view()),
    path("exclusions/<int:pk>/end-changes/", exclusion_ends.ExclusionEndChangeList.as_view()),
    *[
        path(
            f"exclusion-end-changes/<int:pk>/{decision}/",
            exclusion_ends.ExclusionEndDecision.as_view(decision=decision),
        )
        for decision in ("approve", "reject", "withdraw")
    ],
    path("incidents/<int:pk>/outcome/", exclusion_ends.IncidentOutcome.as_view()),
    path(
        "cardrooms/<int:pk>/exclusion-actions.csv",
        exclusion_ends.ExclusionActionsCsv.as_view(),
    ),
    path("reviews/", reviews.ReviewList.as_view()),
    path("reviews/<int:pk>/notes/", reviews.ReviewNoteView.as_view()),
    path("incidents/", reviews.IncidentList.as_view()),
    path("incidents/<int:pk>/", reviews.IncidentDetail.as_view()),
    path("incidents/<int:pk>/entries/", reviews.IncidentEntryView.as_view()),
    path("tables/<int:pk>/game-stops/", reviews.GameStops.as_view()),
    # suspicious activity cases: compliance's alone (404 for everyone else)
    path("cardrooms/<int:pk>/sar-cases/", sar.SarCaseList.as_view()),
    path("sar-cases/<int:pk>/", sar.SarCaseDetail.as_view()),
    path("sar-cases/<int:pk>/notes/", sar.SarNoteView.as_view()),
    path("sar-cases/<int:pk>/decision/", sar.SarDecisionView.as_view()),
    # the cage: shifts, inventory, fills and credits, drop and count, closes, statistics
    path("cardrooms/<int:pk>/shifts/", cage.CardroomShifts.as_view()),
    path("cardrooms/<int:pk>/denominations/", cage.CardroomDenominations.as_view()),
    path("cardrooms/<int:pk>/cage-limit/", cage.CardroomCageLimit.as_view()),
    path("cardrooms/<int:pk>/drop-boxes/", cage.DropBoxes.as_view()),
    path("cardrooms/<int:pk>/shift-closes/", cage.ShiftCloses.as_view()),
    path("cardrooms/<int:pk>/day-closes/", cage.DayCloses.as_view()),
    path("cardrooms/<int:pk>/slips/", cage.CardroomSlipsAwaiting.as_view()),
    path("cardrooms/<int:pk>/statistics/", cage.Statistics.as_view()),
    path("cardrooms/<int:pk>/statistics/csv/", cage.StatisticsCsv.as_view()),
    path("cardrooms/<int:pk>/cage/", cage.CageState.as_view()),
    path("cardrooms/<int:pk>/cage/counts/", cage.CageCounts.as_view()),
    path("cardrooms/<int:pk>/cage/entries/", cage.CageEntries.as_view()),
    path("cardrooms/<int:pk>/cage/player-cash/", cage.CagePlayerCash.as_view()),
    path("cardrooms/<int:pk>/cage/chip-issues/", cage.ChipIssues.as_view()),
    path("cardrooms/<int:pk>/cage/front-money/", cage.FrontMoney.as_view()),
    path("cardrooms/<int:pk>/cage/safekeeping/", cage.Safekeeping.as_view()),
    path("cardrooms/<int:pk>/cage/markers/", cage.Markers.as_view()),
    path("cardrooms/<int:pk>/cage/markers/<int:marker>/payments/", cage.MarkerPayments.as_view()),
    path("cardrooms/<int:pk>/cage/currency-exchange/", cage.CurrencyExchanges.as_view()),
    path("cardrooms/<int:pk>/cage/player-balances/", cage.PlayerBalances.as_view()),
    path("cardrooms/<int:pk>/cage/circulation/", cage.Circulation.as_view()),
    path("cardrooms/<int:pk>/cage/circulation/csv/", cage.CirculationCsv.as_view()),
    path("tables/<int:pk>/inventory/", cage.TableInventory.as_view()),
    path("tables/<int:pk>/slips/", cage.TableSlips.as_view()),
    path("tables/<int:pk>/drop-counts/", cage.TableDropCount.as_view()),
    path("slips/<int:pk>/", cage.SlipDetail.as_view()),
    path("slips/<int:pk>/prepare/", cage.SlipPrepare.as_view()),
    path("slips/<int:pk>/carry/", cage.SlipCarry.as_view()),
    path("slips/<int:pk>/dealer-sign/", cage.SlipDealerSign.as_view()),
    path("slips/<int:pk>/supervisor-sign/", cage.SlipSupervisorSign.as_view()),
    path("slips/<int:pk>/cage-receive/", cage.SlipCageReceive.as_view()),
    path("slips/<int:pk>/void/", cage.SlipVoid.as_view()),
    path("drop-counts/<int:pk>/sign-off/", cage.DropCountSignOff.as_view()),
    path("sessions/<int:pk>/late-closing-count/", cage.SessionLateClosingCount.as_view()),
    path("tables/<int:pk>/drop-boxes/", cage.TableDropBoxes.as_view()),
    path("drop-boxes/<int:pk>/steps/", cage.DropBoxSteps.as_view()),
    path("drop-counts/<int:pk>/corrections/", cage.DropCountCorrections.as_view()),
    path("cardrooms/<int:pk>/count-sheet/", cage.CountSheet.as_view()),
    path("cardrooms/<int:pk>/discrepancies/", cage.Discrepancies.as_view()),
    path("cardrooms/<int:pk>/cage-controls/", cage.CageControls.as_view()),
    path("exports/<int:pk>/retry/", compliance.ExportRetry.as_view()),
]


def _known_ids_only(view: Callable[..., HttpResponseBase]) -> Callable[..., HttpResponseBase]:
    """An id in the path past MAX_ID names nothing: 404, before any database is asked (SQLite
    cannot even be: its driver raises OverflowError, which would be a 500)."""

    @wraps(view)  # keeps DRF's cls/initkwargs, which drf-spectacular reads
    def checked(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if any(isinstance(value, int) and value > MAX_ID for value in kwargs.values()):
            error = {"code": "not_found", "message": "Not found.", "field": None}
            return JsonResponse({"error": error}, status=404)
        return view(request, *args, **kwargs)

    return checked


for _pattern in urlpatterns:
    if "<int:" in str(_pattern.pattern):
        _pattern.callback = _known_ids_only(_pattern.callback)

# drf-spectacular serves its views to anybody by default (SERVE_PERMISSIONS: AllowAny); here,
# as everywhere in the API, only a signed-in user with a role reads them (deny by default).
_SIGNED_IN = [IsAuthenticated, RolePermission]

schema_urlpatterns = [
    path(
        "schema/",
        SpectacularAPIView.as_view(permission_classes=_SIGNED_IN),
        name="api-schema",
    ),
    path(
        "docs/",
        SpectacularSwaggerView.as_view(url_name="api-schema", permission_classes=_SIGNED_IN),
        name="api-docs",
    ),
]
