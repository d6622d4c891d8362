"""Mail that cannot be delivered says so: a message whose job gives up is `failed` with its last
error, and a message no server may be given (a recipient that is not one address, a CR/LF in a
header) fails at once, without retries (SQLite and PostgreSQL)."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.controller import Controller

from agency.core import jobs, mail
from tests.conftest import free_port, make_settings
from tests.fakes.smtp import Inbox, SmtpServer

CONTEXT = {
    "first_name": "Ada",
    "reset_url": "http://x/reset-password?token=abc",
    "valid_minutes": 60,
}


def runner_for(tmp_path: Path, url: str, port: int | None) -> jobs.JobRunner:
    smtp: dict[str, Any] = {}
    if port is not None:
        smtp = {"smtp_host": "127.0.0.1", "smtp_port": port, "smtp_security": "none"}
    settings = make_settings(tmp_path, url, **smtp)
    return jobs.JobRunner({mail.JOB_KIND: mail.Mailer(settings).deliver})


async def due_now(job_id: int) -> None:
    """Skip the back-off before the next attempt."""
    await jobs.Job.filter(id=job_id).update(run_at=jobs._now() - timedelta(seconds=1))


# The job queue ---------------------------------------------------------------------------


async def test_a_handler_knows_its_last_attempt(orm: str) -> None:
    seen: list[bool] = []

    async def handler(_payload: dict[str, Any]) -> None:
        seen.append(jobs.final_attempt())
        raise ConnectionError("down")

    job_id = await jobs.enqueue("try", max_attempts=3)
    runner = jobs.JobRunner({"try": handler})
    for _ in range(3):
        await due_now(job_id)
        assert await runner.drain() == 1
    assert seen == [False, False, True]
    job = await jobs.get(job_id)
    assert job is not None and job.status == jobs.FAILED and job.attempts == 3
    assert jobs.final_attempt() is False  # outside a job


async def test_a_permanent_failure_is_not_retried(orm: str) -> None:
    async def handler(_payload: dict[str, Any]) -> None:
        raise jobs.PermanentFailure("cannot ever work")

    job_id = await jobs.enqueue("doomed", max_attempts=5)
    assert await jobs.JobRunner({"doomed": handler}).drain() == 1
    job = await jobs.get(job_id)
    assert job is not None
    assert (job.status, job.attempts) == (jobs.FAILED, 1)
    assert job.last_error == "PermanentFailure: cannot ever work"


# The mailer -------------------------------------------------------------------------------


async def test_mail_whose_delivery_gives_up_is_failed_with_the_last_error(
    orm: str, tmp_path: Path
) -> None:
    runner = runner_for(tmp_path, orm, free_port())  # nothing listens there
    mail_id = await mail.send_mail("ada@example.com", "password_reset", CONTEXT)
    job = await jobs.Job.get(kind=mail.JOB_KIND)
    assert job.max_attempts == mail.MAX_ATTEMPTS
    await jobs.Job.filter(id=job.id).update(max_attempts=2)
    assert await runner.drain() == 1
    stored = await mail.OutboundMail.get(id=mail_id)
    assert stored.status == mail.QUEUED and stored.last_error  # retried later
    await due_now(job.id)
    assert await runner.drain() == 1
    job = await jobs.Job.get(id=job.id)
    assert (job.status, job.attempts) == (jobs.FAILED, 2)
    stored = await mail.OutboundMail.get(id=mail_id)
    assert stored.status == mail.FAILED
    assert stored.last_error and "connect" in stored.last_error.lower()
    assert stored.sent_at is None
    assert [m.id for m in await mail.outbox()] == [mail_id]


BAD_RECIPIENTS = [
    "ada@example.com\r\nBcc: eve@evil.example",
    "ada@example.com\nBcc: eve@evil.example",
    "ada@example.com\r",
    "x@e.com?cc=attacker@evil.example&body=hi",
    "ada@example.com, eve@evil.example",
    "not an address",
    "",
]


@pytest.mark.parametrize("smtp", [True, False], ids=["smtp", "no-smtp"])
@pytest.mark.parametrize("to", BAD_RECIPIENTS)
async def test_a_bad_recipient_fails_at_once_and_nothing_is_sent(
    orm: str, tmp_path: Path, to: str, smtp: bool
) -> None:
    server = SmtpServer(free_port())
    server.start()
    try:
        runner = runner_for(tmp_path, orm, server.port if smtp else None)
        mail_id = await mail.send_mail(to, "password_reset", CONTEXT)
        assert await runner.drain() == 1
        assert await runner.drain() == 0
    finally:
        server.stop()
    assert server.inbox.messages == []
    job = await jobs.Job.get(kind=mail.JOB_KIND)
    assert (job.status, job.attempts) == (jobs.FAILED, 1)  # never retried
    stored = await mail.OutboundMail.get(id=mail_id)
    assert stored.status == mail.FAILED
    assert stored.last_error is not None and "recipient" in stored.last_error


@pytest.mark.parametrize(
    "subject", ["New lead\r\nBcc: eve@evil.example", "New lead\nfrom x", "New lead\rx"]
)
async def test_a_subject_with_a_line_break_fails_at_once(
    orm: str, tmp_path: Path, subject: str
) -> None:
    server = SmtpServer(free_port())
    server.start()
    try:
        row = await mail.OutboundMail.create(to="agency@example.com", subject=subject, text="t")
        await jobs.enqueue(mail.JOB_KIND, {"mail_id": row.id}, max_attempts=mail.MAX_ATTEMPTS)
        assert await runner_for(tmp_path, orm, server.port).drain() == 1
    finally:
        server.stop()
    assert server.inbox.messages == []
    job = await jobs.Job.get(kind=mail.JOB_KIND)
    assert (job.status, job.attempts) == (jobs.FAILED, 1)
    stored = await mail.OutboundMail.get(id=row.id)
    assert stored.status == mail.FAILED
    assert stored.last_error is not None and "subject" in stored.last_error


@pytest.mark.parametrize("to", ["ada@example.com", "Ada Lovelace <ada@example.com>"])
async def test_a_good_recipient_still_arrives(orm: str, tmp_path: Path, to: str) -> None:
    server = SmtpServer(free_port())
    server.start()
    try:
        await mail.send_mail(to, "password_reset", CONTEXT)
        assert await runner_for(tmp_path, orm, server.port).drain() == 1
    finally:
        server.stop()
    [message] = server.inbox.messages
    assert message["To"] == to
    assert (await mail.OutboundMail.get()).status == mail.SENT


class RefusingInbox(Inbox):
    """Refuses every recipient with the given SMTP reply."""

    def __init__(self, reply: str) -> None:
        super().__init__()
        self.reply = reply

    async def handle_RCPT(
        self, _server: Any, _session: Any, _envelope: Any, _address: str, _options: Any
    ) -> str:
        return self.reply


@pytest.mark.parametrize(
    ("reply", "status"),
    [("550 5.1.1 no such mailbox", mail.FAILED), ("450 4.2.1 try again later", mail.QUEUED)],
)
async def test_a_recipient_the_server_refuses_for_good_is_not_retried(
    orm: str, tmp_path: Path, reply: str, status: str
) -> None:
    inbox = RefusingInbox(reply)
    controller = Controller(inbox, hostname="127.0.0.1", port=free_port())
    controller.start()
    try:
        mail_id = await mail.send_mail("ada@example.com", "password_reset", CONTEXT)
        assert await runner_for(tmp_path, orm, controller.port).drain() == 1
    finally:
        controller.stop()
    assert inbox.messages == []
    stored = await mail.OutboundMail.get(id=mail_id)
    assert stored.status == status
    assert stored.last_error is not None and reply.split()[0] in stored.last_error
    job = await jobs.Job.get(kind=mail.JOB_KIND)
    assert (job.status, job.attempts) == ({mail.FAILED: jobs.FAILED}.get(status, jobs.QUEUED), 1)
