"""The package version, in one place: the wheel's metadata reads it (``[tool.hatch.version]``)."""

__all__ = ["__version__"]

__version__ = "0.1.0"
