"""What the browser tests share: signing in through the login form, as a person does."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect


def log_in(page: Page, base: str, username: str, password: str) -> None:
    """Sign in at ``base`` through the login form and wait to have left it."""
    page.goto(f"{base}/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()
    expect(page).not_to_have_url(re.compile(r"/accounts/login/"))
