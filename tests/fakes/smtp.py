"""A real SMTP server on a free loopback port (aiosmtpd) that keeps what it receives."""

from __future__ import annotations

import email
import email.policy
from dataclasses import dataclass, field
from email.message import EmailMessage
from typing import Any

from aiosmtpd.controller import Controller


@dataclass
class Inbox:
    messages: list[EmailMessage] = field(default_factory=list)

    async def handle_DATA(self, _server: Any, _session: Any, envelope: Any) -> str:
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        self.messages.append(message)  # type: ignore[arg-type]
        return "250 Message accepted for delivery"

    def text_of(self, message: EmailMessage) -> str:
        body = message.get_body(preferencelist=("plain",))
        assert body is not None
        return str(body.get_content())


class SmtpServer:
    def __init__(self, port: int) -> None:
        self.port = port
        self.inbox = Inbox()
        self.controller = Controller(self.inbox, hostname="127.0.0.1", port=port)

    def start(self) -> None:
        self.controller.start()

    def stop(self) -> None:
        self.controller.stop()
