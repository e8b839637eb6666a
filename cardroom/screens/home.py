"""The landing page: each role starts on its own screens."""

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from core.roles import CASHIER, COMPLIANCE_AUDITOR, COUNT_TEAM, DEALER, FLOOR_SUPERVISOR, role_of

# Where each role starts.
_START = {
    FLOOR_SUPERVISOR: "floor-tables",
    DEALER: "dealer-home",
    COMPLIANCE_AUDITOR: "compliance-audit",
    COUNT_TEAM: "count-home",
    CASHIER: "cashier-home",
}


@login_required
def home(request: HttpRequest) -> HttpResponse:
    """Navigation by role: each role lands on its own screens."""
    role = role_of(request.user)
    if role in _START:
        return redirect(_START[role])
    return render(request, "home.html", {"role": role})
