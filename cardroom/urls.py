"""The project's URLs: the screens, the API and its schema, health, admin."""

from django.contrib import admin
from django.urls import include, path

from .api.urls import schema_urlpatterns
from .health import health
from .screens.urls import (
    cage_patterns,
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
    path("health/", health, name="health"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("admin/", admin.site.urls),
    path("dealer/", include(dealer_patterns)),
    path("floor/", include(law_floor_patterns)),
    path("floor/", include(floor_patterns)),
    path("compliance/law/", include(law_compliance_patterns)),
    path("compliance/", include(compliance_patterns)),
    path("cage/", include(cage_patterns)),
    path("count/", include(count_patterns)),
    path("api/v1/", include("cardroom.api.urls")),
    path("api/", include(schema_urlpatterns)),
]
