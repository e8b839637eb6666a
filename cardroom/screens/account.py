"""A person's own account: the one-time set-up link where a new account's person chooses its
password, the signing PIN, and the password change — enforced at the sign-in after someone
else chose the password (``PasswordChangeDueMiddleware``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import PasswordChangeForm
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.http.response import HttpResponseBase
from django.shortcuts import redirect, render
from django.urls import reverse

from core.roles import role_of
from tables import setup_links, signatures

from .base import call_service
from .forms.staff import AccountSetUpForm, PinForm

#: The session's note that this person's password change is due (read once per session).
DUE = "cardroom_password_change_due"


def account_setup(request: HttpRequest, uid: str, token: str) -> HttpResponseBase:
    """The new account's person chooses its password (and maybe a PIN) through the link."""
    user = setup_links.account_of_link(uid)
    usable = user is not None and setup_links.setup_tokens.check_token(user, token)
    if user is None or not usable:
        return render(request, "registration/setup.html", {"expired": True}, status=410)
    form = AccountSetUpForm(user, request.POST or None)
    if request.method == "POST" and form.is_valid():
        done = call_service(
            request,
            form,
            lambda: setup_links.account_set_up(
                user=user,
                token=token,
                password=form.cleaned_data["new_password1"],
                pin=form.cleaned_data["pin"],
            ),
            fields={"password": "new_password1"},
        )
        if done:
            messages.success(request, "Your account is ready: sign in with your new password.")
            return redirect("login")
    status = 422 if form.errors else 200
    context: dict[str, Any] = {"form": form, "person": user}
    return render(request, "registration/setup.html", context, status=status)


@login_required
def account_home(request: HttpRequest) -> HttpResponseBase:
    """Who you are, your role, and your signing PIN."""
    user = request.user
    assert isinstance(user, User)
    form = PinForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        done = call_service(
            request,
            form,
            lambda: signatures.pin_set(
                user=user,
                password=form.cleaned_data["password"],
                pin=form.cleaned_data["pin"],
                by=user,
            ),
        )
        if done:
            messages.success(request, "Your signing PIN is set.")
            return redirect("account-home")
    profile = signatures.profile_of(user)
    context: dict[str, Any] = {"form": form, "profile": profile, "role": role_of(user)}
    return render(request, "registration/account.html", context, status=422 if form.errors else 200)


class PasswordChange(auth_views.PasswordChangeView):
    """Django's password change, which also records that no change is due any more."""

    template_name = "registration/password_change.html"
    form_class = PasswordChangeForm

    def form_valid(self, form: PasswordChangeForm) -> HttpResponse:
        answer = super().form_valid(form)
        setup_links.password_changed(user=form.user)
        self.request.session[DUE] = {"user": form.user.pk, "due": False}
        messages.success(self.request, "Your password is changed.")
        return answer

    def get_success_url(self) -> str:
        return reverse("home")


Handler = Callable[[HttpRequest], HttpResponseBase]

#: What a person whose password change is due may still open.
_OPEN = ("/accounts/password_change/", "/accounts/logout/", "/static/")


class PasswordChangeDueMiddleware:
    """A person whose password someone else chose changes it before anything else: every
    screen but the password change (and logging out) sends them there; the API refuses."""

    def __init__(self, get_response: Handler) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        user = getattr(request, "user", None)
        if user is None or not user.is_authenticated or not hasattr(request, "session"):
            return self.get_response(request)
        noted = request.session.get(DUE)
        if not isinstance(noted, dict) or noted.get("user") != user.pk:
            noted = {"user": user.pk, "due": setup_links.password_change_due(user)}
            request.session[DUE] = noted
        if noted["due"] and not request.path.startswith(_OPEN):
            if request.path.startswith("/api/"):
                error = {
                    "code": "password_change_required",
                    "field": None,
                    "message": "Change your password first, at /accounts/password_change/.",
                }
                return JsonResponse({"error": error}, status=403)  # fmt: skip
            messages.info(request, "Someone else chose your password: choose your own now.")
            return redirect("password_change")
        return self.get_response(request)
