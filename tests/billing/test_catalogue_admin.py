"""The admins' catalogue (GET /api/admin/catalogue, PATCH /api/admin/catalogue/plans/<key>)
against our fake Stripe over HTTP: a price change creates the new Stripe price through the
code of `agency stripe sync` and archives the old one, records the old price in the price
history and the audit log, and the public catalogue shows it on the next request; without
payments the change is saved for `agency stripe sync`; a Stripe failure changes nothing; a
hidden plan is not sold while its subscribers keep working."""

from __future__ import annotations

from typing import Any

import pytest
import stripe

from agency.modules.audit.models import AuditEntry
from agency.modules.billing.clients import StripeGateway
from agency.modules.billing.service import prices as billing_prices
from agency.modules.catalogue import service as catalogue
from agency.modules.catalogue.models import Plan, PriceChange
from tests.billing.conftest import VISITOR, checkout, deliver
from tests.conftest import ADMIN_EMAIL
from tests.fakes.stripe_server import FakeStripe
from tests.helpers.http import call, signed_up

PATH = "/api/admin/catalogue/plans/{}"


def stripe_prices(fake: FakeStripe) -> list[dict[str, Any]]:
    return [o for o in fake.objects.values() if o.get("object") == "price"]


async def public_plans(client: Any) -> dict[str, dict[str, Any]]:
    body = await (await client.get("/api/catalogue")).get_json()
    return {p["key"]: p for p in body["plans"]}


async def entries(action: str | None = None) -> list[AuditEntry]:
    """The catalogue's audit entries (making the test admin an admin writes one of its own)."""
    query = AuditEntry.filter(action__startswith="catalogue.")
    if action is not None:
        query = query.filter(action=action)
    return list(await query.order_by("id"))


@pytest.fixture
async def admin(shop: Any) -> Any:
    """An admin signed in to the shop (catalogue seeded and synced to the fake)."""
    return await signed_up(shop, ADMIN_EMAIL, admin=True)


async def test_the_admin_reads_every_family_and_plan(admin: Any) -> None:
    await Plan.filter(key="premium").update(active=False)
    status, data = await call(admin, "get", "/api/admin/catalogue")
    assert status == 200, data
    assert data["payments_configured"] is True
    families = {f["key"]: f for f in data["families"]}
    website = {p["key"]: p for p in families["website"]["plans"]}
    assert list(website) == ["starter", "professional", "premium"]
    professional = website["professional"]
    assert (professional["price"], professional["interval"], professional["badge"]) == (
        2900,
        "month",
        "popular",
    )
    assert professional["on_sale"] is True and professional["checkout"] is True
    assert professional["stripe_price_id"].startswith("price_")
    assert professional["original_price"] == 9700
    assert [(h["old_price"], h["new_price"], h["source"]) for h in professional["history"]] == [
        (9700, 2900, "file")
    ]
    assert website["premium"]["on_sale"] is False  # hidden plans are listed too
    funnel = {p["key"]: p for p in families["funnel"]["plans"]}
    assert funnel["growth-funnel"]["checkout"] is False
    assert funnel["growth-funnel"]["stripe_price_id"] is None


