"""The buyer's country and VAT ID at checkout and in a quote: what is refused (and with which
message, on which field), what is ignored, and that no input makes a quote answer 500."""

from __future__ import annotations

import itertools
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agency.core.ratelimit import RateCounter
from agency.modules.auth.models import User
from agency.modules.billing.models import CheckoutSession
from agency.modules.billing.service import quotes
from agency.modules.billing.service.buyer_tax import MSG_COUNTRY, MSG_VAT_ID_OTHER_COUNTRY
from agency.modules.tax import api as tax_api
from tests.billing.conftest import VISITOR, checkout
from tests.billing.vies_fake import FakeVies
from tests.fakes.stripe_server import FakeStripe
from tests.helpers.http import HEADERS, call, signed_up

MSG_VIES_INVALID = "This VAT ID is not valid according to the EU's VIES service."
EMAILS = itertools.count()


async def test_a_country_that_is_no_iso_code_is_refused(tax_shop: Any) -> None:
    client = await signed_up(tax_shop.app)
    for country in ("XX", "Germany", "D", "EU"):
        status, data = await checkout(client, "pro-ai", country=country)
        assert status == 400, country
        assert data["error"]["fields"] == {"country": MSG_COUNTRY}
        status, data = await call(
            client, "post", "/api/billing/quote", {"plan": "pro-ai", "country": country}
        )
        assert (status, data["error"]["fields"]) == (400, {"country": MSG_COUNTRY})


async def test_a_vat_id_is_checked_for_syntax_and_its_country(
    tax_shop: Any, fake: FakeStripe
) -> None:
    client = await signed_up(tax_shop.app)
    status, data = await checkout(client, "pro-ai", buyer_type="business", vat_id="DE123")
    assert status == 400
    assert data["error"]["fields"] == {"vat_id": tax_api.MSG_VAT_ID_INVALID}
    assert data["error"]["fields"]["vat_id"] == (
        "Please enter a valid VAT ID, for example DE123456789."
    )
    status, data = await checkout(
        client, "pro-ai", buyer_type="business", country="FR", vat_id="DE136695976"
    )
    assert (status, data["error"]["fields"]) == (400, {"vat_id": MSG_VAT_ID_OTHER_COUNTRY})
    assert fake.received("checkout.sessions.create") == []


async def test_a_vat_id_only_counts_for_a_business_in_the_eu(
    tax_shop: Any, fake: FakeStripe, vies: FakeVies
) -> None:
    client = await signed_up(tax_shop.app)
    # A consumer has no VAT ID to give: whatever is sent is not used (nor checked).
    status, data = await checkout(client, "pro-ai", vat_id="not a vat id")
    assert status == 200, data
    # A business outside the EU pays no EU VAT; Stripe's page collects its tax ID.
    status, data = await checkout(
        client, "pro-ai", buyer_type="business", country="US", vat_id="12-3456789"
    )
    assert status == 200, data
    sessions = await CheckoutSession.all().order_by("created_at")
    assert [(s.country, s.vat_id, s.vat_id_status) for s in sessions] == [
        ("DE", None, None),  # no country given: the agency's (vat_country)
        ("US", None, None),
    ]
    assert fake.received("customers.tax_ids.create") == [] and vies.asked == []
    offer = (
        await call(
            client,
            "post",
            "/api/billing/quote",
            {"plan": "pro-ai", "buyer_type": "business", "country": "us", "vat_id": "x"},
        )
    )[1]
    assert (offer["kind"], offer["rate"], offer["vat"], offer["net"]) == ("outside_eu", 0, 0, 99900)


async def test_a_visitor_whose_vat_id_vies_refuses_gets_no_account(
    tax_shop: Any, vies: FakeVies
) -> None:
    vies.invalid.add("FR40303265045")
    client = tax_shop.test_client()
    status, data = await checkout(
        client, "pro-ai", **VISITOR, buyer_type="business", vat_id="FR 40 303 265 045"
    )
    assert status == 400
    assert data["error"]["code"] == "vat_id_invalid"
    assert data["error"]["fields"] == {"vat_id": MSG_VIES_INVALID}
    assert await User.all().count() == 0


