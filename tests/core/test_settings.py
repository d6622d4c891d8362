"""Settings: defaults, environment over TOML file over defaults, readable errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from agency.core.settings import SettingsError
from agency.settings import load_settings


def test_defaults_need_no_configuration(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    settings = load_settings()
    assert settings.port == 8000 and settings.host == "127.0.0.1"
    assert settings.effective_database_url == f"sqlite://{tmp_path / 'data' / 'agency.db'}"
    assert not settings.served_over_https


def test_environment_wins_over_toml_file(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    config = tmp_path / "agency.toml"
    config.write_text('port = 9000\nlog_level = "debug"\nbase_url = "https://shop.example/"\n')
    monkeypatch.setenv("AGENCY_CONFIG", str(config))
    monkeypatch.setenv("AGENCY_PORT", "9100")
    settings = load_settings()
    assert settings.port == 9100
    assert settings.log_level == "debug"
    assert settings.base_url == "https://shop.example"
    assert settings.served_over_https


def test_bad_values_are_listed_by_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGENCY_PORT", "not-a-port")
    monkeypatch.setenv("AGENCY_LOG_LEVEL", "loud")
    with pytest.raises(SettingsError) as caught:
        load_settings()
    message = str(caught.value)
    assert "AGENCY_PORT" in message and "AGENCY_LOG_LEVEL" in message


@pytest.mark.parametrize(
    "address", ["ops@agency", "ops@agency.example\r\nBcc: x@evil.example", "a b@agency.example"]
)
def test_e_mail_settings_must_be_one_address(monkeypatch: pytest.MonkeyPatch, address: str) -> None:
    """The agency's notification address is checked at start-up, not by each failed mail."""
    monkeypatch.setenv("AGENCY_AGENCY_EMAIL", address)
    monkeypatch.setenv("AGENCY_CONTACT_EMAIL", address)
    with pytest.raises(SettingsError) as caught:
        load_settings()
    assert "AGENCY_AGENCY_EMAIL" in str(caught.value)
    assert "AGENCY_CONTACT_EMAIL" in str(caught.value)


def test_no_agency_e_mail_is_allowed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGENCY_AGENCY_EMAIL", "  ")
    assert load_settings().agency_email == ""


def test_unknown_key_in_file_is_an_error(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    config = tmp_path / "agency.toml"
    config.write_text("prot = 1\n")
    monkeypatch.setenv("AGENCY_CONFIG", str(config))
    with pytest.raises(SettingsError, match="AGENCY_PROT"):
        load_settings()


def test_generated_secret_key_is_kept(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    first = load_settings().effective_secret_key()
    assert len(first) >= 32
    assert load_settings().effective_secret_key() == first
    assert (tmp_path / "data" / "secret_key").stat().st_mode & 0o077 == 0


def test_example_config_is_valid_and_documents_every_setting(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import tomllib

    from agency.core.paths import config_dir
    from agency.settings import Settings

    example = config_dir() / "agency.example.toml"
    monkeypatch.setenv("AGENCY_CONFIG", str(example))
    load_settings()  # every value in the file is valid
    documented = set(tomllib.loads(example.read_text()))
    # Paths that default to the bundled files are documented as comments.
    assert documented == set(Settings.model_fields) - {"web_dir", "pages_dir", "claims_file"}


def test_module_checks_are_reported_like_validators() -> None:
    from agency.core.settings import check_settings
    from agency.settings import Settings

    def no_example_phone(settings: Settings) -> list[tuple[str, str]]:
        return [("contact_phone", "must not be the example")] if settings.port == 8000 else []

    def always(_settings: Settings) -> list[tuple[str, str]]:
        return [("agency_email", "is needed here")]

    check_settings(Settings(port=9000), [no_example_phone])  # no problem, no error
    with pytest.raises(SettingsError) as caught:
        check_settings(Settings(), [no_example_phone, always])
    assert str(caught.value) == (
        "Invalid configuration:\n"
        "  AGENCY_CONTACT_PHONE: Value error, must not be the example\n"
        "  AGENCY_AGENCY_EMAIL: Value error, is needed here"
    )
