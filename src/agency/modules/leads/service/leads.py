"""Leads: the public e-mail forms and the free-preview request store a lead and tell the agency."""

from __future__ import annotations

import csv
import io
import logging
import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from agency.core import mail, ratelimit
from agency.core.errors import ValidationFailed
from agency.core.ratelimit import Limit
from agency.core.text import is_line, valid_email
from agency.modules.auth import api as auth_api
from agency.modules.leads.models import Lead
from agency.modules.leads.schemas import LeadOut, LeadReceipt
from agency.modules.leads.service import consents
from agency.modules.leads.service import newsletter as newsletter_service
from agency.modules.leads.settings import LeadsSettings

log = logging.getLogger(__name__)

MSG_FILL_ALL = "Please fill in all fields"
MSG_EMAIL = "Please enter your email address"
MSG_EMAIL_INVALID = "Please enter a valid email address"
MSG_UNKNOWN_FORM = "This form is not known."
MSG_BAD_SOURCE = "'source' must be a form name (one line of at most 64 characters)."
SOURCE_MAX = 64  # the insights_lead.source column
THANKS_CONSULTATION = (
    "Thank you! We'll contact you within 24 hours to schedule your free consultation."
)
LEADS_PER_ADDRESS = Limit("lead-ip", limit=10, window=60 * 60, per_address=True)
# A visit that tests a site and then analyses it with the same e-mail: one lead, not two.
LEAD_SAME_VISIT = timedelta(hours=1)


@dataclass(frozen=True)
class Form:
    label: str
    confirmation: str
    needs_name_and_domain: bool = False


FORMS: dict[str, Form] = {
    "ai-automation-strategy-call": Form("AI automation strategy call", THANKS_CONSULTATION),
    "ai-onboarding-audit": Form(
        "AI onboarding audit",
        "Thank you! We'll contact you within 24 hours to schedule your free onboarding audit.",
    ),
    "ai-booking-demo": Form(
        "AI booking demo",
        "Thank you! We'll contact you within 24 hours to schedule your free demo.",
    ),
    "clinic-consultation": Form("Clinic consultation", THANKS_CONSULTATION),
    "sales-funnel-teardown": Form("Sales funnel teardown", THANKS_CONSULTATION),
    # The spec's preview request carries the fixed source text 'Real Estate Website Rebuild'.
    "free-preview": Form("Real Estate Website Rebuild", "Request Received!", True),
}


# Pages that keep an e-mail as a lead without being a lead form (the speed test's
# and the analysis's).
PAGE_LABELS = {
    "speed-test": "Speed test",
    "clinic-speed-test": "Speed test (clinics)",
    "coach-speed-test": "Speed test (coaches)",
    # The AI website analysis.
    "ai-analysis": "AI analysis",
    "business-analysis": "AI analysis (business)",
    "technical-analysis": "AI analysis (technical)",
    "agency-analysis": "AI analysis (agencies)",
}


def label_of(source: str) -> str:
    """How a lead's source reads to people; an unknown source reads as itself."""
    form = FORMS.get(source)
    return form.label if form else PAGE_LABELS.get(source, source)


async def submit_lead(
    *,
    source: str,
    email: str,
    name: str,
    domain: str,
    message: str,
    honeypot: str,
    client_ip: str,
    newsletter: bool,
    settings: LeadsSettings,
) -> LeadReceipt:
    """Store a lead and e-mail the agency (`settings.agency_email`); with the opt-in box
    ticked (`newsletter`), subscribe the e-mail too. Returns the confirmation the visitor sees
    and the newsletter's outcome."""
    form = FORMS.get(source)
    if form is None:
        raise ValidationFailed(MSG_UNKNOWN_FORM, fields={"source": MSG_UNKNOWN_FORM})
    if form.needs_name_and_domain and not (name.strip() and email.strip() and domain.strip()):
        raise ValidationFailed(MSG_FILL_ALL)
    if not email.strip():
        raise ValidationFailed(MSG_EMAIL, fields={"email": MSG_EMAIL})
    lead_email(email)
    if honeypot.strip():
        log.info("lead form honeypot filled; dropped", extra={"source": source})
        # A bot is told it worked, and nothing is kept (nor subscribed).
        return LeadReceipt(message=form.confirmation)
    await ratelimit.enforce(LEADS_PER_ADDRESS, client_ip)
    lead = await record_lead(
        source=source,
        email=email,
        name=name,
        domain=domain,
        message=message,
        notify=settings.agency_email,
    )
    outcome = await newsletter_service.opt_in(settings, lead.email, newsletter, source)
    return LeadReceipt(message=form.confirmation, newsletter=outcome)


async def record_lead(
    *,
    source: str,
    email: str,
    name: str = "",
    domain: str = "",
    message: str = "",
    notify: str = "",
) -> LeadOut:
    """Store a lead (its e-mail checked by `lead_email`, empty fields as none) and, when
    `notify` is an address, e-mail the agency about it. `source` names the form or page it
    came from. The checks of the public forms (a known form, the honeypot, the per-address
    limit) are `submit_lead`'s; another module recording a lead makes its own."""
    lead = await Lead.create(
        source=source,
        email=lead_email(email),
        name=name.strip() or None,
        domain=domain.strip() or None,
        message=message.strip() or None,
    )
    if notify:
        await mail.send_mail(
            notify,
            "new_lead",
            {
                "form": label_of(source),
                "email": lead.email,
                "name": lead.name or "-",
                "domain": lead.domain or "-",
                "message": lead.message or "-",
            },
        )
    return _out(lead)


