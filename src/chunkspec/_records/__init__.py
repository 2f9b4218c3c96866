"""The chunk record and everything that writes or reads it (docs/spec/records.md)."""
