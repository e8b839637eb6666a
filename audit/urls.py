from django.urls import path

from . import views

urlpatterns = [
    path("", views.compliance_home, name="compliance-home"),
    path("audit/", views.audit_log, name="compliance-audit"),
    path("audit/verify/", views.verify, name="compliance-verify"),
    path("reports/", views.report_view, name="compliance-reports"),
    path("players/<int:pk>/", views.player_view, name="compliance-player"),
    path("exports/", views.export_view, name="compliance-exports"),
    path("exports/<int:pk>/", views.export_progress, name="compliance-export"),
    path("exports/<int:pk>/download/", views.export_download, name="compliance-export-download"),
]
