"""The accounts journey in Chromium against the real server, with e-mail going to a real SMTP
server: sign up, sign out, log in with remember me, reset the password by the e-mailed link,
and the admin-only article manager."""

from __future__ import annotations

import re
import time

from playwright.sync_api import Page, expect

from tests.e2e.conftest import ConsoleLog, LiveServer
from tests.fakes.smtp import SmtpServer

EMAIL = "grace@example.com"
FIRST_PASSWORD = "first password"
NEW_PASSWORD = "second password"


def expected_failures(console: ConsoleLog) -> list[str]:
    """Console lines other than the browser's own note on a 4xx answer we asked for."""
    return [p for p in console.problems if "Failed to load resource" not in p]


def sign_up(page: Page, base: str, email: str, password: str) -> None:
    page.goto(base + "/signup")
    page.wait_for_load_state("networkidle")
    form = page.locator("form")
    form.get_by_label("First name").fill("Grace")
    form.get_by_label("Last name").fill("Hopper")
    form.get_by_label("Email").fill(email)
    form.locator("input[name=password]").fill(password)
    form.locator("input[name=confirm_password]").fill(password)
    form.get_by_role("checkbox").check()
    form.get_by_role("button", name="Create account").click()


def log_in(page: Page, base: str, email: str, password: str, remember: bool = False) -> None:
    page.goto(base + "/login")
    page.wait_for_load_state("networkidle")
    page.get_by_label("Email").fill(email)
    page.locator("input[name=password]").fill(password)
    if remember:
        page.get_by_label("Remember me").check()
    page.get_by_role("button", name="Log in").click()


def sign_out(page: Page) -> None:
    page.get_by_role("button", name="User menu").click()
    page.get_by_role("button", name="Sign out").click()


def wait_for_mail(smtp: SmtpServer, to: str, timeout: float = 15) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for message in smtp.inbox.messages:
            if message["To"] == to:
                return smtp.inbox.text_of(message)
        time.sleep(0.1)
    raise AssertionError(f"no e-mail to {to} arrived")


def test_account_journey(
    page: Page, live_server: LiveServer, smtp_server: SmtpServer, console: ConsoleLog
) -> None:
    base = live_server.url
    sign_up(page, base, EMAIL, FIRST_PASSWORD)
    expect(page).to_have_url(base + "/dashboard")
    expect(page.get_by_role("button", name="User menu")).to_contain_text("G")

    sign_out(page)
    expect(page).to_have_url(base + "/")
    expect(page.get_by_role("banner").get_by_role("link", name="Login")).to_be_visible()

    # Wrong password: the spec's message in the red box.
    log_in(page, base, EMAIL, "not my password")
    expect(page.get_by_role("alert")).to_have_text("Incorrect email or password. Please try again.")

    log_in(page, base, EMAIL, FIRST_PASSWORD, remember=True)
    expect(page).to_have_url(base + "/dashboard")
    session = next(c for c in page.context.cookies() if c["name"] == "agency_session")
    assert session["expires"] > time.time() + 29 * 24 * 3600  # remembered for 30 days
    assert session["httpOnly"] and session["sameSite"] == "Lax"
    sign_out(page)

    # Forgot password: the reset link arrives by e-mail.
    page.goto(base + "/login")
    page.wait_for_load_state("networkidle")  # hydrated: the link navigates in the app
    page.get_by_role("link", name="Forgot password?").click()
    expect(page).to_have_url(base + "/forgot-password")
    # The router keeps the login page (which has an Email field too) on screen while the next
    # page's chunk loads: wait for the new page before typing.
    expect(page.get_by_role("heading", name="Reset your password")).to_be_visible()
    page.get_by_label("Email").fill(EMAIL)
    page.get_by_role("button", name="Send reset link").click()
    expect(page.get_by_text("If an account exists for that email")).to_be_visible()
    body = wait_for_mail(smtp_server, EMAIL)
    link = re.search(r"http://\S+/reset-password\?token=\S+", body)
    assert link is not None, body
    assert link.group(0).startswith(base)

    page.goto(link.group(0))
    page.wait_for_load_state("networkidle")
    page.locator("input[name=password]").fill(NEW_PASSWORD)
    page.locator("input[name=confirm_password]").fill(NEW_PASSWORD)
    page.get_by_role("button", name="Set new password").click()
    expect(page.get_by_text("Your password has been reset. You can now log in.")).to_be_visible()

    log_in(page, base, EMAIL, FIRST_PASSWORD)
    expect(page.get_by_role("alert")).to_have_text("Incorrect email or password. Please try again.")
    log_in(page, base, EMAIL, NEW_PASSWORD)
    expect(page).to_have_url(base + "/dashboard")

    # Not an admin: the article manager is refused, and its menu item is not shown.
    expect(page.get_by_role("link", name="SEO Articles")).to_have_count(0)
    page.goto(base + "/dashboard/seo")
    expect(page.get_by_text("Only admins can open the article manager.")).to_be_visible()
    expect(page.get_by_role("heading", name="SEO Articles")).to_have_count(0)

    # An admin (made with the CLI) sees it.
    live_server.cli("users", "set-role", EMAIL, "admin")
    page.goto(base + "/dashboard")
    page.get_by_role("link", name="SEO Articles").click()
    expect(page).to_have_url(base + "/dashboard/seo")
    expect(page.get_by_role("heading", name="SEO Articles", level=1)).to_be_visible()
    assert expected_failures(console) == []


def test_after_login_the_first_requested_page_opens(page: Page, live_server: LiveServer) -> None:
    base = live_server.url
    live_server.cli(
        "users",
        "create",
        "ken@example.com",
        "--first-name",
        "Ken",
        "--last-name",
        "Thompson",
        stdin="ken password\nken password\n",
    )
    page.goto(base + "/dashboard/settings")
    expect(page).to_have_url(base + "/login")
    page.get_by_label("Email").fill("ken@example.com")
    page.locator("input[name=password]").fill("ken password")
    page.get_by_role("button", name="Log in").click()
    expect(page).to_have_url(base + "/dashboard/settings")
    expect(page.get_by_role("heading", name="Settings", level=1)).to_be_visible()


def test_sign_up_validation_happens_before_any_call(page: Page, live_server: LiveServer) -> None:
    page.goto(live_server.url + "/signup")
    calls: list[str] = []
    page.on("request", lambda r: calls.append(r.url) if "/api/" in r.url else None)
    form = page.locator("form")
    form.get_by_label("First name").fill("A")
    form.get_by_label("Last name").fill("B")
    form.get_by_label("Email").fill("ab@example.com")
    form.locator("input[name=password]").fill("12345")
    form.locator("input[name=confirm_password]").fill("54321")
    form.get_by_role("checkbox").check()
    form.get_by_role("button", name="Create account").click()
    expect(page.get_by_role("alert")).to_have_text("Passwords do not match")
    form.locator("input[name=confirm_password]").fill("12345")
    form.get_by_role("button", name="Create account").click()
    expect(page.get_by_role("alert")).to_have_text("Password must be at least 6 characters")
    assert calls == []
