"""Paths written another way than the route table's (case, repeated trailing slashes, escapes)
in real Chromium against the real server: the server serves the page (webui/test/fixtures/
route-cases.json has every rule) and the client, which matches paths by the same rules,
hydrates it without a mismatch and without sending the visitor elsewhere."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import ConsoleLog, LiveServer


@pytest.mark.parametrize(
    ("path", "page_path"),
    [("/FAQ", "/faq"), ("/faq//", "/faq"), ("/f%41q/", "/faq"), ("/Pricing", "/pricing")],
)
def test_a_prerendered_page_written_another_way_hydrates_in_place(
    page: Page, live_server: LiveServer, console: ConsoleLog, path: str, page_path: str
) -> None:
    page.goto(live_server.url + page_path)
    page.wait_for_load_state("networkidle")
    headline = page.get_by_role("heading", level=1).inner_text()
    response = page.goto(live_server.url + path)
    assert response is not None and response.status == 200
    assert response.url == live_server.url + path  # no redirect
    page.wait_for_load_state("networkidle")
    expect(page.get_by_role("heading", level=1)).to_have_text(headline)
    expect(page).to_have_url(live_server.url + path)  # nor one by the client
    assert console.problems == [], console.problems
