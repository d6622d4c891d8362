"""Keep the fake Stripe (and what the product sends to Stripe) honest against the pinned SDK.

The stripe SDK is generated from Stripe's OpenAPI spec: its request parameters are TypedDicts
(``stripe.params...``) and its resources annotate every field they can carry, with ``Literal``
lists for enums. This module walks those types, offline and locked to the installed version:

- :func:`assert_valid_params` (endpoint, params): every key is a parameter of that endpoint at
  that place, every enum value is one of the spec's values. Use it on what the product sends,
  e.g. ``for params in fake.received("checkout.sessions.create"): assert_valid_params(...)``.
- :func:`param_paths` (endpoint): all dotted parameter paths (lists transparent).
- :func:`object_errors` (obj): fields of an answer or event object that the SDK's resource type
  does not have, or enum values outside its ``Literal`` lists.

Endpoints are named like the SDK's ``StripeClient.v1`` services: ``"checkout.sessions.create"``,
``"customers.tax_ids.create"``, ``"tax.registrations.create"`` (see :data:`ENDPOINTS`).
"""

from __future__ import annotations

import importlib
import sys
import typing
from typing import Any, ForwardRef

import stripe
from stripe._request_options import RequestOptions
from typing_extensions import is_typeddict

# endpoint -> "module:TypedDict" of its request parameters in the pinned SDK
ENDPOINTS: dict[str, str] = {
    "checkout.sessions.create": "stripe.params.checkout._session_create_params:SessionCreateParams",
    "customers.create": "stripe.params._customer_create_params:CustomerCreateParams",
    "customers.update": "stripe.params._customer_update_params:CustomerUpdateParams",
    "customers.tax_ids.create": (
        "stripe.params._customer_tax_id_create_params:CustomerTaxIdCreateParams"
    ),
    "products.create": "stripe.params._product_create_params:ProductCreateParams",
    "prices.create": "stripe.params._price_create_params:PriceCreateParams",
    "prices.update": "stripe.params._price_update_params:PriceUpdateParams",
    "refunds.create": "stripe.params._refund_create_params:RefundCreateParams",
    "credit_notes.create": "stripe.params._credit_note_create_params:CreditNoteCreateParams",
    "tax.registrations.create": (
        "stripe.params.tax._registration_create_params:RegistrationCreateParams"
    ),
    "tax.registrations.update": (
        "stripe.params.tax._registration_update_params:RegistrationUpdateParams"
    ),
    "billing_portal.sessions.create": (
        "stripe.params.billing_portal._session_create_params:SessionCreateParams"
    ),
    "subscriptions.update": "stripe.params._subscription_update_params:SubscriptionUpdateParams",
    "subscriptions.cancel": "stripe.params._subscription_cancel_params:SubscriptionCancelParams",
    "coupons.create": "stripe.params._coupon_create_params:CouponCreateParams",
}

# "object" value -> SDK resource class (for answers and event payloads)
RESOURCES: dict[str, str] = {
    "checkout.session": "stripe.checkout:Session",
    "invoice": "stripe:Invoice",
    "line_item": "stripe:InvoiceLineItem",
    "invoice_payment": "stripe:InvoicePayment",
    "tax_id": "stripe:TaxId",
    "tax_rate": "stripe:TaxRate",
    "tax.registration": "stripe.tax:Registration",
    "credit_note": "stripe:CreditNote",
    "credit_note_line_item": "stripe:CreditNoteLineItem",
    "refund": "stripe:Refund",
    "charge": "stripe:Charge",
    "customer": "stripe:Customer",
    "price": "stripe:Price",
    "plan": "stripe:Plan",
    "product": "stripe:Product",
    "subscription": "stripe:Subscription",
    "subscription_item": "stripe:SubscriptionItem",
    "payment_intent": "stripe:PaymentIntent",
    "payment_method": "stripe:PaymentMethod",
    "item": "stripe:LineItem",
    "event": "stripe:Event",
    "billing_portal.session": "stripe.billing_portal:Session",
    "coupon": "stripe:Coupon",
    "discount": "stripe:Discount",
}

_REQUEST_OPTIONS = set(RequestOptions.__annotations__)


def _load(spec: str) -> Any:
    module, _, name = spec.partition(":")
    return getattr(importlib.import_module(module), name)


def params_type(endpoint: str) -> Any:
    if endpoint not in ENDPOINTS:
        raise KeyError(f"unknown endpoint {endpoint!r}; known: {', '.join(sorted(ENDPOINTS))}")
    return _load(ENDPOINTS[endpoint])


def resource_type(kind: str) -> Any:
    return _load(RESOURCES[kind]) if kind in RESOURCES else None


