from django.http import HttpRequest

from core.roles import role_of


def role(request: HttpRequest) -> dict[str, str | None]:
    """The user's role on every page: the navigation depends on it."""
    user = getattr(request, "user", None)
    return {"role": role_of(user) if user is not None else None}
