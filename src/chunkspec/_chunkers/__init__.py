"""_chunkers."""
