"""The schemas' limits are the columns' limits, everywhere: every string a
request schema takes is bounded and refuses control characters (through `agency.core.text`),
and no schema field allows more than the columns it is written to hold."""

from __future__ import annotations

import importlib
import importlib.util
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel, ValidationError
from quart_schema.validation import QUART_SCHEMA_REQUEST_ATTRIBUTE
from tortoise import fields
from tortoise.models import Model

from agency.app import create_app
from agency.core import text
from agency.modules.analysis.models import Analysis
from agency.modules.audit.models import AuditEntry
from agency.modules.auth.models import PasswordReset, Profile, Session, User
from agency.modules.billing.models import (
    CheckoutSession,
    Customer,
    CustomerTaxId,
    MrrMovement,
    Order,
    PaymentFailure,
    RevenueEntry,
    Subscription,
    WebhookEvent,
)
from agency.modules.blog.models import Article, SlugRedirect
from agency.modules.catalogue.models import Family, Plan, PriceChange
from agency.modules.contracts.models import Cancellation, Withdrawal
from agency.modules.invoices.models import Invoice, Refund
from agency.modules.leads.models import Lead, NewsletterConsent
from agency.modules.notifications.models import Notification
from agency.modules.seo.models import Generation
from agency.modules.sites.models import SpeedCheck, Website
from agency.modules.speedtest.models import SpeedTest
from agency.modules.support.models import SupportRequest
from agency.modules.tax.models import VatIdCheck
from agency.registry import MODULES
from tests.conftest import make_settings

# The kernel's routes that take a body, whose schemas live beside them (the unsubscribe link).
KERNEL_ROUTES = ["agency.core.web.unsubscribe"]


def request_schemas() -> list[type[BaseModel]]:
    """Every pydantic model a module (or the kernel) takes in: the `...In` classes of its
    schemas."""
    found: list[type[BaseModel]] = []
    names = [f"agency.modules.{module.name}.schemas" for module in MODULES] + KERNEL_ROUTES
    for name in names:
        if importlib.util.find_spec(name) is None:
            continue
        schemas = importlib.import_module(name)
        found += [
            value
            for value in vars(schemas).values()
            if isinstance(value, type)
            and issubclass(value, BaseModel)
            and value.__module__ == name
            and value.__name__.endswith("In")
        ]
    return found


def string_slots(schema: type[BaseModel]) -> list[tuple[str, bool, dict[str, Any]]]:
    """(field, whether it is a list, the string's JSON schema) for every string it takes."""
    slots: list[tuple[str, bool, dict[str, Any]]] = []
    for name, prop in schema.model_json_schema()["properties"].items():
        for option in prop.get("anyOf", [prop]):
            if option.get("type") == "string" and "enum" not in option and "const" not in option:
                slots.append((name, False, option))
            items = option.get("items", {})
            if option.get("type") == "array" and items.get("type") == "string":
                slots.append((name, True, items))
    return slots


def test_every_request_body_is_one_of_the_schemas_held_to_the_rules(tmp_path: Path) -> None:
    app = create_app(make_settings(tmp_path, f"sqlite://{tmp_path / 'unused.db'}"))
    taken = {
        getattr(view, QUART_SCHEMA_REQUEST_ATTRIBUTE, (None,))[0]
        for view in app.view_functions.values()
    } - {None}
    assert len(taken) >= 10, taken
    assert {model.__name__ for model in taken} <= {s.__name__ for s in request_schemas()}


@pytest.mark.parametrize("schema", request_schemas(), ids=lambda s: s.__name__)
def test_every_string_a_schema_takes_is_bounded_and_refuses_controls(
    schema: type[BaseModel],
) -> None:
    slots = string_slots(schema)
    # CatalogueIn and NotificationsReadIn (a list of ids) take no strings.
    assert slots or schema.__name__ in ("CatalogueIn", "NotificationsReadIn")
    for name, is_list, string in slots:
        assert "maxLength" in string, f"{schema.__name__}.{name} has no max_length"
        bad = "a\x00b"
        with pytest.raises(ValidationError) as error:
            schema.model_validate({name: [bad] if is_list else bad})
        where = (name, 0) if is_list else (name,)
        messages = [e["msg"] for e in error.value.errors() if e["loc"] == where]
        # A key with a pattern is refused by the pattern before the text rule looks at it.
        refused = (
            messages if "pattern" in string else [m for m in messages if text.MSG_CONTROL in m]
        )
        assert refused, (schema.__name__, name, messages)


