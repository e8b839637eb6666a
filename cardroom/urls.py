"""The project's URLs: the screens, the API and its schema, health, admin."""

from django.contrib import admin
from django.urls import include, path

from . import health
from .api import errors
from .api.urls import schema_urlpatterns
from .screens.urls import (
    account_patterns,
    cage_patterns,
    cashier_patterns,
    compliance_patterns,
    count_patterns,
    dealer_patterns,
    floor_patterns,
    home_patterns,
    law_compliance_patterns,
    law_floor_patterns,
)

admin.site.site_header = "Cardroom administration"
admin.site.site_title = "Cardroom"

urlpatterns = [
    path("", include(home_patterns)),
    path("health/", health.ready, name="health"),  # readiness, as before
    path("health/live/", health.live, name="health-live"),
    path("health/ready/", health.ready, name="health-ready"),
    path("health/deps/", health.deps, name="health-deps"),
    path("accounts/", include(account_patterns)),
    path("accounts/", include("django.contrib.auth.urls")),
    path("admin/", admin.site.urls),
    path("dealer/", include(dealer_patterns)),
    path("floor/", include(law_floor_patterns)),
    path("floor/", include(floor_patterns)),
    path("compliance/law/", include(law_compliance_patterns)),
    path("compliance/", include(compliance_patterns)),
    path("cage/", include(cage_patterns)),
    path("count/", include(count_patterns)),
    path("cashier/", include(cashier_patterns)),
    path("api/v1/", include("cardroom.api.urls")),
    path("api/", include(schema_urlpatterns)),
]

# Under /api/, errors Django answers itself (an unknown URL, a body too large, a crash) take the
# API's one shape too; elsewhere Django's pages.
handler400 = errors.handler400
handler403 = errors.handler403
handler404 = errors.handler404
handler500 = errors.handler500
