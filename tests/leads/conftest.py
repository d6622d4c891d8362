"""The leads tests' app (tests/conftest.py's `app`) e-mails each lead to the agency's address."""

from __future__ import annotations

from pathlib import Path

import pytest

from agency.core.settings import Settings
from tests.conftest import make_settings

AGENCY_EMAIL = "team@agency.test"


@pytest.fixture
def app_settings(tmp_path: Path, database_url: str) -> Settings:
    return make_settings(tmp_path, database_url, agency_email=AGENCY_EMAIL)
