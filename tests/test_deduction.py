"""Deductions compare like with like: one frame, magnitudes in one unit, signs as displayed."""

from typing import Any

import pytest

from engine.api import route_payload
from engine.core.deduction import Unlike

A1, A2 = "zk:lab:n1", "zk:lab:n2"
SPEC = ("Momentum earned 1.2% a month.", "Reversal earned 0.4% a month.")
SIGNED = ("Reversal earned \u2212 1.2% a month.", "Momentum earned 0.4% a month.")


def compared(text: str, premises: tuple[str, str]) -> dict[str, Any]:
    """A deduction resting on two quoted premises, each citing its own note."""
    refs = (A1, A2)
    claims = [
        {"id": f"p{i}", "text": t, "kind": "restatement", "cites": [ref]}
        for i, (t, ref) in enumerate(zip(premises, refs, strict=True), 1)
    ]
    claims.append({"id": "d1", "text": text, "kind": "deduction", "premises": ["p1", "p2"]})
    return {
        "dag": {
            "claims": claims,
            "conclusion": "d1",
            "prose_citations": [{"start": 0, "end": len(text), "claim": "d1"}],
        },
        "prose": text,
        "groundings": {
            ref: {"type": "quote", "payload": {"body": t, "fulltext": t}}
            for t, ref in zip(premises, refs, strict=True)
        },
    }


UNLIKE = {
    "scope-on-one-side": ("In Japan momentum earned more than reversal.",
                          ("In Japan momentum earned 1.2%.", "Reversal earned 0.4%."),
                          Unlike.FRAME),
    "shared-scope-dropped": ("Momentum earned more than reversal.",
                             ("Momentum earned 1.2% in Japan.", "Reversal earned 0.4% in Japan."),
                             Unlike.FRAME),
    "ranks": ("Zorbex ranked lower than placebo.", ("Zorbex ranked 1.", "Placebo ranked 3."),
              Unlike.NOT_MAGNITUDE),
    "ranks-by-arithmetic": ("1 < 3.", ("Zorbex ranked 1.", "Placebo ranked 3."),
                            Unlike.NOT_MAGNITUDE),
    "ordinals": ("Zorbex came lower than placebo.", ("Zorbex came 1st.", "Placebo came 3rd."),
                 Unlike.NOT_MAGNITUDE),
    "years-ago": ("Momentum peaked more than reversal.",
                  ("Momentum peaked 5 years ago.", "Reversal peaked 2 years ago."),
                  Unlike.NOT_MAGNITUDE),
    "durations": ("Momentum lasted longer than reversal.",
                  ("Momentum lasted 5 years.", "Reversal lasted 2 years."), Unlike.NOT_MAGNITUDE),
    "units": ("Momentum earned more than reversal.",
              ("Momentum earned 1.2% a month.", "Reversal earned 0.4% a year."), Unlike.UNITS),
    "spaced-sign": ("Reversal earned more than momentum.", SIGNED, Unlike.DOES_NOT_HOLD),
    "spaced-sign-arithmetic": ("1.2% > 0.4%.", SIGNED, Unlike.NO_COMPARISON),
    "not-finite": ("Momentum earned more than reversal.",
                   ("Momentum earned infinity a month.", "Reversal earned 0.4 a month."),
                   Unlike.NO_COMPARISON),
}  # fmt: skip


@pytest.mark.parametrize(("text", "premises", "why"), UNLIKE.values(), ids=UNLIKE.keys())
def test_unlike_premises_prove_nothing(text: str, premises: tuple[str, str], why: Unlike) -> None:
    out = route_payload(compared(text, premises))
    assert out["label"] != "ANSWER", out["detail"]
    assert out["claims"]["d1"]["unproven"] == why.value


LIKE = {
    "spec-comparison": ("Momentum earned more than reversal.", SPEC),
    "spec-arithmetic": ("1.2% > 0.4%.", SPEC),
    "shared-scope-kept": ("Momentum earned more than reversal in Japan.",
                          ("Momentum earned 1.2% in Japan.", "Reversal earned 0.4% in Japan.")),
    "spaced-sign-as-displayed": ("Reversal earned less than momentum.", SIGNED),
}  # fmt: skip


@pytest.mark.parametrize(("text", "premises"), LIKE.values(), ids=LIKE.keys())
def test_like_premises_still_prove_the_comparison(text: str, premises: tuple[str, str]) -> None:
    out = route_payload(compared(text, premises))
    assert (out["label"], out["claims"]["d1"]["unproven"]) == ("ANSWER", None), out["detail"]
