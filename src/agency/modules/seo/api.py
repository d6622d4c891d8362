"""What other modules may use of the article manager: nothing yet (it is not built); its
functions will be added here."""

__all__: list[str] = []