# ------------------------------------------------------------------------------ annotations

_NAMES = {n: getattr(typing, n) for n in ("Any", "Dict", "List", "Literal", "Optional", "Union")}


def _resolve(annotation: Any, owner: Any) -> Any:
    """An annotation with its forward references evaluated in ``owner``'s module (names only
    imported for type checking stay unresolved: :data:`typing.Any`)."""
    if isinstance(annotation, str):
        annotation = ForwardRef(annotation)
    if isinstance(annotation, ForwardRef):
        namespace = {**_NAMES, **vars(sys.modules[owner.__module__])}
        # Nested classes of resources (Invoice.TotalTax) are looked up in their outer class.
        outer = owner
        for part in owner.__qualname__.split(".")[:-1] or []:
            outer = namespace.get(part, outer)
        if isinstance(outer, type):
            namespace.update(vars(outer))
        try:
            annotation = eval(annotation.__forward_arg__, namespace)
        except NameError:
            name = annotation.__forward_arg__
            found = getattr(stripe, name, None) or getattr(stripe.checkout, name, None)
            return found if found is not None else Any
    origin = typing.get_origin(annotation)
    if origin is not None and str(origin).endswith(("NotRequired", "Required")):
        return _resolve(typing.get_args(annotation)[0], owner)
    if origin in (typing.Union, getattr(__import__("types"), "UnionType", None)):
        return typing.Union[tuple(_resolve(a, owner) for a in typing.get_args(annotation))]  # noqa: UP007
    if origin in (list, typing.List):  # noqa: UP006
        args = typing.get_args(annotation)
        return typing.List[_resolve(args[0], owner) if args else Any]  # type: ignore[misc]  # noqa: UP006
    return annotation


def _members(annotation: Any) -> list[Any]:
    if typing.get_origin(annotation) is typing.Union:
        found: list[Any] = []
        for arg in typing.get_args(annotation):
            found += _members(arg)
        return found
    return [annotation]


def _literals(members: list[Any]) -> list[Any]:
    return [
        v for m in members if typing.get_origin(m) is typing.Literal for v in typing.get_args(m)
    ]


def enum_values(owner: Any, field: str) -> list[Any]:
    """The Literal values of ``owner.field`` (a request TypedDict or a resource), lists unpacked."""
    annotation = _resolve(owner.__annotations__[field], owner)
    members = []
    for member in _members(annotation):
        if typing.get_origin(member) is list:
            members += _members(_resolve(typing.get_args(member)[0], owner))
        else:
            members.append(member)
    return _literals(members)


def _fields(td: Any) -> dict[str, Any]:
    return {k: v for k, v in td.__annotations__.items() if k not in _REQUEST_OPTIONS}


# ------------------------------------------------------------------------------ parameters


def param_paths(endpoint: str) -> set[str]:
    """Every dotted parameter path of ``endpoint`` (list items have no index)."""
    paths: set[str] = set()

    def walk(td: Any, prefix: str, seen: frozenset[Any]) -> None:
        for key, annotation in _fields(td).items():
            path = f"{prefix}{key}"
            paths.add(path)
            for member in _members(_resolve(annotation, td)):
                if typing.get_origin(member) in (list,):
                    member = typing.get_args(member)[0]
                    for inner in _members(member):
                        if is_typeddict(inner) and inner not in seen:
                            walk(inner, path + ".", seen | {inner})
                elif is_typeddict(member) and member not in seen:
                    walk(member, path + ".", seen | {member})

    root = params_type(endpoint)
    walk(root, "", frozenset({root}))
    return paths


def param_errors(endpoint: str, params: dict[str, Any]) -> list[str]:
    """What is wrong with ``params`` for ``endpoint``, as readable lines (empty: all valid).
    Values may be Python values or the strings a form body carries ("true", "12")."""
    errors: list[str] = []

    def check(value: Any, annotation: Any, owner: Any, path: str) -> bool:
        members = _members(_resolve(annotation, owner))
        literals = _literals(members)
        if isinstance(value, str) and literals:
            if value in literals:
                return True
            others = [m for m in members if typing.get_origin(m) is not typing.Literal]
            if value == "" or not any(m in (int, float, bool) for m in others):
                errors.append(f"{path}: {value!r} is not one of {literals}")
                return False
        for member in members:
            if member is Any or (member is str and isinstance(value, str)):
                return True
            if member is bool and (isinstance(value, bool) or value in ("true", "false")):
                return True
            if member in (int, float) and _number(value, member):
                return True
            if typing.get_origin(member) is list and isinstance(value, list | tuple):
                inner = typing.get_args(member)[0]
                return all(check(v, inner, owner, f"{path}[{i}]") for i, v in enumerate(value))
            if is_typeddict(member) and isinstance(value, dict):
                walk(value, member, path)
                return True
            if (
                typing.get_origin(member) is dict
                or getattr(member, "__name__", "") == "UntypedStripeObject"
                or getattr(typing.get_origin(member), "__name__", "") == "UntypedStripeObject"
            ) and isinstance(value, dict):
                return True
        if value is None or value == "":
            return True  # unsetting (the SDK sends an empty string)
        errors.append(f"{path}: {value!r} does not fit {annotation}")
        return False

    def walk(value: dict[str, Any], td: Any, prefix: str) -> None:
        fields = _fields(td)
        for key, item in value.items():
            path = f"{prefix}.{key}" if prefix else key
            if key not in fields:
                errors.append(f"{path}: not a parameter of {endpoint}")
                continue
            check(item, fields[key], td, path)

    walk(params, params_type(endpoint), "")
    return errors


