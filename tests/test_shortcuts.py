"""Triage keys: one for each action, each a key Streamlit accepts, all listed in words."""

import pytest

from engine import TriageDecision
from present.shortcuts import Shortcut, shortcut_list, triage_shortcuts

KEYS = triage_shortcuts("matrix_next", "matrix_previous", lambda d: f"triage_{d}")


def test_every_triage_action_has_its_own_key_and_the_list_names_them() -> None:
    listed = shortcut_list(KEYS)
    assert listed.startswith("N next pair to review · P previous pair · 1 The literature")
    assert "2 Our practice note is wrong" in listed and listed.endswith("U reset to unreviewed")
    widgets = {s.widget for s in KEYS}
    assert widgets == {"matrix_next", "matrix_previous"} | {f"triage_{d}" for d in TriageDecision}
    assert len({s.key for s in KEYS}) == len(KEYS)


@pytest.mark.parametrize("key", ["C", "r", "NN", ".", ""], ids=["c", "r", "two", "dot", "none"])
def test_a_key_streamlit_refuses_is_refused_here(key: str) -> None:
    with pytest.raises(ValueError):
        Shortcut(key, "matrix_next", "x")
