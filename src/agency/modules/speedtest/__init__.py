"""The speed test: a domain tested by PageSpeed Insights or a local Lighthouse (behind the
egress proxy), as a job, its report e-mail and each domain's speed history.

Other modules use this module only through `agency.modules.speedtest.api`."""
