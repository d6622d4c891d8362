"""The sites module's use cases: `websites` (create, read, remove, the agency's list and status
changes, user data) and `checks` (speed checks of a website through speedtest, the schedule that
monitors live sites, and the owner's alert when a score drops)."""
