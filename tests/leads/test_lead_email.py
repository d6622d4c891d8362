"""A lead's e-mail passes the one e-mail rule: an address carrying mailto:
headers or a line break is refused, nothing is stored and the agency is not e-mailed."""

from __future__ import annotations

from typing import Any

import pytest

from agency.core import mail
from agency.core.errors import ValidationFailed
from agency.core.web import job_runner
from agency.modules.leads import api as leads_api
from agency.modules.leads.models import Lead
from tests.helpers.http import call

BAD = [
    "x@e.com?cc=attacker@evil.example&body=hi",
    "x@e.com\r\nBcc: all@evil.example",
    "x\n@e.com",
    "<x@e.com>",
    '"x y"@e.com',
    "x y@e.com",
    "x@e",
]


@pytest.mark.parametrize("email", BAD)
async def test_a_lead_with_a_malformed_email_is_refused(app: Any, email: str) -> None:
    client = app.test_client()
    for source, extra in [
        ("clinic-consultation", {}),
        ("free-preview", {"name": "Ann", "domain": "ann-homes.com"}),
    ]:
        status, data = await call(
            client, "post", "/api/leads", {"source": source, "email": email, **extra}
        )
        assert status == 400, (source, email, data)
        assert data["error"]["code"] == "validation_error"
        assert "email" in data["error"].get("fields", {}), data
    await job_runner(app.app).drain()
    assert await Lead.all().count() == 0
    assert await mail.OutboundMail.all().count() == 0


async def test_the_spec_message_for_a_malformed_email(app: Any) -> None:
    status, data = await call(
        app.test_client(),
        "post",
        "/api/leads",
        {"source": "clinic-consultation", "email": "x@e.com?cc=attacker@evil.example"},
    )
    assert (status, data["error"]["message"]) == (400, "Please enter a valid email address")
    assert data["error"]["fields"] == {"email": "Please enter a valid email address"}


@pytest.mark.parametrize("email", BAD)
async def test_another_module_cannot_record_a_malformed_email(app: Any, email: str) -> None:
    with pytest.raises(ValidationFailed):
        await leads_api.record_lead(source="partner-page", email=email, notify="t@agency.test")
    assert await Lead.all().count() == 0


async def test_a_good_address_is_stored_trimmed_and_lower_cased(app: Any) -> None:
    status, _ = await call(
        app.test_client(),
        "post",
        "/api/leads",
        {"source": "clinic-consultation", "email": "  O'Brien+Clinic@Mail.Example.IE "},
    )
    assert status == 201
    [lead] = await Lead.all()
    assert lead.email == "o'brien+clinic@mail.example.ie"
