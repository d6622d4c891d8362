"""Header injection through the lead forms: what reaches the agency's `new_lead` subject is the
form's label and the lead's address. The probe's encoded words are refused in both by the form (an
unknown form, an invalid address), go to the body only in the other fields, and a source of
another module's making (any text) reaches the subject with its literal text and exactly the
mailer's headers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from agency.modules.leads import api as leads_api
from agency.modules.leads.models import Lead
from agency.settings import Settings
from tests.core.mail_headers import INJECTIONS, assert_exactly, delivered, mailing_settings
from tests.fakes.smtp import SmtpServer
from tests.helpers.http import call

AGENCY = "team@agency.test"
VARIANTS = pytest.mark.parametrize("injection", INJECTIONS.values(), ids=INJECTIONS.keys())


@pytest.fixture
def app_settings(tmp_path: Path, database_url: str, smtp: SmtpServer) -> Settings:
    """This module's `app` (tests/conftest.py) sends its mail to `smtp`."""
    return mailing_settings(tmp_path, database_url, smtp, agency_email=AGENCY)


@VARIANTS
@pytest.mark.parametrize(
    ("field", "messages"),
    [
        # An unknown form (or, past 64 characters, a source too long to be one).
        ("source", {"This form is not known.", "String should have at most 64 characters"}),
        ("email", {"Please enter a valid email address"}),
    ],
)
async def test_the_form_and_address_fields_refuse_encoded_words(
    app: Any, smtp: SmtpServer, injection: str, field: str, messages: set[str]
) -> None:
    body = {"source": "clinic-consultation", "email": "owner@clinic.example", field: injection}
    status, data = await call(app.test_client(), "post", "/api/leads", body)
    assert status == 400 and list(data["error"]["fields"]) == [field]
    assert data["error"]["fields"][field] in messages
    assert await delivered(app) == [] and smtp.inbox.messages == []
    assert await Lead.all().count() == 0


@VARIANTS
async def test_the_other_fields_reach_the_body_only(
    app: Any, smtp: SmtpServer, injection: str
) -> None:
    body = {
        "source": "free-preview",
        "email": "ann@example.com",
        "name": injection,
        "domain": injection,
        "message": injection,
    }
    assert (await call(app.test_client(), "post", "/api/leads", body))[0] == 201
    [notice] = await delivered(app)
    assert f"Name:    {injection}" in notice.text
    [message] = smtp.inbox.messages
    subject = "New lead: Real Estate Website Rebuild from ann@example.com"
    assert_exactly(message, to=AGENCY, subject=subject, text=notice.text, html=notice.html)


@VARIANTS
async def test_a_source_of_any_text_reaches_the_subject_literally(
    app: Any, smtp: SmtpServer, injection: str
) -> None:
    """Another module may record a lead under a source of its own, which reads as itself."""
    source = injection.replace("attacker@", "a@")  # the column holds 64 characters
    await leads_api.record_lead(source=source, email="ann@example.com", notify=AGENCY)
    [notice] = await delivered(app)
    subject = f"New lead: {source} from ann@example.com"
    assert notice.subject == subject
    [message] = smtp.inbox.messages
    assert_exactly(message, to=AGENCY, subject=subject, text=notice.text, html=notice.html)
