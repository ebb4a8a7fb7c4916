"""Fitting, tuning and training: the scripts that build the engine's shipped tables.

Not part of the product (the wheel ships `engine`, `present` and `ui` only): each module
runs as `python -m lab.NAME` from a checkout and reads SciFact train or Climate-FEVER.
"""
