"""Mail goes through the queue to a real SMTP server; an SMTP outage loses nothing."""

from __future__ import annotations

from pathlib import Path

from agency.core import jobs, mail
from tests.conftest import free_port, make_settings
from tests.fakes.smtp import SmtpServer

CONTEXT = {
    "first_name": "Ada",
    "reset_url": "http://x/reset-password?token=abc",
    "valid_minutes": 60,
}


def runner_for(tmp_path: Path, port: int, url: str) -> jobs.JobRunner:
    settings = make_settings(
        tmp_path, url, smtp_host="127.0.0.1", smtp_port=port, smtp_security="none"
    )
    return jobs.JobRunner({mail.JOB_KIND: mail.Mailer(settings).deliver})


async def test_queued_mail_arrives_at_the_smtp_server(orm: str, tmp_path: Path) -> None:
    server = SmtpServer(free_port())
    server.start()
    try:
        await mail.send_mail("ada@example.com", "password_reset", CONTEXT)
        assert await runner_for(tmp_path, server.port, orm).drain() == 1
    finally:
        server.stop()
    [message] = server.inbox.messages
    assert message["To"] == "ada@example.com"
    assert message["Subject"] == "Reset your agency password"
    assert "http://x/reset-password?token=abc" in server.inbox.text_of(message)
    html = message.get_body(preferencelist=("html",))
    assert html is not None and "Choose a new password" in html.get_content()
    assert (await mail.OutboundMail.get()).status == mail.SENT


async def test_smtp_outage_keeps_the_message_and_sends_it_later(orm: str, tmp_path: Path) -> None:
    port = free_port()  # nothing listens here yet
    runner = runner_for(tmp_path, port, orm)
    mail_id = await mail.send_mail("ada@example.com", "password_reset", CONTEXT)
    assert await runner.drain() == 1
    stored = await mail.OutboundMail.get(id=mail_id)
    assert stored.status == mail.QUEUED and stored.last_error
    job = await jobs.Job.get(kind=mail.JOB_KIND)
    assert job.status == jobs.QUEUED and job.attempts == 1
    server = SmtpServer(port)
    server.start()
    try:
        await jobs.Job.filter(id=job.id).update(run_at=job.created_at)  # its back-off is over
        assert await runner.drain() == 1
    finally:
        server.stop()
    assert len(server.inbox.messages) == 1
    assert (await mail.OutboundMail.get(id=mail_id)).status == mail.SENT


async def test_without_smtp_the_message_waits_in_the_outbox(orm: str, tmp_path: Path) -> None:
    settings = make_settings(tmp_path, orm)
    runner = jobs.JobRunner({mail.JOB_KIND: mail.Mailer(settings).deliver})
    await mail.send_mail("ada@example.com", "password_reset", CONTEXT)
    await runner.drain()
    [waiting] = await mail.outbox()
    assert waiting.status == mail.OUTBOX and waiting.to == "ada@example.com"


def test_html_template_escapes_its_values() -> None:
    _, text, html = mail.render("password_reset", {**CONTEXT, "first_name": "<b>Eve</b>"})
    assert "<b>Eve</b>" in text
    assert "&lt;b&gt;Eve&lt;/b&gt;" in html
