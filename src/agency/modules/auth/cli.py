"""`agency users ...`: manage accounts from the command line."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.table import Table

from agency.core.cli.support import CliContext, console, errors
from agency.core.errors import AppError
from agency.modules.auth.service import admin as admin_service

app = typer.Typer(help="Manage user accounts.", no_args_is_help=True)
sessions_app = typer.Typer(help="Manage sign-in sessions.", no_args_is_help=True)
app.add_typer(sessions_app, name="sessions")


def _context(ctx: typer.Context) -> CliContext:
    context: CliContext = ctx.obj
    return context


def _fail(error: AppError) -> typer.Exit:
    errors.print(f"[red]{error.message}[/red]")
    return typer.Exit(1)


@app.command("create")
def create(
    ctx: typer.Context,
    email: Annotated[str, typer.Argument(help="The new user's e-mail address.")],
    admin: Annotated[bool, typer.Option("--admin", help="Give the user the admin role.")] = False,
    first_name: Annotated[str, typer.Option(help="First name for the profile.")] = "",
    last_name: Annotated[str, typer.Option(help="Last name for the profile.")] = "",
) -> None:
    """Create a user. Asks for the password (not echoed)."""
    password = typer.prompt("Password", hide_input=True, confirmation_prompt=True)
    try:
        account = _context(ctx).run(
            lambda: admin_service.create_account(
                email, password, admin=admin, first_name=first_name, last_name=last_name
            )
        )
    except AppError as error:
        raise _fail(error) from error
    console.print(f"created {account.role} {account.email} (id {account.id})")


@app.command("list")
def list_users(ctx: typer.Context) -> None:
    """List every user with role and live sessions, newest first."""
    rows = _context(ctx).run(admin_service.list_accounts)
    table = Table(title=f"{len(rows)} user(s)")
    for column in ("id", "e-mail", "name", "role", "sessions", "created"):
        table.add_column(column)
    for account, sessions in rows:
        table.add_row(
            str(account.id),
            account.email,
            account.full_name or "-",
            account.role,
            str(sessions),
            account.created_at.strftime("%Y-%m-%d %H:%M"),
        )
    console.print(table)


@app.command("set-role")
def set_role(
    ctx: typer.Context,
    email: Annotated[str, typer.Argument(help="The user's e-mail address.")],
    role: Annotated[str, typer.Argument(help="admin or user.")],
) -> None:
    """Make a user an admin, or a plain user again."""
    try:
        account = _context(ctx).run(lambda: admin_service.set_role(email, role))
    except AppError as error:
        raise _fail(error) from error
    console.print(f"{account.email} is now {account.role}")


@sessions_app.command("revoke")
def revoke_sessions(
    ctx: typer.Context,
    email: Annotated[str, typer.Argument(help="The user's e-mail address.")],
) -> None:
    """Sign a user out everywhere."""
    try:
        ended = _context(ctx).run(lambda: admin_service.revoke_sessions(email))
    except AppError as error:
        raise _fail(error) from error
    console.print(f"ended {ended} session(s) of {email}")
