"""The seller's details as settings: their validators (property tests), the start-up checks,
and the production guard (AGENCY_ENV=production or a live Stripe key) naming every demo key."""

from __future__ import annotations

import re
import string
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agency.core.settings import SettingsError
from agency.modules.legal.settings import DEMO_MARKERS, LINE_MAX, REQUIRED_SELLER_KEYS
from agency.settings import Settings, check_modules, load_settings
from tests.legal.seller import SELLER, SELLER_VAT_ID


def settings(**overrides: Any) -> Any:
    return Settings(**overrides)


def refusal(**overrides: Any) -> str:
    with pytest.raises(SettingsError) as caught:
        check_modules(load_settings(**overrides))
    return str(caught.value)


def test_the_defaults_are_demo_details_that_start_outside_production() -> None:
    demo = settings()
    assert demo.seller_name == "Demo Agentur" and demo.seller_street == "Musterstraße 1"
    check_modules(demo)  # development: starts, the pages say it is a demo


def test_production_refuses_the_demo_details_naming_every_key_to_set() -> None:
    message = refusal(env="production")
    for key in DEMO_MARKERS:
        assert f"AGENCY_{key.upper()}: " in message, key
    assert "AGENCY_ENV is production" in message
    # A real seller may well be a GmbH in 10115 Berlin: those are not flagged.
    for key in ("seller_city", "seller_postcode", "seller_legal_form", "seller_country"):
        assert f"AGENCY_{key.upper()}:" not in message


def test_production_names_only_the_demo_details_left() -> None:
    partly = {**SELLER, "seller_vat_id": "DE000000000"}
    message = refusal(env="production", **partly)
    assert "AGENCY_SELLER_VAT_ID: " in message
    assert "AGENCY_SELLER_NAME" not in message
    assert "or an empty one where it does not apply" in message


def test_production_starts_with_real_details() -> None:
    check_modules(load_settings(env="production", **SELLER))


@pytest.mark.parametrize("key", ["sk_live_abc123", "rk_live_abc123"])
def test_a_live_stripe_key_counts_as_production(key: str) -> None:
    message = refusal(stripe_secret_key=key)
    assert "AGENCY_STRIPE_SECRET_KEY is a live key" in message
    assert "AGENCY_SELLER_NAME: " in message
    check_modules(load_settings(stripe_secret_key=key, **SELLER))
    check_modules(load_settings(stripe_secret_key="sk_test_abc123"))  # test keys: a demo is fine


def test_a_live_key_in_production_lists_each_key_once() -> None:
    message = refusal(env="production", stripe_secret_key="sk_live_abc")
    assert message.count("AGENCY_SELLER_NAME:") == 1


@pytest.mark.parametrize("key", REQUIRED_SELLER_KEYS)
def test_a_required_detail_may_not_be_empty(key: str) -> None:
    message = refusal(**{**SELLER, key: " "})
    assert f"AGENCY_{key.upper()}: Value error, must not be empty" in message


def test_register_court_and_number_go_together() -> None:
    assert "AGENCY_SELLER_REGISTER_COURT" in refusal(**{**SELLER, "seller_register_court": ""})
    assert "AGENCY_SELLER_REGISTER_NUMBER" in refusal(**{**SELLER, "seller_register_number": ""})
    unregistered = {**SELLER, "seller_register_court": "", "seller_register_number": ""}
    check_modules(load_settings(env="production", **unregistered))


def test_optional_details_may_be_empty_in_production() -> None:
    sole_trader = {
        **SELLER,
        "seller_legal_form": "",
        "seller_managing_directors": "",
        "seller_register_court": "",
        "seller_register_number": "",
        "seller_vat_id": "",
        "seller_editorial_name": "",
    }
    check_modules(load_settings(env="production", **sole_trader))


def test_the_vat_id_is_kept_without_spaces_in_capitals() -> None:
    assert settings(seller_vat_id=" de 812 345 678 ").seller_vat_id == SELLER_VAT_ID


vat_ids = st.builds(
    lambda country, body: country + body,
    st.sampled_from(["DE", "AT", "FR", "NL", "EL", "XI", "IE"]),
    st.text(string.digits + string.ascii_uppercase, min_size=2, max_size=13),
)


@given(vat_ids)
def test_any_eu_vat_id_shape_is_accepted(vat_id: str) -> None:
    assert settings(seller_vat_id=vat_id).seller_vat_id == vat_id


@given(st.text(max_size=30))
def test_a_vat_id_is_empty_or_a_country_code_and_letters_or_digits(value: str) -> None:
    try:
        accepted = settings(seller_vat_id=value).seller_vat_id
    except ValueError:
        return
    assert accepted == "" or re.fullmatch(r"[A-Z]{2}[0-9A-Z+*]{2,13}", accepted)


@given(st.text(max_size=LINE_MAX + 20))
def test_a_seller_line_is_one_line_without_markup(value: str) -> None:
    try:
        accepted = settings(seller_street=value).seller_street
    except ValueError:
        return
    assert len(accepted) <= LINE_MAX
    assert "\n" not in accepted and "\r" not in accepted
    assert not set(accepted) & set("<>")
    assert accepted == accepted.strip()


@given(st.text(max_size=20))
def test_a_postcode_is_short_letters_digits_spaces_and_hyphens(value: str) -> None:
    try:
        accepted = settings(seller_postcode=value).seller_postcode
    except ValueError:
        return
    assert accepted == "" or re.fullmatch(r"[0-9A-Za-z][0-9A-Za-z -]{1,9}", accepted)


@given(st.text(max_size=40))
def test_a_seller_phone_has_enough_digits_and_no_markup(value: str) -> None:
    try:
        accepted = settings(seller_phone=value).seller_phone
    except ValueError:
        return
    if accepted:
        assert sum(c.isdigit() for c in accepted) >= 6
        assert not set(accepted) & set("<>\"'&")


@given(st.emails())
def test_a_seller_email_is_one_address(address: str) -> None:
    try:
        accepted = settings(seller_email=address).seller_email
    except ValueError:
        return
    assert "@" in accepted and not set(accepted) & set(" \r\n<>")


def test_the_brand_may_not_be_empty() -> None:
    with pytest.raises(SettingsError, match="AGENCY_BRAND_NAME"):
        load_settings(brand_name="  ")


def test_bad_values_are_listed_by_variable() -> None:
    with pytest.raises(SettingsError) as caught:
        load_settings(seller_email="not-an-address", seller_vat_id="12", seller_phone="call me")
    message = str(caught.value)
    for key in ("AGENCY_SELLER_EMAIL", "AGENCY_SELLER_VAT_ID", "AGENCY_SELLER_PHONE"):
        assert key in message


def test_the_pages_contact_is_the_seller_s_unless_set_apart() -> None:
    from agency.modules.content.service.pages import SiteDetails

    details = SiteDetails.from_settings(settings(**SELLER))
    assert (details.contact_email, details.phone) == (SELLER["seller_email"], "+49 40 555 0123")
    apart = settings(
        **SELLER, contact_email="sales@nordlicht.example", contact_phone="+49 40 999 111"
    )
    assert SiteDetails.from_settings(apart).contact_email == "sales@nordlicht.example"
