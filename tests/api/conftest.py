"""The world the API tests talk to: a cardroom, a designated-player table and house-banked
tables open with the dealer persona on duty, players seated with chips, and hands in each
state — all made through the services, as the floor supervisor and the dealer would make them.

Everything is built lazily, on first use, so a test pays only for what it touches: the
authorization matrix builds a fresh world for each of its rows.
"""

from __future__ import annotations

import dataclasses
import uuid
from datetime import date, timedelta
from decimal import Decimal
from functools import cached_property
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from knox.models import AuthToken
from rest_framework.test import APIClient

from audit import alarms
from audit.services import checkpoint_problems_record
from cage import services as cage
from compliance import exports, verifications
from compliance import services as compliance_services
from compliance.models import Export, VerificationRun
from core.roles import CASHIER, COUNT_TEAM, DEALER, FLOOR_SUPERVISOR
from patrons import cash, exclusions, incidents, reviews, sar_cases
from patrons.ctr_filer import FilerInput, ctr_filer_set
from patrons.ctr_person import CtrPerson
from patrons.identity import IdentityInput, identity_record
from patrons.models import CurrencyTransactionReport, PersonMatch
from patrons.state_list_imports import state_list_import_request
from patrons.state_list_runs import state_list_import_run
from tables import catalogue, selectors, staff
from tables.models import GameStop, Seating, Table, TableSession
from tables.services.cardrooms import cardroom_create
from tables.services.configuration import table_create
from tables.services.devices import device_register
from tables.services.exclusion_ends import exclusion_end_propose
from tables.services.seat_calls import waitlist_call
from tables.services.seating import player_create, seat_player
from tables.services.self_approval import self_approval_change_propose
from tables.services.sessions import table_open
from tables.services.setting_changes import setting_change_propose
from tables.services.waitlist import waitlist_join, waitlist_open
from tables.staff_models import SettingChange
from tests.cage_books import slip_prepared
from tests.conftest import signed
from tests.racks import rack_opening_count
from wagers import services as wagers
from wagers.models import Hand

BUY_IN = "1000"
DP_SEATS = (1, 2, 4)  # seat 3 and seats 5-7 stay empty
HOUSE_SEATS = (1, 2)

# Hands that never share a card (R1).
DEALER_CARDS = "Ks 9s 4s 2c 7h 8c 3c"  # spades K-9-4: qualifies (R4)
WINNER_CARDS = "Ah Th 6h 2h Jd 5c 9c"  # hearts A-T-6-2: beats the dealer
LOSER_CARDS = "Qd 8d 5d As 6c 4h 3s"  # diamonds Q-8-5: loses to the dealer
# The dealer's hand as corrected: 4d for 4s leaves a two-card flush, which does not qualify.
CORRECTED_DEALER_CARDS = "Ks 9s 4d 2c 7h 8c 3c"

IDENTITY = IdentityInput(
    date_of_birth=date(1980, 5, 17),
    id_type="driver_licence",
    id_number="D1234567",
    id_issuer="California",
    id_expires=date(2031, 5, 17),
)

CTR_PERSON = CtrPerson(
    last_name="Filed",
    first_name="Fay",
    street="9 Pier Road",
    city="Oakland",
    state="CA",
    zip_code="94607",
    tin="987654321",
    tin_type="ssn",
    occupation="Nurse",
)
CTR_FILER = FilerInput(
    legal_name="World Card Club LLC",
    ein="943456789",
    street="1 Market Street",
    city="San Francisco",
    state="CA",
    zip_code="94105",
    contact_office="Compliance Office",
    phone="4155550100",
    transmitter_contact="Cara Comply",
    transmitter_tcc="PWRLD001",
)

#: A hand's states, in the order a hand goes through them ("ready": every spot has decided).
STATES = ("open", "wagering", "dealt", "ready", "settled")


#: The world's cage at opening: $4,600 in chips, $10,000 in cash.
CAGE_CHIPS = {"1": 100, "5": 100, "25": 80, "100": 20}
CAGE_CASH = {"100": 100}


