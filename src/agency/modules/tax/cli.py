"""`agency tax ...`: the VAT set-up and VAT ID checks."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.table import Table

from agency.core.cli.support import CliContext, console, errors
from agency.core.errors import ValidationFailed
from agency.modules.tax.service import checks, vatids
from agency.modules.tax.service.arithmetic import quote_line, rate_text, treatment
from agency.modules.tax.service.money import format_money
from agency.modules.tax.settings import COUNTRY_NAMES, STANDARD_RATES, TaxSettings

app = typer.Typer(help="VAT: the set-up and VAT ID checks.", no_args_is_help=True)

EXAMPLE_PRICE = 10000  # cents: the example sales' catalogue price


def _yes(value: bool) -> str:
    return "yes" if value else "no"


@app.command("show")
def show(ctx: typer.Context) -> None:
    """Show the VAT settings, what each means, and what example buyers pay."""
    context: CliContext = ctx.obj
    settings = context.settings_of(TaxSettings)
    country = settings.vat_country
    home = f"{COUNTRY_NAMES[country]} ({country}), {rate_text(STANDARD_RATES[country])}"
    table = Table(title="VAT set-up: " + checks.describe(settings))
    for column in ("key", "value", "meaning"):
        table.add_column(column)
    small = settings.vat_mode == "small_business"
    rows = [
        (
            "vat_mode",
            settings.vat_mode,
            "no VAT charged (§ 19 UStG); pages and invoices say so" if small else "VAT is charged",
        ),
        (
            "stripe_tax",
            _yes(settings.stripe_tax),
            "Stripe Tax calculates the VAT at checkout"
            if settings.stripe_tax
            else "no automatic tax at checkout (address and VAT ID still collected)",
        ),
        (
            "prices_include_vat",
            _yes(settings.prices_include_vat),
            "catalogue prices are gross (Stripe tax_behavior=inclusive)"
            if settings.prices_include_vat
            else "catalogue prices are net (Stripe tax_behavior=exclusive)",
        ),
        ("vat_country", country, home + ": shown until the buyer's country is known"),
        (
            "vat_oss",
            _yes(settings.vat_oss),
            "EU consumers pay their own country's VAT (One-Stop-Shop)"
            if settings.vat_oss
            else "EU consumers pay the agency's country's VAT",
        ),
        ("default_buyer_type", settings.default_buyer_type, "the price view of a first visit"),
        (
            "price_locale",
            settings.price_locale,
            "e.g. " + format_money(123456, "EUR", settings.price_locale),
        ),
        ("vies_api_base", settings.vies_api_base, "the EU's VIES REST API"),
        ("vies_timeout_seconds", f"{settings.vies_timeout_seconds:g}", "then the ID stays pending"),
        ("vies_cache_hours", str(settings.vies_cache_hours), "VIES answers reused this long"),
        (
            "vies_requester_vat_id",
            settings.vies_requester_vat_id or "-",
            "qualified checks with a consultation number"
            if settings.vies_requester_vat_id
            else "simple checks (no consultation number)",
        ),
    ]
    for row in rows:
        table.add_row(*row)
    console.print(table)
    examples = Table(
        title=f"A price of {format_money(EXAMPLE_PRICE, 'EUR', settings.price_locale)}"
    )
    for column in ("buyer", "rate", "kind", "net", "VAT", "gross"):
        examples.add_column(column)
    cases = [
        ("consumer in " + country, "consumer", country, None),
        ("consumer in FR", "consumer", "FR", None),
        ("business in " + country, "business", country, None),
        ("business in FR, VAT ID valid", "business", "FR", "valid"),
        ("business in FR, VAT ID pending", "business", "FR", "pending"),
        ("buyer in the US", "consumer", "US", None),
    ]
    for label, buyer, where, status in cases:
        sale = treatment(settings, buyer_type=buyer, country=where, vat_id_status=status)
        amounts = quote_line(EXAMPLE_PRICE, sale, prices_include_vat=settings.prices_include_vat)
        money = [
            format_money(v, "EUR", settings.price_locale)
            for v in (amounts.net, amounts.vat, amounts.gross)
        ]
        examples.add_row(label, rate_text(sale.rate_bp), sale.kind, *money)
    console.print(examples)


@app.command("check-vat-id")
def check_vat_id(
    ctx: typer.Context,
    vat_id: Annotated[str, typer.Argument(help='The VAT ID, e.g. "DE 136 695 976".')],
) -> None:
    """Check a VAT ID: syntax and check digits, then the EU's VIES service (cached)."""
    context: CliContext = ctx.obj
    settings = context.settings_of(TaxSettings)
    try:
        result = context.run(lambda: vatids.check_vat_id(settings, vat_id))
    except ValidationFailed as exc:
        errors.print(f"[red]{exc.message}[/red]")
        raise typer.Exit(2) from exc
    table = Table(title=f"{result.vat_id}: {result.status}")
    table.add_column("field")
    table.add_column("value")
    for field, value in (
        ("country", result.country),
        ("status", result.status),
        ("name", result.name or "-"),
        ("address", result.address or "-"),
        ("checked at", result.checked_at.isoformat(timespec="seconds")),
        ("consultation number", result.request_identifier or "-"),
        ("message", result.message),
    ):
        table.add_row(field, value)
    console.print(table)
    if result.status != "valid":
        raise typer.Exit(1)