async def test_a_price_change_replaces_the_stripe_price_and_shows_on_the_public_pages(
    admin: Any, fake: FakeStripe
) -> None:
    old_id = (await Plan.get(key="professional")).stripe_price_id
    status, data = await call(admin, "patch", PATH.format("professional"), {"price": 2400})
    assert status == 200, data
    assert data["stripe"] == "created" and data["changed"] == ["price"]
    plan = data["plan"]
    new_id = plan["stripe_price_id"]
    assert new_id != old_id
    assert data["message"] == (
        f"Saved. Professional now costs €24.00: Stripe price {new_id} created and {old_id} "
        "archived. Existing subscribers keep their current price."
    )
    assert data["warning"] is None
    # At Stripe: the new price as `agency stripe sync` makes it, the old one archived.
    new = fake.get(new_id)
    assert (new["unit_amount"], new["lookup_key"], new["active"], new["tax_behavior"]) == (
        2400,
        "professional",
        True,
        "inclusive",
    )
    assert new["recurring"]["interval"] == "month"
    assert fake.get(old_id or "")["active"] is False
    assert fake.received("prices.update")[-1] == {"active": "false"}
    # The price history (the struck-through price reads it) and the public catalogue.
    latest = plan["history"][0]
    assert (latest["old_price"], latest["new_price"], latest["source"]) == (2900, 2400, "admin")
    public = await public_plans(admin)
    assert (public["professional"]["price"], public["professional"]["original_price"]) == (
        2400,
        2900,
    )
    assert public["professional"]["price_id"] == new_id
    # The audit log: who, what, before and after.
    [entry] = await entries("catalogue.price_changed")
    assert (entry.actor_id, entry.actor_email) == (admin.user_id, ADMIN_EMAIL)
    assert (entry.target_type, entry.target_id, entry.target_label) == (
        "plan",
        "professional",
        "Professional",
    )
    assert entry.before == {"price": 2900, "currency": "EUR", "stripe_price_id": old_id}
    assert entry.after == {"price": 2400, "currency": "EUR", "stripe_price_id": new_id}
    # `agency stripe sync` afterwards finds everything in place.
    gateway = admin.app.extensions["billing.gateway"]
    lines = await billing_prices.sync_prices(gateway, dry_run=False)
    assert f"professional: matched {new_id}" in lines


async def test_texts_badge_and_promises_change_without_stripe(admin: Any, fake: FakeStripe) -> None:
    count = len(stripe_prices(fake))
    body = {
        "name": "  Professional Plus ",
        "badge": None,
        "delivery": "48 hours",
        "guarantee": "",
        "features": ["Everything in Starter", "", " Priority support "],
        "description": "Professional, with more.",
    }
    status, data = await call(admin, "patch", PATH.format("professional"), body)
    assert status == 200, data
    assert data["stripe"] == "none" and data["message"] == "Saved."
    assert data["changed"] == ["badge", "delivery", "description", "features", "guarantee", "name"]
    public = (await public_plans(admin))["professional"]
    assert (public["name"], public["badge"], public["delivery"], public["guarantee"]) == (
        "Professional Plus",
        None,
        "48 hours",
        None,
    )
    assert public["features"] == ["Everything in Starter", "Priority support"]
    assert len(stripe_prices(fake)) == count
    [entry] = await entries()
    assert entry.action == "catalogue.plan_updated"
    assert entry.before["badge"] == "popular" and entry.after["badge"] is None
    assert entry.before["name"] == "Professional" and entry.after["name"] == "Professional Plus"
    assert set(entry.before) == set(data["changed"])
    # The same values again: nothing changes, nothing is recorded.
    status, again = await call(admin, "patch", PATH.format("professional"), body)
    assert (status, again["changed"], again["message"]) == (200, [], "Nothing changed.")
    assert len(await entries()) == 1


