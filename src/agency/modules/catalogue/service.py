"""Catalogue use cases: load the data file, seed it, read it, resolve a /start request."""

from __future__ import annotations

import hashlib
import json
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from tortoise import connections
from tortoise.expressions import F
from tortoise.transactions import in_transaction

from agency.core.errors import Conflict, NotFound, ValidationFailed
from agency.core.paths import config_dir
from agency.core.web.coalesce import Coalesced
from agency.modules.audit import api as audit_api
from agency.modules.audit.api import Actor
from agency.modules.catalogue.models import CatalogueVersion, Family, Plan, PriceChange
from agency.modules.catalogue.schemas import (
    MAX_PRICE,
    AdminCatalogueOut,
    AdminFamilyOut,
    AdminPlanOut,
    CatalogueIn,
    CatalogueOut,
    FamilyOut,
    PlanChangesIn,
    PlanIn,
    PlanInfo,
    PlanOut,
    PlanUpdate,
    PriceChangeInfo,
    PriceChangeOut,
    SeedReport,
)
from agency.modules.tax.api import TaxDisplay

DEFAULT_FAMILY = "website"
# Plan fields copied from the data file; Stripe ids and `active` are the program's own, the
# previous price goes to the price history.
_DATA_FIELDS = tuple(name for name in PlanIn.model_fields if name not in ("key", "previous_price"))
# A reduction is compared with the lowest price of the 30 days before it (the reference price
# of a price reduction in the EU, Art. 6a Directive 98/6/EC, §11 PAngV).
REFERENCE_DAYS = 30


def default_file() -> Path:
    return config_dir() / "catalogue.toml"


def load_file(path: Path | None = None) -> CatalogueIn:
    """Parse and check the catalogue data file; a readable error names the bad entry."""
    path = path or default_file()
    try:
        return CatalogueIn.model_validate(tomllib.loads(path.read_text()))
    except (tomllib.TOMLDecodeError, ValidationError) as exc:
        raise ValidationFailed(f"{path}: {exc}") from exc


async def seed(data: CatalogueIn) -> SeedReport:
    """Load the catalogue idempotently: new plans are created, changed ones updated, plans no
    longer in the file deactivated (never deleted: orders may point at them)."""
    created: list[str] = []
    updated: list[str] = []
    unchanged = 0
    for order, family in enumerate(data.families):
        family_values = family.model_dump(exclude={"key"}) | {"sort_order": order}
        await Family.update_or_create(defaults=family_values, key=family.key)
    for order, plan in enumerate(data.plans):
        values: dict[str, Any] = {name: getattr(plan, name) for name in _DATA_FIELDS}
        values["active"] = True
        existing = await Plan.get_or_none(key=plan.key)
        if existing is None:
            await Plan.create(key=plan.key, sort_order=order, **values)
            await _record_file_previous_price(plan)
            created.append(plan.key)
            continue
        if existing.price != plan.price:
            await _record(plan.key, existing.price, plan.price, plan.currency, "seed")
        else:
            await _record_file_previous_price(plan)
        if any(getattr(existing, name) != value for name, value in values.items()):
            updated.append(plan.key)
        else:
            unchanged += 1
        # The position follows the file too, without counting as a change of the plan.
        await Plan.filter(key=plan.key).update(sort_order=order, **values)
    keys = [plan.key for plan in data.plans]
    gone = await Plan.filter(active=True).exclude(key__in=keys).values_list("key", flat=True)
    await Plan.filter(key__in=list(gone)).update(active=False)
    await changed()
    return SeedReport(created, updated, sorted(str(k) for k in gone), unchanged)


async def _record(key: str, old: int, new: int, currency: str, source: str) -> None:
    await PriceChange.create(
        plan=key, old_price=old, new_price=new, currency=currency, source=source
    )


async def _record_file_previous_price(plan: PlanIn) -> None:
    """The data file's `previous_price`, recorded once: only while the plan has no history."""
    if plan.previous_price is None or await PriceChange.exists(plan=plan.key):
        return
    await _record(plan.key, plan.previous_price, plan.price, plan.currency, "file")


_PRICE = re.compile(r"^(\d{1,7})(?:[.,](\d{1,2}))?$")