def _number(value: Any, kind: type) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, int | float):
        return kind is float or isinstance(value, int)
    if isinstance(value, str):
        try:
            kind(value)
        except ValueError:
            return False
        return True
    return False


def assert_valid_params(endpoint: str, params: dict[str, Any]) -> None:
    """Fail (AssertionError listing every problem) unless ``params`` are valid request parameters
    of ``endpoint`` in the pinned SDK, enum values included."""
    errors = param_errors(endpoint, params)
    assert not errors, f"invalid parameters for {endpoint}:\n  " + "\n  ".join(errors)


# ------------------------------------------------------------------------------ answers


def object_errors(obj: dict[str, Any], cls: Any = None, path: str = "") -> list[str]:
    """Fields of ``obj`` its SDK resource type lacks, and enum values outside its Literals.
    ``cls`` defaults to the resource named by ``obj["object"]``."""
    errors: list[str] = []
    kind = obj.get("object")
    if isinstance(kind, str) and kind in RESOURCES and (cls is None or kind != "list"):
        cls = resource_type(kind)
    if cls is None:
        if kind == "list":
            for i, item in enumerate(obj.get("data", [])):
                if isinstance(item, dict):
                    errors += object_errors(item, None, f"{path}.data[{i}]")
            return errors
        return [f"{path or '<root>'}: unknown object type {kind!r}"]
    annotations = {
        k: v
        for klass in reversed(cls.__mro__)
        for k, v in getattr(klass, "__annotations__", {}).items()
        if not k.isupper()
    }
    name = f"{path or cls.__qualname__}"
    for key, value in obj.items():
        here = f"{name}.{key}"
        if key not in annotations:
            errors.append(f"{here}: not a field of {cls.__module__}.{cls.__qualname__}")
            continue
        errors += _value_errors(value, _resolve(annotations[key], cls), cls, here)
    return errors


def _value_errors(value: Any, annotation: Any, owner: Any, path: str) -> list[str]:
    if value is None:
        return []
    members = _members(annotation)
    literals = _literals(members)
    if literals and isinstance(value, str | bool):
        if value not in literals:
            return [f"{path}: {value!r} is not one of {literals}"]
        return []
    if (
        isinstance(value, dict)
        and isinstance(value.get("object"), str)
        and value["object"] in RESOURCES
    ):
        return object_errors(value, None, path)  # e.g. an event's data.object
    for member in members:
        origin = typing.get_origin(member)
        if member is Any:
            return []
        if isinstance(value, dict):
            if isinstance(member, type) and issubclass(member, stripe.StripeObject):
                if getattr(member, "__name__", "") == "UntypedStripeObject":
                    return []
                if member.__name__ == "ListObject" or (
                    origin is not None and getattr(origin, "__name__", "") == "ListObject"
                ):
                    return object_errors(value, None, path)
                return object_errors(value, member, path)
            if origin is not None and getattr(origin, "__name__", "") in (
                "ListObject",
                "UntypedStripeObject",
            ):
                if getattr(origin, "__name__", "") == "UntypedStripeObject":
                    return []
                return object_errors(value, None, path)
            if origin is dict:
                return []
        if isinstance(value, list) and origin is list:
            inner = typing.get_args(member)[0]
            errors: list[str] = []
            for i, item in enumerate(value):
                errors += _value_errors(item, _resolve(inner, owner), owner, f"{path}[{i}]")
            return errors
    if isinstance(value, dict) and "object" in value:
        return object_errors(value, None, path)
    if isinstance(value, dict):
        # A nested class we could not resolve (imported only for type checking): keys unknown.
        return []
    return []


__all__ = [
    "ENDPOINTS",
    "RESOURCES",
    "assert_valid_params",
    "enum_values",
    "object_errors",
    "param_errors",
    "param_paths",
]
