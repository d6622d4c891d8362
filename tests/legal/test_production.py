"""Going to production: the real `agency` command refuses to serve (and to run jobs) while the
seller's demo details are in place under AGENCY_ENV=production or a live Stripe key, naming each
key to set; with real details it serves. `agency doctor` lists what is left, each with its next
step, and exits non-zero while production needs something."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from agency.app import create_app
from agency.core.settings import SettingsError
from tests.conftest import agency_servers, free_port, make_settings, run_agency, server_env
from tests.legal.seller import SELLER

pytestmark = pytest.mark.slow

DEMO_KEYS = [
    "AGENCY_SELLER_NAME",
    "AGENCY_SELLER_STREET",
    "AGENCY_SELLER_MANAGING_DIRECTORS",
    "AGENCY_SELLER_EMAIL",
    "AGENCY_SELLER_PHONE",
    "AGENCY_SELLER_REGISTER_NUMBER",
    "AGENCY_SELLER_VAT_ID",
    "AGENCY_SELLER_EDITORIAL_NAME",
]
SELLER_ENV = {f"AGENCY_{key.upper()}": value for key, value in SELLER.items()}
READY = {
    "AGENCY_SMTP_HOST": "smtp.nordlicht.example",
    "AGENCY_MAIL_FROM": "Pixelwerk <kontakt@nordlicht.example>",
    "AGENCY_STRIPE_SECRET_KEY": "sk_live_abc123",
    "AGENCY_STRIPE_WEBHOOK_SECRET": "whsec_abc123",
}


def env_for(tmp_path: Path, **settings: str) -> dict[str, str]:
    return server_env(tmp_path, f"sqlite://{tmp_path / 'agency.db'}", **settings)


@pytest.mark.parametrize(
    ("setting", "reason"),
    [
        ({"ENV": "production"}, "AGENCY_ENV is production"),
        ({"STRIPE_SECRET_KEY": "sk_live_abc123"}, "AGENCY_STRIPE_SECRET_KEY is a live key"),
        ({"STRIPE_SECRET_KEY": "rk_live_abc123"}, "AGENCY_STRIPE_SECRET_KEY is a live key"),
    ],
)
def test_serve_refuses_demo_details_in_production_naming_the_keys(
    tmp_path: Path, setting: dict[str, str], reason: str
) -> None:
    result = run_agency(
        tmp_path, "serve", "--port", str(free_port()), **env_for(tmp_path, **setting)
    )
    assert result.returncode == 2, result.stderr
    output = " ".join(result.stderr.split())
    assert "Invalid configuration:" in output
    for key in DEMO_KEYS:
        assert f"{key}: Value error, still the demo value" in output, key
    assert reason in output
    assert "serving on" not in result.stderr + result.stdout
    assert not (tmp_path / "agency.db").exists()  # refused before touching the database


def test_the_worker_refuses_them_too(tmp_path: Path) -> None:
    result = run_agency(tmp_path, "worker", "--migrate", **env_for(tmp_path, ENV="production"))
    assert result.returncode == 2
    assert "AGENCY_SELLER_NAME" in result.stderr


def test_the_app_factory_refuses_them(tmp_path: Path) -> None:
    with pytest.raises(SettingsError, match="AGENCY_SELLER_VAT_ID"):
        create_app(make_settings(tmp_path, "sqlite://:memory:", env="production"))


def test_production_serves_with_real_seller_details(tmp_path: Path) -> None:
    env = env_for(tmp_path, ENV="production", STRIPE_SECRET_KEY="sk_live_abc123")
    with agency_servers(tmp_path, {**env, **SELLER_ENV}) as [url]:
        assert httpx.get(url + "/api/health").status_code == 200


def test_doctor_lists_what_is_missing_with_the_next_step_and_fails(tmp_path: Path) -> None:
    result = run_agency(tmp_path, "doctor", **env_for(tmp_path))
    assert result.returncode == 1, result.stdout + result.stderr
    out = result.stdout
    for topic in [
        "Seller details",
        "E-mail (SMTP)",
        "Payments (Stripe)",
        "AI (OpenAI-compatible)",
        "Speed tests (PageSpeed Insights)",
        "Newsletter (Kit)",
    ]:
        assert topic in out, topic
    for step in [
        "AGENCY_SELLER_NAME",
        "AGENCY_SELLER_VAT_ID",
        "AGENCY_SMTP_HOST",
        "AGENCY_STRIPE_SECRET_KEY",
        "AGENCY_STRIPE_WEBHOOK_SECRET",
        "AGENCY_AI_API_KEY",
        "AGENCY_PAGESPEED_API_KEY",
        "AGENCY_KIT_API_KEY",
    ]:
        assert step in out, step
    assert "MISSING" in out and "OPTIONAL" in out
    assert "3 thing(s) production needs are missing" in out
    assert "E-mail (SMTP), Seller details, Payments (Stripe)" in out
    assert not (tmp_path / "data" / "agency.db").exists()  # reads the settings only


def test_doctor_passes_once_production_has_what_it_needs(tmp_path: Path) -> None:
    env = env_for(tmp_path, ENV="production")
    result = run_agency(tmp_path, "doctor", **{**env, **SELLER_ENV, **READY})
    assert result.returncode == 0, result.stdout + result.stderr
    assert "ready for production" in result.stdout
    assert "Nordlicht Webdesign UG (haftungsbeschränkt)" in result.stdout
    assert "live key and webhook secret set" in result.stdout
    assert "OPTIONAL" in result.stdout  # AI, PageSpeed and Kit: listed, not failing
    assert "MISSING" not in result.stdout


def test_doctor_reports_the_refused_start_instead_of_failing_itself(tmp_path: Path) -> None:
    env = env_for(tmp_path, ENV="production")
    result = run_agency(
        tmp_path, "doctor", **{**env, **READY, "AGENCY_STRIPE_SECRET_KEY": "sk_test_1"}
    )
    assert result.returncode == 1
    out = result.stdout
    assert "the server refuses to start" in out and "AGENCY_SELLER_NAME" in out
    assert "a test key in production" in out
