"""Header injection and notifications: a notification's title (a site's domain, an article's
title, any text a module gives `notify`) never reaches an e-mail. Notifications are rows shown
in the web UI; neither they nor the SEO module (articles) send mail, so the probe's encoded
words in a title are stored as they are and nothing is queued for the mailer."""

from __future__ import annotations

import ast
from typing import Any

import pytest

from agency.core import jobs, mail
from agency.core.paths import PACKAGE_DIR
from agency.modules.notifications import api
from agency.modules.notifications.models import Notification
from tests.core.mail_headers import INJECTIONS
from tests.helpers.http import call, sign_up


@pytest.mark.parametrize("injection", INJECTIONS.values(), ids=INJECTIONS.keys())
async def test_a_title_of_encoded_words_is_stored_and_mails_nothing(
    client: Any, injection: str
) -> None:
    status, data = await sign_up(client)
    assert status == 201, data
    await api.notify(data["user"]["id"], kind=api.SITE_LIVE, title=injection, body=injection)
    assert (await Notification.get()).title == injection
    _, listed = await call(client, "get", "/api/notifications")
    assert listed["notifications"][0]["title"] == injection
    assert await mail.OutboundMail.all().count() == 0
    assert await jobs.Job.filter(kind=mail.JOB_KIND).count() == 0


def _imports(package: str) -> set[str]:
    names: set[str] = set()
    for path in (PACKAGE_DIR / "modules" / package).rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module:
                names.update(f"{node.module}.{alias.name}" for alias in node.names)
            elif isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
    return names


@pytest.mark.parametrize("package", ["notifications", "seo"])
def test_neither_notifications_nor_articles_send_mail(package: str) -> None:
    imported = _imports(package)
    assert imported  # the walk found the module's code
    assert not {name for name in imported if name.startswith("agency.core.mail")}