# Where each stored string goes: schema field -> the columns it is written to (or looked up in).
WRITES: dict[tuple[str, str], list[tuple[type[Model], str]]] = {
    ("SignUpIn", "email"): [(User, "email")],
    ("SignUpIn", "first_name"): [(Profile, "first_name")],
    ("SignUpIn", "last_name"): [(Profile, "last_name")],
    ("LogInIn", "email"): [(User, "email")],
    ("ForgotPasswordIn", "email"): [(User, "email")],
    ("ProfileIn", "first_name"): [(Profile, "first_name")],
    ("ProfileIn", "last_name"): [(Profile, "last_name")],
    ("ProfileIn", "avatar_url"): [(Profile, "avatar_url")],
    ("EmailChangeIn", "new_email"): [(User, "email")],
    ("CheckoutIn", "plan"): [(CheckoutSession, "plan_key"), (Order, "plan_key")],
    ("CheckoutIn", "domain"): [(CheckoutSession, "domain"), (Website, "domain")],
    ("CheckoutIn", "full_name"): [(Profile, "first_name"), (Profile, "last_name")],
    ("CheckoutIn", "email"): [(User, "email")],
    ("LeadIn", "source"): [(Lead, "source"), (NewsletterConsent, "form")],
    ("LeadIn", "email"): [(Lead, "email"), (NewsletterConsent, "email")],
    ("LeadIn", "name"): [(Lead, "name")],
    ("LeadIn", "domain"): [(Lead, "domain")],
    ("SpeedTestIn", "email"): [(SpeedTest, "email"), (Lead, "email"), (NewsletterConsent, "email")],
    ("AnalysisIn", "email"): [(Analysis, "email"), (Lead, "email"), (NewsletterConsent, "email")],
    ("PlanIn", "key"): [(Plan, "key")],
    ("PlanIn", "family"): [(Plan, "family")],
    ("PlanIn", "name"): [(Plan, "name")],
    ("PlanIn", "delivery"): [(Plan, "delivery")],
    ("PlanIn", "guarantee"): [(Plan, "guarantee")],
    ("PlanChangesIn", "name"): [(Plan, "name")],
    ("PlanChangesIn", "delivery"): [(Plan, "delivery")],
    ("PlanChangesIn", "guarantee"): [(Plan, "guarantee")],
    ("FamilyIn", "key"): [(Family, "key")],
    ("FamilyIn", "title"): [(Family, "title")],
    ("FamilyIn", "cta"): [(Family, "cta")],
    ("FamilyIn", "default_plan"): [(Family, "default_plan")],
    ("IdeasIn", "topic"): [(Generation, "topic")],
    ("GenerateArticleIn", "title"): [(Generation, "title")],
    # The blog's articles, as the article manager saves them.
    ("ArticleIn", "title"): [(Article, "title")],
    ("ArticleIn", "slug"): [(Article, "slug"), (SlugRedirect, "old_slug")],
    ("ArticleIn", "meta_description"): [(Article, "meta_description")],
    ("ArticleIn", "cover_alt"): [(Article, "cover_alt")],
    ("ArticlePageIn", "cover_alt"): [(Article, "cover_alt")],
    ("ProfileIn", "bio"): [(Profile, "bio")],
    # Support.
    ("SupportIn", "name"): [(SupportRequest, "name")],
    ("SupportIn", "email"): [(SupportRequest, "email")],
    ("SupportIn", "subject"): [(SupportRequest, "subject")],
    # Withdraw and cancel: the address identified (the reference is only looked up).
    ("IdentifyIn", "email"): [(Withdrawal, "email"), (Cancellation, "email")],
}
# Strings no request writes as sent: hashes, ids, Stripe's values, our own words.
NOT_FROM_REQUESTS = {
    # The audit log: the actor is the signed-in admin's stored e-mail (auth.web.audit_actor),
    # the action a fixed name, and the target's type, id and label come from rows already
    # stored; audit.service.record cuts each to its column all the same.
    (AuditEntry, "actor_email"),
    (AuditEntry, "action"),
    (AuditEntry, "target_type"),
    (AuditEntry, "target_id"),
    (AuditEntry, "target_label"),
    # The MRR log, failed payments and revenue: Stripe's ids and currencies from the verified
    # events' re-fetched objects (as the rows above), and fixed names (kind, source, interval).
    (MrrMovement, "currency"),
    (MrrMovement, "event_id"),
    (MrrMovement, "kind"),
    (MrrMovement, "source"),
    (MrrMovement, "subscription_id"),
    (PaymentFailure, "currency"),
    (PaymentFailure, "invoice_id"),
    (PaymentFailure, "stripe_customer_id"),
    (PaymentFailure, "subscription_id"),
    (RevenueEntry, "currency"),
    (RevenueEntry, "kind"),
    (RevenueEntry, "payment_intent_id"),
    (RevenueEntry, "plan_key"),
    (RevenueEntry, "stripe_id"),
    (Subscription, "currency"),
    (Subscription, "forever_coupon_id"),
    (Subscription, "interval"),
    # A plan's price changes: written by the seed and `agency catalogue set-price`, from a plan
    # already stored (its key and currency) and a fixed source name.
    (PriceChange, "plan"),
    (PriceChange, "currency"),
    (PriceChange, "source"),
    # Withdrawals and cancellations: copied from the order and subscription found.
    (Withdrawal, "order_number"),
    (Withdrawal, "plan_name"),
    (Withdrawal, "domain"),
    (Withdrawal, "status"),
    (Cancellation, "subscription_id"),
    (Cancellation, "plan_name"),
    (Cancellation, "kind"),
    (Cancellation, "status"),
    (User, "password_hash"),
    (User, "role"),
    (Session, "id"),
    (Session, "user_agent"),
    (Session, "ip"),
    (PasswordReset, "token_hash"),
    (CheckoutSession, "id"),
    (CheckoutSession, "mode"),
    (CheckoutSession, "status"),
    # The buyer type (one of CheckoutIn's two words) and the versions of our own texts.
    (Customer, "buyer_type"),
    (CheckoutSession, "buyer_type"),
    (CheckoutSession, "early_start_consent_version"),
    (CheckoutSession, "terms_version"),
    (Order, "buyer_type"),
    (Order, "early_start_consent_version"),
    (Order, "terms_version"),
    # tax.api's Treatment.kind, which our checkout chose (cut to the column from the metadata).
    (Order, "vat_kind"),
    (Customer, "stripe_customer_id"),
    (Subscription, "id"),
    (Subscription, "customer_id"),
    (Subscription, "status"),
    (Subscription, "price_id"),
    (Subscription, "plan_key"),
    (Subscription, "card_brand"),
    (Subscription, "card_last4"),
    (Order, "checkout_session_id"),
    (Order, "payment_intent_id"),
    (Order, "subscription_id"),
    (Order, "currency"),
    (Order, "status"),
    (Order, "card_brand"),
    (Order, "card_last4"),
    (WebhookEvent, "id"),
    (WebhookEvent, "type"),
    (WebhookEvent, "status"),
    (Plan, "currency"),
    (Plan, "mode"),
    (Plan, "interval"),
    (Plan, "badge"),
    (Plan, "stripe_product_id"),
    (Plan, "stripe_price_id"),
    (Lead, "page"),
    # A newsletter consent: the version of our own wording and Kit's outcome, in our words (its
    # form is the speed test's or analysis's source, checked against their pages, or LeadIn's).
    (NewsletterConsent, "wording_version"),
    (NewsletterConsent, "outcome"),
    (SpeedTest, "public_id"),
    # The host the service reads out of SpeedTestIn.url (checked to fit), and the URL it builds.
    (SpeedTest, "domain"),
    (SpeedTest, "url"),
    (SpeedTest, "strategy"),
    (SpeedTest, "provider"),
    (SpeedTest, "status"),
    (SpeedTest, "source"),
    (Website, "status"),
    # Websites: the plan key billing passes from the catalogue; a speed check's speed-test id,
    # kind and status.
    (Website, "plan_key"),
    (SpeedCheck, "test_id"),
    (SpeedCheck, "kind"),
    (SpeedCheck, "status"),
    # The analysis: the domain the strict rule reads out of AnalysisIn.url (a label
    # and a top-level part of at most 63 characters each) and the URL built from it.
    (Analysis, "public_id"),
    (Analysis, "variant"),
    (Analysis, "source"),
    (Analysis, "domain"),
    (Analysis, "url"),
    (Analysis, "status"),
    (Analysis, "generated_by"),
    (Analysis, "speed_test_public_id"),
    # The blog's article status (the service's own words).
    (Article, "status"),
    # One of a fixed few (Literal in the schemas), and the cover's content hash.
    (Article, "language"),
    (Article, "call_to_action"),
    (Article, "cover_key"),
    (Article, "body_format"),
    # The article manager's AI generations.
    (Generation, "public_id"),
    (Generation, "kind"),
    (Generation, "status"),
    (Generation, "model"),
    # Support: the domain of the customer's own website (the sites module's), the
    # status; notifications are written by the program's modules, never from a request.
    (SupportRequest, "website_domain"),
    (SupportRequest, "status"),
    (Notification, "kind"),
    (Notification, "title"),
    (Notification, "link"),
    # A VAT ID check: VatIdIn.vat_id as python-stdnum compacts and validates it (at most 14
    # characters: NL + 12), its country and status in our words, VIES's consultation number and
    # error code (cut to fit).
    (VatIdCheck, "number"),
    (VatIdCheck, "country"),
    (VatIdCheck, "status"),
    (VatIdCheck, "request_identifier"),
    (VatIdCheck, "last_error"),
    # The buyer's country and VAT ID at checkout (CheckoutIn and QuoteIn): an ISO code from
    # billing's list, the VAT ID as python-stdnum compacts it (at most 14 characters), its
    # status in our words; copied to the order with Stripe's invoice id. A customer's tax IDs
    # as Stripe's events tell them (cut to fit).
    (CheckoutSession, "country"),
    (CheckoutSession, "vat_id"),
    (CheckoutSession, "vat_id_status"),
    (Order, "country"),
    (Order, "vat_id"),
    (Order, "vat_id_status"),
    (Order, "invoice_id"),
    (CustomerTaxId, "id"),
    (CustomerTaxId, "stripe_customer_id"),
    (CustomerTaxId, "type"),
    (CustomerTaxId, "value"),
    (CustomerTaxId, "verification_status"),
    (CustomerTaxId, "verified_name"),
    # Invoices, credit notes and refunds: from Stripe's signed events only, each value cut to
    # its column (ids, numbers, the buyer as Stripe froze it, our own kinds and statuses).
    *(
        (model, name)
        for model in (Invoice, Refund)
        for name, field in model._meta.fields_map.items()
        if isinstance(field, fields.CharField)
    ),
}


