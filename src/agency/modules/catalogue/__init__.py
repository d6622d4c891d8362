"""The plan catalogue: every package the agency sells, its prices, badges and family texts.

Other modules use this module only through `agency.modules.catalogue.api`."""
