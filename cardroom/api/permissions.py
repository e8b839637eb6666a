"""Deny by default: each view names the roles that may read it and the roles that may write."""

from rest_framework.permissions import SAFE_METHODS, BasePermission

from cardroom.kernel.roles import COMPLIANCE_AUDITOR, DEALER, FLOOR_SUPERVISOR, role_of

EVERY_ROLE = (FLOOR_SUPERVISOR, DEALER, COMPLIANCE_AUDITOR)


class RolePermission(BasePermission):
    """``read_roles`` for GET/HEAD/OPTIONS (default: every role), ``write_roles`` for the rest
    (default: nobody). Services check their own rules on top (a dealer at their own table)."""

    message = "Your role does not allow this."

    def has_permission(self, request, view) -> bool:
        if not hasattr(view, request.method.lower()):
            return True  # answered 405 by the view, whoever asks
        role = role_of(request.user)
        if request.method in SAFE_METHODS:
            return role in getattr(view, "read_roles", EVERY_ROLE)
        return role in getattr(view, "write_roles", ())
