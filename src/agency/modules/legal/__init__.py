"""The seller: who sells on this site, as configuration (legal name and form, address, managing
directors, contact, register, VAT ID, who is responsible for the editorial content, the brand).
It fills the legal notice (`/imprint`), the seller placeholders of the Markdown pages, the
footer of every e-mail and the demo notice on every page, and refuses a production start while
the shipped demo details are in place.

Other modules use this module only through `agency.modules.legal.api`."""
