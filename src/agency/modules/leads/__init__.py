"""Leads: the public lead forms, the speed-test pages' newsletter sign-up (Kit), and the leads
list and CSV for admins.

Other modules use this module only through `agency.modules.leads.api`."""
