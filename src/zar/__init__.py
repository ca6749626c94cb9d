"""Zar: Yams and 10 000, with exact rules and a computer that plays them."""

__version__ = "0.1.0"
__all__ = ["__version__"]
