"""Helpers of the live-tables load benchmark (``python -m bench.live_tables``)."""
