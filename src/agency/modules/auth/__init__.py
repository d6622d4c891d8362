"""Accounts: users, profiles, sessions, password resets and roles.

Other modules use this module only through `agency.modules.auth.api`."""
