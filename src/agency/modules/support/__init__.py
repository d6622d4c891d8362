"""Support: requests from visitors and customers, e-mailed to the agency and answered by an admin
by e-mail from the dashboard."""