async def test_a_hidden_plan_is_not_sold_but_its_subscribers_keep_working(
    shop: Any, admin: Any, fake: FakeStripe
) -> None:
    buyer = shop.test_client()
    status, data = await checkout(buyer, "professional", **VISITOR)
    assert status == 200, data
    before = len(fake.events())
    await fake.pay_async(data["url"].rstrip("/").rsplit("/", 1)[1])
    for event in fake.events()[before:]:
        assert (await deliver(buyer, event)).status_code == 200
    price_id = (await Plan.get(key="professional")).stripe_price_id

    status, data = await call(admin, "patch", PATH.format("professional"), {"on_sale": False})
    assert status == 200, data
    assert data["plan"]["on_sale"] is False and data["changed"] == ["on_sale"]
    [entry] = await entries("catalogue.plan_hidden")
    assert (entry.before, entry.after) == ({"on_sale": True}, {"on_sale": False})

    assert "professional" not in await public_plans(admin)
    refused, body = await checkout(shop.test_client(), "professional", **VISITOR)
    assert refused == 400 and body["error"]["fields"] == {"plan": "Please select a valid package"}
    status, body = await call(
        shop.test_client(), "post", "/api/billing/quote", {"plan": "professional"}
    )
    assert status == 400
    # The existing subscriber still sees the plan; the price id still maps to it.
    _, mine = await call(buyer, "get", "/api/billing/subscription")
    assert mine["subscription"]["plan_name"] == "Professional"
    found = await catalogue.plan_by_price_id(price_id or "")
    assert found is not None and found.key == "professional"
    # A price change while hidden: saved, no Stripe price until it is shown again.
    count = len(stripe_prices(fake))
    status, data = await call(admin, "patch", PATH.format("professional"), {"price": 2500})
    assert status == 200 and data["stripe"] == "none", data
    assert "shown again" in data["message"] and len(stripe_prices(fake)) == count

    status, data = await call(admin, "patch", PATH.format("professional"), {"on_sale": True})
    assert status == 200, data
    assert data["stripe"] == "created"
    assert fake.get(data["plan"]["stripe_price_id"])["unit_amount"] == 2500
    assert fake.get(price_id or "")["active"] is False
    assert (await public_plans(admin))["professional"]["price"] == 2500
    assert [e.action for e in await entries()] == [
        "catalogue.plan_hidden",
        "catalogue.price_changed",
        "catalogue.plan_shown",
    ]


async def test_a_stripe_failure_changes_nothing(admin: Any, fake: FakeStripe) -> None:
    # A product Stripe does not know: creating the price is refused.
    await Plan.filter(key="starter").update(stripe_product_id="prod_gone")
    count = len(stripe_prices(fake))
    status, data = await call(admin, "patch", PATH.format("starter"), {"price": 1500})
    assert status == 502, data
    assert data["error"]["code"] == "stripe_error"
    assert data["error"]["message"].startswith("Stripe did not accept the new price (")
    assert data["error"]["message"].endswith("). Nothing was changed.")
    assert "prod_gone" in data["error"]["message"]
    assert (await Plan.get(key="starter")).price == 1900
    assert not await PriceChange.filter(plan="starter", source="admin").exists()
    assert await entries() == []
    assert len(stripe_prices(fake)) == count
    assert (await public_plans(admin))["starter"]["price"] == 1900


async def test_stripe_unreachable_changes_nothing(admin: Any, monkeypatch: Any) -> None:
    gateway = admin.app.extensions["billing.gateway"]

    async def unreachable(_key: str) -> list[dict[str, Any]]:
        raise stripe.APIConnectionError("Network error: connection refused")

    monkeypatch.setattr(gateway, "prices_by_lookup_key", unreachable)
    status, data = await call(admin, "patch", PATH.format("starter"), {"price": 1500})
    assert status == 502 and data["error"]["message"] == (
        "Stripe did not accept the new price (Network error: connection refused). "
        "Nothing was changed."
    )
    assert (await Plan.get(key="starter")).price == 1900 and await entries() == []


async def test_a_change_refused_after_stripe_archives_the_new_price(
    admin: Any, fake: FakeStripe, monkeypatch: Any
) -> None:
    """Another admin changed the price while Stripe made ours: ours is refused (409) and the
    price made for it archived again; the plan keeps the other change."""
    gateway = admin.app.extensions["billing.gateway"]
    create = gateway.create_price
    made: list[str] = []

    async def create_meanwhile(params: dict[str, Any]) -> str:
        await Plan.filter(key="starter").update(price=1700)
        made.append(await create(params))
        return made[-1]

    monkeypatch.setattr(gateway, "create_price", create_meanwhile)
    old_id = (await Plan.get(key="starter")).stripe_price_id
    status, data = await call(admin, "patch", PATH.format("starter"), {"price": 1500})
    assert status == 409 and data["error"]["code"] == "plan_changed", data
    assert fake.get(made[0])["active"] is False
    starter = await Plan.get(key="starter")
    assert (starter.price, starter.stripe_price_id) == (1700, old_id)
    assert await entries() == []


