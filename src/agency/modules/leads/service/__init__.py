"""Leads use cases, one file each; callers import the file they need
(`from agency.modules.leads.service import leads`). Plain async functions with explicit inputs;
no Quart. Messages are the spec's, word for word.

- `leads`: the lead forms (validation, storage, the agency's notification), the admin's list and
  CSV export, "export my data" and "delete my account", and deleting old leads.
- `newsletter`: the Kit client and the forms' opt-in box (`opt_in`: Kit only when ticked).
"""
