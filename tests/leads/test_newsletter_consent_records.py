"""Every ticked newsletter box is recorded as a consent (GDPR Art. 7(1): the agency must be able
to demonstrate it), through the HTTP API on SQLite and PostgreSQL with the fake Kit: the
e-mail, the form, the box's wording version, the time and Kit's outcome (subscribed, refused,
not configured); an unticked box records nothing. The records join the account's data export,
go with the account, follow the leads' retention and are listed by `agency leads consents`.
The box's wording and version are the web UI's too."""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from agency.app import create_app
from agency.modules.leads.models import NewsletterConsent
from agency.modules.leads.service import consents
from agency.modules.leads.service.leads import prune_leads
from agency.modules.leads.settings import LeadsSettings
from agency.settings import Settings
from tests.conftest import run_agency
from tests.fakes.kit import FakeKit, run_fake_kit
from tests.fakes.pagespeed import FakePageSpeed
from tests.helpers.http import HEADERS, PASSWORD, sign_up
from tests.leads.test_newsletter_consent import EMAIL, FORMS, STATUS, consent_settings, post

ROOT = Path(__file__).parents[2]
# The form each request of FORMS is recorded with.
FORM_NAMES = {
    "speed-test": "speed-test",
    "analysis": "business-analysis",
    "lead": "ai-booking-demo",
}


@pytest.fixture(scope="module")
def kit() -> Iterator[FakeKit]:
    with run_fake_kit() as fake:
        yield fake


@pytest.fixture(autouse=True)
def fresh_kit(kit: FakeKit) -> None:
    kit.reset()


@pytest.fixture
def app_settings(tmp_path: Path, database_url: str, psi: FakePageSpeed, kit: FakeKit) -> Settings:
    return consent_settings(tmp_path, database_url, psi, kit)


async def recorded() -> list[tuple[str, str, str, str]]:
    rows = await NewsletterConsent.all().order_by("id")
    return [(r.email, r.form, r.wording_version, r.outcome) for r in rows]


@pytest.mark.parametrize("form", list(FORMS))
async def test_a_ticked_box_that_kit_accepts_is_recorded(app: Any, kit: FakeKit, form: str) -> None:
    before = datetime.now(UTC) - timedelta(seconds=1)
    path, body = FORMS[form]
    sent = {**body, "email": " Reader@Shop.example ", "newsletter": True}
    status, data = await post(app, path, sent)
    assert status == STATUS[form], data
    assert data["newsletter"]["subscribed"] is True
    assert await recorded() == [
        (EMAIL, FORM_NAMES[form], consents.NEWSLETTER_CONSENT_VERSION, "subscribed")
    ]
    [row] = await NewsletterConsent.all()
    assert before <= row.created_at <= datetime.now(UTC) + timedelta(seconds=1)


@pytest.mark.parametrize("form", list(FORMS))
async def test_a_ticked_box_that_kit_refuses_is_recorded_as_refused(
    app: Any, kit: FakeKit, form: str
) -> None:
    kit.fail_next(422, {"errors": ["Email address is invalid"]})
    path, body = FORMS[form]
    status, data = await post(app, path, {**body, "newsletter": True})
    assert status == STATUS[form], data
    assert data["newsletter"]["subscribed"] is False
    assert not kit.on_form(EMAIL)
    assert await recorded() == [
        (EMAIL, FORM_NAMES[form], consents.NEWSLETTER_CONSENT_VERSION, "refused")
    ]


@pytest.mark.parametrize("form", list(FORMS))
async def test_a_ticked_box_without_kit_is_recorded_as_not_configured(
    tmp_path: Path, database_url: str, psi: FakePageSpeed, kit: FakeKit, form: str
) -> None:
    settings = consent_settings(tmp_path, database_url, psi, kit, kit_form_id="")
    async with create_app(settings).test_app() as app:
        path, body = FORMS[form]
        status, data = await post(app, path, {**body, "newsletter": True})
        assert status == STATUS[form], data
        assert await recorded() == [
            (EMAIL, FORM_NAMES[form], consents.NEWSLETTER_CONSENT_VERSION, "not_configured")
        ]
    assert kit.requests == []


@pytest.mark.parametrize("form", list(FORMS))
async def test_an_unticked_box_records_nothing(app: Any, kit: FakeKit, form: str) -> None:
    path, body = FORMS[form]
    for n, extra in enumerate([{}, {"newsletter": False}]):
        status, data = await post(app, path, {**body, **extra}, ip=f"203.0.113.{20 + n}")
        assert status == STATUS[form], data
    assert await NewsletterConsent.all().count() == 0


async def test_a_refused_request_and_a_bot_record_nothing(app: Any) -> None:
    path, body = FORMS["speed-test"]
    status, _ = await post(app, path, {**body, "url": "not a domain", "newsletter": True})
    assert status == 400
    path, body = FORMS["lead"]
    trapped = {**body, "newsletter": True, "company_website": "http://spam.example"}
    assert (await post(app, path, trapped))[0] == 201
    assert await NewsletterConsent.all().count() == 0


