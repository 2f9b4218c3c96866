"""_text."""
