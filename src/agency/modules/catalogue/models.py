"""The catalogue's tables: service families and the plans sold in them."""

from __future__ import annotations

from typing import Any

from tortoise import fields
from tortoise.models import Model


class Family(Model):
    key = fields.CharField(max_length=40, primary_key=True)
    title = fields.CharField(max_length=200)
    description = fields.TextField()
    cta = fields.CharField(max_length=100)
    show_domain = fields.BooleanField(default=False)
    bullets: list[Any] = fields.JSONField(default=list)
    default_plan = fields.CharField(max_length=64)
    sort_order = fields.IntField(default=0)

    class Meta:
        table = "catalogue_family"


class Plan(Model):
    key = fields.CharField(max_length=64, primary_key=True)
    family = fields.CharField(max_length=40, db_index=True)
    name = fields.CharField(max_length=100)
    description = fields.TextField()
    price = fields.IntField()
    currency = fields.CharField(max_length=3, default="EUR")
    mode = fields.CharField(max_length=16)
    interval = fields.CharField(max_length=16, null=True)
    badge = fields.CharField(max_length=16, null=True)
    features: list[Any] = fields.JSONField(default=list)
    delivery = fields.CharField(max_length=50, null=True)
    guarantee = fields.CharField(max_length=100, null=True)
    checkout = fields.BooleanField(default=True)
    active = fields.BooleanField(default=True)
    sort_order = fields.IntField(default=0)
    stripe_product_id = fields.CharField(max_length=255, null=True)
    stripe_price_id = fields.CharField(max_length=255, null=True, db_index=True)
    updated_at = fields.DatetimeField(auto_now=True)

    class Meta:
        table = "catalogue_plan"


class PriceChange(Model):
    """One change of a plan's price. A struck-through price is only ever the old price of the
    change that set the plan's current price, lower than before (never an invented one)."""

    id = fields.IntField(primary_key=True)
    plan = fields.CharField(max_length=64, db_index=True)
    old_price = fields.IntField()
    new_price = fields.IntField()
    currency = fields.CharField(max_length=3, default="EUR")
    source = fields.CharField(max_length=16)
    changed_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "catalogue_price_change"


class CatalogueVersion(Model):
    """One row (id 1) counting the catalogue's changes. Each server process keeps the public
    catalogue's JSON in memory under this number, so a change made by any process (a seed, a
    Stripe sync) is seen by every other one on its next request."""

    id = fields.IntField(primary_key=True)
    version = fields.IntField(default=0)

    class Meta:
        table = "catalogue_version"