class World:
    """Lazily built objects, by name. ``world["dp_table"]`` is an id, for URLs and bodies."""

    def __init__(self, **people: User) -> None:
        self.supervisor = people["supervisor"]
        self.second_supervisor = people["second_supervisor"]
        self.dealer = people["dealer"]
        self.other_dealer = people["other_dealer"]
        self.auditor = people["auditor"]
        self.counter = people.get("counter")
        self.second_counter = people.get("second_counter")
        self.cashier = people.get("cashier")
        self.administrator = people["administrator"]
        self.second_administrator = people["second_administrator"]

    def __getitem__(self, name: str) -> Any:
        value = getattr(self, name)
        return value.pk if hasattr(value, "pk") else value

    # --- tables, seats, players -------------------------------------------------------------

    @cached_property
    def cardroom(self):
        return cardroom_create(name="API Cardroom", by=self.administrator)

    def table(
        self, name: str, *, banking: str = "designated_player", seats=DP_SEATS, open_it=True
    ) -> Table:
        table = table_create(cardroom=self.cardroom, name=name, banking=banking, by=self.supervisor)
        if open_it:
            table_open(table=table, dealer=self.dealer, by=self.supervisor)
            if banking == "house":
                rack_opening_count(table, by=self.supervisor)
        for number in seats:
            self.seat(table, number)
        return table

    def seat(self, table: Table, number: int, *, buy_in: str = BUY_IN) -> Seating:
        player = player_create(
            cardroom=self.cardroom, name=f"{table.name} player {number}", by=self.dealer
        )
        return seat_player(table=table, seat=number, player=player, buy_in=buy_in, by=self.dealer)

    @cached_property
    def dp_table(self) -> Table:
        """A designated-player table, open, players at seats 1, 2 and 4; no hand yet."""
        return self.table("DP table")

    @cached_property
    def house_table(self) -> Table:
        """A house-banked table, open, players at seats 1 and 2; no hand yet."""
        return self.table("House table", banking="house", seats=HOUSE_SEATS)

    @cached_property
    def closed_table(self) -> Table:
        return self.table("Closed table", seats=(), open_it=False)

    @cached_property
    def seating(self) -> Seating:
        """The player at seat 1 of the DP table (in no hand)."""
        return Seating.objects.get(table=self.dp_table, seat=1, left_at=None)

    @cached_property
    def player(self):
        return self.seating.player

    @cached_property
    def new_player(self):
        """A player of the cardroom who sits nowhere yet."""
        return player_create(cardroom=self.cardroom, name="Walk-in", by=self.dealer)

    # --- the waitlist ---------------------------------------------------------------------------

    @cached_property
    def waitlist(self):
        """The list of the DP table's game, with one player waiting (``waiting_entry``)."""
        return waitlist_open(
            cardroom=self.cardroom,
            banking="designated_player",
            ante_min=selectors.current_settings(self.dp_table).ante_min,
            ante_max=selectors.current_settings(self.dp_table).ante_max,
            by=self.supervisor,
        )

    @cached_property
    def waiting_entry(self):
        return waitlist_join(waitlist=self.waitlist, name="Wren Lister", by=self.supervisor)

    @cached_property
    def phone_entry(self):
        """A player on the list by phone, after ``waiting_entry``, not here yet."""
        self.waiting_entry  # noqa: B018 - the list's first place is the waiting entry's
        return waitlist_join(
            waitlist=self.waitlist, name="Pia Phone", phone=True, by=self.supervisor
        )

    @cached_property
    def called_entry(self):
        """A player called to seat 3 of the DP table (empty), within the call's minutes."""
        entry = waitlist_join(waitlist=self.waitlist, name="Cal Called", by=self.supervisor)
        return waitlist_call(table=self.dp_table, seat=3, entry=entry, by=self.supervisor)

    # --- R17's self-approval switch (administrators) -----------------------------------------

    @cached_property
    def switch(self):
        """Pending, proposed by the second administrator: the administrator may decide it."""
        cardroom = cardroom_create(name="Switch Cardroom", by=self.administrator)
        return self_approval_change_propose(
            cardroom=cardroom, allowed=True, reason="Nights", by=self.second_administrator
        )

    @cached_property
    def own_switch(self):
        """Pending, proposed by the administrator: only another administrator approves it."""
        cardroom = cardroom_create(name="Own Switch Cardroom", by=self.administrator)
        return self_approval_change_propose(
            cardroom=cardroom, allowed=True, reason="Nights", by=self.administrator
        )

    # --- setting changes --------------------------------------------------------------------

    @cached_property
    def change(self) -> SettingChange:
        """Pending, proposed by the *second* supervisor: the supervisor may decide it."""
        return setting_change_propose(
            table=self.dp_table,
            values={"ante_max": "50"},
            reason="Quiet night",
            by=self.second_supervisor,
        )

    @cached_property
    def own_change(self) -> SettingChange:
        """Pending, proposed by the supervisor: only they may withdraw it, and only another
        supervisor may approve it (R17 dual control)."""
        return setting_change_propose(
            table=self.dp_table, values={"ante_max": "60"}, reason="Busy night", by=self.supervisor
        )

    # --- staff accounts and their two-person changes ------------------------------------------

    @cached_property
    def staff_member(self) -> User:
        """A dealer's account the supervisor made, not yet set up by its person."""
        link = staff.staff_create(
            username="newdealer", first_name="Nia", last_name="Wells", role=DEALER,
            by=self.supervisor,
        )  # fmt: skip
        return link.user

    @cached_property
    def staff_change(self):
        """Pending, proposed by the *second* supervisor: the supervisor may decide it."""
        return staff.staff_account_propose(
            username="newfloor", first_name="Noor", last_name="Haddad", role=FLOOR_SUPERVISOR,
            reason="A third supervisor for nights", by=self.second_supervisor,
        )  # fmt: skip

    @cached_property
    def own_staff_change(self):
        """Pending, proposed by the supervisor: only they withdraw it; another approves."""
        return staff.staff_role_propose(
            user=self.staff_member, role=COUNT_TEAM, reason="Moves to the count room",
            by=self.supervisor,
        )  # fmt: skip

    # --- the catalogue of approved paytables (R17) -------------------------------------------

    def paytable_proposal(self, lines: dict, by: User):
        return catalogue.paytable_change_propose(
            cardroom=self.cardroom, kind="flush_paytable", lines=lines, reason="Promo", by=by
        )

    @cached_property
    def paytable_change(self):
        """Pending, proposed by the *second* supervisor: the supervisor may decide it."""
        return self.paytable_proposal({"4": 2, "5": 10, "6": 20, "7": 100}, self.second_supervisor)

    @cached_property
    def own_paytable_change(self):
        """Pending, proposed by the supervisor: only another supervisor may approve it."""
        return self.paytable_proposal({"4": 1, "5": 10, "6": 100, "7": 500}, self.supervisor)

    # --- hands, one per state, each at its own house-banked table ----------------------------

    def hand(self, state: str) -> Hand:
        """A hand in ``state`` (one of STATES) at a new house-banked table: seat 1 antes 10
        with a flush bonus and raises 10 on a winning hand; seat 2 antes 10 and folds."""
        table = self.table(f"House table ({state})", banking="house", seats=HOUSE_SEATS)
        hand = wagers.hand_start(table=table, by=self.dealer)
        steps = STATES[1 : STATES.index(state) + 1]
        if "wagering" in steps:
            for number, bonus in ((1, "5"), (2, "0")):
                wagers.wager_place(
                    hand=hand,
                    seating=table.seatings.get(seat=number, left_at=None),
                    ante="10",
                    flush_bonus=bonus,
                    by=self.dealer,
                )
        if "dealt" in steps:
            wagers.hand_cards_enter(
                hand=hand,
                dealer_cards=DEALER_CARDS,
                spot_cards={1: WINNER_CARDS, 2: LOSER_CARDS},
                by=self.dealer,
            )
        if "ready" in steps:
            wagers.spot_decide(
                hand=hand, seat=1, decision="raise", raise_amount="10", by=self.dealer
            )
            wagers.spot_decide(hand=hand, seat=2, decision="fold", by=self.dealer)
        if "settled" in steps:
            wagers.hand_settle(hand=hand, by=self.dealer)
        hand.refresh_from_db()
        return hand

    @cached_property
    def hand_open(self) -> Hand:
        return self.hand("open")

    @cached_property
    def hand_open_seating(self) -> Seating:
        """A player at the open hand's table, who has not wagered yet."""
        return self.hand_open.table.seatings.get(seat=1, left_at=None)

    @cached_property
    def hand_wagering(self) -> Hand:
        return self.hand("wagering")

    @cached_property
    def hand_dealt(self) -> Hand:
        return self.hand("dealt")

    @cached_property
    def hand_ready(self) -> Hand:
        """Every spot has decided: the hand can settle."""
        return self.hand("ready")

    @cached_property
    def hand_settled(self) -> Hand:
        return self.hand("settled")

    # --- players under the law ----------------------------------------------------------------

    @cached_property
    def identified_player(self):
        """A player of the cardroom with an identity on file, seated nowhere."""
        player = player_create(cardroom=self.cardroom, name="Ida Known", by=self.dealer)
        identity_record(player=player, identity=IDENTITY, by=self.supervisor)
        return player

    @cached_property
    def person_match(self):
        """A possible match: two records of one name, no date of birth on either."""
        player_create(cardroom=self.cardroom, name="Sam Twice", by=self.dealer)
        player_create(cardroom=self.cardroom, name="Sam Twice", by=self.dealer)
        return PersonMatch.objects.get(player__name="Sam Twice")

    @cached_property
    def open_cage(self):
        """The cage, opened by the cashier with its count, the floor supervisor witnessing."""
        return cage.cage_open(
            cardroom=self.cardroom,
            count=cage.CountGiven(chips=CAGE_CHIPS, cash=CAGE_CASH),
            signature=signed(self.cashier),
            witness=signed(self.supervisor),
            by=self.cashier,
        )

    @cached_property
    def marker(self):
        """A $1,000.00 marker the cashier issued the identified player in cash, unpaid."""
        self.open_cage  # noqa: B018 - the cage must be open to issue it
        return cage.marker_issue(
            player=self.identified_player, issued_as="cash", amount="1000", by=self.cashier
        )

    @cached_property
    def ctr(self):
        """The CTR of $10,000.01 in cash bought at the cage (over the federal line) yesterday:
        its gaming day is over, so compliance may file it."""
        player = self.identified_player
        with transaction.atomic():
            cash.cash_transaction_record(
                cardroom=player.cardroom,
                player=player,
                direction="in",
                amount=Decimal("10000.01"),
                place="cage",
                by=self.cashier,
                at=timezone.now() - timedelta(days=1),
            )
        return CurrencyTransactionReport.objects.get(player=player)

    @cached_property
    def fincen_ctr(self):
        """A CTR of yesterday's gaming day (ended: its FinCEN batch can be made), its person
        whole on the identity, and the cardroom's CTR filer set by compliance."""
        ctr_filer_set(cardroom=self.cardroom, filer=CTR_FILER, by=self.auditor)
        player = player_create(cardroom=self.cardroom, name="Fay Filed", by=self.dealer)
        identity = dataclasses.replace(IDENTITY, id_number="F7654321", person=CTR_PERSON)
        identity_record(player=player, identity=identity, by=self.supervisor)
        with transaction.atomic():
            cash.cash_transaction_record(
                cardroom=self.cardroom,
                player=player,
                direction="in",
                amount=Decimal("10000.01"),
                place="cage",
                by=self.cashier,
                at=timezone.now() - timedelta(days=1),
            )
        return CurrencyTransactionReport.objects.get(player=player)

    @cached_property
    def exclusion(self):
        entry = exclusions.ExclusionInput(
            kind="barred",
            name="Barry Barred",
            date_of_birth=date(1970, 1, 1),
            starts_on=date(2024, 1, 1),
            reason="Cheating",
        )
        return exclusions.exclusion_add(cardroom=self.cardroom, entry=entry, by=self.supervisor)

    @cached_property
    def restriction(self):
        """The cardroom's own self-restriction, recorded by the second supervisor."""
        entry = exclusions.ExclusionInput(
            kind="self_restricted",
            name="Sally Restricted",
            date_of_birth=date(1971, 2, 2),
            starts_on=date(2024, 1, 1),
            reason="Asked for",
        )
        return exclusions.exclusion_add(
            cardroom=self.cardroom, entry=entry, by=self.second_supervisor
        )

    @cached_property
    def house_bar(self):
        """A house bar recorded by the second supervisor: the supervisor may propose its end."""
        entry = exclusions.ExclusionInput(
            kind="barred",
            name="Harry Housebar",
            date_of_birth=date(1972, 3, 3),
            starts_on=date(2024, 1, 1),
            reason="Past-posting",
        )
        return exclusions.exclusion_add(
            cardroom=self.cardroom, entry=entry, by=self.second_supervisor
        )

    @cached_property
    def bar_end(self):
        """A house bar's end, proposed by the second supervisor: the supervisor decides it."""
        entry = exclusions.ExclusionInput(
            kind="barred",
            name="Lifted Bar",
            date_of_birth=date(1973, 4, 4),
            starts_on=date(2024, 1, 1),
            reason="Past-posting",
        )
        bar = exclusions.exclusion_add(
            cardroom=self.cardroom, entry=entry, by=self.second_supervisor
        )
        return exclusion_end_propose(
            exclusion=bar,
            ends_on=date(2024, 3, 1),
            reason="Ban lifted on appeal",
            by=self.second_supervisor,
        )

    @cached_property
    def exclusion_incident(self):
        return incidents.incident_report(
            cardroom=self.cardroom,
            kind="exclusion_match",
            summary="A barred player tried to redeem chips",
            by=self.dealer,
            exclusion=self.exclusion,
        )

    @cached_property
    def state_list_import(self):
        """A state list imported (run here, as the task would)."""
        job = state_list_import_request(
            text="kind,name,date_of_birth,starts_on\nbarred,Listed Once,1975-06-06,2024-01-01\n",
            source_name="State list 2024-02",
            by=self.auditor,
        )
        return state_list_import_run(job.pk)

    @cached_property
    def review(self):
        return reviews.review_open(
            player=self.identified_player, note="Cash just under the line", by=self.auditor
        )

    @cached_property
    def sar_case(self):
        """A suspicious activity case compliance opened by hand on the identified player."""
        opening = sar_cases.SarOpening(
            summary="Asked how to stay under the CTR", player=self.identified_player
        )
        return sar_cases.sar_case_open(cardroom=self.cardroom, opening=opening, by=self.auditor)

    @cached_property
    def incident(self):
        return incidents.incident_report(
            cardroom=self.cardroom, kind="dispute", summary="A raise disputed", by=self.dealer
        )

    @cached_property
    def checkpoint_problem(self):
        """A checkpoint problem (audit.alarms), acknowledged already: one outstanding would
        hold the world's day close back."""
        [problem] = checkpoint_problems_record(["checkpoint #1 of 2024-03-01 is refused"])
        alarms.checkpoint_problem_acknowledge(problem=problem, note="Seen", by=self.auditor)
        return problem

    @cached_property
    def stopped_table(self) -> Table:
        """An open table whose game R16 stopped (a failed rotation window)."""
        table = self.table("Stopped table", seats=())
        now = timezone.now()
        GameStop.objects.create(
            table=table,
            session=table.sessions.get(closed_at=None),
            stopped_at=now,
            window_start=now - timedelta(minutes=60),
            window_end=now,
            settings_version=1,
            window_minutes=60,
            holders=["Lone Holder"],
            hands=12,
        )
        return table

    @cached_property
    def device_registration(self):
        """The house table's shuffler, in service (the DP table has none: one may be
        registered there), with its token."""
        return device_register(
            table=self.house_table, make="Shufflex", model="HF-7", serial="SX-API",
            by=self.supervisor,
        )  # fmt: skip

    @cached_property
    def device(self):
        return self.device_registration.device

    @cached_property
    def device_headers(self) -> dict[str, str]:
        """What the world's shuffler signs its requests with."""
        return {"Authorization": f"Device {self.device_registration.token}"}

    # --- the cage ---------------------------------------------------------------------------

    @cached_property
    def slip(self):
        """A fill of $500 to the house table, requested by the second supervisor: the cashier
        prepares it."""
        return cage.slip_request(
            table=self.house_table, kind="fill", chips={"100": 5}, by=self.second_supervisor
        )

    @cached_property
    def prepared_slip(self):
        """A fill of $100 to the house table, prepared by the cashier: the dealer signs next."""
        slip = cage.slip_request(
            table=self.house_table, kind="fill", chips={"100": 1}, by=self.second_supervisor
        )
        slip_prepared(slip, self.cashier)
        return slip

    @cached_property
    def counted_slip(self):
        """A fill of $25 prepared and counted by the dealer: a floor supervisor signs next."""
        slip = cage.slip_request(
            table=self.house_table, kind="fill", chips={"25": 1}, by=self.second_supervisor
        )
        slip_prepared(slip, self.cashier)
        cage.slip_dealer_sign(slip=slip, signature=signed(self.dealer), by=self.dealer)
        return slip

    @cached_property
    def drop_count(self):
        """The DP table's drop box for the (past) day shift of 2024-03-01, counted $1 over."""
        return cage.drop_count_record(
            table=self.dp_table,
            gaming_day=date(2024, 3, 1),
            shift="day",
            cash={},
            chips={"1": 2},
            second_counter=signed(self.second_counter),
            by=self.counter,
        )

    @cached_property
    def drop_box(self):
        """The DP table's drop box for the day shift of 2024-03-03, issued, not yet moved."""
        return cage.drop_box_issue(
            table=self.dp_table, gaming_day=date(2024, 3, 3), shift="day", by=self.supervisor
        )

    @cached_property
    def uncounted_session(self) -> TableSession:
        """A house-banked table's session closed without its closing count, as the plain close
        once did (old data, written straight to the row): it takes a late closing count."""
        table = self.table("House table (closed uncounted)", banking="house", seats=())
        session = TableSession.objects.get(table=table, closed_at=None)
        TableSession.objects.filter(pk=session.pk).update(
            closed_at=timezone.now(), closed_by=self.supervisor
        )
        session.refresh_from_db()
        return session

    @cached_property
    def closed_shift(self):
        """The only shift of 2024-03-02 (a day without play), closed: the day may close."""
        return cage.shift_close(
            cardroom=self.cardroom,
            gaming_day=date(2024, 3, 2),
            shift="day",
            signature=signed(self.supervisor),
            by=self.supervisor,
        )

    # --- exports ----------------------------------------------------------------------------

    @cached_property
    def export(self) -> Export:
        """A finished audit-log export (built here: tests do not run on-commit tasks)."""
        now = timezone.now()
        export = compliance_services.export_request(
            kind=Export.Kind.AUDIT_LOG,
            start=now - timedelta(days=1),
            end=now + timedelta(days=1),
            by=self.auditor,
            cardroom=self.cardroom,
        )
        return exports.export_build(export.pk)

    @cached_property
    def chain_run(self) -> VerificationRun:
        """A finished verification of the audit chain (run here, as the task would)."""
        run = compliance_services.verification_request(kind="audit_chain", by=self.auditor)
        return verifications.verification_run(run.pk)

    @cached_property
    def books_run(self) -> VerificationRun:
        """A finished verification of the books."""
        run = compliance_services.verification_request(kind="books", by=self.auditor)
        return verifications.verification_run(run.pk)

    @cached_property
    def state_run(self) -> VerificationRun:
        """A finished verification of the compliance state."""
        run = compliance_services.verification_request(kind="state", by=self.auditor)
        return verifications.verification_run(run.pk)

    @cached_property
    def failed_export(self) -> Export:
        """An export whose build could not be queued (the broker was down): to be retried."""
        now = timezone.now()
        export = compliance_services.export_request(
            kind=Export.Kind.SETTLEMENTS,
            start=now - timedelta(days=1),
            end=now,
            by=self.auditor,
            cardroom=self.cardroom,
        )
        exports.export_mark_unqueued(export.pk, "OperationalError: connection refused")
        export.refresh_from_db()
        return export


