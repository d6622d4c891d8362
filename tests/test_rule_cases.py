"""The domain and e-mail rules against the case tables the web UI's tests run too
(webui/test/fixtures/domain-cases.json and email-cases.json, read by
webui/src/lib/domains.test.ts and emails.test.ts), and the server's words for those checks
against webui/test/fixtures/rule-messages.json, which the client's copies are held to."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from agency.core.errors import ValidationFailed
from agency.core.text import (
    bare_domain,
    bare_host,
    single_label_domain,
    strip_scheme,
    valid_email,
    valid_host,
)
from agency.modules.analysis.service import analyses
from agency.modules.auth.service import validation
from agency.modules.leads import api as leads_api
from agency.modules.sites.service import websites
from agency.modules.speedtest.service import speed_providers, speedtests
from agency.modules.support import service as support

FIXTURES = Path(__file__).resolve().parents[1] / "webui" / "test" / "fixtures"


def _table(name: str) -> Any:
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


DOMAIN_CASES: list[dict[str, Any]] = _table("domain-cases.json")["cases"]
EMAIL_CASES: list[dict[str, Any]] = _table("email-cases.json")["cases"]
MESSAGES: dict[str, str] = _table("rule-messages.json")["messages"]


def _site(raw: str) -> str | None:
    try:
        return websites.clean_domain(raw)
    except ValidationFailed as refused:
        assert refused.fields == {"domain": websites.MSG_DOMAIN}
        return None


@pytest.mark.parametrize("case", DOMAIN_CASES, ids=lambda c: c["why"])
def test_the_domain_rules_answer_every_case(case: dict[str, Any]) -> None:
    raw = case["input"]
    answered = {
        "strip_scheme": strip_scheme(raw),
        "bare_domain": bare_domain(raw),
        "single_label_domain": single_label_domain(bare_domain(raw)),
        "valid_host": valid_host(bare_domain(raw)),
        "bare_host": bare_host(raw),
    }
    assert answered == {key: case[key] for key in answered}
    # The features' own names for the rules give the same answers.
    assert analyses.valid_domain(raw) == case["single_label_domain"]
    assert speedtests.valid_generic_domain(raw) == case["valid_host"]
    assert _site(raw) == case["bare_host"]


@pytest.mark.parametrize("case", EMAIL_CASES, ids=lambda c: c["why"])
def test_the_e_mail_rule_answers_every_case(case: dict[str, Any]) -> None:
    assert valid_email(case["input"]) == case["server"]
    assert validation.valid_email(case["input"]) == case["server"]
    # The client's looser look must let through whatever the server accepts.
    assert case["client"] or not case["server"]


def test_the_server_says_the_words_the_client_copies() -> None:
    said = {
        "domain": [speedtests.MSG_DOMAIN, analyses.MSG_DOMAIN, websites.MSG_DOMAIN],
        "url": [speedtests.MSG_URL],
        "email": [speedtests.MSG_EMAIL, leads_api.MSG_EMAIL, support.MSG_EMAIL],
        "email_invalid": [
            speedtests.MSG_EMAIL_INVALID,
            leads_api.MSG_EMAIL_INVALID,
            support.MSG_EMAIL_INVALID,
            validation.MSG_EMAIL_INVALID,
        ],
        **{f"analysis_url.{v}": [text] for v, text in analyses.MSG_URL.items()},
        **{f"analysis_email.{v}": [text] for v, text in analyses.MSG_EMAIL.items()},
        "speed_test_failed": [speed_providers.MSG_GENERIC],
        "analysis_failed": [analyses.MSG_GENERIC],
    }
    assert set(said) == set(MESSAGES)
    for key, texts in said.items():
        assert texts == [MESSAGES[key]] * len(texts), key
