"""Every action the audit log records, in one place: grep for a name to find who writes it.

The values are what the chain stores and hashes; they never change (a changed value would be a
different action, and old events keep theirs).
"""

from django.db import models


class AuditAction(models.TextChoices):
    # Logins (audit.signals) and refusals of a role (the API and screens).
    AUTH_LOGIN = "auth.login"
    AUTH_LOGOUT = "auth.logout"
    AUTH_LOGIN_FAILED = "auth.login_failed"
    PERMISSION_REFUSED = "permission.refused"
    # The log's own alarms (audit.alarms): a checkpoint forged, changed or missing in the
    # database, and compliance's acknowledgement of it.
    CHECKPOINT_PROBLEM_FOUND = "audit.checkpoint_problem_found"
    CHECKPOINT_PROBLEM_ACKNOWLEDGED = "audit.checkpoint_problem_acknowledged"
    # Configuration and its governance (R17).
    CARDROOM_CREATED = "cardroom.created"
    CARDROOM_SHIFTS_SET = "cardroom.shifts_set"
    CARDROOM_DENOMINATIONS_SET = "cardroom.denominations_set"
    CARDROOM_CAGE_LIMIT_SET = "cardroom.cage_limit_set"
    CARDROOM_MINIMUM_AGE_SET = "cardroom.minimum_age_set"
    TABLE_CREATED = "table.created"
    # Staff accounts (tables.staff): made and given roles by an administrator, a floor
    # supervisor (dealers) or a two-person change; set up by their own person.
    STAFF_CREATED = "staff.created"
    STAFF_ROLE_SET = "staff.role_set"
    STAFF_DEACTIVATED = "staff.deactivated"
    STAFF_SETUP_LINK_ISSUED = "staff.setup_link_issued"
    STAFF_SET_UP = "staff.set_up"
    STAFF_CARDROOM_GRANTED = "staff.cardroom_granted"
    STAFF_CARDROOM_WITHDRAWN = "staff.cardroom_withdrawn"
    STAFF_PASSWORD_CHANGED = "staff.password_changed"
    STAFF_PIN_SET = "staff.pin_set"
    SIGNATURE_FAILED = "signature.failed"
    # Two-person changes (tables.two_person), whatever they change.
    TWO_PERSON_CHANGE_PROPOSED = "two_person.change_proposed"
    TWO_PERSON_CHANGE_APPROVED = "two_person.change_approved"
    TWO_PERSON_CHANGE_REJECTED = "two_person.change_rejected"
    TWO_PERSON_CHANGE_WITHDRAWN = "two_person.change_withdrawn"
    SETTING_CHANGE_PROPOSED = "table.settings.change_proposed"
    SETTING_CHANGE_APPROVED = "table.settings.change_approved"
    SETTING_CHANGE_REJECTED = "table.settings.change_rejected"
    SETTING_CHANGE_WITHDRAWN = "table.settings.change_withdrawn"
    # A cardroom's catalogue of approved paytables (R17, game-math.md).
    PAYTABLE_CATALOGUE_SEEDED = "paytables.catalogue_seeded"
    PAYTABLE_CHANGE_PROPOSED = "paytables.change_proposed"
    PAYTABLE_CHANGE_APPROVED = "paytables.change_approved"
    PAYTABLE_CHANGE_REJECTED = "paytables.change_rejected"
    PAYTABLE_CHANGE_WITHDRAWN = "paytables.change_withdrawn"
    SELF_APPROVAL_CHANGE_PROPOSED = "cardroom.self_approval.change_proposed"
    SELF_APPROVAL_CHANGE_APPROVED = "cardroom.self_approval.change_approved"
    SELF_APPROVAL_CHANGE_REJECTED = "cardroom.self_approval.change_rejected"
    SELF_APPROVAL_CHANGE_WITHDRAWN = "cardroom.self_approval.change_withdrawn"
    # Table sessions.
    TABLE_OPENED = "table.opened"
    TABLE_CLOSED = "table.closed"
    TABLE_DEALER_CHANGED = "table.dealer_changed"
    # Dealers' shifts (tables.services.dealer_shifts): clock-in and out, a dealer put on a
    # table, a push (one event for every move it makes), breaks, the rotation's settings.
    DEALER_CLOCKED_IN = "dealer.clocked_in"
    DEALER_CLOCKED_OUT = "dealer.clocked_out"
    DEALER_ASSIGNED = "dealer.assigned"
    DEALER_PUSHED = "dealer.pushed"
    DEALER_BREAK_STARTED = "dealer.break_started"
    DEALER_BREAK_ENDED = "dealer.break_ended"
    CARDROOM_DEALER_ROTATION_SET = "cardroom.dealer_rotation_set"
    CARDROOM_WAITLIST_TIMING_SET = "cardroom.waitlist_timing_set"
    # Players, seats and stacks.
    PLAYER_CREATED = "player.created"
    SEAT_TAKEN = "seat.taken"
    SEAT_LEFT = "seat.left"
    SEAT_SAT_OUT = "seat.sat_out"
    SEAT_CAME_BACK = "seat.came_back"
    SEAT_DP_WAIVED = "seat.dp_waived"
    SEAT_DP_WAIVER_ENDED = "seat.dp_waiver_ended"
    SEAT_PROPOSITION_FLAGGED = "seat.proposition_flagged"
    SEAT_PROPOSITION_UNFLAGGED = "seat.proposition_unflagged"
    # An exclusion matched the seated player: the seat is held (wagers.services.holds).
    SEAT_HELD = "seat.held"
    STACK_BUY_IN = "stack.buy_in"
    STACK_ADD_ON = "stack.add_on"
    STACK_CASH_OUT = "stack.cash_out"
    STACK_WAGER = "stack.wager"
    STACK_DP_BANK = "stack.dp_bank"
    # The waitlist (tables.services.waitlist): its lists, their order, seat calls, seat changes.
    WAITLIST_OPENED = "waitlist.opened"
    WAITLIST_JOINED = "waitlist.joined"
    WAITLIST_ARRIVED = "waitlist.arrived"
    WAITLIST_LEFT = "waitlist.left"
    WAITLIST_EXPIRED = "waitlist.expired"
    WAITLIST_REORDERED = "waitlist.reordered"
    WAITLIST_CALLED = "waitlist.called"
    WAITLIST_CALL_PASSED = "waitlist.call_passed"
    WAITLIST_SEATED = "waitlist.seated"
    SEAT_CHANGED = "seat.changed"
    # The designated-player rotation (R16) and hands (R5–R15).
    ROTATION_OFFERED = "rotation.offered"
    HAND_STARTED = "hand.started"
    HAND_WAGER_PLACED = "hand.wager_placed"
    HAND_DEALT = "hand.dealt"
    HAND_DECISION = "hand.decision"
    HAND_SPOT_DEAD = "hand.spot_dead"
    HAND_CANCELLED = "hand.cancelled"
    # A held player's wagers of a hand not yet dealt, taken back onto the stack.
    HAND_WAGERS_WITHDRAWN = "hand.wagers_withdrawn"
    HAND_DP_BANK_SET = "hand.dp_bank_set"
    HAND_MISDEAL = "hand.misdeal"
    HAND_SETTLED = "hand.settled"
    HAND_CORRECTED = "hand.corrected"
    # The cage (table inventory, fills and credits, drop and count, shift and day close).
    INVENTORY_COUNTED = "cage.inventory_counted"
    SLIP_REQUESTED = "cage.slip_requested"
    SLIP_DELIVERED = "cage.slip_delivered"
    SLIP_VOIDED = "cage.slip_voided"
    SLIP_PRINTED = "cage.slip_printed"
    SLIP_STEP_SIGNED = "cage.slip_step_signed"
    SLIP_ORIGINAL_FOUND = "cage.slip_original_found"
    DROP_COUNTED = "cage.drop_counted"
    DROP_VARIANCE_SIGNED_OFF = "cage.drop_variance_signed_off"
    SHIFT_CLOSED = "cage.shift_closed"
    GAMING_DAY_CLOSED = "cage.gaming_day_closed"
    # The cage as a department (cage.services.cashier, cage_ledger, cashier_sales).
    CAGE_OPENED = "cage.opened"
    CAGE_HANDED_OVER = "cage.handed_over"
    CAGE_CLOSED = "cage.closed"
    CAGE_ENTRY_RECORDED = "cage.entry_recorded"
    CHIPS_ISSUED = "cage.chips_issued"
    # A player's money at the cage (cage.services.player_accounts, markers).
    PLAYER_ACCOUNT_DEPOSIT = "cage.account_deposit"
    PLAYER_ACCOUNT_WITHDRAWAL = "cage.account_withdrawal"
    MARKER_ISSUED = "cage.marker_issued"
    MARKER_PAID = "cage.marker_paid"
    CURRENCY_EXCHANGED = "cage.currency_exchanged"
    # Drop boxes and their custody, corrections of a count, variances found, the controls.
    DROP_BOX_ISSUED = "cage.drop_box_issued"
    DROP_BOX_STEP = "cage.drop_box_step"
    DROP_COUNT_CORRECTED = "cage.drop_count_corrected"
    VARIANCE_FOUND = "cage.variance_found"
    CAGE_CONTROLS_SET = "cardroom.cage_controls_set"
    # Compliance.
    EXPORT_REQUESTED = "export.requested"
    # Players under the law (patrons): identity, cash reporting, exclusions, reviews.
    PLAYER_IDENTITY_RECORDED = "player.identity_recorded"
    PLAYER_IDENTITY_REVEALED = "player.identity_revealed"
    # One person however many records (patrons.persons).
    PLAYER_LINKED = "person.records_linked"
    PERSON_MATCH_RAISED = "person.match_raised"
    PERSON_MATCH_RESOLVED = "person.match_resolved"
    CASH_POLICY_SET = "cash.policy_set"
    CASH_AT_CAGE = "cash.cage_transaction"
    CTR_CREATED = "cash.ctr_created"
    CTR_FILED = "cash.ctr_filed"
    CTR_AMENDED = "cash.ctr_amended"
    # FinCEN's CTR batch: who files it (compliance's setting), and each download of a batch.
    CTR_FILER_SET = "cash.ctr_filer_set"
    CTR_BATCH_EXPORTED = "cash.ctr_batch_exported"
    CTR_MERGED = "cash.ctr_merged"  # two records' CTRs of a day, linked to one person
    STRUCTURING_FLAGGED = "cash.structuring_flagged"
    EXCLUSION_ADDED = "exclusion.added"
    EXCLUSION_ENDED = "exclusion.ended"
    EXCLUSION_LIST_IMPORTED = "exclusion.list_imported"
    EXCLUSION_MATCHED = "exclusion.matched"
    PLAYER_UNDER_AGE_REFUSED = "player.under_age_refused"
    EXCLUSION_NAME_ALERT = "exclusion.name_alert"
    EXCLUSION_ACTIONS_EXPORTED = "exclusion.actions_exported"
    EXCLUSION_END_PROPOSED = "exclusion.end_proposed"
    EXCLUSION_END_APPROVED = "exclusion.end_approved"
    EXCLUSION_END_REJECTED = "exclusion.end_rejected"
    EXCLUSION_END_WITHDRAWN = "exclusion.end_withdrawn"
    REVIEW_OPENED = "review.opened"
    REVIEW_NOTED = "review.noted"
    # Suspicious activity cases (patrons.sar_cases): compliance's alone, every look recorded;
    # the log hides ``sar.*`` from everyone else (``SAR_PREFIX``).
    SAR_OPENED = "sar.opened"
    SAR_NOTED = "sar.noted"
    SAR_DECIDED = "sar.decided"
    SAR_LISTED = "sar.listed"
    SAR_VIEWED = "sar.viewed"
    INCIDENT_REPORTED = "incident.reported"
    INCIDENT_FOLLOWED_UP = "incident.followed_up"
    INCIDENT_OUTCOME_RECORDED = "incident.outcome_recorded"
    # R16 (2026): a failed rotation window ends the game until a supervisor restarts it.
    GAME_STOPPED = "rotation.game_stopped"
    GAME_RESTARTED = "rotation.game_restarted"
    # A table's card-reading shuffler or shoe (tables.services.devices) and the hands it
    # reports (wagers.services.shuffler): a dealt one is ``hand.dealt``, a refused one this.
    DEVICE_REGISTERED = "device.registered"
    DEVICE_TOKEN_ROTATED = "device.token_rotated"
    DEVICE_REVOKED = "device.revoked"
    DEVICE_REPORT_REFUSED = "device.report_refused"
    EXPORT_RETRIED = "export.retried"


#: The actions of suspicious activity cases: the audit log shows them to compliance alone.
SAR_PREFIX = "sar."