def parse_price(text: str) -> int:
    """A price in euros as typed ("29", "29.90", "29,9", "€ 1999") -> integer cents."""
    cleaned = text.strip().removeprefix("€").removesuffix("€").strip()
    match = _PRICE.match(cleaned)
    if match is None:
        raise ValidationFailed(f"{text!r} is not a price: give euros such as 29 or 29.90")
    cents = int(match.group(1)) * 100 + int((match.group(2) or "0").ljust(2, "0"))
    if cents <= 0:
        raise ValidationFailed("A price must be above zero.")
    return cents


async def set_price(
    key: str, price: int, *, source: str = "cli", actor: Actor | None = None
) -> PriceChangeInfo | None:
    """Change a plan's price, recording the change in its price history and the audit log
    (`actor`, the command line by default) in one transaction (None: unchanged).

    A lower price makes the old one the plan's struck-through previous price; a higher one
    ends any struck price. The Stripe price follows with the next `agency stripe sync`."""
    if price <= 0:
        raise ValidationFailed("A price must be above zero.")
    if price > MAX_PRICE:
        raise ValidationFailed(f"A price must be at most €{MAX_PRICE / 100:,.2f}.")
    if await Plan.get_or_none(key=key) is None:
        raise NotFound(f"There is no plan {key!r}.", code="plan_not_found")
    update = await update_plan(
        key,
        PlanChangesIn(price=price),
        actor=actor or Actor.cli(),
        source=source,
    )
    return update.price_change


def _change_info(change: PriceChange) -> PriceChangeInfo:
    return PriceChangeInfo(
        plan=change.plan,
        old_price=change.old_price,
        new_price=change.new_price,
        currency=change.currency,
        source=change.source,
        changed_at=change.changed_at,
    )


async def price_history(key: str) -> list[PriceChangeInfo]:
    """A plan's price changes, oldest first."""
    changes = await PriceChange.filter(plan=key).order_by("changed_at", "id")
    return [_change_info(change) for change in changes]


def save_percent(previous: int, price: int) -> int | None:
    """Whole percent `price` is below `previous`, rounded down (never claims more)."""
    if previous <= price or previous <= 0:
        return None
    return ((previous - price) * 100) // previous or None


def previous_price(price: int, history: list[PriceChangeInfo]) -> int | None:
    """The struck-through price of a plan now at `price`: the lowest price it had in the 30
    days before its last change, if that change lowered it to `price`; else None."""
    if not history:
        return None
    last = history[-1]
    if last.new_price != price or last.old_price <= price:
        return None
    since = last.changed_at - timedelta(days=REFERENCE_DAYS)
    reference = last.old_price
    for change in history[:-1]:
        # A price that held during the 30 days before the last change.
        if change.changed_at >= since:
            reference = min(reference, change.new_price, change.old_price)
    return reference if reference > price else None


async def _previous_prices(prices: dict[str, int]) -> dict[str, int]:
    histories: dict[str, list[PriceChangeInfo]] = {}
    for change in await PriceChange.filter(plan__in=list(prices)).order_by("changed_at", "id"):
        histories.setdefault(change.plan, []).append(_change_info(change))
    found = {key: previous_price(prices[key], history) for key, history in histories.items()}
    return {key: value for key, value in found.items() if value is not None}


async def seed_if_empty() -> SeedReport | None:
    """On a fresh install, load the shipped catalogue so the site can sell at once."""
    if await Plan.exists():
        return None
    return await seed(load_file())


async def _domain_families() -> set[str]:
    keys = await Family.filter(show_domain=True).values_list("key", flat=True)
    return {str(key) for key in keys}


def _info(plan: Plan, domain_families: set[str]) -> PlanInfo:
    return PlanInfo(
        key=plan.key,
        family=plan.family,
        name=plan.name,
        price=plan.price,
        currency=plan.currency,
        mode=plan.mode,
        interval=plan.interval,
        checkout=plan.checkout,
        active=plan.active,
        stripe_product_id=plan.stripe_product_id,
        stripe_price_id=plan.stripe_price_id,
        description=plan.description,
        takes_domain=plan.family in domain_families,
        delivery=plan.delivery,
        guarantee=plan.guarantee,
    )


async def get_plan(key: str) -> PlanInfo | None:
    plan = await Plan.get_or_none(key=key)
    return _info(plan, await _domain_families()) if plan else None


async def plan_by_price_id(price_id: str) -> PlanInfo | None:
    plan = await Plan.get_or_none(stripe_price_id=price_id)
    return _info(plan, await _domain_families()) if plan else None


