import numpy as np
import pytest

from lab.reader_bands import bands, called_figures, coverage, recall_at


@pytest.mark.parametrize(
    ("scores", "gold", "precision", "expected"),
    [
        ([0.9, 0.8, 0.7, 0.1], [1, 1, 0, 1], 0.8, 2 / 3),
        ([0.9, 0.8, 0.7, 0.1], [1, 1, 0, 1], 0.7, 1.0),
        ([0.9, 0.8], [0, 1], 0.8, 0.0),
        ([0.9, 0.8], [0, 0], 0.5, 0.0),
    ],
    ids=["stops-before-a-miss", "lower-bar-reaches-all", "first-is-wrong", "no-gold"],
)
def test_recall_at_precision(
    scores: list[float], gold: list[int], precision: float, expected: float
) -> None:
    got, _ = recall_at(np.array(scores), np.array(gold, dtype=bool), precision)
    assert got == pytest.approx(expected)


def test_coverage_counts_the_claims_content_words() -> None:
    assert coverage("Aspirin reduces stroke.", "Stroke was reduced by aspirin.") == pytest.approx(
        2 / 3
    )


def _pairs(domain: str, p: float, right: int, wrong: int) -> list[tuple[str, float, bool]]:
    return [(domain, p, True)] * right + [(domain, p, False)] * wrong


def test_a_band_is_called_only_when_both_domains_and_every_band_above_reach_the_bar() -> None:
    pairs = (
        _pairs("scifact", 0.97, 9, 1)
        + _pairs("climate", 0.97, 8, 2)  # 0.95+: both >= 0.7
        + _pairs("scifact", 0.92, 9, 1)
        + _pairs("climate", 0.92, 5, 5)  # 0.9: climate 0.5
        + _pairs("scifact", 0.85, 10, 0)
        + _pairs("climate", 0.85, 10, 0)  # 0.8: below a tension
    )
    table = {b["low"]: b for b in bands(pairs)}
    assert table[0.95]["relation"] == "contradicts"
    assert table[0.9]["relation"] == "tension" and table[0.9]["precision"] == 0.5
    assert table[0.8]["relation"] == "tension"
    figures = called_figures(pairs, list(table.values()))
    assert figures["contradicts_from"] == 0.95
    assert figures["scifact"]["predicted"] == 10 and figures["scifact"]["precision"] == 0.9
