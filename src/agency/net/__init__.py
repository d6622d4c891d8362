"""Outbound network, shared by the modules: which addresses the server may reach
(`addresses`), a page fetcher that holds to them (`safe_fetch`), the forward proxy a local
browser's traffic goes through (`egress_proxy`), answer bodies read with a bound on their
decoded size (`bounded_body`) and the AI provider's client (`ai`). It may use the kernel
(`agency.core`) and names no module; the kernel does not import it."""
