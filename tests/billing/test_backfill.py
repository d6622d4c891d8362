"""`agency billing backfill`: the MRR log rebuilt from Stripe for subscriptions that have none
(an account older than the log), and the command itself."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from agency.modules.billing import api as billing_api
from agency.modules.billing.models import MrrMovement, Subscription
from agency.modules.billing.service import backfill
from tests.billing.test_mrr import buy_plan, deliver_all, price, subscribe
from tests.conftest import run_agency
from tests.fakes.stripe_server import FakeStripe
from tests.helpers.http import signed_up


async def test_backfill_rebuilds_the_log_of_older_subscriptions(
    shop: Any, fake: FakeStripe
) -> None:
    gateway = shop.app.extensions["billing.gateway"]
    leaving = await buy_plan(shop, fake, "left@example.com", "professional")
    ended = (await Subscription.get()).id
    before = len(fake.events())
    await gateway.cancel_at_period_end(ended)
    await fake.renew_async(ended)  # the period ends: it ends
    await deliver_all(leaving, fake.events()[before:])
    staying = await signed_up(shop.app, "stays@example.com")
    running = await subscribe(shop, fake, staying, await price(shop, 29000, "year"))
    # As before the log existed: no movement, no MRR on the rows.
    await MrrMovement.all().delete()
    await Subscription.all().update(mrr=0)

    planned = await backfill.backfill(gateway, dry_run=True)
    assert sorted((m.subscription_id, m.kind, m.delta) for m in planned.movements) == sorted(
        [(ended, "new", 2437), (running, "new", 2031), (ended, "churn", -2437)]
    )
    assert await MrrMovement.all().count() == 0  # a dry run writes nothing

    done = await backfill.backfill(gateway, dry_run=False)
    assert (done.seen, done.skipped_known, done.skipped_foreign) == (2, 0, 0)
    rows = await MrrMovement.all().order_by("occurred_at", "id")
    assert {(m.subscription_id, m.kind, m.delta, m.source) for m in rows} == {
        (ended, "new", 2437, "backfill"),
        (running, "new", 2031, "backfill"),
        (ended, "churn", -2437, "backfill"),
    }
    assert {s.id: s.mrr for s in await Subscription.all()} == {ended: 0, running: 2031}
    later = datetime.now(UTC) + timedelta(minutes=1)
    assert await billing_api.mrr_at(later) == 2031
    assert await billing_api.active_subscriptions(later) == 1

    again = await backfill.backfill(gateway, dry_run=False)  # nothing twice
    assert (again.skipped_known, again.movements) == (2, [])
    assert await MrrMovement.all().count() == 3


async def test_a_returning_customer_is_reactivation_in_the_backfill(
    shop: Any, fake: FakeStripe
) -> None:
    gateway = shop.app.extensions["billing.gateway"]
    client = await buy_plan(shop, fake, "back@example.com", "professional")
    first = (await Subscription.get()).id
    await gateway.cancel_now(first)
    await subscribe(shop, fake, client, await price(shop, 4900))
    await MrrMovement.all().delete()
    await Subscription.all().update(mrr=0)
    done = await backfill.backfill(gateway, dry_run=False)
    kinds = [(m.kind, m.delta) for m in done.movements]
    # All in the same second at the fake: the order within it is either; the kinds follow it.
    assert sorted(delta for _, delta in kinds) == [-2437, 2437, 4118]
    assert kinds[0][0] == "new"
    running, expected = 0, []
    for _, delta in kinds:
        after = running + delta
        expected.append(
            "new"
            if running == 0 and not expected
            else "reactivation"
            if running == 0
            else "churn"
            if after == 0
            else "expansion"
            if after > running
            else "contraction"
        )
        running = after
    assert [kind for kind, _ in kinds] == expected
    assert sum(delta for _, delta in kinds) == 4118


@pytest.mark.slow  # runs the `agency` command in a subprocess
def test_the_backfill_command_needs_stripe_and_says_what_it_did(tmp_path: Path) -> None:
    assert run_agency(tmp_path, "db", "upgrade").returncode == 0
    unset = run_agency(tmp_path, "billing", "backfill", "--dry-run")
    assert unset.returncode == 2 and "AGENCY_STRIPE_SECRET_KEY" in unset.stderr
    shown = run_agency(tmp_path, "billing", "--help")
    assert "backfill" in shown.stdout and "vat-report" in shown.stdout
