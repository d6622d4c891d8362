"""Catalogue shapes: the data file's entries, the public API's answer, and the PlanInfo other
modules receive."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from typing import Annotated, Literal

from pydantic import AliasChoices, BaseModel, ConfigDict, Field, field_validator, model_validator

from agency.core.text import Line, Lines, QueryArgs
from agency.modules.tax.api import TaxDisplay

KEY_PATTERN = r"^[a-z0-9]+(-[a-z0-9]+)*$"
TEXT_MAX = 5000
Item = Annotated[Line, Field(max_length=200)]
"""One feature or bullet line (stored in a JSON list)."""

Mode = Literal["payment", "subscription"]
Badge = Literal["popular", "premium", "launch"]
Interval = Literal["month", "year"]
BADGES: tuple[str, ...] = ("popular", "premium", "launch")
# Stripe's largest unit_amount (8 digits): €999,999.99.
MAX_PRICE = 99_999_999
NAME_MAX = 100
DELIVERY_MAX = 50
GUARANTEE_MAX = 100
FEATURE_MAX = 200
FEATURES_MAX = 20


class PlanIn(BaseModel):
    """One `[[plans]]` entry of config/catalogue.toml."""

    key: Line = Field(pattern=KEY_PATTERN, max_length=64)
    family: Line = Field(max_length=40)
    name: Line = Field(min_length=1, max_length=100)
    description: Lines = Field(max_length=TEXT_MAX)
    price: int = Field(gt=0)
    currency: Literal["EUR"] = "EUR"
    # The price the plan had before `price`: recorded once in the plan's price history (when
    # it has none yet), so a fresh install shows the spec's struck prices. `original_price` is
    # its older name; a `save_percent` in the file is ignored (it follows from the two prices).
    previous_price: int | None = Field(
        default=None, gt=0, validation_alias=AliasChoices("previous_price", "original_price")
    )
    mode: Mode
    interval: Interval | None = None
    badge: Badge | None = None
    features: list[Item] = []
    delivery: Line | None = Field(default=None, max_length=50)
    guarantee: Line | None = Field(default=None, max_length=100)
    checkout: bool = True

    @model_validator(mode="after")
    def _consistent(self) -> PlanIn:
        if (self.mode == "subscription") != (self.interval is not None):
            raise ValueError(f"{self.key}: subscriptions need an interval, one-time plans none")
        if self.previous_price is not None and self.previous_price <= self.price:
            raise ValueError(f"{self.key}: previous_price must be above price")
        return self


# A family bullet that promises a delivery time or a guarantee would hold for some of its
# plans only: those promises are each plan's `delivery` and `guarantee`.
PROMISE_WORDS = re.compile(
    r"guarantee|money[- ]?back|refund|deliver|\blive (?:in|within)\b|\b(?:set up|built|ready) in \d"
    r"|\bwithin \d|\b\d+\s*-?\s*(?:h|hours?|days?)\s+(?:delivery|setup|turnaround)\b",
    re.IGNORECASE,
)


def promise_in(text: str) -> str | None:
    """The delivery or guarantee promise a bullet makes, None when it makes none."""
    match = PROMISE_WORDS.search(text)
    return match.group(0) if match else None


class FamilyIn(BaseModel):
    """One `[[families]]` entry of config/catalogue.toml."""

    key: Line = Field(pattern=KEY_PATTERN, max_length=40)
    title: Line = Field(max_length=200)
    description: Lines = Field(max_length=TEXT_MAX)
    cta: Line = Field(max_length=100)
    show_domain: bool = False
    bullets: list[Item] = []
    default_plan: Line = Field(max_length=64)

    @model_validator(mode="after")
    def _no_promises(self) -> FamilyIn:
        for bullet in self.bullets:
            promise = promise_in(bullet)
            if promise is not None:
                raise ValueError(
                    f"{self.key}: the bullet {bullet!r} promises {promise!r}; delivery times "
                    "and guarantees belong in each plan's `delivery` and `guarantee`"
                )
        return self


class CatalogueIn(BaseModel):
    families: list[FamilyIn]
    plans: list[PlanIn]

    @model_validator(mode="after")
    def _references(self) -> CatalogueIn:
        families = {f.key for f in self.families}
        plan_families = {p.key: p.family for p in self.plans}
        if len(families) != len(self.families) or len(plan_families) != len(self.plans):
            raise ValueError("family and plan keys must be unique")
        for plan in self.plans:
            if plan.family not in families:
                raise ValueError(f"{plan.key}: unknown family {plan.family!r}")
        for family in self.families:
            if plan_families.get(family.default_plan) != family.key:
                raise ValueError(f"{family.key}: default_plan is not one of its plans")
        return self


@dataclass(frozen=True)
class PlanInfo:
    """A plan as other modules (billing) see it."""

    key: str
    family: str
    name: str
    price: int
    currency: str
    mode: str
    interval: str | None
    checkout: bool
    active: bool
    stripe_product_id: str | None
    stripe_price_id: str | None
    description: str
    takes_domain: bool
    delivery: str | None = None
    guarantee: str | None = None


class PlanOut(BaseModel):
    key: str
    family: str
    name: str
    description: str
    price: int = Field(description="Integer cents.")
    currency: str
    original_price: int | None = Field(
        description="Integer cents: the previous price recorded in the plan's price history "
        "(shown struck through, labelled as the previous price); null when there is none."
    )
    save_percent: int | None = Field(
        description="Whole percent the price is below `original_price` (rounded down)."
    )
    mode: Mode
    interval: Interval | None
    badge: Badge | None
    features: list[str]
    delivery: str | None
    guarantee: str | None
    checkout: bool = Field(description="False: shown on a page but never sold through /start.")
    price_id: str | None


class FamilyOut(BaseModel):
    key: str
    title: str
    description: str
    cta: str
    show_domain: bool
    bullets: list[str]
    default_plan: str
    plans: list[str] = Field(description="Plan keys in display order.")


class CatalogueOut(BaseModel):
    families: list[FamilyOut]
    plans: list[PlanOut]
    tax: TaxDisplay = Field(
        description="How the prices are shown: gross or net, the agency's VAT country and "
        "rate, every EU standard rate (the tax module's settings)."
    )


@dataclass(frozen=True)
class PriceChangeInfo:
    plan: str
    old_price: int
    new_price: int
    currency: str
    source: str
    changed_at: datetime


@dataclass(frozen=True)
class SeedReport:
    created: list[str]
    updated: list[str]
    deactivated: list[str]
    unchanged: int


class PurchasePageQuery(QueryArgs):
    """`/start?type=&plan=` and `/ai-start?plan=`: the variant asked for (none or an unknown
    one: the default), and `canceled=true` back from a cancelled checkout."""

    type: str | None = None
    plan: str | None = None
    canceled: str | None = None


# ---- The admins' catalogue (/dashboard/admin/catalogue) ---------------------------------

MSG_PRICE = "The price must be a whole number of cents above 0 and at most 99999999 (€999,999.99)."
MSG_NAME = "The name cannot be empty."
MSG_NOT_NULL = "This field cannot be empty (null)."
MSG_ON_SALE = "on_sale must be true or false."


def check_price(value: object) -> int:
    """A price in cents as an API or command receives it: an integer (not a bool, float or
    text) from 1 to MAX_PRICE; anything else is refused with MSG_PRICE."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 < value <= MAX_PRICE:
        raise ValueError(MSG_PRICE)
    return value


