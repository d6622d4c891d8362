"""The AI website analysis: a visitor's page fetched safely, audited, written up by the AI model
or the rules, scored, with a speed test beside it.

Other modules use this module only through `agency.modules.analysis.api`."""