async def all_plans(include_inactive: bool = False) -> list[PlanInfo]:
    query = Plan.all() if include_inactive else Plan.filter(active=True)
    domain_families = await _domain_families()
    return [_info(plan, domain_families) for plan in await query.order_by("sort_order")]


async def set_stripe_ids(key: str, *, product_id: str, price_id: str) -> None:
    await Plan.filter(key=key).update(stripe_product_id=product_id, stripe_price_id=price_id)
    await changed()


_VERSION_SQL = f"SELECT version FROM {CatalogueVersion._meta.db_table} WHERE id = 1"


async def changed() -> None:
    """Count a change of the catalogue (after writing it): every process's cached JSON of
    the public catalogue is then rebuilt on its next request. Whatever writes Family or Plan
    rows calls this."""
    if await CatalogueVersion.filter(id=1).update(version=F("version") + 1):
        return
    _row, created = await CatalogueVersion.get_or_create(id=1, defaults={"version": 1})
    if not created:  # another process created the row meanwhile
        await CatalogueVersion.filter(id=1).update(version=F("version") + 1)


async def version() -> int:
    """The catalogue's change count: one indexed read, without building a model or a query."""
    _count, rows = await connections.get("default").execute_query(_VERSION_SQL)
    return int(rows[0][0]) if rows else 0


# Catalogue requests arriving together share one version read that started after each arrived.
_shared_version = Coalesced(version)


@dataclass(frozen=True)
class CatalogueJson:
    """The public catalogue as sent: its JSON bytes and their ETag (quoted), and what the
    purchase pages embed (the same data, parsed, and as a script element's text)."""

    body: bytes
    etag: str
    data: CatalogueOut
    embeddable: str


# (the connection it was read through, its version, the tax block, the JSON): a reopened or
# other database (the tests open one per test) never reuses what another one's version number
# named, nor other tax settings what these built.
_cached: tuple[object, int, dict[str, Any], CatalogueJson] | None = None


async def catalogue_json(tax: Mapping[str, Any]) -> CatalogueJson:
    """The public catalogue's JSON with the tax block `tax` (`tax.api.tax_display`), built once
    per change of the catalogue (or of the tax settings) in this process; its ETag is the
    body's hash, so it changes with either.

    The version is read before the rows, so what is cached is never older than its number."""
    global _cached
    database = connections.get("default")
    current = await _shared_version()
    cached = _cached
    if cached is not None and cached[0] is database and cached[1] == current and cached[2] == tax:
        return cached[3]
    data = await catalogue(tax)
    body = data.model_dump_json().encode()
    built = CatalogueJson(
        body=body,
        etag='"' + hashlib.blake2s(body, digest_size=12).hexdigest() + '"',
        data=data,
        embeddable=embeddable_json(body.decode()),
    )
    _cached = (database, current, dict(tax), built)
    return built


async def catalogue(tax: Mapping[str, Any]) -> CatalogueOut:
    """Every active family and plan, in the data file's order, and the tax block `tax`."""
    plans = await Plan.filter(active=True).order_by("sort_order")
    families = await Family.all().order_by("sort_order")
    struck = await _previous_prices({p.key: p.price for p in plans})
    by_family: dict[str, list[str]] = {}
    for plan in plans:
        by_family.setdefault(plan.family, []).append(plan.key)
    return CatalogueOut(
        families=[
            FamilyOut(
                key=f.key,
                title=f.title,
                description=f.description,
                cta=f.cta,
                show_domain=f.show_domain,
                bullets=list(f.bullets),
                default_plan=f.default_plan,
                plans=by_family.get(f.key, []),
            )
            for f in families
            if f.key in by_family
        ],
        plans=[
            PlanOut(
                key=p.key,
                family=p.family,
                name=p.name,
                description=p.description,
                price=p.price,
                currency=p.currency,
                original_price=struck.get(p.key),
                save_percent=save_percent(struck[p.key], p.price) if p.key in struck else None,
                mode=p.mode,
                interval=p.interval,
                badge=p.badge,
                features=list(p.features),
                delivery=p.delivery,
                guarantee=p.guarantee,
                checkout=p.checkout,
                price_id=p.stripe_price_id,
            )
            for p in plans
        ],
        tax=TaxDisplay.model_validate(tax),
    )


