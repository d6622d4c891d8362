"""The audit log's data handed to other modules and its API shapes."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Actor:
    """Who acted: a signed-in admin (id and e-mail) or the command line (`Actor.cli()`)."""

    user_id: int | None
    email: str | None

    @staticmethod
    def cli() -> Actor:
        return Actor(user_id=None, email=None)