async def test_the_account_exports_its_consents_and_they_go_with_it(app: Any) -> None:
    client = app.test_client()
    assert (await sign_up(client, email=EMAIL))[0] == 201
    path, body = FORMS["lead"]
    assert (await post(app, path, {**body, "newsletter": True}))[0] == 201
    # Another person's consent stays out of the export and stays when the account goes.
    assert (await post(app, path, {**body, "email": "other@shop.example", "newsletter": True}))[0]
    response = await client.get("/api/account/export", headers=HEADERS)
    [exported] = (await response.get_json())["newsletter_consents"]
    assert exported["email"] == EMAIL
    assert exported["form"] == "ai-booking-demo"
    assert exported["form_label"] == "AI booking demo"
    assert exported["wording_version"] == consents.NEWSLETTER_CONSENT_VERSION
    assert exported["wording"] == consents.NEWSLETTER_CONSENT_TEXT
    assert exported["outcome"] == "subscribed"
    assert exported["created_at"]
    response = await client.post(
        "/api/account/delete", json={"current_password": PASSWORD}, headers=HEADERS
    )
    assert response.status_code == 204
    assert [row[0] for row in await recorded()] == ["other@shop.example"]


async def test_consents_follow_the_leads_retention(app: Any) -> None:
    settings = LeadsSettings()
    path, body = FORMS["lead"]
    for email in ("old@shop.example", "young@shop.example"):
        assert (await post(app, path, {**body, "email": email, "newsletter": True}))[0] == 201
    now = datetime.now(UTC)
    past = now - timedelta(days=settings.retention_leads_days, minutes=1)
    await NewsletterConsent.filter(email="old@shop.example").update(created_at=past)
    removed = await prune_leads(settings, now)
    assert removed["leads.newsletter_consents"] == 1
    assert [row[0] for row in await recorded()] == ["young@shop.example"]


# ------------------------------------------------------------------ the wording, one text


def test_the_web_ui_box_has_the_servers_wording_and_version() -> None:
    """The web UI's twin (whose text NewsletterOptIn.test.tsx checks the box renders)."""
    text = (ROOT / "webui/src/components/ui/newsletter-consent.ts").read_text()
    assert f"NEWSLETTER_CONSENT_VERSION = '{consents.NEWSLETTER_CONSENT_VERSION}'" in text
    assert f"'{consents.NEWSLETTER_CONSENT_TEXT}'" in text
    assert consents.NEWSLETTER_CONSENT_TEXTS[consents.NEWSLETTER_CONSENT_VERSION] == (
        consents.NEWSLETTER_CONSENT_TEXT
    )
    # The box itself: the same words around the privacy link.
    box = (ROOT / "webui/src/components/ui/NewsletterOptIn.tsx").read_text()
    label = re.sub(r"\{/\*.*?\*/\}|<[^>]+>", "", box.split("<label", 1)[1].split("</label>")[0])
    words = " ".join(label.split(">", 1)[1].split()).replace("( ", "(")
    assert words == consents.NEWSLETTER_CONSENT_TEXT


# ------------------------------------------------------------------ the admins' list


@pytest.mark.slow  # runs the `agency` command in a subprocess
def test_agency_leads_consents_lists_them(tmp_path: Path) -> None:
    # The command as a user runs it: a process of its own on a fresh data directory.
    upgraded = run_agency(tmp_path, "db", "upgrade")
    assert upgraded.returncode == 0, upgraded.stderr
    with sqlite3.connect(tmp_path / "data" / "agency.db") as database:
        database.executemany(
            "INSERT INTO leads_newsletter_consent (email, form, wording_version, outcome, "
            "created_at) VALUES (?, ?, ?, ?, ?)",
            [
                (
                    "a@shop.example",
                    "speed-test",
                    "newsletter-2026-11-26",
                    "subscribed",
                    "2026-11-20 10:00:00+00:00",
                ),
                (
                    "b@shop.example",
                    "ai-booking-demo",
                    "newsletter-2026-11-26",
                    "not_configured",
                    "2026-11-21 11:00:00+00:00",
                ),
            ],
        )
    listed = run_agency(tmp_path, "leads", "consents")
    assert listed.returncode == 0, listed.stderr
    assert "2 newsletter consent(s)" in listed.stdout
    lines = [line for line in listed.stdout.splitlines() if "@shop.example" in line]
    assert "b@shop.example" in lines[0] and "AI booking demo" in lines[0]
    assert "not configured" in lines[0] and "newsletter-2026-11-26" in lines[0]
    assert "a@shop.example" in lines[1] and "Speed test" in lines[1] and "subscribed" in lines[1]
    one = run_agency(tmp_path, "leads", "consents", "--email", "A@Shop.example")
    assert "1 newsletter consent(s)" in one.stdout and "b@shop.example" not in one.stdout
    as_json = run_agency(tmp_path, "leads", "consents", "--json")
    assert [(c["email"], c["form_label"], c["outcome"]) for c in json.loads(as_json.stdout)] == [
        ("b@shop.example", "AI booking demo", "not_configured"),
        ("a@shop.example", "Speed test", "subscribed"),
    ]