def resolve_start(
    requested_type: str | None,
    requested_plan: str | None,
    plan_families: Mapping[str, str],
    family_defaults: Mapping[str, str],
) -> tuple[str, str]:
    """The (family, plan) /start shows, by the spec's rules.

    The plan is used when it is a known plan key (of the requested family, when one is given);
    otherwise the family's default plan; an unknown family means website / professional.
    `plan_families` holds only plans sold through /start; `family_defaults` only their families.
    """
    family = requested_type if requested_type in family_defaults else None
    plan_family = plan_families.get(requested_plan or "")
    if plan_family is not None and (family is None or plan_family == family):
        return plan_family, str(requested_plan)
    family = family or DEFAULT_FAMILY
    return family, family_defaults[family]


# ---- The purchase pages (/start, /ai-start) ----------------------------------------------
# The web UI prerenders each page once per variant (webui/scripts/prerender.mjs); a request
# is answered with the variant its query shows, so the first HTML already holds the family,
# the packages and the preselected plan, and the page hydrates with the catalogue embedded.
# The rules mirror webui/src/features/catalogue/catalogue.ts (resolveStart) and
# pages/purchase/*.tsx.

START_PAGE = "/start"
AI_START_PAGE = "/ai-start"
EMBEDDED_CATALOGUE_ID = "agency-catalogue"
CANCELED_NOTE = (
    '<div class="purchase-note" role="status">Your checkout was cancelled and nothing was '
    "charged. Your package is still selected below whenever you are ready.</div>"
)


def _family_plans(data: CatalogueOut, family: FamilyOut) -> list[PlanOut]:
    by_key = {plan.key: plan for plan in data.plans}
    return [by_key[key] for key in family.plans if key in by_key]


def start_variant(data: CatalogueOut, type_: str | None, plan: str | None) -> str | None:
    """The prerendered variant of /start for `?type=&plan=` (its canonical URL), None when
    nothing is sold (the page shows its fallback)."""
    sold = [f for f in data.families if any(p.checkout for p in _family_plans(data, f))]
    requested_family = next((f for f in sold if f.key == type_), None)
    requested_plan = next((p for p in data.plans if p.key == plan), None) if plan else None
    if requested_plan is not None and requested_plan.checkout:
        plan_family = next((f for f in sold if f.key == requested_plan.family), None)
        if plan_family is not None and (
            requested_family is None or requested_family.key == plan_family.key
        ):
            return f"{START_PAGE}?plan={requested_plan.key}"
    family = (
        requested_family
        or next((f for f in sold if f.key == DEFAULT_FAMILY), None)
        or next(iter(sold), None)
    )
    if family is None:
        return None
    chosen = next((p for p in data.plans if p.key == family.default_plan), None)
    if plan is not None and chosen is not None and chosen.key == plan and chosen.checkout:
        return f"{START_PAGE}?plan={plan}"  # the default plan named in the link: narrowed
    return f"{START_PAGE}?type={family.key}"


def ai_start_variant(data: CatalogueOut, plan: str | None) -> str | None:
    """The prerendered variant of /ai-start for `?plan=` (the website packages, one preselected)."""
    family = next((f for f in data.families if f.key == DEFAULT_FAMILY), None)
    if family is None:
        return None
    plans = [p.key for p in _family_plans(data, family) if p.checkout]
    return f"{AI_START_PAGE}?plan={plan if plan in plans else family.default_plan}"


# The fields of the public catalogue no page shows (Stripe's price id differs between the build's
# test catalogue and a shop connected to Stripe).
_UNSHOWN_FIELDS = ("price_id",)
_templates_current: dict[tuple[int, str], bool] = {}


def _shown(data: Any) -> Any:
    if not isinstance(data, dict):
        return data
    plans = data.get("plans")
    if not isinstance(plans, list):
        return data
    return {
        **data,
        "plans": [
            {k: v for k, v in plan.items() if k not in _UNSHOWN_FIELDS}
            if isinstance(plan, dict)
            else plan
            for plan in plans
        ],
    }


def templates_current(template_data: Any, current: CatalogueJson) -> bool:
    """True when the purchase pages' templates were rendered with what `current` shows (or
    the build does not say what it rendered them with: an older build)."""
    if template_data is None:
        return True
    key = (id(template_data), current.etag)
    known = _templates_current.get(key)
    if known is None:
        known = _shown(template_data) == _shown(json.loads(current.body))
        if len(_templates_current) >= 16:  # older catalogue versions
            _templates_current.clear()
        _templates_current[key] = known
    return known


