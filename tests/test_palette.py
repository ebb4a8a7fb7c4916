"""Every highlight and chip reads at WCAG AA (4.5:1) in the light and the dark theme."""

from __future__ import annotations

import re

import pytest

from engine import Answer
from engine.api import OpenWorkspace
from present import markup
from present.highlight import highlight_html
from present.markup import (
    HIGHLIGHT_TEXT,
    QUOTE_MARK,
    Swatch,
    contrast,
    relation_swatches,
    status_swatches,
    store_swatches,
    text_on,
    trace_swatches,
)

# Streamlit's page backgrounds and text colours, light and dark.
THEMES = {"light": ("#ffffff", "#31333f"), "dark": ("#0e1117", "#fafafa")}
AA = 4.5


def wcag(colour: str) -> float:
    """Relative luminance by the WCAG 2.1 formula, written out again for the test."""

    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def ratio(a: str, b: str) -> float:
    high, low = sorted((wcag(a), wcag(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_the_contrast_formula_matches_known_pairs() -> None:
    assert ratio("#000000", "#ffffff") == pytest.approx(21.0)
    assert contrast("#000000", "#ffffff") == pytest.approx(21.0)
    assert contrast("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)


SWATCHES = [*trace_swatches, *status_swatches, *store_swatches, *relation_swatches]


@pytest.mark.parametrize("swatch", SWATCHES, ids=[s.name for s in SWATCHES])
def test_every_chip_text_passes_aa_on_its_colour(swatch: Swatch) -> None:
    assert ratio(text_on(swatch.colour), swatch.colour) >= AA


@pytest.mark.parametrize("theme", THEMES, ids=list(THEMES))
@pytest.mark.parametrize("kind", [s.name for s in trace_swatches] + ["quote"])
def test_highlights_set_their_own_text_colour_and_pass_aa_in_both_themes(
    theme: str, kind: str
) -> None:
    colour = QUOTE_MARK if kind == "quote" else markup.trace_colours[kind]
    # The text on a highlight is the highlight's own, never the theme's: light text in the
    # dark theme on a pastel would fail.
    assert ratio(HIGHLIGHT_TEXT, colour) >= AA
    _, theme_text = THEMES[theme]
    if theme == "dark":  # the theme's own light text on the pastel is what could not be read
        assert ratio(theme_text, colour) < AA


def test_traceability_highlights_carry_a_text_colour(lab: OpenWorkspace) -> None:
    from engine.api import answer

    result: Answer = answer(lab, "Do momentum crashes occur after market rebounds?")
    assert result.run.decision is not None
    html = highlight_html(result.run.prose, result.run.decision.traceability)
    spans = re.findall(r'<span class="trace-\w+" style="([^"]+)"', html)
    assert spans and all(f"color:{HIGHLIGHT_TEXT}" in style for style in spans)


def test_the_unlicensed_answer_box_reads(lab: OpenWorkspace) -> None:
    assert ratio("#6b6b6b", "#fbf1f0") >= AA
