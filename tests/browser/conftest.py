"""Real-browser fixtures: Debian's Chromium driven by Playwright's sync API against
pytest-django's ``live_server``.

Every test here is marked ``browser`` (see ``pytestmark`` in each module).
"""

import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

# Playwright's sync loop stays running in this thread to session end: ORM calls would raise.
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "artifacts" / "screenshots"

# Headless and root-safe; the last four keep Chromium off the (closed) network.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

# A tablet in landscape, as on the dealer's stand.
VIEWPORT = {"width": 1024, "height": 768}


def _chromium_path() -> str | None:
    """``$CHROMIUM``, else Debian's /usr/bin/chromium, else (None) the Chromium that
    ``playwright install chromium`` downloaded — ``./dev test`` sees to one of them."""
    wanted = os.environ.get("CHROMIUM")
    found = shutil.which(wanted or "/usr/bin/chromium")
    if found or not wanted:
        return found
    pytest.fail(
        f"Chromium not found at {wanted!r}. Install it with: apt-get update && apt-get "
        "install -y chromium chromium-driver (./dev test and .ci/run do this when they can).",
        pytrace=False,
    )


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """One headless Chromium for the whole run."""
    executable = _chromium_path()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=executable, headless=True, args=CHROMIUM_ARGS
        )
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def new_page(browser: Browser) -> Iterator[Callable[[], Page]]:
    """``new_page()``: a page in a fresh browser context (cookies, storage: another person at
    another device), tablet-sized. Call it again for a second person in the same test.

    The test fails at teardown if the server answered any request with a 5xx (htmx requests
    included, whose errors a screen may not show) or a script on a page threw."""
    contexts: list[BrowserContext] = []
    problems: list[str] = []

    def open_page() -> Page:
        context = browser.new_context(viewport=VIEWPORT)
        context.set_default_timeout(10_000)
        contexts.append(context)
        page = context.new_page()
        page.on(
            "response",
            lambda response: (
                response.status >= 500
                and problems.append(
                    f"HTTP {response.status} {response.request.method} {response.url}"
                )
            ),
        )
        page.on("pageerror", lambda error: problems.append(f"script error: {error}"))
        return page

    try:
        yield open_page
    finally:
        for context in contexts:
            context.close()
    if problems:
        pytest.fail("The browser saw errors:\n" + "\n".join(problems), pytrace=False)


@pytest.fixture
def page(new_page: Callable[[], Page]) -> Page:
    """A fresh context and page per test (see ``new_page``)."""
    return new_page()


@pytest.fixture
def screenshots() -> Path:
    """``artifacts/screenshots/`` at the repository root (ignored by git), created if missing."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS
