"""The tax settings: defaults for a German agency, validated keys, the module's own checks and
what `agency doctor` reports."""

from __future__ import annotations

import pytest

from agency.core.settings import SettingsError
from agency.modules.tax.service import checks
from agency.settings import Settings, check_modules, load_settings


def test_the_defaults_suit_a_german_agency_charging_vat() -> None:
    s = Settings()
    assert (s.vat_mode, s.stripe_tax, s.prices_include_vat) == ("standard", False, True)
    assert (s.vat_country, s.vat_oss, s.default_buyer_type) == ("DE", False, "consumer")
    assert s.vies_api_base == "https://ec.europa.eu/taxation_customs/vies/rest-api"
    assert (s.vies_cache_hours, s.vies_requester_vat_id, s.price_locale) == (24, "", "en-IE")


def test_keys_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGENCY_VAT_MODE", "small_business")
    monkeypatch.setenv("AGENCY_VAT_COUNTRY", "at")
    monkeypatch.setenv("AGENCY_PRICE_LOCALE", "de_AT")
    monkeypatch.setenv("AGENCY_VIES_REQUESTER_VAT_ID", "de 136 695 976")
    s = load_settings()
    assert (s.vat_mode, s.vat_country, s.price_locale) == ("small_business", "AT", "de-AT")
    assert s.vies_requester_vat_id == "DE136695976"


@pytest.mark.parametrize(
    ("key", "value", "words"),
    [
        ("vat_country", "US", "not an EU member state's country code"),
        ("vat_country", "Germany", "use one of AT, BE"),
        ("vat_country", "", "not an EU member state"),
        ("vat_mode", "reduced", "'standard' or 'small_business'"),
        ("default_buyer_type", "private", "'consumer' or 'business'"),
        ("price_locale", "xx-YY", "not a locale with price formats"),
        ("price_locale", "de-XX", "not a locale with price formats"),
        ("vies_api_base", "ftp://vies", "http(s) address"),
        ("vies_requester_vat_id", "DE123456789", "valid EU VAT ID"),
        ("vies_timeout_seconds", "0", "greater than 0"),
        ("vies_cache_hours", "-1", "greater than or equal to 0"),
    ],
)
def test_bad_values_are_refused_with_a_clear_message(key: str, value: str, words: str) -> None:
    with pytest.raises(SettingsError) as refused:
        load_settings(**{key: value})
    assert f"AGENCY_{key.upper()}" in str(refused.value)
    assert words in str(refused.value)


def test_the_small_business_rule_refuses_the_one_stop_shop_and_stripe_tax() -> None:
    with pytest.raises(SettingsError) as refused:
        check_modules(Settings(vat_mode="small_business", vat_oss=True, stripe_tax=True))
    text = str(refused.value)
    assert "AGENCY_VAT_OSS" in text and "no VAT to pay through the One-Stop-Shop" in text
    assert "AGENCY_STRIPE_TAX" in text
    check_modules(Settings(vat_mode="small_business"))
    check_modules(Settings(vat_oss=True, stripe_tax=True))


def test_doctor_reports_the_set_up_and_the_qualified_check() -> None:
    setup, vies = checks.readiness(Settings())
    assert setup.ready and "VAT charged, Germany 19 %" in setup.detail
    assert not vies.ready and not vies.required
    assert "AGENCY_VIES_REQUESTER_VAT_ID" in vies.next_step
    setup, vies = checks.readiness(Settings(vies_requester_vat_id="DE136695976"))
    assert vies.ready
    (only,) = checks.readiness(Settings(vat_mode="small_business"))
    assert "§ 19 UStG" in only.detail