def embeddable_json(text: str) -> str:
    """JSON safe inside a non-executed script element: `<` escaped, so no text can close it."""
    return text.replace("<", "\\u003c")


def purchase_page(template: str, embeddable: str, *, canceled: bool) -> str:
    """A prerendered purchase page (built with the note of a cancelled checkout) filled for one
    request: the note only when asked for, and the catalogue (`embeddable_json`) embedded for
    the page to hydrate with."""
    page = template if canceled else template.replace(CANCELED_NOTE, "", 1)
    embedded = f'<script type="application/json" id="{EMBEDDED_CATALOGUE_ID}">{embeddable}</script>'
    return page.replace("</body>", embedded + "</body>", 1)


# ---- The admins' catalogue (/dashboard/admin/catalogue) ---------------------------------
# Every change is one transaction: the plan's row, its price history (source "admin"), the
# Stripe ids when billing created a price for it, the audit entries, and the catalogue's
# version (every process's public catalogue is rebuilt on its next request).

# The fields an admin edits, as PlanChangesIn names them; `on_sale` is the row's `active`.
_TEXT_FIELDS = ("name", "description", "badge", "delivery", "guarantee", "features")
MSG_CHANGED_MEANWHILE = (
    "The plan's price was changed meanwhile (now {price}). Reload the catalogue and try again."
)


def _history_out(changes: list[PriceChange]) -> list[PriceChangeOut]:
    return [
        PriceChangeOut(
            old_price=c.old_price,
            new_price=c.new_price,
            currency=c.currency,
            source=c.source,
            changed_at=c.changed_at,
        )
        for c in sorted(changes, key=lambda c: (c.changed_at, c.id), reverse=True)
    ]


def _admin_plan(plan: Plan, history: list[PriceChange]) -> AdminPlanOut:
    oldest_first = [_change_info(c) for c in sorted(history, key=lambda c: (c.changed_at, c.id))]
    return AdminPlanOut(
        key=plan.key,
        family=plan.family,
        name=plan.name,
        description=plan.description,
        price=plan.price,
        currency=plan.currency,
        mode=plan.mode,
        interval=plan.interval,
        badge=plan.badge,
        features=list(plan.features),
        delivery=plan.delivery,
        guarantee=plan.guarantee,
        checkout=plan.checkout,
        on_sale=plan.active,
        original_price=previous_price(plan.price, oldest_first),
        stripe_product_id=plan.stripe_product_id,
        stripe_price_id=plan.stripe_price_id,
        updated_at=plan.updated_at,
        history=_history_out(history),
    )


async def admin_catalogue(*, payments_configured: bool) -> AdminCatalogueOut:
    """Every family with every plan (hidden ones and those no longer in the data file too),
    each with its Stripe ids and price history: three queries."""
    plans = await Plan.all().order_by("sort_order", "key")
    families = await Family.all().order_by("sort_order")
    histories: dict[str, list[PriceChange]] = {}
    for change in await PriceChange.all():
        histories.setdefault(change.plan, []).append(change)
    by_family: dict[str, list[AdminPlanOut]] = {}
    for plan in plans:
        by_family.setdefault(plan.family, []).append(_admin_plan(plan, histories.get(plan.key, [])))
    out = [
        AdminFamilyOut(
            key=f.key, title=f.title, default_plan=f.default_plan, plans=by_family.pop(f.key, [])
        )
        for f in families
    ]
    # Plans of a family the data file no longer has (never deleted: orders point at them).
    out += [
        AdminFamilyOut(key=key, title=key, default_plan="", plans=rest)
        for key, rest in by_family.items()
    ]
    return AdminCatalogueOut(families=out, payments_configured=payments_configured)


async def admin_plan(key: str) -> AdminPlanOut:
    plan = await Plan.get_or_none(key=key)
    if plan is None:
        raise NotFound(f"There is no plan {key!r}.", code="plan_not_found")
    return _admin_plan(plan, list(await PriceChange.filter(plan=key)))


def _current(plan: Plan, field: str) -> object:
    if field == "on_sale":
        return plan.active
    value = getattr(plan, field)
    return list(value) if field == "features" else value


