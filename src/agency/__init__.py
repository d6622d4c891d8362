"""agency: sales site, checkout and customer dashboard for a productized digital agency."""

__version__ = "0.1.0"