async def test_a_vat_id_already_on_the_stripe_customer_is_not_added_again(
    tax_shop: Any, fake: FakeStripe
) -> None:
    client = await signed_up(tax_shop.app)
    for _ in range(2):
        status, data = await checkout(
            client, "pro-ai", buyer_type="business", vat_id="FR40303265045"
        )
        assert status == 200, data
    assert len(fake.received("customers.tax_ids.create")) == 1
    assert len(fake.received("checkout.sessions.create")) == 2


async def test_a_quote_names_a_plan_that_is_sold(tax_shop: Any) -> None:
    client = tax_shop.test_client()
    for body, field, message in [
        ({}, "plan", quotes.MSG_SELECT_PACKAGE),
        ({"plan": "no-such-plan"}, "plan", quotes.MSG_INVALID_PACKAGE),
    ]:
        status, data = await call(client, "post", "/api/billing/quote", body)
        assert (status, data["error"]["fields"]) == (400, {field: message})


async def test_quotes_are_rate_limited_per_address(tax_shop: Any) -> None:
    client = tax_shop.test_client()
    body = {"plan": "pro-ai", "country": "AT"}
    for _ in range(quotes.QUOTES_PER_ADDRESS.limit):
        assert (await call(client, "post", "/api/billing/quote", body))[0] == 200
    status, data = await call(client, "post", "/api/billing/quote", body)
    assert status == 429, data


async def test_a_quote_with_net_prices_adds_the_vat(
    tmp_path: Any, database_url: str, fake: FakeStripe, vies: FakeVies
) -> None:
    """Net catalogue prices (prices_include_vat off): VAT on top, and none under the reverse
    charge; the synced Stripe Prices are exclusive."""
    from tests.billing.conftest import tax_shop_of

    async with tax_shop_of(
        tmp_path, database_url, fake, vies, prices_include_vat=False, vat_oss=True
    ) as shop:
        client = shop.test_client()
        offer = (
            await call(client, "post", "/api/billing/quote", {"plan": "pro-ai", "country": "FR"})
        )[1]
        # The One-Stop-Shop: a French consumer pays France's 20 %.
        assert (offer["net"], offer["vat"], offer["gross"], offer["rate"]) == (
            99900,
            19980,
            119880,
            2000,
        )
        business = (
            await call(
                client,
                "post",
                "/api/billing/quote",
                {"plan": "pro-ai", "buyer_type": "business", "vat_id": "FR40303265045"},
            )
        )[1]
        assert (business["net"], business["vat"], business["gross"]) == (99900, 0, 99900)
        prices = [o for o in fake.objects.values() if o.get("object") == "price"]
        assert {p["tax_behavior"] for p in prices} == {"exclusive"}


QUOTE_FIELDS = st.fixed_dictionaries(
    {},
    optional={
        "plan": st.one_of(st.sampled_from(["pro-ai", "professional", "", "nope"]), st.text()),
        "buyer_type": st.one_of(st.sampled_from(["consumer", "business"]), st.text()),
        "country": st.one_of(st.sampled_from(["DE", "fr", "EL", "GR", "US", "", "XX"]), st.text()),
        "vat_id": st.one_of(
            st.sampled_from(["DE136695976", "EL 094 259 216", "NL004495445B01", "DE1", ""]),
            st.text(),
        ),
    },
)


@settings(
    suppress_health_check=[HealthCheck.function_scoped_fixture], max_examples=60, deadline=None
)
@given(body=st.one_of(QUOTE_FIELDS, st.integers(), st.lists(st.text(), max_size=2)))
async def test_no_quote_body_gets_a_500(tax_shop: Any, body: Any) -> None:
    await RateCounter.all().delete()  # every example comes from the same address
    client = tax_shop.test_client()
    response = await client.post("/api/billing/quote", json=body, headers=HEADERS)
    assert response.status_code in (200, 400), (body, await response.get_data(as_text=True))
    data = await response.get_json()
    if response.status_code == 200:
        assert data["net"] + data["vat"] == data["gross"]
        assert data["vat"] >= 0 and data["net"] >= 0
        assert data["kind"] in ("standard", "reverse_charge", "small_business", "outside_eu")
        assert len(data["country"]) == 2
        if data["kind"] == "reverse_charge":
            assert data["vat_id_status"] == "valid"
