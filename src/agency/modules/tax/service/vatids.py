"""VAT IDs: syntax and check digits at once (python-stdnum), then the EU's VIES service (over
httpx, `agency.modules.tax.clients`), its answers kept in `VatIdCheck` for `vies_cache_hours`.

An outage of VIES leaves the ID `pending` (VAT is charged) and queues the job
`tax.vies_recheck`, which asks again with the job queue's back-off until VIES answers. Nothing
here says `valid` unless VIES did."""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta
from typing import Any, Final

from tortoise.exceptions import IntegrityError

from agency.core import jobs, ratelimit
from agency.core.errors import ValidationFailed
from agency.core.modules import JobHandler
from agency.core.ratelimit import Limit
from agency.modules.tax import clients
from agency.modules.tax.models import VatIdCheck
from agency.modules.tax.schemas import VatIdResult, VatIdStatus
from agency.modules.tax.settings import VAT_PREFIX_COUNTRY, TaxSettings, valid_vat_id

log = logging.getLogger(__name__)

MSG_VAT_ID_INVALID: Final = "Please enter a valid VAT ID, for example DE123456789."
MSG_VIES_DOWN: Final = (
    "The EU's VAT service (VIES) is not answering; we check your VAT ID again and charge VAT "
    "until it is confirmed."
)
MSG_VALID: Final = "The EU's VAT service (VIES) confirms this VAT ID."
MSG_NOT_VALID: Final = (
    "The EU's VAT service (VIES) does not know this VAT ID as valid; VAT is charged."
)
RECHECK_KIND: Final = "tax.vies_recheck"
# The job's tries: the queue waits 10 s x n² between them (capped at an hour), about 1.4 hours
# in all; a visitor who checks again later asks VIES afresh.
RECHECK_ATTEMPTS: Final = 12
RECHECK_WINDOW: Final = timedelta(hours=2)
# The public check (`POST /api/tax/vat-id`): each one may cost a VIES request.
CHECKS_PER_ADDRESS: Final = Limit("vat-id-ip", limit=30, window=60 * 60, per_address=True)


def normalise_vat_id(raw: str) -> str:
    """The VAT ID in its compact form ("DE 136 695 976" -> "DE136695976"); raises
    `ValidationFailed` (field `vat_id`) when its prefix is not a member state's or its syntax or
    check digits are wrong."""
    number = valid_vat_id(raw) if isinstance(raw, str) else None
    if number is None:
        raise ValidationFailed(MSG_VAT_ID_INVALID, fields={"vat_id": MSG_VAT_ID_INVALID})
    return number


def vat_id_country(vat_id: str) -> str:
    """The ISO country code of a compact VAT ID ("EL..." -> "GR")."""
    return VAT_PREFIX_COUNTRY.get(vat_id[:2].upper(), vat_id[:2].upper())


def _now() -> datetime:
    return datetime.now(UTC)


def _message(status: str) -> str:
    return {"valid": MSG_VALID, "invalid": MSG_NOT_VALID}.get(status, MSG_VIES_DOWN)


def _status(value: str) -> VatIdStatus:
    if value == "valid":
        return "valid"
    if value == "invalid":
        return "invalid"
    return "pending"


def _result(row: VatIdCheck) -> VatIdResult:
    status = _status(row.status)
    return VatIdResult(
        vat_id=row.number,
        country=row.country,
        status=status,
        name=row.name,
        address=row.address,
        checked_at=row.checked_at or row.updated_at,
        message=_message(status),
        request_identifier=row.request_identifier,
    )


def _fresh(row: VatIdCheck, hours: int, now: datetime) -> bool:
    return (
        row.status in ("valid", "invalid")
        and row.checked_at is not None
        and now - row.checked_at < timedelta(hours=hours)
    )


