"""The newsletter only with the visitor's consent, through the HTTP API on SQLite and
PostgreSQL: the speed-test, analysis and lead forms reach the fake Kit (`tests/fakes/kit.py`, a
real HTTP server on loopback) only when the request says `newsletter: true` (the form's
unticked opt-in box, ticked); never without it, never for anything but a JSON true, never when
the request itself is refused; the answer says 'subscribed' only when Kit accepted it, and a
Kit failure leaves the test, analysis or lead carried out."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from agency.app import create_app
from agency.modules.analysis.models import Analysis
from agency.modules.analysis.schemas import AnalysisIn
from agency.modules.leads.models import Lead
from agency.modules.leads.schemas import LeadIn
from agency.modules.leads.service import newsletter
from agency.modules.speedtest.models import SpeedTest
from agency.modules.speedtest.schemas import SpeedTestIn
from agency.settings import Settings
from tests.conftest import make_settings
from tests.fakes.kit import FakeKit, run_fake_kit
from tests.fakes.pagespeed import FakePageSpeed
from tests.helpers.http import HEADERS

EMAIL = "reader@shop.example"
SUBSCRIBED = "You're subscribed to the newsletter."

# One request of each form that carries the box, and where what it did is stored.
FORMS: dict[str, tuple[str, dict[str, Any]]] = {
    "speed-test": (
        "/api/speed-tests",
        {"url": "shop.example", "email": EMAIL, "source": "speed-test"},
    ),
    "analysis": (
        "/api/analyses",
        {"url": "shop-site.com", "email": EMAIL, "source": "business-analysis"},
    ),
    "lead": (
        "/api/leads",
        {"email": EMAIL, "source": "ai-booking-demo"},
    ),
}
STATUS = {"speed-test": 202, "analysis": 202, "lead": 201}


@pytest.fixture(scope="module")
def kit() -> Iterator[FakeKit]:
    with run_fake_kit() as fake:
        yield fake


@pytest.fixture(autouse=True)
def fresh_kit(kit: FakeKit) -> None:
    kit.reset()


def consent_settings(
    tmp_path: Path, database_url: str, psi: FakePageSpeed, kit: FakeKit, **extra: Any
) -> Settings:
    values: dict[str, Any] = {
        "pagespeed_api_base": psi.base_url,
        "speedtest_unsafe_allow_private_targets": True,
        "base_url": "http://agency.example",
        "trusted_proxies": 1,
        "kit_api_base": kit.base_url,
        "kit_api_key": kit.api_key,
        "kit_form_id": kit.form_id,
        "kit_api_version": "v4",
    }
    values.update(extra)
    return make_settings(tmp_path, database_url, **values)


@pytest.fixture
def app_settings(tmp_path: Path, database_url: str, psi: FakePageSpeed, kit: FakeKit) -> Settings:
    return consent_settings(tmp_path, database_url, psi, kit)


async def post(app: Any, path: str, body: Any, ip: str = "203.0.113.9") -> tuple[int, Any]:
    headers = {**HEADERS, "X-Forwarded-For": ip}
    response = await app.test_client().post(path, json=body, headers=headers)
    return response.status_code, await response.get_json()


async def carried_out(form: str) -> int:
    """How many tests, analyses or leads the forms' requests stored for EMAIL."""
    if form == "speed-test":
        return await SpeedTest.filter(email=EMAIL).count()
    if form == "analysis":
        return await Analysis.filter(email=EMAIL).count()
    return await Lead.filter(email=EMAIL, source="ai-booking-demo").count()


@pytest.mark.parametrize("form", list(FORMS))
async def test_without_the_box_kit_is_never_called(app: Any, kit: FakeKit, form: str) -> None:
    path, body = FORMS[form]
    for n, extra in enumerate([{}, {"newsletter": False}]):
        status, data = await post(app, path, {**body, **extra}, ip=f"203.0.113.{10 + n}")
        assert status == STATUS[form], data
        assert data["newsletter"] is None
    assert await carried_out(form) >= 1  # the form did what it is for
    assert kit.requests == []
    assert not kit.on_form(EMAIL)


@pytest.mark.parametrize("form", list(FORMS))
@pytest.mark.parametrize("sent", ["true", 1, "yes", "on", [True], {"value": True}, None])
async def test_nothing_but_a_json_true_counts_as_the_box(
    app: Any, kit: FakeKit, form: str, sent: Any
) -> None:
    path, body = FORMS[form]
    status, data = await post(app, path, {**body, "newsletter": sent})
    assert status == 400, data
    assert "newsletter" in str(data["error"])
    assert kit.requests == []
    assert await carried_out(form) == 0


