"""The owner's overview on a big database: is `GET /api/admin/overview` fast for every period, and
the daily snapshot, on SQLite and PostgreSQL?

    .venv/bin/python bench/overview.py [--db sqlite,postgres] [--customers 10000] \
        [--events 200000] [--leads 50000] [--tests 100000] [--runs 5]

For each database (a fresh SQLite file in a temporary directory; a fresh PostgreSQL database on
`AGENCY_BENCH_POSTGRES_URL`, default postgres://postgres@127.0.0.1:5432/postgres, created and
dropped after) it applies the migrations, fills the tables with bulk inserts (a year of
history, spread evenly, rows as the webhook handler and the modules write them):

- `--customers` accounts, each a Stripe customer; about 60 % subscribe (a `new` MRR movement,
  some an expansion or a contraction, a fifth churn again, a few reactivate), 3 % of the
  subscriptions are past due;
- `--events` rows derived from webhooks, in these shares: webhook events 40 %, checkout
  sessions 20 % (complete, expired, open), orders 12 %, revenue entries 14 % (payments, and
  refunds), MRR movements (as many as the subscriptions make) and payment failures (1 %) the
  rest;
- `--leads` leads across every form and page, and 5 % as many newsletter consents;
- `--tests` speed tests: 70 % visitors' from the three pages (an e-mail each, one in ten a
  customer's), the rest the dashboard's and the monitoring's; a tenth as many analyses;
- websites (0.8 per customer) in every status with scores, support requests (5 % of the
  customers) with replies.

Then it signs an admin in through the API and asks the app (in this process, through Quart's
test client: routing, the admin check, validation, the queries and the JSON, no network) for the
overview of each period `--runs` times, and prints the median and the slowest server time per
period, and the daily snapshot's duration (`agency overview snapshot`: today's and yesterday's
rows). Target: every median under 300 ms. Exits 1 when one is not. Beside each: the median CPU
time of this process per request (the app, and on SQLite the database's work too, which runs
in this process), which a busy machine moves much less than the wall time.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import asyncpg

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "src"))

from agency.app import create_app  # noqa: E402
from agency.core import db  # noqa: E402
from agency.modules.analysis.models import Analysis  # noqa: E402
from agency.modules.auth.models import User  # noqa: E402
from agency.modules.auth.service import admin as auth_admin  # noqa: E402
from agency.modules.billing.models import (  # noqa: E402
    CheckoutSession,
    Customer,
    MrrMovement,
    Order,
    PaymentFailure,
    RevenueEntry,
    Subscription,
    WebhookEvent,
)
from agency.modules.catalogue import service as catalogue_service  # noqa: E402
from agency.modules.leads.models import Lead, NewsletterConsent  # noqa: E402
from agency.modules.overview.service import snapshots  # noqa: E402
from agency.modules.sites.models import Website  # noqa: E402
from agency.modules.speedtest.models import SpeedTest  # noqa: E402
from agency.modules.support.models import SupportReply, SupportRequest  # noqa: E402
from agency.registry import MODULES  # noqa: E402
from agency.settings import Settings  # noqa: E402

POSTGRES_ADMIN = os.environ.get(
    "AGENCY_BENCH_POSTGRES_URL", "postgres://postgres@127.0.0.1:5432/postgres"
)
MODEL_MODULES = [m.models for m in MODULES if m.models is not None]
PERIODS = ("this_month", "last_month", "last_30_days", "this_quarter", "last_quarter")
TARGET_MS = 300.0
BATCH = 2000
HEADERS = {"X-Agency-Request": "1"}
YEAR = timedelta(days=365)
SOURCES = [
    "ai-automation-strategy-call",
    "ai-onboarding-audit",
    "ai-booking-demo",
    "clinic-consultation",
    "sales-funnel-teardown",
    "free-preview",
    "speed-test",
    "clinic-speed-test",
    "coach-speed-test",
    "ai-analysis",
    "business-analysis",
]
PLANS = [("starter", 9900), ("professional", 29900), ("premium", 59900), ("pro-ai", 19900)]
MONTHLY = [("professional", 2900), ("premium", 5900), ("ai-booking-pro", 9900)]


class Clock:
    """Times spread over the last year."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.now = datetime.now(UTC)

    def any(self) -> datetime:
        return self.now - self.rng.random() * YEAR

    def after(self, moment: datetime) -> datetime:
        return moment + (self.now - moment) * self.rng.random()


