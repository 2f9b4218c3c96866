"""_counters."""
