"""The newsletter: subscribing an e-mail to the agency's Kit (formerly ConvertKit) form, from our
server only (the key never reaches a browser), and only when the visitor ticked a form's
unticked opt-in box (`opt_in`; the speed-test, analysis and lead forms send `newsletter: true`),
each ticked box recorded as a consent (`consents`).

- v3: `POST {base}/v3/forms/{form_id}/subscribe` with `{"api_key", "email"}`
  (base https://api.convertkit.com);
- v4: `X-Kit-Api-Key` header; `POST {base}/v4/subscribers` with `{"email_address",
  "state": "inactive"}` (the form's double opt-in then applies), then
  `POST {base}/v4/forms/{form_id}/subscribers` with `{"email_address"}` (base https://api.kit.com).

A failure raises `NewsletterFailed`, whose message is what the visitor sees: 'Error subscribing
to ConvertKit: ' + Kit's own message (spec §8). Without a key and a form id, `subscribe` does
nothing and `opt_in` says the newsletter is not available: the form's e-mail is kept as a lead
either way, so a fresh install works.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from agency.modules.leads.schemas import NewsletterOutcome
from agency.modules.leads.service import consents
from agency.modules.leads.settings import LeadsSettings
from agency.net import bounded_body
from agency.net.tls import tls_context

if TYPE_CHECKING:
    import httpx  # loaded by the first subscription, not with the server

log = logging.getLogger(__name__)

PREFIX = "Error subscribing to ConvertKit: "
MSG_FAILED = "Failed to subscribe to email list."  # spec §7: Kit said nothing we can show
MSG_UNREACHABLE = "The newsletter service did not answer. Please try again in a moment."
OFFICIAL_BASE = {"v3": "https://api.convertkit.com", "v4": "https://api.kit.com"}
TIMEOUT = 10.0  # seconds per request: the visitor waits for this before the speed test starts
MAX_MESSAGE = 300
# The most an answer of Kit may decode to (net/bounded_body.py): Kit answers a subscription
# with a subscriber or an error, a kilobyte or two of JSON; a megabyte is far more than any.
MAX_ANSWER_BYTES = 1024 * 1024


class NewsletterFailed(Exception):
    """Kit refused or could not be reached; `message` is shown to the visitor as it is."""

    def __init__(self, message: str) -> None:
        self.message = PREFIX + message
        super().__init__(self.message)


def kit_configured(settings: LeadsSettings) -> bool:
    return bool(settings.kit_api_key and settings.kit_form_id)


def kit_error_message(body: object) -> str:
    """Kit's message from an error answer: v3 `{"error", "message"}` (the message, else the
    error), v4 `{"errors": [...]}` (joined); `MSG_FAILED` when there is none."""
    parts: list[str] = []
    if isinstance(body, Mapping):
        errors = body.get("errors")
        if isinstance(errors, list):
            parts = [" ".join(e.split()) for e in errors if isinstance(e, str) and e.strip()]
        elif isinstance(errors, str) and errors.strip():
            parts = [" ".join(errors.split())]
        if not parts:
            for key in ("message", "error"):
                value = body.get(key)
                if isinstance(value, str) and value.strip():
                    parts = [" ".join(value.split())]
                    break
    message = "; ".join(parts)
    if len(message) > MAX_MESSAGE:
        message = message[: MAX_MESSAGE - 1].rstrip() + "…"
    return message or MSG_FAILED


def _body(response: httpx.Response) -> Any:
    try:
        return response.json()
    except (ValueError, RecursionError):
        return None


async def _post(
    client: httpx.AsyncClient, url: str, payload: dict[str, Any], headers: dict[str, str]
) -> None:
    import httpx

    try:
        response = await client.post(url, json=payload, headers=headers)
    except bounded_body.BodyLimitError as exc:
        log.warning("Kit's answer to %s was refused: %s", url, exc)
        raise NewsletterFailed(MSG_FAILED) from None
    except httpx.HTTPError as exc:
        log.warning("Kit did not answer (%s): %s", url, type(exc).__name__)
        raise NewsletterFailed(MSG_UNREACHABLE) from None
    if not 200 <= response.status_code < 300:
        message = kit_error_message(_body(response))
        log.warning("Kit answered %s to %s: %s", response.status_code, url, message)
        raise NewsletterFailed(message)


async def subscribe(settings: LeadsSettings, email: str) -> None:
    """Subscribe `email` to the configured Kit form (nothing when Kit is not configured)."""
    if not kit_configured(settings):
        return
    version = settings.kit_api_version
    base = (settings.kit_api_base or OFFICIAL_BASE[version]).rstrip("/")
    form = settings.kit_form_id
    import httpx

    async with httpx.AsyncClient(
        timeout=TIMEOUT,
        verify=tls_context(),
        event_hooks=bounded_body.httpx_hooks(max_bytes=MAX_ANSWER_BYTES),
    ) as client:
        if version == "v3":
            await _post(
                client,
                f"{base}/v3/forms/{form}/subscribe",
                {"api_key": settings.kit_api_key, "email": email},
                {},
            )
            return
        headers = {"X-Kit-Api-Key": settings.kit_api_key}
        await _post(
            client,
            f"{base}/v4/subscribers",
            {"email_address": email, "state": "inactive"},
            headers,
        )
        await _post(
            client, f"{base}/v4/forms/{form}/subscribers", {"email_address": email}, headers
        )


# ---------------------------------------------------------------------------------------------
# The forms' opt-in box

# What a form answers about the newsletter when its box was ticked: only a subscription Kit
# accepted is called one.
MSG_SUBSCRIBED = "You're subscribed to the newsletter."
MSG_NOT_OFFERED = "The newsletter is not available at the moment: you were not subscribed."


async def opt_in(
    settings: LeadsSettings, email: str, wanted: bool, form: str
) -> NewsletterOutcome | None:
    """A form's opt-in box: subscribe `email` with Kit only when the visitor ticked the box
    (`wanted`, the request's explicit `newsletter: true`); None when it was not ticked. A ticked
    box is recorded as a consent (`consents`) with `form` (the form or page) and Kit's outcome,
    whatever Kit answered. Never raises: the form's own request (a test, an analysis, a lead)
    has been carried out, and the outcome says whether the subscription happened."""
    if wanted is not True:
        return None
    if not kit_configured(settings):
        await consents.record(email, form, consents.NOT_CONFIGURED)
        return NewsletterOutcome(subscribed=False, message=MSG_NOT_OFFERED)
    try:
        await subscribe(settings, email)
    except NewsletterFailed as exc:
        await consents.record(email, form, consents.REFUSED)
        return NewsletterOutcome(subscribed=False, message=exc.message)
    await consents.record(email, form, consents.SUBSCRIBED)
    log.info("newsletter: subscribed an e-mail through a form's opt-in box")
    return NewsletterOutcome(subscribed=True, message=MSG_SUBSCRIBED)