def max_length(model: type[Model], column: str) -> int:
    field = model._meta.fields_map[column]
    assert isinstance(field, fields.CharField), (model.__name__, column)
    return int(field.max_length)


def test_no_schema_allows_more_than_its_columns_hold() -> None:
    schemas = {schema.__name__: schema for schema in request_schemas()}
    for (schema_name, field), columns in WRITES.items():
        [limit] = [
            s["maxLength"] for name, _, s in string_slots(schemas[schema_name]) if name == field
        ]
        for model, column in columns:
            holds = max_length(model, column)
            assert limit <= holds, (
                f"{schema_name}.{field} allows {limit}, {model.__name__}.{column} holds {holds}"
            )


def test_every_text_column_of_the_modules_is_accounted_for() -> None:
    """A new CharField is written from a request (then it is in WRITES, and bounded) or not."""
    written = {column for columns in WRITES.values() for column in columns}
    for module in MODULES:
        if module.models is None:
            continue
        for model in vars(module.models).values():
            if not (isinstance(model, type) and issubclass(model, Model) and model is not Model):
                continue
            for name, field in model._meta.fields_map.items():
                if isinstance(field, fields.CharField):
                    assert (model, name) in written | NOT_FROM_REQUESTS, (
                        f"{model.__name__}.{name}: add it to WRITES (with the schema field "
                        "that writes it) or to NOT_FROM_REQUESTS"
                    )