class PlanChangesIn(BaseModel):
    """The changes an admin makes to a plan; a field left out stays as it is. `badge`,
    `delivery` and `guarantee` may be null (or, for the two texts, empty) to remove them."""

    model_config = ConfigDict(extra="forbid")

    name: Line | None = Field(default=None, max_length=NAME_MAX)
    description: Lines | None = Field(default=None, max_length=TEXT_MAX)
    price: int | None = Field(
        default=None, description="Integer cents, 1 to 99999999 (the amount charged)."
    )
    badge: Badge | None = None
    delivery: Line | None = Field(
        default=None, max_length=DELIVERY_MAX, description='Shown as "Delivery in …".'
    )
    guarantee: Line | None = Field(default=None, max_length=GUARANTEE_MAX)
    features: list[Annotated[Line, Field(max_length=FEATURE_MAX)]] | None = Field(
        default=None, max_length=FEATURES_MAX, description="Blank lines are dropped."
    )
    on_sale: bool | None = Field(
        default=None,
        description="False hides the plan from sale (public pages, checkout); existing "
        "subscriptions and orders are untouched.",
    )

    @field_validator("name", "description", "price", "features", "on_sale", mode="before")
    @classmethod
    def _not_null(cls, value: object) -> object:
        if value is None:
            raise ValueError(MSG_NOT_NULL)
        return value

    @field_validator("price", mode="before")
    @classmethod
    def _price(cls, value: object) -> int:
        return check_price(value)

    @field_validator("on_sale", mode="before")
    @classmethod
    def _on_sale(cls, value: object) -> bool:
        if not isinstance(value, bool):
            raise ValueError(MSG_ON_SALE)
        return value

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        value = value.strip()
        if not value:
            raise ValueError(MSG_NAME)
        return value

    @field_validator("description")
    @classmethod
    def _description(cls, value: str) -> str:
        return value.strip()

    @field_validator("delivery", "guarantee")
    @classmethod
    def _optional_line(cls, value: str | None) -> str | None:
        return (value.strip() or None) if value is not None else None

    @field_validator("features")
    @classmethod
    def _features(cls, value: list[str]) -> list[str]:
        return [item.strip() for item in value if item.strip()]

    def given(self) -> dict[str, object]:
        """The fields the request names, with their (cleaned) values."""
        return {name: getattr(self, name) for name in self.model_fields_set}


