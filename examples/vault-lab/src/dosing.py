"""Dose for the NOD pilot (the per-gram rule was replaced by a fixed dose)."""

FIXED_DOSE_UG = 5


def dose(weight_g: float) -> float:
    return FIXED_DOSE_UG
