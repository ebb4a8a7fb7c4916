"""Benchmarks: each bench_<name>.py exposes run() yielding result rows."""
