"""No page scrolls sideways on a phone: every public page (from the build's routes.json) and every
dashboard page, a customer's and an admin's, at 390 px wide has
`document.documentElement.scrollWidth <= innerWidth`, and no content is cut off at the right
edge by a section that hides its overflow (an offer card reaching past the screen). A failure
names the elements that reach past the right edge (the outermost ones, not their children, none
inside a box that scrolls sideways, none positioned out of the flow such as decorations).

The customer is a first-time buyer (their account opened by buying a website), which also
checks what they read: "Welcome", not "Welcome back", and a public header with "Dashboard"
once and a real call to action instead of "Sign Out"."""

from __future__ import annotations

import itertools
import json
import re
from typing import Any

from playwright.sync_api import Page, expect

from agency.core.paths import web_dir
from tests.e2e.conftest import PHONE, ConsoleLog, LiveServer
from tests.e2e.test_accounts import log_in
from tests.e2e.test_purchase import pay_on_stripe

PASSWORD = "cobol 1959 compiler"
_buyers = itertools.count(1)

# Every element reaching past the right edge, outermost first, none inside a box that scrolls
# sideways (a table in its scrolling wrapper is fine) and none positioned out of the flow.
OVERFLOW = """() => {
  const width = document.documentElement.clientWidth
  const scroll = document.documentElement.scrollWidth
  const clipped = (el) => {
    for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
      const style = getComputedStyle(p)
      if (style.overflowX === 'auto' || style.overflowX === 'scroll') return true
      if (style.position === 'absolute' || style.position === 'fixed') return true
    }
    return false
  }
  const name = (el) => {
    const cls = typeof el.className === 'string' && el.className.trim()
      ? '.' + el.className.trim().split(/\\s+/).join('.') : ''
    const text = (el.textContent || '').trim().replace(/\\s+/g, ' ').slice(0, 40)
    return `${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}${cls} "${text}"`
  }
  const offenders = []
  for (const el of document.body.querySelectorAll('*')) {
    const box = el.getBoundingClientRect()
    if (box.width === 0 || box.right <= width + 0.5) continue
    const position = getComputedStyle(el).position
    if (position === 'fixed' || position === 'absolute' || clipped(el)) continue
    const parent = el.parentElement
    if (parent && parent !== document.body && parent.getBoundingClientRect().right > width + 0.5
        && !clipped(parent)) continue
    offenders.push(`${name(el)} reaches ${Math.round(box.right)} px`)
  }
  return { width, scroll, offenders: offenders.slice(0, 6) }
}"""


def overflow(page: Page, path: str) -> str | None:
    """Why `path`, as loaded in `page`, scrolls sideways; None when it does not."""
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(150)  # late layout: fonts, images with sizes, lazy sections
    found: dict[str, Any] = page.evaluate(OVERFLOW)
    if found["scroll"] <= found["width"] and not found["offenders"]:
        return None
    named = "; ".join(found["offenders"]) or "no single element (margins?)"
    return f"{path}: {found['scroll']} px wide in {found['width']} px: {named}"


def check_all(page: Page, base: str, paths: list[str]) -> list[str]:
    problems = []
    for path in paths:
        page.goto(base + path)
        problem = overflow(page, path)
        if problem:
            problems.append(problem)
    return problems


def public_paths() -> list[str]:
    routes = json.loads((web_dir() / "routes.json").read_text())
    spa = [p for p in routes["spa"] if ":" not in p and not p.startswith("/dashboard")]
    # The order form for each kind of package (its plans, fields and summary differ).
    kinds = [p for p in routes.get("templates", {}) if p.startswith("/start?type=")]
    return [*routes["prerendered"], *spa, *kinds]


def test_every_public_page_fits_a_phone(
    phone: Page, live_server: LiveServer, console: ConsoleLog
) -> None:
    paths = public_paths()
    assert {"/lead-generation", "/start", "/start?type=ai"} <= set(paths)
    assert check_all(phone, live_server.url, paths) == []


CUSTOMER_PAGES = [
    "/dashboard",
    "/dashboard/websites",
    "/dashboard/analytics",
    "/dashboard/billing",
    "/dashboard/support",
    "/dashboard/profile",
    "/dashboard/settings",
]
ADMIN_PAGES = [
    *CUSTOMER_PAGES,
    "/dashboard/seo",
    "/dashboard/leads",
    "/dashboard/admin/websites",
    "/dashboard/admin/support",
    "/dashboard/admin/contracts",
    "/dashboard/admin/vat",
    "/dashboard/admin/catalogue",
    "/dashboard/admin/audit",
]


def buy_a_website(page: Page, server: LiveServer, email: str) -> None:
    """A visitor buys a website: the purchase opens their account and signs them in."""
    page.goto(server.url + "/start?type=website&plan=professional")
    page.get_by_label("Full Name").fill("Grace Hopper")
    page.get_by_label("Email Address").fill(email)
    page.locator("input[name=password]").fill(PASSWORD)
    page.get_by_label("Domain Name").fill("https://overflow.example/")
    page.get_by_role("button", name="Order with obligation to pay").click()
    pay_on_stripe(page, server)
    expect(page.get_by_role("heading", name="Payment Successful.")).to_be_visible(timeout=20000)


def test_every_customer_dashboard_page_fits_a_phone(
    page: Page, live_server: LiveServer, console: ConsoleLog
) -> None:
    email = f"overflow-buyer-{next(_buyers)}@example.com"
    buy_a_website(page, live_server, email)
    page.set_viewport_size(PHONE)
    phone = page

    # A first-time buyer is welcomed, not welcomed back.
    phone.goto(live_server.url + "/dashboard")
    expect(phone.get_by_role("heading", level=1)).to_have_text("Welcome, Grace")
    # The public header: "Dashboard" once, and a call to action, not "Sign Out".
    phone.goto(live_server.url + "/pricing")
    phone.wait_for_load_state("networkidle")
    phone.get_by_role("button", name="Open menu").click()
    menu = phone.locator("#mobile-menu")
    expect(menu.get_by_role("link", name="Dashboard", exact=True)).to_have_count(1)
    expect(menu.get_by_role("link", name="Get Started")).to_have_attribute("href", "/start")
    sign_out = phone.get_by_role("banner").get_by_role("button", name=re.compile("sign out", re.I))
    expect(sign_out).to_have_count(0)

    phone.goto(live_server.url + "/dashboard/websites")
    details = phone.get_by_role("link", name=re.compile("View details")).first
    expect(details).to_be_visible(timeout=20000)
    detail_path = details.get_attribute("href")
    assert detail_path and detail_path.startswith("/dashboard/websites/")
    assert check_all(phone, live_server.url, [*CUSTOMER_PAGES, detail_path]) == []


def test_every_admin_dashboard_page_fits_a_phone(
    phone: Page, live_server: LiveServer, console: ConsoleLog
) -> None:
    email = f"overflow-admin-{next(_buyers)}@example.com"
    live_server.cli("users", "create", email, "--admin", stdin=f"{PASSWORD}\n{PASSWORD}\n")
    log_in(phone, live_server.url, email, PASSWORD)
    expect(phone).to_have_url(live_server.url + "/dashboard")
    assert check_all(phone, live_server.url, ADMIN_PAGES) == []
