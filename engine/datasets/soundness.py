"""Kept where the soundness tests first found it; it lives in the evaluation package now."""

from engine.evaluation.soundness import *  # noqa: F403
