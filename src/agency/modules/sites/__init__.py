"""Customer websites: domain, status and page-speed score history.

Other modules use this module only through `agency.modules.sites.api`."""
