import pytest

from engine.datasets.sections import Sectioned, sectioned, split_heading


@pytest.mark.parametrize(
    ("sentence", "section", "text"),
    [
        ("BACKGROUND Microarrays offer promise.", "Background", "Microarrays offer promise."),
        ("METHODS AND RESULTS In 30 subjects", "Methods and results", "In 30 subjects"),
        ("METHODS A total of 5 mice", "Methods", "A total of 5 mice"),
        ("CONCLUSIONS: Our data show it.", "Conclusions", "Our data show it."),
        ("PBMC constitute a source.", "", "PBMC constitute a source."),
        ("RESULTS", "", "RESULTS"),
    ],
    ids=["plain", "joined", "article-kept", "colon", "acronym-not-heading", "heading-alone"],
)
def test_split_heading(sentence: str, section: str, text: str) -> None:
    assert split_heading(sentence) == Sectioned(section, text)


def test_a_section_runs_until_the_next_heading() -> None:
    parts = sectioned(["BACKGROUND First.", "Second.", "METHODS Third.", "Fourth."])
    assert [p.section for p in parts] == ["Background", "Background", "Methods", "Methods"]
    assert [p.text for p in parts] == ["First.", "Second.", "Third.", "Fourth."]