async def test_a_failed_archive_is_reported_and_the_change_kept(
    admin: Any, fake: FakeStripe, monkeypatch: Any
) -> None:
    gateway = admin.app.extensions["billing.gateway"]

    async def refuse(_price_id: str) -> None:
        raise stripe.APIConnectionError("Network error")

    monkeypatch.setattr(gateway, "archive_price", refuse)
    old_id = (await Plan.get(key="starter")).stripe_price_id
    status, data = await call(admin, "patch", PATH.format("starter"), {"price": 1500})
    assert status == 200, data
    new_id = data["plan"]["stripe_price_id"]
    assert data["warning"] == (
        f"starter: created {new_id} (inclusive), but archiving the old price {old_id} failed "
        "(Network error): archive it in the Stripe dashboard"
    )
    assert fake.get(new_id)["active"] is True and fake.get(old_id or "")["active"] is True
    assert (await public_plans(admin))["starter"]["price"] == 1500


async def test_without_payments_the_change_waits_for_stripe_sync(
    app: Any, fake: FakeStripe
) -> None:
    await catalogue.seed(catalogue.load_file())
    admin = await signed_up(app, ADMIN_EMAIL, admin=True)
    status, data = await call(admin, "get", "/api/admin/catalogue")
    assert status == 200 and data["payments_configured"] is False
    status, data = await call(admin, "patch", PATH.format("pro-ai"), {"price": 89900})
    assert status == 200, data
    assert data["stripe"] == "not_configured"
    assert "`agency stripe sync` creates it" in data["message"]
    assert (await public_plans(admin))["pro-ai"]["price"] == 89900
    [entry] = await entries("catalogue.price_changed")
    assert entry.after == {"price": 89900, "currency": "EUR"}
    # Once payments are set up, `agency stripe sync` makes the price the change asked for.
    gateway = StripeGateway(fake.api_key, fake.base_url)
    lines = await billing_prices.sync_prices(gateway, dry_run=False)
    assert any(line.startswith("pro-ai: created ") for line in lines)
    plan = await catalogue.get_plan("pro-ai")
    assert plan is not None and fake.get(plan.stripe_price_id or "")["unit_amount"] == 89900


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"price": "29.90"}, "price"),
        ({"price": 29.9}, "price"),
        ({"price": 0}, "price"),
        ({"price": -100}, "price"),
        ({"price": 100_000_000}, "price"),
        ({"price": True}, "price"),
        ({"price": None}, "price"),
        ({"name": ""}, "name"),
        ({"name": "   "}, "name"),
        ({"name": None}, "name"),
        ({"name": "x" * 101}, "name"),
        ({"name": "two\nlines"}, "name"),
        ({"badge": "hot"}, "badge"),
        ({"delivery": "d" * 51}, "delivery"),
        ({"guarantee": "g" * 101}, "guarantee"),
        ({"features": ["f"] * 21}, "features"),
        ({"features": ["f" * 201]}, "features.0"),
        ({"on_sale": "no"}, "on_sale"),
        ({"colour": "red"}, "colour"),
    ],
)
async def test_bad_changes_are_refused_with_400(
    admin: Any, body: dict[str, Any], field: str
) -> None:
    status, data = await call(admin, "patch", PATH.format("starter"), body)
    assert status == 400, data
    assert data["error"]["code"] == "validation_error"
    assert field in data["error"]["fields"], data
    assert data["error"]["message"]
    assert await entries() == []


async def test_an_unknown_plan_is_404(admin: Any) -> None:
    status, data = await call(admin, "patch", PATH.format("no-such-plan"), {"price": 100})
    assert status == 404 and data["error"]["code"] == "plan_not_found"
