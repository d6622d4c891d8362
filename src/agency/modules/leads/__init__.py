"""Leads: the public lead forms, the forms' newsletter opt-in box (Kit, only when ticked), and
the leads list and CSV for admins.

Other modules use this module only through `agency.modules.leads.api`."""
