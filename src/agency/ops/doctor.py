"""`agency doctor`: what an operator still has to configure. The kernel's own parts (e-mail, the
configuration checks) and the AI provider (`agency.net`) are judged here, every module's through
its `Module.readiness`; production needs what is `required`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from agency.core.modules import Module, Readiness
from agency.core.settings import Settings, SettingsError, as_settings, check_settings
from agency.net.settings import AiSettings

DEFAULT_MAIL_FROM = Settings.model_fields["mail_from"].default


def configuration(settings: Settings, modules: Sequence[Module[Any]]) -> Readiness:
    """The modules' start-up checks: what would stop `agency serve` now."""
    try:
        check_settings(settings, [m.check_settings for m in modules if m.check_settings])
    except SettingsError as exc:
        lines = str(exc).splitlines()[1:]
        return Readiness(
            "Start-up checks",
            False,
            True,
            "the server refuses to start:\n" + "\n".join(line.strip() for line in lines),
            "set the keys named above",
        )
    return Readiness("Start-up checks", True, True, f"AGENCY_ENV={settings.env}: the server starts")


def email(settings: Settings) -> Readiness:
    topic = "E-mail (SMTP)"
    if not settings.smtp_host:
        return Readiness(
            topic,
            False,
            True,
            "no SMTP server: every e-mail waits in the outbox (`agency mail outbox`)",
            "set AGENCY_SMTP_HOST, AGENCY_SMTP_PORT, AGENCY_SMTP_USERNAME, "
            "AGENCY_SMTP_PASSWORD and AGENCY_MAIL_FROM",
        )
    if settings.mail_from == DEFAULT_MAIL_FROM:
        return Readiness(
            topic,
            False,
            True,
            f"e-mails are sent from the demo sender {settings.mail_from}",
            'set AGENCY_MAIL_FROM ("Your Brand <hello@your-domain>")',
        )
    return Readiness(
        topic,
        True,
        True,
        f"{settings.smtp_host}:{settings.smtp_port} ({settings.smtp_security}), "
        f"from {settings.mail_from}",
    )


def ai(settings: AiSettings) -> Readiness:
    topic = "AI (OpenAI-compatible)"
    if not settings.ai_api_key:
        return Readiness(
            topic,
            False,
            False,
            "optional: without a key, analyses are written by rules and the article manager "
            "says 'AI is not configured'",
            "set AGENCY_AI_API_KEY (and AGENCY_AI_BASE_URL, AGENCY_AI_MODEL for another provider)",
        )
    return Readiness(topic, True, False, f"{settings.ai_model} at {settings.ai_base_url}")


def report(settings: Settings, modules: Sequence[Module[Any]]) -> list[Readiness]:
    """Everything to configure: production's needs first, then the optional features."""
    found = [configuration(settings, modules), email(settings)]
    found += [item for m in modules if m.readiness is not None for item in m.readiness(settings)]
    found.append(ai(as_settings(AiSettings, settings)))
    return sorted(found, key=lambda item: not item.required)  # stable: order kept within


def missing_for_production(items: Sequence[Readiness]) -> list[Readiness]:
    return [item for item in items if item.required and not item.ready]
