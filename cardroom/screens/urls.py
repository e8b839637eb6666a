"""The server-rendered screens, one URL list per role's area."""

from django.urls import path

from . import (
    account,
    board,
    cage,
    cage_count,
    cage_sheets,
    cage_slips,
    cardroom_choice,
    cardroom_settings,
    cashier,
    compliance,
    dealer,
    dealer_slips,
    floor,
    floor_dealers,
    floor_hands,
    floor_paytables,
    floor_stream,
    floor_waitlist,
    home,
    law,
    law_exclusions,
    law_fincen,
    law_floor,
    law_persons,
    law_sar,
    ratings,
    staff,
)

home_patterns = [
    path("", home.home, name="home"),
    path("board/<int:pk>/", board.public_board, name="public-board"),
    path("cardroom/choose/", cardroom_choice.cardroom_choose, name="cardroom-choose"),
]

#: A person's own account; before Django's auth URLs, so that these win.
account_patterns = [
    path("setup/<str:uid>/<str:token>/", account.account_setup, name="account-setup"),
    path("me/", account.account_home, name="account-home"),
    path("password_change/", account.PasswordChange.as_view(), name="password_change"),
]

dealer_patterns = [
    path("", dealer.dealer_home, name="dealer-home"),
    path("tables/<int:pk>/", dealer.dealer_table, name="dealer-table"),
    # The fills and credits waiting for the table (before the steps: "slips" is no step).
    path("tables/<int:pk>/slips/", dealer_slips.slips_panel, name="dealer-slips"),
    path("tables/<int:pk>/play/", dealer.dealer_play, name="dealer-play"),
    path("tables/<int:pk>/slips/<int:slip>/sign/", dealer_slips.slip_sign, name="dealer-slip-sign"),
    path("tables/<int:pk>/<slug:step>/", dealer.dealer_step, name="dealer-step"),
]

floor_patterns = [
    path("", floor.table_list, name="floor-tables"),
    path("tables/new/", floor.table_create, name="floor-table-create"),
    path("dashboard/", floor.dashboard, name="floor-dashboard"),
    path("waitlist/", floor_waitlist.waitlist_page, name="floor-waitlist"),
    path("waitlist/<slug:action>/", floor_waitlist.waitlist_action, name="floor-waitlist-action"),
    # Server-sent events: "changed" when a table does (served by a threaded worker only).
    path("stream/", floor_stream.floor_stream, name="floor-stream"),
    path("tables/<int:pk>/", floor.table_detail, name="floor-table"),
    path("tables/<int:pk>/<slug:action>/", floor.table_action, name="floor-table-action"),
    path("hands/<int:pk>/", floor_hands.hand_detail, name="floor-hand"),
    path("paytables/", floor_paytables.paytable_catalogue, name="floor-paytables"),
    path("dealers/", floor_dealers.dealer_list, name="floor-dealers"),
    path("dealers/<slug:action>/", floor_dealers.dealer_action, name="floor-dealers-action"),
    path("staff/", staff.staff_list, name="floor-staff"),
    path("staff/<int:pk>/<slug:action>/", staff.staff_action, name="floor-staff-action"),
    path(
        "staff/changes/<int:pk>/<slug:action>/",
        staff.staff_change_action,
        name="floor-staff-change",
    ),
    path("paytables/<slug:action>/", floor_paytables.paytable_action, name="floor-paytable-action"),
    path("cardroom/", cardroom_settings.cardroom_settings, name="floor-cardroom"),
]

compliance_patterns = [
    path("", compliance.compliance_home, name="compliance-home"),
    path("audit/", compliance.audit_log, name="compliance-audit"),
    path("audit/verify/", compliance.verify, name="compliance-verify"),
    path("discrepancies/", cage_sheets.discrepancies_view, name="compliance-discrepancies"),
    path(
        "audit/checkpoint-problems/<int:pk>/acknowledge/",
        compliance.checkpoint_problem_acknowledge,
        name="compliance-checkpoint-problem-acknowledge",
    ),
    path("books/verify/", compliance.verify_books, name="compliance-verify-books"),
    path("state/verify/", compliance.verify_state, name="compliance-verify-state"),
    path("verifications/<int:pk>/", compliance.verification, name="compliance-verification"),
    path("reports/", compliance.report_view, name="compliance-reports"),
    path("players/<int:pk>/", compliance.player_view, name="compliance-player"),
    path("players/<int:pk>/ratings.csv", ratings.ratings_csv, name="compliance-player-ratings"),
    path("sessions/<int:pk>/value/", ratings.session_value, name="compliance-session-value"),
    path("exports/", compliance.export_view, name="compliance-exports"),
    path("exports/<int:pk>/", compliance.export_progress, name="compliance-export"),
    path("exports/<int:pk>/retry/", compliance.export_retry, name="compliance-export-retry"),
    path(
        "exports/<int:pk>/download/",
        compliance.export_download,
        name="compliance-export-download",
    ),
]

