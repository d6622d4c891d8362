"""Analysis use cases, one file each; callers import the file they need
(`from agency.modules.analysis.service import analyses`). Plain async functions with explicit
inputs; no Quart.

- `analyses`: starting an analysis, the job that runs it, reading it and the report e-mail.
- `page_audit`, `analysis_rules`, `analysis_ai`, `analysis_scores`: the facts found on a page,
  the report written by the rules or the AI model, and the derived scores.
- `rules_*`: the rules report's parts (`rules_general`, `rules_lead`, `rules_technical`,
  `rules_agency`, `rules_critical`, `rules_grounding`, shared `rules_common`, `rules_gaps` and
  `rules_wording`, which reads the sentences from `templates/analysis/rules.toml`).
- `user_data`: what insights held about a person (leads, speed tests, analyses), for "export my
  data", "delete my account".
"""
