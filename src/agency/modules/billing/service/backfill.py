"""`agency billing backfill`: the MRR movement log rebuilt from Stripe for an account that
existed before the log (docs/features/mrr.md).

Every subscription at Stripe (`status=all`) of a customer of ours that has no movement yet gets
them, with `source` backfill: the MRR it has (or, once ended, had while it ran: its value as an
active subscription) from its start (`start_date`, else `created`), and for an ended one (canceled,
incomplete_expired, unpaid) a churn at `ended_at` (else `canceled_at`, else now). Movements are
classified per customer in time order, as the webhooks do. The subscription's row is stored too
(its MRR and what it is computed from). A subscription that already has movements (the webhooks
wrote them) is left alone, so the command can run again."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from tortoise.transactions import in_transaction

from agency.modules.billing.clients import StripeGateway
from agency.modules.billing.models import MOVEMENT_BACKFILL, MrrMovement, Subscription
from agency.modules.billing.service import mrr, subscriptions

ENDED = ("canceled", "incomplete_expired", "unpaid")


@dataclass
class Planned:
    subscription_id: str
    user_id: int
    kind: str
    delta: int
    currency: str
    at: datetime


@dataclass
class BackfillResult:
    seen: int = 0
    skipped_known: int = 0  # movements already in the log
    skipped_foreign: int = 0  # a customer of no user of ours
    movements: list[Planned] = field(default_factory=list)

    def lines(self) -> list[str]:
        found = [
            f"{m.subscription_id} (user {m.user_id}): {m.kind} {m.delta:+d} {m.currency} "
            f"at {m.at:%Y-%m-%d %H:%M} UTC"
            for m in self.movements
        ]
        return found


def _at(value: object) -> datetime | None:
    return datetime.fromtimestamp(value, UTC) if type(value) is int and value > 0 else None


async def backfill(gateway: StripeGateway, *, dry_run: bool) -> BackfillResult:
    result = BackfillResult()
    listed = await gateway.all_subscriptions()
    result.seen = len(listed)
    known: set[str] = {
        str(sub_id)
        for sub_id in await MrrMovement.all().distinct().values_list("subscription_id", flat=True)
    }
    history: list[tuple[datetime, str, int, str, int]] = []  # at, sub, user, currency, delta
    rows: list[dict[str, Any]] = []
    for subscription in listed:
        if str(subscription.get("id")) in known:
            result.skipped_known += 1
            continue
        row = await subscriptions.row_of(subscription)
        if row is None:
            result.skipped_foreign += 1
            continue
        rows.append(row)
        ended = subscription.get("status") in ENDED
        # An ended subscription counted what it was worth while it ran; a running one what it
        # is worth now (0 while trialing, incomplete or paused: no movement).
        value, currency = (
            mrr.monthly_value({**subscription, "status": "active"})
            if ended
            else (row["mrr"], row["currency"])
        )
        if value <= 0 or not currency:
            continue
        started = _at(subscription.get("start_date")) or _at(subscription.get("created"))
        started = started or datetime.now(UTC)
        history.append((started, row["id"], row["user_id"], currency, value))
        if ended:
            end = (
                _at(subscription.get("ended_at"))
                or _at(subscription.get("canceled_at"))
                or datetime.now(UTC)
            )
            history.append((max(end, started), row["id"], row["user_id"], currency, -value))
    # Per customer and currency, in time order: what the customer had before each movement.
    users = {user for _, _, user, _, _ in history}
    existing: dict[tuple[int, str], int] = {}
    had: set[tuple[int, str]] = set()
    if users:
        for sub in await Subscription.filter(user_id__in=sorted(users)).exclude(
            id__in=[r["id"] for r in rows]
        ):
            key = (sub.user_id, sub.currency)
            existing[key] = existing.get(key, 0) + sub.mrr
        for user_id, currency in await MrrMovement.filter(user_id__in=sorted(users)).values_list(
            "user_id", "currency"
        ):
            had.add((int(user_id), str(currency)))
    history.sort(key=lambda h: (h[0], h[4] < 0, h[1]))
    totals = dict(existing)
    for at, sub_id, user_id, currency, delta in history:
        key = (user_id, currency)
        before = totals.get(key, 0)
        after = before + delta
        kind = mrr.classify(before, after, had_mrr_before=key in had)
        had.add(key)
        totals[key] = after
        result.movements.append(Planned(sub_id, user_id, kind, delta, currency, at))
    if dry_run:
        return result
    async with in_transaction():
        for row in rows:
            values = {k: v for k, v in row.items() if k != "id"}
            await Subscription.update_or_create(defaults=values, id=row["id"])
        running_by_sub: dict[str, int] = {}
        created = []
        for movement in result.movements:
            after = running_by_sub.get(movement.subscription_id, 0) + movement.delta
            running_by_sub[movement.subscription_id] = after
            before = after - movement.delta
            created.append(
                MrrMovement(
                    subscription_id=movement.subscription_id,
                    user_id=movement.user_id,
                    event_id=None,
                    kind=movement.kind,
                    delta=movement.delta,
                    mrr_after=after,
                    active_delta=1 if before <= 0 < after else -1 if after <= 0 < before else 0,
                    currency=movement.currency,
                    occurred_at=movement.at,
                    day=movement.at.date(),
                    source=MOVEMENT_BACKFILL,
                )
            )
        if created:
            await MrrMovement.bulk_create(created, batch_size=500)
    return result
