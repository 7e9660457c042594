"""Rulings as scenarios: loading TOML with line numbers, replaying, checking expectations."""