async def cached_vat_id(raw: str) -> VatIdResult | None:
    """What is stored about a VAT ID (any age), without asking VIES; None when nothing is, or
    when `raw` is not a valid VAT ID."""
    number = valid_vat_id(raw) if isinstance(raw, str) else None
    if number is None:
        return None
    row = await VatIdCheck.get_or_none(number=number)
    return _result(row) if row is not None else None


async def check_vat_id(settings: TaxSettings, raw: str) -> VatIdResult:
    """Check a VAT ID: syntax (raises `ValidationFailed`), then a stored answer younger than
    `vies_cache_hours`, else VIES. VIES down: the last answer VIES gave when there is one,
    else `pending` (and the re-check job queued)."""
    number = normalise_vat_id(raw)
    row = await VatIdCheck.get_or_none(number=number)
    if row is not None and _fresh(row, settings.vies_cache_hours, _now()):
        return _result(row)
    row = await _ask_vies(settings, number, row)
    return _result(row)


async def check_for_visitor(settings: TaxSettings, raw: str, client_ip: str) -> VatIdResult:
    """The public check: the syntax first (a typo costs nothing), then at most
    `CHECKS_PER_ADDRESS` checks per client address, then `check_vat_id`."""
    normalise_vat_id(raw)
    await ratelimit.enforce(CHECKS_PER_ADDRESS, client_ip)
    return await check_vat_id(settings, raw)


async def _row(number: str) -> VatIdCheck:
    row = await VatIdCheck.get_or_none(number=number)
    if row is not None:
        return row
    try:
        return await VatIdCheck.create(
            number=number, country=vat_id_country(number), status="pending"
        )
    except IntegrityError:  # created by another request meanwhile
        return await VatIdCheck.get(number=number)


async def _ask_vies(
    settings: TaxSettings, number: str, row: VatIdCheck | None, *, queue: bool = True
) -> VatIdCheck:
    """Ask VIES and store its answer (or the outage) in the number's row."""
    now = _now()
    try:
        answer = await clients.check_vat_number(
            number,
            base=settings.vies_api_base,
            timeout=settings.vies_timeout_seconds,
            requester=settings.vies_requester_vat_id,
        )
    except clients.ViesUnavailable as exc:
        log.info("VIES did not answer for a VAT ID of %s: %s", number[:2], exc.code)
        row = row or await _row(number)
        # A re-check is queued when the ID becomes pending, and again once an earlier job's
        # tries are over (its row then has not changed for longer than they take).
        was_pending = (
            row.status == "pending" and row.attempts > 0 and now - row.updated_at < RECHECK_WINDOW
        )
        row.attempts += 1
        row.last_error = exc.code
        if row.status not in ("valid", "invalid"):
            row.status = "pending"
        await row.save(update_fields=["attempts", "last_error", "status", "updated_at"])
        if queue and row.status == "pending" and not was_pending:
            await jobs.enqueue(RECHECK_KIND, {"vat_id": number}, max_attempts=RECHECK_ATTEMPTS)
        return row
    row = row or await _row(number)
    row.status = "valid" if answer.valid else "invalid"
    row.name = answer.name
    row.address = answer.address
    row.request_identifier = answer.request_identifier
    row.checked_at = now
    row.attempts += 1
    row.last_error = answer.error
    await row.save()
    return row


class StillPending(Exception):
    """VIES still does not answer: the job is retried with back-off."""


def recheck_handler(settings: TaxSettings) -> JobHandler:
    """The `tax.vies_recheck` job: ask VIES again about a pending VAT ID."""

    async def handle(payload: dict[str, Any]) -> None:
        number = valid_vat_id(str(payload.get("vat_id", "")))
        if number is None:
            raise jobs.PermanentFailure("not a VAT ID")
        row = await VatIdCheck.get_or_none(number=number)
        if row is None or row.status != "pending":
            return  # answered meanwhile
        row = await _ask_vies(settings, number, row, queue=False)
        if row.status == "pending":
            raise StillPending(row.last_error or "VIES did not answer")

    return handle
