"""Helpers every test folder may import (fixtures are in tests/conftest.py)."""
