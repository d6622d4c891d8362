"""The modules' commands, by dotted path: `agency --help` lists them and `agency version`
answers without importing any module (see `agency.core.cli.lazy`); a command's module is
imported when the command runs or shows its own help.

Adding a module with a `cli.py`: add its line to GROUPS (registry order) with the help its
Typer app gives, or, for a module whose commands are top-level only, its lines to COMMANDS;
`tests/test_architecture.py` checks that every `cli.py` is here once, that each
path loads and that the help matches.
"""

from agency.core.cli.lazy import LazyCommand

# Sub-commands: `agency <name> ...`, each a module's Typer app.
GROUPS: tuple[LazyCommand, ...] = (
    LazyCommand("tax", "agency.modules.tax.cli:app", "VAT: the set-up and VAT ID checks."),
    LazyCommand("audit", "agency.modules.audit.cli:app", "The audit log of admin actions."),
    LazyCommand("users", "agency.modules.auth.cli:app", "Manage user accounts."),
    LazyCommand(
        "catalogue",
        "agency.modules.catalogue.cli:app",
        "The plan catalogue (config/catalogue.toml).",
    ),
    LazyCommand("sites", "agency.modules.sites.cli:app", "Customer websites: status and speed."),
    LazyCommand(
        "invoices", "agency.modules.invoices.cli:app", "Invoices and credit notes from Stripe."
    ),
    LazyCommand(
        "billing",
        "agency.modules.billing.cli:billing_app",
        "The agency's figures: the VAT report, the MRR log's backfill.",
    ),
    LazyCommand("stripe", "agency.modules.billing.cli:app", "Payments with Stripe."),
    LazyCommand("support", "agency.modules.support.cli:app", "Support requests."),
    LazyCommand("contracts", "agency.modules.contracts.cli:app", "Withdrawals and cancellations."),
    LazyCommand("leads", "agency.modules.leads.cli:app", "Leads from the site's forms."),
    LazyCommand(
        "articles", "agency.modules.seo.cli:app", "The blog's articles and the AI article manager."
    ),
    LazyCommand(
        "overview",
        "agency.modules.overview.cli:app",
        "The owner's overview: how the business is doing over a period.",
    ),
)

# Top-level commands of a module, for the rare tool that deserves a short name of its own.
COMMANDS: tuple[LazyCommand, ...] = (
    LazyCommand(
        "speedtest",
        "agency.modules.speedtest.cli:speedtest",
        "Test a website's speed now, in this process (no queue), and show the result.",
    ),
    LazyCommand(
        "analyze",
        "agency.modules.analysis.cli:analyze",
        "Analyse a website now, in this process (no queue): fetch and audit its page, write the "
        "report (AI model or rules) and test its speed, then show the scores and the sections.",
    ),
)
