"""The server-rendered screens, one URL list per role's area."""

from django.urls import path

from . import cage, compliance, dealer, floor, home

home_patterns = [path("", home.home, name="home")]

dealer_patterns = [
    path("", dealer.dealer_home, name="dealer-home"),
    path("tables/<int:pk>/", dealer.dealer_table, name="dealer-table"),
    path("tables/<int:pk>/<slug:step>/", dealer.dealer_step, name="dealer-step"),
]

floor_patterns = [
    path("", floor.table_list, name="floor-tables"),
    path("tables/new/", floor.table_create, name="floor-table-create"),
    path("tables/<int:pk>/", floor.table_detail, name="floor-table"),
    path("tables/<int:pk>/<slug:action>/", floor.table_action, name="floor-table-action"),
    path("hands/<int:pk>/", floor.hand_detail, name="floor-hand"),
    path("paytables/", floor.paytable_catalogue, name="floor-paytables"),
    path("paytables/<slug:action>/", floor.paytable_action, name="floor-paytable-action"),
]

compliance_patterns = [
    path("", compliance.compliance_home, name="compliance-home"),
    path("audit/", compliance.audit_log, name="compliance-audit"),
    path("audit/verify/", compliance.verify, name="compliance-verify"),
    path("reports/", compliance.report_view, name="compliance-reports"),
    path("players/<int:pk>/", compliance.player_view, name="compliance-player"),
    path("exports/", compliance.export_view, name="compliance-exports"),
    path("exports/<int:pk>/", compliance.export_progress, name="compliance-export"),
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
]

count_patterns = [
    path("", cage.count_home, name="count-home"),
    path("record/", cage.count_record, name="count-record"),
]
