"""What each module holds about a user, for "export my data" and "delete my account".

The auth module owns accounts but sits at the bottom of the module layers, so it cannot call the
modules above it. Instead each module registers how to export and erase its own data about a
user (in its `Module` descriptor); `create_app` and the CLI install them here.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

Exporter = Callable[[int], Awaitable[Any]]
Eraser = Callable[[int], Awaitable[None]]


@dataclass(frozen=True)
class UserData:
    """export, erase: the module's own; key: the name its data has in the export (default: the
    module's name); leave: what must be settled elsewhere before anything is erased (a paid
    subscription ended at the payment provider), raising to keep the account as it is."""

    export: Exporter
    erase: Eraser
    key: str | None = None
    leave: Eraser | None = None


_registered: dict[str, UserData] = {}


def install(handlers: dict[str, UserData]) -> None:
    _registered.clear()
    _registered.update(handlers)


async def export_all(user_id: int) -> dict[str, Any]:
    return {name: await handler.export(user_id) for name, handler in sorted(_registered.items())}


async def erase_all(user_id: int) -> None:
    """Every module's `leave` first (any may refuse, and then nothing is erased), then every
    module's `erase`."""
    for handler in _registered.values():
        if handler.leave is not None:
            await handler.leave(user_id)
    for handler in _registered.values():
        await handler.erase(user_id)
