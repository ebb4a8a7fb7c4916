"""Batch work on a Dask cluster: connecting, running one task per item, results in order.

This package knows nothing of notes, answers or PDFs: the commands give it pure tasks and
write what comes back. It imports only the core (for its errors) and `distributed`.
"""
