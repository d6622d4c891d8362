"""Leads and website insights: lead forms, speed tests and the grounded AI analysis.

Other modules use this module only through `agency.modules.insights.api`."""
