"""The owner's overview: how the business is doing over a period beside the period before it
(MRR and its movements, one-time revenue, customers, failed payments, the funnel from lead to
purchase, revenue by plan, websites, the free tools and support), read from what the other
modules keep; a daily snapshot of the figures; `agency overview`; the admin's home page.

It reads other modules only through their `api` modules and owns no figures of its own
except the snapshots."""
