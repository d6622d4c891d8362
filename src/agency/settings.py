"""The program's one settings class, composed from the kernel's (`agency.core.settings`) and
every module's own (`Module.settings`, in `agency/modules/<name>/settings.py`) by multiple
inheritance: one set of `AGENCY_*` variables and TOML keys, unknown keys refused as before.

The kernel names no module and no product, not even in a settings key; each module declares
its keys and types its code against its own class (`BillingSettings`, ...), of which the
composed settings are an instance. Importing this file imports the module registry: the
commands that load settings need the modules anyway, and `agency --help` does not load them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from agency.core.mail import MailFooter
from agency.core.modules import Module
from agency.core.settings import Settings as KernelSettings
from agency.core.settings import check_settings, compose_settings, load_settings_as
from agency.registry import MODULES

Settings: type[KernelSettings] = compose_settings(
    (m.settings for m in MODULES if m.settings is not None), module=__name__
)


def load_settings(**overrides: Any) -> KernelSettings:
    """Every key of the program (kernel and modules) from `AGENCY_*` variables over the TOML
    file over the defaults; a bad or unknown key raises `SettingsError` listing each."""
    return load_settings_as(Settings, **overrides)


def check_modules(settings: KernelSettings) -> None:
    """Run every module's own check (`Module.check_settings`): raise one `SettingsError`."""
    check_settings(settings, [m.check_settings for m in MODULES if m.check_settings is not None])


def mail_footer(
    settings: KernelSettings, modules: Sequence[Module[Any]] = MODULES
) -> MailFooter | None:
    """The footer the modules give every e-mail (`Module.mail_footer`; at most one has one)."""
    footers = [m.mail_footer(settings) for m in modules if m.mail_footer is not None]
    if len(footers) > 1:
        raise RuntimeError("more than one module gives the e-mail footer")
    return footers[0] if footers else None
