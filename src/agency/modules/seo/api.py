"""What other modules may use of the article manager: nothing (it is the top of the module
layers with `content`; its work reaches the public site through the blog)."""

__all__: list[str] = []