class PriceChangeOut(BaseModel):
    old_price: int = Field(description="Integer cents.")
    new_price: int = Field(description="Integer cents.")
    currency: str
    source: str = Field(description="seed | file | cli | admin")
    changed_at: datetime


class AdminPlanOut(BaseModel):
    key: str
    family: str
    name: str
    description: str
    price: int = Field(description="Integer cents.")
    currency: str
    mode: Mode
    interval: Interval | None
    badge: Badge | None
    features: list[str]
    delivery: str | None
    guarantee: str | None
    checkout: bool = Field(description="Sold through /start (false: shown on a page only).")
    on_sale: bool = Field(description="False: hidden from sale (not on the public pages).")
    original_price: int | None = Field(
        description="The struck-through previous price the public pages show, if any."
    )
    stripe_product_id: str | None
    stripe_price_id: str | None
    updated_at: datetime
    history: list[PriceChangeOut] = Field(description="The price history, newest first.")


class AdminFamilyOut(BaseModel):
    key: str
    title: str
    default_plan: str
    plans: list[AdminPlanOut]


class AdminCatalogueOut(BaseModel):
    families: list[AdminFamilyOut]
    payments_configured: bool = Field(
        description="False: price changes are saved, and `agency stripe sync` creates the "
        "Stripe prices once payments are set up."
    )


class PlanUpdateOut(BaseModel):
    plan: AdminPlanOut
    changed: list[str] = Field(description="The fields that changed (empty: nothing did).")
    message: str = Field(description="What happened, in a sentence for the admin.")
    stripe: Literal["created", "matched", "not_configured", "not_sold", "none"] = Field(
        description="What was done at Stripe: a new price created (the old one archived), "
        "an existing one matched, nothing because payments are not set up, nothing because "
        "the plan is not sold through checkout, or nothing because no price had to change."
    )
    warning: str | None = Field(
        default=None, description="Something the admin must still do (e.g. archive a price)."
    )


@dataclass(frozen=True)
class PlanUpdate:
    """What `update_plan` changed: field -> (before, after)."""

    key: str
    changes: dict[str, tuple[object, object]]
    price_change: PriceChangeInfo | None