async def bulk(model: Any, rows: list[Any]) -> None:
    for start in range(0, len(rows), BATCH):
        await model.bulk_create(rows[start : start + BATCH])


async def fill(args: argparse.Namespace) -> dict[str, int]:
    """The year of history; returns the rows written per table."""
    rng = random.Random(28)
    clock = Clock(rng)
    counts: dict[str, int] = {}

    async def write(model: Any, rows: list[Any]) -> None:
        await bulk(model, rows)
        counts[model._meta.db_table] = counts.get(model._meta.db_table, 0) + len(rows)

    await catalogue_service.seed_if_empty()
    await write(
        User,
        [
            User(
                email=f"customer{n}@shop{n % 97}.example",
                password_hash="x",
                role="user",
                created_at=clock.any(),
            )
            for n in range(args.customers)
        ],
    )
    # Read back with their ids (the database's sequence hands them out).
    users = await User.all().order_by("id")
    await write(
        Customer,
        [Customer(user_id=u.id, stripe_customer_id=f"cus_{u.id:08d}") for u in users],
    )

    # Subscriptions and their MRR movements, per customer, in order of time.
    events_left = args.events
    subscriptions, movements = [], []
    for user in users:
        if rng.random() > 0.6:
            continue
        plan, price = rng.choice(MONTHLY)
        started = clock.after(user.created_at)
        sid = f"sub_{user.id:08d}"
        mrr, active = price, 1

        def move(
            kind: str,
            delta: int,
            at: datetime,
            active_delta: int = 0,
            sid: str = sid,
            user_id: int = user.id,
        ) -> None:
            movements.append(
                MrrMovement(
                    subscription_id=sid,
                    user_id=user_id,
                    event_id=f"evt_{uuid.uuid4().hex}",
                    kind=kind,
                    delta=delta,
                    mrr_after=0,
                    active_delta=active_delta,
                    currency="EUR",
                    occurred_at=at,
                    day=at.date(),
                )
            )

        move("new", price, started, 1)
        at = started
        roll = rng.random()
        if roll < 0.15:
            at = clock.after(at)
            move("expansion", price, at)
            mrr += price
        elif roll < 0.25:
            at = clock.after(at)
            move("contraction", -(price // 2), at)
            mrr -= price // 2
        if rng.random() < 0.2:
            at = clock.after(at)
            move("churn", -mrr, at, -1)
            active = 0
            if rng.random() < 0.2:
                at = clock.after(at)
                move("reactivation", price, at, 1)
                mrr, active = price, 1
        status = "active" if active else "canceled"
        if active and rng.random() < 0.03:
            status = "past_due"
        subscriptions.append(
            Subscription(
                id=sid,
                user_id=user.id,
                customer_id=f"cus_{user.id:08d}",
                status=status,
                plan_key=plan,
                mrr=mrr if active else 0,
                currency="eur",
                interval="month",
                unit_amount=price,
                stripe_created=int(started.timestamp()),
            )
        )
    await write(Subscription, subscriptions)
    await write(MrrMovement, movements)
    events_left -= len(movements)

    # Payment failures (1 %), half recovered; the past-due subscriptions' not recovered.
    failures = []
    past_due = [s for s in subscriptions if s.status == "past_due"]
    for n in range(max(len(past_due), args.events // 100)):
        subscription = past_due[n] if n < len(past_due) else rng.choice(subscriptions)
        failed = clock.any()
        recovered = None if n < len(past_due) or rng.random() < 0.5 else clock.after(failed)
        failures.append(
            PaymentFailure(
                invoice_id=f"in_fail_{n}",
                user_id=subscription.user_id,
                stripe_customer_id=subscription.customer_id,
                subscription_id=subscription.id,
                amount=subscription.unit_amount or 0,
                currency="eur",
                failed_at=failed,
                last_failed_at=failed,
                recovered_at=recovered,
            )
        )
    await write(PaymentFailure, failures)
    events_left -= len(failures)

    # Checkout sessions, the orders of the completed ones, and the revenue entries.
    sessions, orders, revenue = [], [], []
    n_sessions = int(args.events * 0.20)
    for n in range(n_sessions):
        user = rng.choice(users)
        plan, price = rng.choice(PLANS)
        created = clock.after(user.created_at)
        roll = rng.random()
        status = "complete" if roll < 0.6 else "expired" if roll < 0.9 else "open"
        sid = f"cs_{n:09d}"
        sessions.append(
            CheckoutSession(
                id=sid,
                user_id=user.id,
                plan_key=plan,
                mode="payment",
                status=status,
                created_at=created,
                completed_at=created if status == "complete" else None,
            )
        )
        if status == "complete" and len(orders) < int(args.events * 0.12):
            refunded = rng.random() < 0.05
            orders.append(
                Order(
                    user_id=user.id,
                    plan_key=plan,
                    checkout_session_id=sid,
                    payment_intent_id=f"pi_{n:09d}",
                    amount=price,
                    currency="eur",
                    status="refunded" if refunded else "paid",
                    order_date=created,
                    amount_refunded=price if refunded else 0,
                )
            )
            net = round(price / 1.19)
            revenue.append(
                RevenueEntry(
                    stripe_id=sid,
                    kind="one_time",
                    user_id=user.id,
                    plan_key=plan,
                    gross=price,
                    net=net,
                    currency="EUR",
                    occurred_at=created,
                )
            )
            if refunded:
                revenue.append(
                    RevenueEntry(
                        stripe_id=f"re_{n:09d}",
                        kind="one_time",
                        refund=True,
                        user_id=user.id,
                        plan_key=plan,
                        gross=-price,
                        net=-net,
                        currency="EUR",
                        occurred_at=clock.after(created),
                    )
                )
    # Subscription invoices paid: the rest of the revenue entries' share.
    for n in range(max(0, int(args.events * 0.14) - len(revenue))):
        subscription = rng.choice(subscriptions)
        revenue.append(
            RevenueEntry(
                stripe_id=f"in_{n:09d}",
                kind="recurring",
                user_id=subscription.user_id,
                plan_key=subscription.plan_key,
                gross=subscription.unit_amount or 0,
                net=round((subscription.unit_amount or 0) / 1.19),
                currency="EUR",
                occurred_at=clock.any(),
            )
        )
    await write(CheckoutSession, sessions)
    await write(Order, orders)
    await write(RevenueEntry, revenue)
    events_left -= len(sessions) + len(orders) + len(revenue)

    # The webhook events themselves (their payloads small: the overview never reads them).
    kinds = ["checkout.session.completed", "invoice.paid", "customer.subscription.updated"]
    await write(
        WebhookEvent,
        [
            WebhookEvent(
                id=f"evt_bench_{n:09d}",
                type=rng.choice(kinds),
                created=int(clock.any().timestamp()),
                status="processed",
                payload={"id": f"evt_bench_{n:09d}"},
            )
            for n in range(max(0, events_left))
        ],
    )

    await write(
        Lead,
        [
            Lead(
                source=rng.choice(SOURCES),
                email=f"lead{n % (args.leads // 2 + 1)}@visitor.example",
                created_at=clock.any(),
            )
            for n in range(args.leads)
        ],
    )
    await write(
        NewsletterConsent,
        [
            NewsletterConsent(
                email=f"lead{n}@visitor.example",
                form=rng.choice(SOURCES),
                wording_version="v",
                outcome=rng.choice(["subscribed", "refused", "not_configured"]),
                created_at=clock.any(),
            )
            for n in range(args.leads // 20)
        ],
    )

    def visitor_email(n: int) -> str:
        if rng.random() < 0.1:
            return rng.choice(users).email
        return f"tester{n % 30000}@visitor.example"

    tests = []
    for n in range(args.tests):
        visitor = rng.random() < 0.7
        tests.append(
            SpeedTest(
                public_id=uuid.uuid4().hex,
                domain=f"site{n % 5000}.example",
                url=f"https://site{n % 5000}.example",
                strategy="mobile",
                provider="psi",
                status="done",
                source=rng.choice(["speed-test", "clinic-speed-test", "coach-speed-test"])
                if visitor
                else rng.choice(["dashboard", "monitoring"]),
                email=visitor_email(n) if visitor else None,
                score=rng.randrange(20, 100),
                created_at=clock.any(),
            )
        )
    await write(SpeedTest, tests)
    await write(
        Analysis,
        [
            Analysis(
                public_id=uuid.uuid4().hex,
                variant="general",
                source="ai-analysis",
                domain=f"site{n}.example",
                url=f"https://site{n}.example/",
                email=visitor_email(n),
                status="done",
                created_at=clock.any(),
            )
            for n in range(args.tests // 10)
        ],
    )

    statuses = ["building", "live", "live", "live", "paused", "cancelled"]
    await write(
        Website,
        [
            Website(
                user_id=rng.choice(users).id,
                domain=f"customer-site{n}.example",
                page_speed=rng.randrange(30, 100) if rng.random() < 0.8 else None,
                status=rng.choice(statuses),
                created_at=clock.any(),
                status_changed_at=clock.any() if rng.random() < 0.5 else None,
            )
            for n in range(int(args.customers * 0.8))
        ],
    )
    requests = [
        SupportRequest(
            user_id=None,
            name="V",
            email=f"v{n}@x.example",
            subject="Help",
            message="Hello",
            status=rng.choice(["open", "answered", "resolved"]),
            created_at=clock.any(),
        )
        for n in range(args.customers // 20)
    ]
    await write(SupportRequest, requests)
    stored = await SupportRequest.all().order_by("id").values_list("id", "created_at")
    await write(
        SupportReply,
        [
            SupportReply(
                request_id=request_id,
                body="Done.",
                created_at=created + timedelta(hours=rng.randrange(1, 72)),
            )
            for request_id, created in stored
            if rng.random() < 0.8
        ],
    )
    return counts


async def timed(work: Callable[[], Awaitable[Any]]) -> float:
    started = time.perf_counter()
    await work()
    return (time.perf_counter() - started) * 1000


async def measure(url: str, args: argparse.Namespace, workdir: Path) -> dict[str, Any]:
    await db.upgrade(url, MODEL_MODULES)
    await db.init_db(url, MODEL_MODULES)
    try:
        started = time.perf_counter()
        counts = await fill(args)
        filled = time.perf_counter() - started
    finally:
        await db.close_db()
    settings = Settings(
        data_dir=workdir / "data",
        database_url=url,
        secret_key="bench-secret-key-" + "x" * 32,
        access_log=False,
        run_jobs=False,
        web_dir=workdir / "no-web",
    )
    app = create_app(settings)
    results: dict[str, Any] = {"rows": counts, "fill_s": filled}
    async with app.test_app() as test_app:
        client = test_app.test_client()
        body = {
            "email": "owner@agency.example",
            "password": "correct horse battery",
            "confirm_password": "correct horse battery",
            "first_name": "O",
            "last_name": "Wner",
        }
        response = await client.post("/api/auth/signup", json=body, headers=HEADERS)
        assert response.status_code in (200, 201), await response.get_data()
        await auth_admin.set_role("owner@agency.example", "admin")
        for period in PERIODS:
            times, inner, cpu = [], [], []
            for _ in range(args.runs + 1):  # the first run warms the caches
                started, cpu_started = time.perf_counter(), time.process_time()
                response = await client.get(f"/api/admin/overview?period={period}", headers=HEADERS)
                data = await response.get_json()
                times.append((time.perf_counter() - started) * 1000)
                cpu.append((time.process_time() - cpu_started) * 1000)
                assert response.status_code == 200, data
                inner.append(data["generated_in_ms"])
            results[period] = (
                statistics.median(times[1:]),
                max(times[1:]),
                inner[-1],
                statistics.median(cpu[1:]),
            )
        snaps = [await timed(snapshots.take) for _ in range(args.runs)]
        results["snapshot"] = (statistics.median(snaps), max(snaps))
    return results


async def _pg_admin(sql: str) -> None:
    conn = await asyncpg.connect(POSTGRES_ADMIN.replace("postgres://", "postgresql://", 1))
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


def postgres_url(name: str) -> str:
    admin = urlsplit(POSTGRES_ADMIN)
    credentials = admin.netloc.rpartition("@")[0]
    host = f"{admin.hostname}:{admin.port or 5432}"
    return f"postgres://{credentials}@{host}/{name}" if credentials else f"postgres://{host}/{name}"


async def run_backend(name: str, args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="agency-bench-overview-") as tmp:
        workdir = Path(tmp)
        if name == "sqlite":
            return await measure(f"sqlite://{workdir / 'bench.db'}", args, workdir)
        database = f"agency_bench_overview_{os.getpid()}_{random.randrange(10**6)}"
        await _pg_admin(f'CREATE DATABASE "{database}"')
        try:
            return await measure(postgres_url(database), args, workdir)
        finally:
            await _pg_admin(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')


def report(results: dict[str, dict[str, Any]]) -> bool:
    ok = True
    lines = [
        "| Database | Period | Median ms | Slowest ms | generated_in_ms | CPU ms | Target |",
        "| --- | --- | ---: | ---: | ---: | ---: | --- |",
    ]
    for name, found in results.items():
        for period in PERIODS:
            median, slowest, inner, cpu = found[period]
            hit = median < TARGET_MS
            ok = ok and hit
            mark = "✓" if hit else "**✗**"
            lines.append(
                f"| {name} | {period} | {median:.0f} | {slowest:.0f} | {inner} | {cpu:.0f} "
                f"| {mark} < 300 |"
            )
        median, slowest = found["snapshot"]
        lines.append(f"| {name} | snapshot job | {median:.0f} | {slowest:.0f} | | | |")
    print("\n".join(lines))
    load = os.getloadavg()
    loads = f"{load[0]:.1f} {load[1]:.1f} {load[2]:.1f}"
    print(f"\nLoad average at the end: {loads} ({os.cpu_count()} CPUs)")
    for name, found in results.items():
        total = sum(found["rows"].values())
        print(f"\n{name}: {total:,} rows written in {found['fill_s']:.0f} s:")
        print(", ".join(f"{table} {count:,}" for table, count in sorted(found["rows"].items())))
    return ok


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", default="sqlite,postgres", help="sqlite, postgres or both")
    parser.add_argument("--customers", type=int, default=10_000)
    parser.add_argument("--events", type=int, default=200_000)
    parser.add_argument("--leads", type=int, default=50_000)
    parser.add_argument("--tests", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    results = {}
    for name in [n.strip() for n in args.db.split(",") if n.strip()]:
        if name not in ("sqlite", "postgres"):
            parser.error(f"unknown database {name!r}")
        print(f"{name}: filling and measuring...", file=sys.stderr, flush=True)
        results[name] = asyncio.run(run_backend(name, args))
    raise SystemExit(0 if report(results) else 1)


if __name__ == "__main__":
    main()