async def remember_lead(email: str, source: str, domain: str, settings: LeadsSettings) -> None:
    """Keep the e-mail as a lead of its page: one lead per visit (repeated tests share it), the
    domain added when a later request brings another one."""
    recent = (
        await Lead.filter(
            email=email, source=source, created_at__gte=datetime.now(UTC) - LEAD_SAME_VISIT
        )
        .order_by("-id")
        .first()
    )
    if recent is None:
        await record_lead(source=source, email=email, domain=domain, notify=settings.agency_email)
    elif domain and recent.domain != domain:
        await Lead.filter(id=recent.id).update(domain=domain)


def lead_email(raw: str) -> str:
    """The lead's address, trimmed and lower-cased, when it passes the one e-mail rule (shared
    with accounts): admins get it as a `mailto:` link and the agency's notice carries it in its
    subject, so `x@e.com?cc=...` or a line break must never be stored."""
    email = raw.strip().lower()
    if not valid_email(email):
        raise ValidationFailed(MSG_EMAIL_INVALID, fields={"email": MSG_EMAIL_INVALID})
    return email


def _out(lead: Lead) -> LeadOut:
    return LeadOut(
        id=lead.id,
        source=lead.source,
        source_label=label_of(lead.source),
        email=lead.email,
        name=lead.name,
        domain=lead.domain,
        message=lead.message,
        created_at=lead.created_at,
    )


async def list_leads(source: str | None = None, since: datetime | None = None) -> list[LeadOut]:
    """The leads, newest first; only one source's, and only from `since` on, when given."""
    if source is not None and not is_line(source, SOURCE_MAX):
        raise ValidationFailed(MSG_BAD_SOURCE, fields={"source": MSG_BAD_SOURCE})
    query = Lead.all()
    if source:
        query = query.filter(source=source)
    if since is not None:
        query = query.filter(created_at__gte=since)
    return [_out(lead) for lead in await query.order_by("-created_at", "-id")]


# CSV injection (OWASP): a spreadsheet runs a cell that starts with one of these as a formula.
FORMULA_STARTS = "=+-@\t\r"
# Where a spreadsheet may start a cell inside our text: Excel in German or French splits a CSV
# on ';' (so `x;=1+1` would become `x` and the formula `=1+1`), and a line break may end a row
# when the file is split on another separator than ours. A tab separates in other imports.
CELL_BREAKS = ",;\t\n\r"
# A cell start (the text's start, or after a break), maybe double quotes (which a spreadsheet
# splitting on another separator reads as the new cell's quoting), then single quotes and a
# formula start: one more single quote goes after the double quotes. The spreadsheet shows the
# rest as text, and `csv_text` can take exactly that quote away again.
_FORMULA_AT_CELL_START = re.compile(
    rf'(?:^|(?<=[{CELL_BREAKS}]))("*)(\'*[{re.escape(FORMULA_STARTS)}])'
)
_DISARMED_CELL_START = re.compile(
    rf'(?:^|(?<=[{CELL_BREAKS}]))("*)\'(\'*[{re.escape(FORMULA_STARTS)}])'
)


def csv_cell(value: str) -> str:
    """A text cell a spreadsheet shows as text, whatever separator it splits the file on: a
    single quote goes before every formula start at the start of the text or after a separator
    or line break in it (`=SUM(A1)` -> `'=SUM(A1)`, `x;=1+1` -> `x;'=1+1`); other text is kept
    as it is."""
    return _FORMULA_AT_CELL_START.sub(r"\1'\2", value)


def csv_text(cell: str) -> str:
    """The text `csv_cell` was given (for whoever reads the export back)."""
    return _DISARMED_CELL_START.sub(r"\1\2", cell)


CSV_HEADER = ("created_at", "form", "email", "name", "domain", "message")


def to_csv(leads: list[LeadOut]) -> str:
    """The leads as CSV: every cell quoted (so a separator inside a text never splits it where
    the file's own separator is read) and every text cell neutralised with `csv_cell`. The
    header row, fixed words, is written plain."""
    buffer = io.StringIO()
    # Rows end in a bare line feed (spreadsheets read both): with CRLF, a text ending in ';'
    # would leave a cell starting with CR (a formula start) to a reader splitting on ';'.
    csv.writer(buffer, lineterminator="\n").writerow(CSV_HEADER)
    writer = csv.writer(buffer, quoting=csv.QUOTE_ALL, lineterminator="\n")
    for lead in leads:
        writer.writerow(
            [
                lead.created_at.isoformat(),
                csv_cell(lead.source_label),
                csv_cell(lead.email),
                csv_cell(lead.name or ""),
                csv_cell(lead.domain or ""),
                csv_cell(lead.message or ""),
            ]
        )
    return buffer.getvalue()


async def export_user(user_id: int) -> object:
    account = await auth_api.get_account(user_id)
    if account is None:
        return []
    leads = await Lead.filter(email=account.email).order_by("-created_at")
    return [_out(lead).model_dump(mode="json") for lead in leads]


async def erase_user(user_id: int) -> None:
    account = await auth_api.get_account(user_id)
    if account is not None:
        await Lead.filter(email=account.email).delete()


async def prune_leads(settings: LeadsSettings, now: datetime) -> dict[str, int]:
    """Retention (core runs it hourly and in `agency db prune`): leads are deleted
    `retention_leads_days` after they were sent (730, the privacy page's 24 months), and the
    newsletter consents after as long."""
    cutoff = now - timedelta(days=settings.retention_leads_days)
    return {
        "insights.leads": await Lead.filter(created_at__lt=cutoff).delete(),
        "leads.newsletter_consents": await consents.prune(settings, now),
    }