@pytest.mark.parametrize("form", list(FORMS))
async def test_with_the_box_the_e_mail_is_subscribed(app: Any, kit: FakeKit, form: str) -> None:
    path, body = FORMS[form]
    status, data = await post(
        app, path, {**body, "email": " Reader@Shop.example ", "newsletter": True}
    )
    assert status == STATUS[form], data
    assert data["newsletter"] == {"subscribed": True, "message": SUBSCRIBED}
    assert kit.on_form(EMAIL)
    assert [c.path for c in kit.requests] == [
        "/v4/subscribers",
        f"/v4/forms/{kit.form_id}/subscribers",
    ]
    assert await carried_out(form) == 1


@pytest.mark.parametrize("form", ["speed-test", "analysis"])
async def test_a_refused_request_subscribes_nobody(app: Any, kit: FakeKit, form: str) -> None:
    path, body = FORMS[form]
    status, data = await post(app, path, {**body, "url": "not a domain", "newsletter": True})
    assert status == 400, data
    assert kit.requests == []
    assert await carried_out(form) == 0


async def test_a_bot_in_the_lead_forms_trap_is_not_subscribed(app: Any, kit: FakeKit) -> None:
    path, body = FORMS["lead"]
    status, data = await post(
        app, path, {**body, "newsletter": True, "company_website": "http://spam.example"}
    )
    assert status == 201 and data["newsletter"] is None
    assert kit.requests == []
    assert await carried_out("lead") == 0


@pytest.mark.parametrize("form", list(FORMS))
async def test_a_kit_failure_is_said_and_the_form_still_did_its_work(
    tmp_path: Path, database_url: str, psi: FakePageSpeed, kit: FakeKit, form: str
) -> None:
    settings = consent_settings(tmp_path, database_url, psi, kit, kit_api_key="wrong-key")
    async with create_app(settings).test_app() as app:
        path, body = FORMS[form]
        status, data = await post(app, path, {**body, "newsletter": True})
        assert status == STATUS[form], data
        assert data["newsletter"]["subscribed"] is False
        assert data["newsletter"]["message"] == (
            "Error subscribing to ConvertKit: The access token is invalid"
        )
        assert SUBSCRIBED not in str(data)
        assert await carried_out(form) == 1
    assert not kit.on_form(EMAIL)


@pytest.mark.parametrize("form", list(FORMS))
async def test_without_kit_the_box_says_nobody_was_subscribed(
    tmp_path: Path, database_url: str, psi: FakePageSpeed, kit: FakeKit, form: str
) -> None:
    settings = consent_settings(tmp_path, database_url, psi, kit, kit_api_key="")
    async with create_app(settings).test_app() as app:
        path, body = FORMS[form]
        status, data = await post(app, path, {**body, "newsletter": True})
        assert status == STATUS[form], data
        assert data["newsletter"] == {"subscribed": False, "message": newsletter.MSG_NOT_OFFERED}
        assert await carried_out(form) == 1
    assert kit.requests == []


async def test_the_speed_test_confirms_the_report_not_a_subscription(app: Any) -> None:
    path, body = FORMS["speed-test"]
    status, data = await post(app, path, body)
    assert status == 202
    assert data["notice"] == f"Your speed report will arrive at {EMAIL} in about 60 seconds."
    assert "subscribed" not in data["notice"].lower()


async def test_the_old_sign_up_address_is_gone(app: Any, kit: FakeKit) -> None:
    status, _ = await post(app, "/api/newsletter", {"email": EMAIL, "source": "speed-test"})
    assert status in (404, 405)
    assert kit.requests == []


# ------------------------------------------------------------------ the field, as a property

MODELS = [
    (SpeedTestIn, {"url": "shop.example", "email": EMAIL, "source": "speed-test"}),
    (AnalysisIn, {"url": "shop-site.com", "email": EMAIL, "source": "ai-analysis"}),
    (LeadIn, {"email": EMAIL, "source": "ai-booking-demo"}),
]
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
    max_leaves=8,
)


@given(st.sampled_from(MODELS), JSON_VALUES)
def test_the_box_is_true_only_for_a_json_true(model: Any, sent: Any) -> None:
    schema, body = model
    try:
        parsed = schema.model_validate({**body, "newsletter": sent})
    except ValidationError:
        assert sent is not True and sent is not False
        return
    assert isinstance(sent, bool)
    assert parsed.newsletter is sent


@given(st.sampled_from(MODELS))
def test_the_box_is_unticked_unless_sent(model: Any) -> None:
    schema, body = model
    assert schema.model_validate(body).newsletter is False
