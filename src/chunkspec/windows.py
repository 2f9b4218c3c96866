"""Sliding windows over tokens or characters (docs/spec/windows.md, WIN-* and TOKWIN-*)."""

from ._chunkers._window import TokenWindow, chunk, token_windows

__all__ = ["TokenWindow", "chunk", "token_windows"]
