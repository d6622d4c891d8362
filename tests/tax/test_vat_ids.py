"""VAT IDs on both databases: syntax, the VIES answer kept in `VatIdCheck`, the cache, an outage
leaving the ID pending, and the `tax.vies_recheck` job that asks again."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from stdnum.eu import vat

from agency.core import jobs
from agency.core.errors import ValidationFailed
from agency.modules.tax import api as tax
from agency.modules.tax.models import VatIdCheck
from agency.modules.tax.service import vatids
from agency.settings import Settings
from tests.fakes.vies_server import FakeVies, run_fake_vies

MSG = "Please enter a valid VAT ID, for example DE123456789."


@pytest.fixture(scope="module")
def vies() -> Iterator[FakeVies]:
    with run_fake_vies() as fake:
        yield fake


@pytest.fixture(autouse=True)
def fresh(vies: FakeVies) -> None:
    vies.reset()


def settings(vies: FakeVies, **overrides: Any) -> Any:
    return Settings(vies_api_base=vies.base_url, vies_timeout_seconds=2, **overrides)


@pytest.mark.parametrize(
    ("raw", "number"),
    [
        ("DE 136 695 976", "DE136695976"),
        ("de136695976", "DE136695976"),
        (" DE-136.695.976 ", "DE136695976"),
        ("FR 40 303 265 045", "FR40303265045"),
        ("ATU 135 856 27", "ATU13585627"),
        ("EL 094014201", "EL094014201"),
        ("GR 094014201", "EL094014201"),
        ("NL004495445B01", "NL004495445B01"),
    ],
)
def test_a_vat_id_is_compacted(raw: str, number: str) -> None:
    assert tax.normalise_vat_id(raw) == number


@pytest.mark.parametrize(
    "raw",
    ["", " ", "DE123456789", "DE13669597", "136695976", "XX136695976", "GB980780684",
     "XI391370332", "CHE-116.281.710 MWST", "DE" + "1" * 60, "<script>", "DE 136 695 977"],
)  # fmt: skip
def test_a_wrong_vat_id_is_refused_with_the_message(raw: str) -> None:
    with pytest.raises(ValidationFailed) as refused:
        tax.normalise_vat_id(raw)
    assert refused.value.message == MSG
    assert refused.value.fields == {"vat_id": MSG}


@given(st.text(max_size=30))
def test_any_text_is_a_vat_id_or_refused_never_an_error(raw: str) -> None:
    try:
        number = tax.normalise_vat_id(raw)
    except ValidationFailed:
        return
    assert vat.is_valid(number) and number == number.upper() and " " not in number
    assert tax.normalise_vat_id(number) == number


def test_the_country_of_a_vat_id() -> None:
    assert tax.vat_id_country("DE136695976") == "DE"
    assert tax.vat_id_country("EL094014201") == "GR"


async def test_a_valid_id_is_checked_once_and_cached(orm: str, vies: FakeVies) -> None:
    s = settings(vies)
    result = await tax.check_vat_id(s, "FR 40 303 265 045")
    assert (result.vat_id, result.country, result.status) == ("FR40303265045", "FR", "valid")
    assert result.name == "SA SODIMAS" and result.message == vatids.MSG_VALID
    assert datetime.now(UTC) - result.checked_at < timedelta(minutes=1)
    again = await tax.check_vat_id(s, "FR40303265045")
    assert again.status == "valid" and len(vies.requests) == 1  # from the cache
    row = await VatIdCheck.get(number="FR40303265045")
    assert (row.status, row.attempts, row.last_error) == ("valid", 1, None)
    cached = await tax.cached_vat_id("fr40303265045")
    assert cached is not None and cached.status == "valid"
    assert await tax.cached_vat_id("DE136695976") is None
    assert await tax.cached_vat_id("nonsense") is None


async def test_an_answer_older_than_the_cache_is_asked_again(orm: str, vies: FakeVies) -> None:
    s = settings(vies, vies_cache_hours=1)
    await tax.check_vat_id(s, "DE136695976")
    await VatIdCheck.filter(number="DE136695976").update(
        checked_at=datetime.now(UTC) - timedelta(hours=2)
    )
    vies.valid.pop("DE136695976")  # meanwhile revoked
    result = await tax.check_vat_id(s, "DE136695976")
    assert result.status == "invalid" and len(vies.requests) == 2
    assert result.message == vatids.MSG_NOT_VALID


async def test_no_cache_asks_every_time(orm: str, vies: FakeVies) -> None:
    s = settings(vies, vies_cache_hours=0)
    await tax.check_vat_id(s, "DE136695976")
    await tax.check_vat_id(s, "DE136695976")
    assert len(vies.requests) == 2


async def test_an_unknown_id_is_invalid(orm: str, vies: FakeVies) -> None:
    result = await tax.check_vat_id(settings(vies), "DE129273398")
    assert (result.status, result.name, result.address) == ("invalid", None, None)


async def test_a_qualified_check_keeps_the_consultation_number(orm: str, vies: FakeVies) -> None:
    s = settings(vies, vies_requester_vat_id="DE136695976")
    result = await tax.check_vat_id(s, "ATU13585627")
    assert result.status == "valid"
    assert result.request_identifier and result.request_identifier.startswith("WAPI")
    assert vies.requests[0]["requesterNumber"] == "136695976"


async def test_an_outage_leaves_the_id_pending_and_queues_a_recheck(
    orm: str, vies: FakeVies
) -> None:
    s = settings(vies)
    vies.down = "MS_UNAVAILABLE"
    result = await tax.check_vat_id(s, "FR40303265045")
    assert result.status == "pending" and result.message == tax.MSG_VIES_DOWN
    assert result.name is None
    row = await VatIdCheck.get(number="FR40303265045")
    assert (row.status, row.attempts, row.last_error) == ("pending", 1, "MS_UNAVAILABLE")
    [job] = await jobs.Job.filter(kind="tax.vies_recheck")
    assert job.payload == {"vat_id": "FR40303265045"} and job.max_attempts == 12
    # A pending ID is never served from the cache, and the second try queues no second job.
    again = await tax.check_vat_id(s, "FR40303265045")
    assert again.status == "pending" and len(vies.requests) == 2
    assert await jobs.Job.filter(kind="tax.vies_recheck").count() == 1
    # The job asks again: still down, it fails (the queue retries with back-off)...
    handler = vatids.recheck_handler(s)
    with pytest.raises(vatids.StillPending):
        await handler(job.payload)
    # ...and once VIES answers, the ID is valid.
    vies.down = None
    await handler(job.payload)
    row = await VatIdCheck.get(number="FR40303265045")
    assert (row.status, row.attempts, row.name) == ("valid", 4, "SA SODIMAS")
    assert (await tax.check_vat_id(s, "FR40303265045")).status == "valid"
    await handler(job.payload)  # answered: nothing more to do
    assert len(vies.requests) == 4


@pytest.mark.parametrize("trouble", ["malformed", "TIMEOUT", "GLOBAL_MAX_CONCURRENT_REQ"])
async def test_never_valid_without_vies_saying_so(orm: str, vies: FakeVies, trouble: str) -> None:
    if trouble == "malformed":
        vies.malformed.add("DE136695976")
    else:
        vies.errors["DE136695976"] = trouble
    result = await tax.check_vat_id(settings(vies), "DE136695976")
    assert result.status == "pending"


async def test_vies_down_keeps_the_last_answer_vies_gave(orm: str, vies: FakeVies) -> None:
    s = settings(vies, vies_cache_hours=0)
    assert (await tax.check_vat_id(s, "DE136695976")).status == "valid"
    vies.down = "SERVICE_UNAVAILABLE"
    result = await tax.check_vat_id(s, "DE136695976")
    assert result.status == "valid"  # VIES's own earlier answer, with its time
    assert await jobs.Job.filter(kind="tax.vies_recheck").count() == 0
    row = await VatIdCheck.get(number="DE136695976")
    assert row.last_error == "SERVICE_UNAVAILABLE"


async def test_the_recheck_job_refuses_a_payload_that_is_no_vat_id(
    orm: str, vies: FakeVies
) -> None:
    handler = vatids.recheck_handler(settings(vies))
    with pytest.raises(jobs.PermanentFailure):
        await handler({"vat_id": "nonsense"})
    await handler({"vat_id": "DE136695976"})  # never checked: nothing to do
    assert vies.requests == []
