"""The feature is the unit: the kernel's settings class holds the kernel's keys only, each module
declares its own (`Module.settings`), and `agency.settings` composes the program's one class
from them, which reads every key as before and still refuses unknown ones."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import agency

KERNEL_KEYS = {
    # mode, server, database, secret, proxies, logs, web build, jobs
    "env",
    "host",
    "port",
    "workers",
    "base_url",
    "data_dir",
    "database_url",
    "secret_key",
    "trusted_proxies",
    "log_level",
    "log_format",
    "access_log",
    "web_dir",
    "run_jobs",
    "jobs_concurrency",
    # metrics, error reports (docs/monitoring.md)
    "metrics_token",
    "metrics_dir",
    "sentry_dsn",
    "sentry_environment",
    # e-mail
    "mail_from",
    "smtp_host",
    "smtp_port",
    "smtp_username",
    "smtp_password",
    "smtp_security",
    "smtp_timeout",
    "agency_email",
    # what the kernel itself keeps for a while
    "retention_jobs_done_days",
    "retention_jobs_failed_days",
    "retention_mail_sent_days",
    "retention_mail_failed_days",
    "retention_rate_limits_days",
}

# The keys each module declares in its own settings.py (and `agency.net`'s, the AI provider).
OWN_KEYS = {
    "tax": {
        "vat_mode",
        "stripe_tax",
        "prices_include_vat",
        "vat_country",
        "vat_oss",
        "default_buyer_type",
        "price_locale",
        "vies_api_base",
        "vies_timeout_seconds",
        "vies_cache_hours",
        "vies_requester_vat_id",
    },
    "legal": {
        "brand_name",
        "seller_name",
        "seller_legal_form",
        "seller_street",
        "seller_postcode",
        "seller_city",
        "seller_country",
        "seller_managing_directors",
        "seller_email",
        "seller_phone",
        "seller_register_court",
        "seller_register_number",
        "seller_vat_id",
        "seller_editorial_name",
        "seller_editorial_address",
    },
    "audit": {"retention_audit_days"},
    "auth": {"retention_sessions_days", "retention_password_resets_days"},
    "notifications": {"retention_notifications_days"},
    "leads": {"kit_api_key", "kit_api_version", "kit_form_id", "kit_api_base"}
    | {"retention_leads_days"},
    "speedtest": {
        "speedtest_provider",
        "pagespeed_api_key",
        "pagespeed_api_base",
        "pagespeed_timeout",
        "lighthouse_path",
        "lighthouse_chrome_path",
        "speedtest_reuse_minutes",
        "speedtest_unsafe_allow_private_targets",
    },
    "sites": {"sites_monitor_interval_hours"},
    "billing": {"stripe_secret_key", "stripe_webhook_secret", "stripe_api_base"}
    | {"retention_webhook_events_days"},
    "analysis": {"analysis_unsafe_fetch_overrides"},
    "seo": {"retention_ai_generations_days"},
    "content": {
        "contact_phone",
        "contact_email",
        "scheduling_url",
        "content_engine_plans",
        "pages_dir",
        "urgency_claims",
        "claims_file",
        "ugc_sample_video",
        "ugc_sample_poster",
        "ugc_sample_captions",
    },
}
NET_KEYS = {"ai_api_key", "ai_base_url", "ai_model", "ai_timeout", "ai_max_retries"}
# Words of the products and features the kernel must not name, even in a key.
PRODUCT_WORDS = {"stripe", "kit", "convertkit", "pagespeed", "lighthouse", "openai"}
PRODUCT_WORDS |= {"content", "ai", "speedtest", "analysis", "sites", "billing", "seo"}


def _own(cls: type) -> set[str]:
    import inspect

    return set(inspect.get_annotations(cls))


def test_the_kernel_settings_hold_the_kernel_keys_only() -> None:
    from agency.core.settings import Settings

    assert set(Settings.model_fields) == KERNEL_KEYS


def test_the_kernel_settings_file_names_no_product() -> None:
    source = (Path(agency.__file__).parent / "core" / "settings.py").read_text().lower()
    words = set(re.findall(r"[a-z]+", source))
    assert not words & PRODUCT_WORDS, sorted(words & PRODUCT_WORDS)


def test_each_module_declares_its_own_keys() -> None:
    from agency.registry import MODULES

    declared = {m.name: _own(m.settings) for m in MODULES if m.settings is not None}
    assert declared == OWN_KEYS


def test_the_program_settings_are_the_kernel_keys_and_every_module_s() -> None:
    from agency.core.settings import Settings as KernelSettings
    from agency.net.settings import AiSettings
    from agency.registry import MODULES
    from agency.settings import Settings

    assert _own(AiSettings) == NET_KEYS
    every = KERNEL_KEYS | NET_KEYS | set().union(*OWN_KEYS.values())
    assert set(Settings.model_fields) == every
    settings = Settings()
    assert isinstance(settings, KernelSettings) and isinstance(settings, AiSettings)
    for module in MODULES:
        if module.settings is not None:
            assert isinstance(settings, module.settings), module.name


def test_a_module_key_from_the_environment_reaches_the_module_s_settings(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from agency.core.settings import as_settings
    from agency.modules.billing.settings import BillingSettings
    from agency.modules.leads.settings import LeadsSettings
    from agency.settings import load_settings

    monkeypatch.setenv("AGENCY_STRIPE_SECRET_KEY", "sk_test_from_env")
    monkeypatch.setenv("AGENCY_KIT_FORM_ID", " 1234567 ")
    settings = load_settings()
    assert as_settings(BillingSettings, settings).stripe_secret_key == "sk_test_from_env"
    assert as_settings(LeadsSettings, settings).kit_form_id == "1234567"  # its validator ran


def test_a_module_key_in_the_file_is_read_and_an_unknown_one_refused(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from agency.core.settings import SettingsError
    from agency.settings import load_settings

    config = tmp_path / "agency.toml"
    config.write_text('pagespeed_timeout = 30\nstripe_api_base = "http://127.0.0.1:9"\n')
    monkeypatch.setenv("AGENCY_CONFIG", str(config))
    settings = load_settings()
    assert settings.pagespeed_timeout == 30
    config.write_text("pagespeed_timeout = 30\nstripe_secret = 1\n")
    with pytest.raises(SettingsError) as caught:
        load_settings()
    assert str(caught.value).startswith("Invalid configuration:\n")
    assert "AGENCY_STRIPE_SECRET:" in str(caught.value)
    assert "PAGESPEED" not in str(caught.value)


def test_kernel_only_settings_are_not_a_module_s() -> None:
    from agency.core.settings import Settings, as_settings
    from agency.modules.billing.settings import BillingSettings

    with pytest.raises(TypeError, match="BillingSettings"):
        as_settings(BillingSettings, Settings())


def test_composing_leaves_out_a_class_another_one_extends() -> None:
    from agency.core.settings import Settings, compose_settings
    from agency.modules.leads.settings import LeadsSettings
    from agency.modules.speedtest.settings import SpeedtestSettings

    assert compose_settings([]) is Settings
    composed = compose_settings([LeadsSettings, Settings, SpeedtestSettings])
    assert composed.__bases__ == (SpeedtestSettings,)
    with pytest.raises(TypeError, match="does not extend"):
        compose_settings([int])


async def test_routes_read_the_app_s_settings_as_their_module_s_class(tmp_path: Path) -> None:
    from agency.app import create_app
    from agency.core.web import app_settings, settings_of
    from agency.modules.billing.settings import BillingSettings
    from agency.settings import Settings

    settings = Settings(data_dir=tmp_path, stripe_api_base="http://127.0.0.1:9")
    app = create_app(settings)
    async with app.app_context():
        assert app_settings() is settings
        assert settings_of(BillingSettings).stripe_api_base == "http://127.0.0.1:9"


def test_create_app_refuses_settings_without_the_modules_keys(tmp_path: Path) -> None:
    from agency.app import create_app
    from agency.core.settings import Settings

    with pytest.raises(TypeError, match=r"agency\.settings\.load_settings"):
        create_app(Settings(data_dir=tmp_path))


def test_a_command_reads_the_settings_as_its_module_s_class(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from agency.cli import settings_class
    from agency.core.cli.support import CliContext
    from agency.modules.speedtest.settings import SpeedtestSettings

    monkeypatch.setenv("AGENCY_PAGESPEED_TIMEOUT", "42")
    context = CliContext([], settings_class=settings_class)
    assert context.settings_of(SpeedtestSettings).pagespeed_timeout == 42
