"""Kept where the soundness tests first found it; it lives in the evaluation package now."""

from engine.evaluation.soundness_payloads import *  # noqa: F403
