"""``/api/docs/`` works with no internet: Swagger UI is served from the app's own static
files (drf-spectacular-sidecar), never a CDN; the admin's labels read well."""

from __future__ import annotations

import re

import pytest
from django.contrib.staticfiles import finders

from cage.models import SlipDelivery, VarianceSignOff
from tables.models import TableSettings

pytestmark = pytest.mark.django_db


def test_the_docs_page_loads_swagger_ui_from_the_app_itself(client, supervisor):
    client.force_login(supervisor)
    response = client.get("/api/docs/")
    assert response.status_code == 200
    page = response.content.decode()
    sources = re.findall(r'(?:src|href)="([^"]+)"', page)
    assert any("swagger-ui-bundle.js" in s for s in sources)
    assert not [s for s in sources if s.startswith(("http:", "https:", "//"))]
    # No CDN host named anywhere (the page's random CSRF token may spell "cdn" by chance).
    assert not re.search(r"\bcdn[\w-]*\.|unpkg\.com|jsdelivr", page.lower())
    for source in sources:
        if source.startswith("/static/"):
            assert finders.find(source.removeprefix("/static/")), source


def test_the_admin_names_models_as_people_read_them():
    assert TableSettings._meta.verbose_name_plural == "table settings"
    assert SlipDelivery._meta.verbose_name_plural == "slip deliveries"
    assert VarianceSignOff._meta.verbose_name == "variance sign-off"
