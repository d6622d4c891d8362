"""The module registry: every module of the program, one line each, lowest layer first.

Adding a module: create `agency/modules/<name>/` with a `module.py` that defines `MODULE`, then
add one line here. Static imports keep the modules visible to PyInstaller and import-linter.
"""

from typing import Any

from agency.core.modules import Module
from agency.modules.analysis.module import MODULE as ANALYSIS
from agency.modules.audit.module import MODULE as AUDIT
from agency.modules.auth.module import MODULE as AUTH
from agency.modules.billing.module import MODULE as BILLING
from agency.modules.blog.module import MODULE as BLOG
from agency.modules.catalogue.module import MODULE as CATALOGUE
from agency.modules.content.module import MODULE as CONTENT
from agency.modules.contracts.module import MODULE as CONTRACTS
from agency.modules.invoices.module import MODULE as INVOICES
from agency.modules.leads.module import MODULE as LEADS
from agency.modules.legal.module import MODULE as LEGAL
from agency.modules.notifications.module import MODULE as NOTIFICATIONS
from agency.modules.overview.module import MODULE as OVERVIEW
from agency.modules.seo.module import MODULE as SEO
from agency.modules.sites.module import MODULE as SITES
from agency.modules.speedtest.module import MODULE as SPEEDTEST
from agency.modules.support.module import MODULE as SUPPORT
from agency.modules.tax.module import MODULE as TAX

MODULES: tuple[Module[Any], ...] = (
    TAX,
    AUDIT,
    AUTH,
    CATALOGUE,
    LEGAL,
    NOTIFICATIONS,
    LEADS,
    SPEEDTEST,
    SITES,
    INVOICES,
    BILLING,
    SUPPORT,
    ANALYSIS,
    BLOG,
    CONTRACTS,
    SEO,
    CONTENT,
    OVERVIEW,
)
