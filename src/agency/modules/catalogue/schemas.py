"""Catalogue shapes: the data file's entries, the public API's answer, and the PlanInfo other
modules receive."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from typing import Annotated, Literal

from pydantic import AliasChoices, BaseModel, Field, model_validator

from agency.core.text import Line, Lines, QueryArgs
from agency.modules.tax.api import TaxDisplay

KEY_PATTERN = r"^[a-z0-9]+(-[a-z0-9]+)*$"
TEXT_MAX = 5000
Item = Annotated[Line, Field(max_length=200)]
"""One feature or bullet line (stored in a JSON list)."""

Mode = Literal["payment", "subscription"]
Badge = Literal["popular", "premium", "launch"]
Interval = Literal["month", "year"]


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
