from django.contrib import admin
from django.urls import include, path

from . import views
from .api.urls import schema_urlpatterns

admin.site.site_header = "Cardroom administration"
admin.site.site_title = "Cardroom"

urlpatterns = [
    path("", views.home, name="home"),
    path("health/", views.health, name="health"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("admin/", admin.site.urls),
    path("dealer/", include("wagers.urls")),
    path("floor/", include("tables.urls")),
    path("compliance/", include("audit.urls")),
    path("api/v1/", include("cardroom.api.urls")),
    path("api/", include(schema_urlpatterns)),
]