cage_patterns = [
    path("", cage.overview, name="cage-overview"),
    path("actions/<slug:action>/", cage.overview_action, name="cage-overview-action"),
    path("statistics.csv", cage.statistics_csv, name="cage-csv"),
    path("month/", cage.month_view, name="cage-month"),
    path("tables/<int:pk>/", cage.table_cage, name="cage-table"),
    path("tables/<int:pk>/<slug:action>/", cage.table_cage_action, name="cage-table-action"),
    path("slips/<int:pk>/print/", cage.slip_print, name="cage-slip-print"),
    path("count-sheet/", cage_sheets.count_sheet_view, name="cage-count-sheet"),
    path("controls/", cage_sheets.cage_controls_view, name="cage-controls"),
    path("slips/", cage_slips.cage_slips, name="cage-slips"),
    path("slips/<slug:action>/", cage_slips.cage_slip_action, name="cage-slip-action"),
]

cashier_patterns = [
    path("", cashier.cashier_home, name="cashier-home"),
    path("actions/<slug:action>/", cashier.cashier_action, name="cashier-action"),
    path("circulation.csv", cashier.circulation_csv, name="cashier-circulation-csv"),
]

count_patterns = [
    path("", cage_count.count_home, name="count-home"),
    path("record/", cage_count.count_record, name="count-record"),
    path("counts/<int:pk>/correct/", cage_count.count_correct, name="count-correct"),
]

# Players under the law: compliance's (screens.law), and the floor's incident log (law_floor).
law_compliance_patterns = [
    path("", law.law_home, name="law-home"),
    path("mtl.csv", law.cash_csv, {"kind": "mtl"}, name="law-mtl-csv"),
    path(
        "exclusion-actions.csv", law_exclusions.exclusion_actions, name="law-exclusion-actions-csv"
    ),
    path("ctrs.csv", law.cash_csv, {"kind": "ctr"}, name="law-ctr-csv"),
    path("ctrs/fincen-batch.xml", law_fincen.fincen_batch_xml, name="law-fincen-batch"),
    path("ctr-filer/", law_fincen.ctr_filer, name="law-ctr-filer"),
    path("ctr-filer/save/", law_fincen.ctr_filer_save, name="law-ctr-filer-save"),
    path("ctrs/<int:pk>/file/", law.ctr_file, name="law-ctr-file"),
    path("exclusions/import/", law.exclusion_import, name="law-exclusion-import"),
    path(
        "exclusions/imports/<int:pk>/",
        law.exclusion_import_progress,
        name="law-exclusion-import-progress",
    ),
    path("players/<int:pk>/", law.law_player, name="law-player"),
    path("players/<int:pk>/reveal/", law.law_player_reveal, name="law-player-reveal"),
    path("players/<int:pk>/reviews/", law.law_review_open, name="law-review-open"),
    path("reviews/<int:pk>/notes/", law.law_review_note, name="law-review-note"),
    # suspicious activity cases: compliance's alone (404 for everyone else)
    path("sar-cases/open/", law_sar.sar_open, name="law-sar-open"),
    path("sar-cases/<int:pk>/", law_sar.sar_case, name="law-sar-case"),
    path("sar-cases/<int:pk>/notes/", law_sar.sar_note, name="law-sar-note"),
    path("sar-cases/<int:pk>/decision/", law_sar.sar_decision, name="law-sar-decision"),
    path("person-matches/<int:pk>/resolve/", law_persons.match_resolve, name="law-match-resolve"),
]
law_floor_patterns = [
    path("incidents/", law_floor.incident_list, name="law-incidents"),
    path("incidents/report/", law_floor.incident_report, name="law-incident-report"),
    path(
        "incidents/<int:pk>/follow-up/", law_floor.incident_follow_up, name="law-incident-follow-up"
    ),
    path("exclusions/bar/", law_floor.exclusion_bar, name="law-exclusion-bar"),
    path("exclusions/", law_exclusions.exclusion_list, name="law-exclusions"),
    path(
        "exclusions/<int:pk>/end-proposal/",
        law_exclusions.exclusion_end_proposal,
        name="law-exclusion-end-proposal",
    ),
    path(
        "exclusion-end-changes/<int:pk>/<slug:action>/",
        law_exclusions.exclusion_end_decision,
        name="law-exclusion-end-decision",
    ),
    path(
        "incidents/<int:pk>/outcome/", law_exclusions.incident_outcome, name="law-incident-outcome"
    ),
    path("players/identity/", law_floor.identity_page, name="law-identity"),
    path("tables/<int:pk>/notice/", law_floor.table_notice, name="law-table-notice"),
    path("tables/<int:pk>/restart/", law_floor.game_restart_view, name="law-game-restart"),
]
