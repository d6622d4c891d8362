"""The VIES client against the fake VIES, a real HTTP server on loopback: valid, invalid, each
kind of outage, malformed answers, a qualified check with its consultation number."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from agency.modules.tax import clients
from agency.modules.tax.clients import ViesAnswer, ViesUnavailable, check_vat_number, read_answer
from tests.conftest import free_port
from tests.fakes.vies_server import FakeVies, run_fake_vies


@pytest.fixture(scope="module")
def vies() -> Iterator[FakeVies]:
    with run_fake_vies() as fake:
        yield fake


@pytest.fixture(autouse=True)
def fresh(vies: FakeVies) -> None:
    vies.reset()


async def ask(vies: FakeVies, number: str, **kwargs: Any) -> ViesAnswer:
    return await check_vat_number(number, base=vies.base_url, timeout=5, **kwargs)


async def test_a_valid_number_with_name_and_address(vies: FakeVies) -> None:
    answer = await ask(vies, "FR40303265045")
    assert answer.valid and answer.name == "SA SODIMAS"
    assert answer.address == "11 RUE AMPERE 26600 PONT DE L ISERE"  # one line
    assert answer.request_identifier is None  # no requester: no consultation number
    assert vies.requests == [{"countryCode": "FR", "vatNumber": "40303265045"}]


async def test_a_valid_german_number_has_no_name(vies: FakeVies) -> None:
    answer = await ask(vies, "DE136695976")
    assert answer == ViesAnswer(valid=True)


async def test_a_qualified_check_sends_the_requester_and_keeps_the_consultation_number(
    vies: FakeVies,
) -> None:
    answer = await ask(vies, "ATU13585627", requester="DE136695976")
    assert (
        answer.valid and answer.request_identifier and answer.request_identifier.startswith("WAPI")
    )
    assert vies.requests == [
        {
            "countryCode": "AT",
            "vatNumber": "U13585627",
            "requesterMemberStateCode": "DE",
            "requesterNumber": "136695976",
        }
    ]


async def test_greece_is_asked_as_el(vies: FakeVies) -> None:
    assert (await ask(vies, "EL094014201")).valid
    assert vies.requests[0]["countryCode"] == "EL"


async def test_an_unknown_number_is_invalid(vies: FakeVies) -> None:
    answer = await ask(vies, "DE129273398")
    assert answer == ViesAnswer(valid=False)


@pytest.mark.parametrize(
    "code",
    [
        "MS_UNAVAILABLE",
        "SERVICE_UNAVAILABLE",
        "TIMEOUT",
        "MS_MAX_CONCURRENT_REQ",
        "GLOBAL_MAX_CONCURRENT_REQ",
        "IP_BLOCKED",
    ],
)
async def test_an_outage_is_no_answer(vies: FakeVies, code: str) -> None:
    vies.errors["FR40303265045"] = code
    with pytest.raises(ViesUnavailable) as down:
        await ask(vies, "FR40303265045")
    assert down.value.code == code


async def test_invalid_input_is_a_no(vies: FakeVies) -> None:
    vies.errors["FR40303265045"] = "INVALID_INPUT"
    assert await ask(vies, "FR40303265045") == ViesAnswer(valid=False, error="INVALID_INPUT")


async def test_a_refused_requester_is_asked_again_without_it(vies: FakeVies) -> None:
    calls = 0
    original = vies.errors

    class OnceRefused(dict[str, str]):
        def get(self, key: str, default: Any = None) -> Any:
            nonlocal calls
            calls += 1
            return "INVALID_REQUESTER_INFO" if calls == 1 else original.get(key, default)

    vies.errors = OnceRefused()
    answer = await ask(vies, "FR40303265045", requester="DE136695976")
    assert answer.valid and answer.request_identifier is None
    assert [set(r) for r in vies.requests] == [
        {"countryCode", "vatNumber", "requesterMemberStateCode", "requesterNumber"},
        {"countryCode", "vatNumber"},
    ]
    vies.errors = original


async def test_a_malformed_answer_is_no_answer(vies: FakeVies) -> None:
    vies.malformed.add("FR40303265045")
    with pytest.raises(ViesUnavailable) as down:
        await ask(vies, "FR40303265045")
    assert down.value.code == "MALFORMED"


async def test_a_slow_vies_times_out(vies: FakeVies) -> None:
    vies.delay = 1.0
    with pytest.raises(ViesUnavailable) as down:
        await check_vat_number("FR40303265045", base=vies.base_url, timeout=0.2)
    assert down.value.code == "TIMEOUT"


async def test_nobody_listening_is_no_answer() -> None:
    with pytest.raises(ViesUnavailable) as down:
        await check_vat_number("FR40303265045", base=f"http://127.0.0.1:{free_port()}", timeout=2)
    assert down.value.code == "NETWORK"


async def test_an_answer_too_large_is_refused(
    vies: FakeVies, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(clients, "MAX_ANSWER_BYTES", 50)
    with pytest.raises(ViesUnavailable) as down:
        await ask(vies, "FR40303265045")
    assert down.value.code == "MALFORMED"


@pytest.mark.parametrize(
    ("status", "body", "expected"),
    [
        (200, {"valid": True, "name": "---", "address": "---"}, ViesAnswer(valid=True)),
        (200, {"valid": False, "name": "X"}, ViesAnswer(valid=False)),
        (200, {"isValid": True, "userError": "VALID"}, ViesAnswer(valid=True)),
        (200, {"isValid": False, "userError": "INVALID"}, ViesAnswer(valid=False)),
        (200, {"valid": "true"}, "MALFORMED"),
        (200, {}, "MALFORMED"),
        (200, [], "MALFORMED"),
        (200, None, "MALFORMED"),
        (503, None, "HTTP_503"),
        (500, {"valid": True}, "HTTP_500"),
        (200, {"actionSucceed": False}, "SERVICE_UNAVAILABLE"),
        (200, {"isValid": False, "userError": "MS_UNAVAILABLE"}, "MS_UNAVAILABLE"),
        (400, {"actionSucceed": False, "errorWrappers": [{"error": "VAT_BLOCKED"}]},
         ViesAnswer(valid=False, error="VAT_BLOCKED")),
        (500, {"actionSucceed": False, "errorWrappers": [{"error": "SOMETHING_NEW"}]},
         "SOMETHING_NEW"),
        (200, {"errorWrappers": ["x", {"error": 3}], "actionSucceed": False},
         "SERVICE_UNAVAILABLE"),
    ],
)  # fmt: skip
def test_reading_answers(status: int, body: Any, expected: Any) -> None:
    """Never `valid` unless VIES's own `valid` (or `isValid`) says true."""
    if isinstance(expected, ViesAnswer):
        assert read_answer(status, body) == expected
    else:
        with pytest.raises(ViesUnavailable) as down:
            read_answer(status, body)
        assert down.value.code == expected
