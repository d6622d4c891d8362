"""Speed-test use cases, one file each; callers import the file they need
(`from agency.modules.speedtest.service import speedtests`). Plain async functions with explicit
inputs; no Quart.

- `speedtests`: starting a test, the job that runs it, reading tests and the report e-mail.
- `speed_providers`: PageSpeed Insights and the local Lighthouse (behind `agency.net.egress_proxy`).
"""
