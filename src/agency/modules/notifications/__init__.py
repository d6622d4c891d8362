"""Notifications: what the dashboard's top bar lists for a signed-in user (a site went live, a
payment failed, a support request was answered, a monitored score dropped)."""
