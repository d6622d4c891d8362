"""The tax module over HTTP on both databases: GET /api/tax, POST /api/tax/vat-id against the
fake VIES (valid, invalid, syntax, VIES down, the rate limit, CSRF), and the catalogue's `tax`
block with its ETag."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from agency.app import create_app
from agency.modules.catalogue import service as catalogue_service
from agency.modules.tax import api as tax
from agency.settings import Settings
from tests.conftest import make_settings
from tests.fakes.vies_server import FakeVies, run_fake_vies
from tests.helpers.http import call

MSG = "Please enter a valid VAT ID, for example DE123456789."
DOWN = (
    "The EU's VAT service (VIES) is not answering; we check your VAT ID again and charge VAT "
    "until it is confirmed."
)


@pytest.fixture(scope="module")
def vies() -> Iterator[FakeVies]:
    with run_fake_vies() as fake:
        yield fake


@pytest.fixture(autouse=True)
def fresh(vies: FakeVies) -> None:
    vies.reset()


@pytest.fixture
def app_settings(tmp_path: Path, database_url: str, vies: FakeVies) -> Settings:
    return make_settings(
        tmp_path, database_url, vies_api_base=vies.base_url, vies_timeout_seconds=2
    )


EXPECTED_BLOCK = {
    "vat_mode": "standard",
    "prices_include_vat": True,
    "vat_country": "DE",
    "vat_country_rate": 1900,
    "vat_oss": False,
    "default_buyer_type": "consumer",
    "locale": "en-IE",
}


async def test_get_tax_is_the_display_block(client: Any) -> None:
    status, body = await call(client, "get", "/api/tax")
    assert status == 200
    assert {k: body[k] for k in EXPECTED_BLOCK} == EXPECTED_BLOCK
    assert body["rates"]["FR"] == 2000 and body["rates"]["FI"] == 2550
    assert len(body["rates"]) == 27


async def test_the_catalogue_carries_the_same_tax_block(client: Any) -> None:
    _, taxes = await call(client, "get", "/api/tax")
    response = await client.get("/api/catalogue")
    body = await response.get_json()
    assert body["tax"] == taxes


async def test_a_valid_vat_id(client: Any, vies: FakeVies) -> None:
    status, body = await call(client, "post", "/api/tax/vat-id", {"vat_id": "FR 40 303 265 045"})
    assert status == 200
    assert (body["vat_id"], body["country"], body["status"]) == ("FR40303265045", "FR", "valid")
    assert body["name"] == "SA SODIMAS" and body["address"]
    assert body["checked_at"] and body["message"]
    assert set(body) == {"vat_id", "country", "status", "name", "address", "checked_at", "message"}


async def test_an_unknown_vat_id_is_invalid(client: Any) -> None:
    status, body = await call(client, "post", "/api/tax/vat-id", {"vat_id": "DE129273398"})
    assert (status, body["status"], body["name"]) == (200, "invalid", None)


@pytest.mark.parametrize("raw", ["DE123456789", "", "hello", "US123", "X" * 64])
async def test_a_wrong_vat_id_is_400_with_the_field(client: Any, vies: FakeVies, raw: str) -> None:
    status, body = await call(client, "post", "/api/tax/vat-id", {"vat_id": raw})
    assert status == 400
    assert body["error"]["code"] == "validation_error"
    assert body["error"]["message"] == MSG and body["error"]["fields"] == {"vat_id": MSG}
    assert vies.requests == []


@pytest.mark.parametrize("body", [{}, {"vat_id": 5}, {"vat_id": "D" * 65}, [], None])
async def test_a_malformed_request_is_400(client: Any, body: Any) -> None:
    status, answer = await call(client, "post", "/api/tax/vat-id", body)
    assert status == 400 and answer["error"]["code"] == "validation_error"


async def test_vies_down_answers_pending(client: Any, vies: FakeVies) -> None:
    vies.down = "MS_UNAVAILABLE"
    status, body = await call(client, "post", "/api/tax/vat-id", {"vat_id": "DE136695976"})
    assert (status, body["status"], body["message"]) == (200, "pending", DOWN)


async def test_the_check_needs_the_csrf_header(client: Any) -> None:
    response = await client.post("/api/tax/vat-id", json={"vat_id": "DE136695976"})
    assert response.status_code == 403


async def test_the_check_is_rate_limited_per_address(client: Any, vies: FakeVies) -> None:
    for _ in range(30):
        status, _body = await call(client, "post", "/api/tax/vat-id", {"vat_id": "DE136695976"})
        assert status == 200
    status, body = await call(client, "post", "/api/tax/vat-id", {"vat_id": "DE136695976"})
    assert status == 429 and body["error"]["code"] == "rate_limited"
    assert len(vies.requests) == 1  # the rest came from the cache


async def test_the_catalogue_etag_follows_the_tax_settings(
    tmp_path: Path, database_url: str, vies: FakeVies
) -> None:
    tags = []
    blocks = []
    for overrides in (
        {},
        {"prices_include_vat": False},
        {"vat_oss": True, "price_locale": "de-DE"},
    ):
        settings = make_settings(tmp_path, database_url, **overrides)
        async with create_app(settings).test_app() as app:
            response = await app.test_client().get("/api/catalogue")
            tags.append(response.headers["ETag"])
            blocks.append((await response.get_json())["tax"])
            # The cache in the process is keyed by the block too.
            assert (await catalogue_service.catalogue_json(tax.tax_display(settings))).data.tax
    assert len(set(tags)) == 3
    assert [b["prices_include_vat"] for b in blocks] == [True, False, True]
    assert blocks[2]["locale"] == "de-DE" and blocks[2]["vat_oss"] is True


async def test_the_cached_catalogue_is_rebuilt_for_another_tax_block(orm: str) -> None:
    first = await catalogue_service.catalogue_json(tax.tax_display(Settings()))
    same = await catalogue_service.catalogue_json(tax.tax_display(Settings()))
    other = await catalogue_service.catalogue_json(
        tax.tax_display(Settings(vat_mode="small_business"))
    )
    assert same is first
    assert other.etag != first.etag and other.data.tax.vat_mode == "small_business"