@pytest.fixture
def cashier(make_user):
    """The cage's cashier: no table, stack or report of its own to read yet."""
    return make_user("cashier", role=CASHIER, first_name="Cy", last_name="Moss")


@pytest.fixture
def world(
    cashier,
    supervisor,
    second_supervisor,
    dealer,
    other_dealer,
    auditor,
    counter,
    second_counter,
    administrator,
    second_administrator,
) -> World:
    return World(
        cashier=cashier,
        supervisor=supervisor,
        second_supervisor=second_supervisor,
        dealer=dealer,
        other_dealer=other_dealer,
        auditor=auditor,
        counter=counter,
        second_counter=second_counter,
        administrator=administrator,
        second_administrator=second_administrator,
    )


class KeyedAPIClient(APIClient):
    """DRF's test client, sending a new Idempotency-Key with every POST unless the test sends
    its own, as a device does: the API refuses a money-moving POST without one (428). A test
    of that refusal uses DRF's plain ``APIClient``."""

    def post(self, path, data=None, format=None, content_type=None, follow=False, **extra):
        headers = dict(extra.pop("headers", None) or {})
        if "HTTP_IDEMPOTENCY_KEY" not in extra and not any(
            name.lower() == "idempotency-key" for name in headers
        ):
            headers["Idempotency-Key"] = uuid.uuid4().hex
        return super().post(
            path, data, format, content_type, follow=follow, headers=headers, **extra
        )


def token_for(user: User) -> str:
    """A new knox token for the user, as a device gets at login."""
    return AuthToken.objects.create(user)[1]


def token_client(user: User) -> APIClient:
    """A client that authenticates as a device does: ``Authorization: Token …`` (knox)."""
    client = KeyedAPIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_for(user)}")
    return client


@pytest.fixture
def api():
    """``api(user)``: a token-authenticated client; ``api(None)``: an anonymous one."""

    def make(user: User | None) -> APIClient:
        return KeyedAPIClient() if user is None else token_client(user)

    return make