def changes_of(plan: Plan, changes: PlanChangesIn) -> dict[str, tuple[object, object]]:
    """field -> (before, after) for each field `changes` names with a value other than the
    plan's (nothing for a field sent unchanged)."""
    found: dict[str, tuple[object, object]] = {}
    for field, value in changes.given().items():
        before = _current(plan, field)
        if before != value:
            found[field] = (before, value)
    return found


async def pending_changes(key: str, changes: PlanChangesIn) -> dict[str, tuple[object, object]]:
    """What `update_plan(key, changes)` would change (404 for an unknown plan)."""
    plan = await Plan.get_or_none(key=key)
    if plan is None:
        raise NotFound(f"There is no plan {key!r}.", code="plan_not_found")
    return changes_of(plan, changes)


async def update_plan(
    key: str,
    changes: PlanChangesIn,
    *,
    actor: Actor,
    source: str = "admin",
    stripe_ids: tuple[str, str] | None = None,
    expected_price: int | None = None,
) -> PlanUpdate:
    """Apply an admin's changes to a plan in one transaction, with its audit entries: a new
    price is recorded in the price history (its old price becomes the struck-through previous
    price when it was lowered), `stripe_ids` (product, price) are those billing created for
    the new state, and the catalogue's version is counted so every public page shows it on its
    next request. `expected_price`: the price the caller saw (billing, which asked Stripe for a
    price meanwhile); another one now is a 409 and nothing is written."""
    async with in_transaction():
        plan = await Plan.get_or_none(key=key)
        if plan is None:
            raise NotFound(f"There is no plan {key!r}.", code="plan_not_found")
        if expected_price is not None and plan.price != expected_price:
            raise Conflict(
                MSG_CHANGED_MEANWHILE.format(price=f"€{plan.price / 100:,.2f}"),
                code="plan_changed",
            )
        found = changes_of(plan, changes)
        values: dict[str, Any] = {}
        for field, (_before, after) in found.items():
            values["active" if field == "on_sale" else field] = after
        before_ids = (plan.stripe_product_id, plan.stripe_price_id)
        if stripe_ids is not None and stripe_ids != before_ids:
            values["stripe_product_id"], values["stripe_price_id"] = stripe_ids
        if not values:
            return PlanUpdate(key, {}, None)
        price_change = None
        if "price" in found:
            # Only this request's own price moves the row (a concurrent change is refused).
            moved = await Plan.filter(key=key, price=plan.price).update(**values)
            if not moved:
                raise Conflict(MSG_CHANGED_MEANWHILE.format(price="another"), code="plan_changed")
            record = await PriceChange.create(
                plan=key,
                old_price=plan.price,
                new_price=values["price"],
                currency=plan.currency,
                source=source,
            )
            price_change = _change_info(record)
        else:
            await Plan.filter(key=key).update(**values)
        await _audit(plan, found, actor, stripe_before=before_ids[1], stripe_after=values)
        await changed()
    return PlanUpdate(key, found, price_change)


async def _audit(
    plan: Plan,
    found: dict[str, tuple[object, object]],
    actor: Actor,
    *,
    stripe_before: str | None,
    stripe_after: dict[str, Any],
) -> None:
    """One entry per kind of change: the price (with the Stripe price it replaced), the
    texts, hiding or showing the plan."""
    label = str(found.get("name", (plan.name, plan.name))[1])

    async def write(action: str, before: dict[str, Any], after: dict[str, Any]) -> None:
        await audit_api.record(
            actor,
            action,
            target_type="plan",
            target_id=plan.key,
            target_label=label,
            before=before,
            after=after,
        )

    if "price" in found:
        old, new = found["price"]
        before: dict[str, Any] = {"price": old, "currency": plan.currency}
        after: dict[str, Any] = {"price": new, "currency": plan.currency}
        if "stripe_price_id" in stripe_after:
            before["stripe_price_id"] = stripe_before
            after["stripe_price_id"] = stripe_after["stripe_price_id"]
        await write("catalogue.price_changed", before, after)
    texts = {f: found[f] for f in _TEXT_FIELDS if f in found}
    if texts:
        await write(
            "catalogue.plan_updated",
            {f: pair[0] for f, pair in texts.items()},
            {f: pair[1] for f, pair in texts.items()},
        )
    if "on_sale" in found:
        shown = bool(found["on_sale"][1])
        await write(
            "catalogue.plan_shown" if shown else "catalogue.plan_hidden",
            {"on_sale": not shown},
            {"on_sale": shown},
        )
