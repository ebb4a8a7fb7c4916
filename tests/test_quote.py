"""Quote verification: real SciFact rationales, their altered copies, and the edge rules."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import FrozenInstanceError
from pathlib import Path

import pytest

from engine.core.errors import ConfigError
from engine.core.quote import QuoteMatch, quote_needle, verify_quote
from tests.cli import start

ROOT = Path(__file__).resolve().parents[1]
RATIONALES = [
    json.loads(line)
    for line in (ROOT / "tests/fixtures/scifact_rationales.jsonl").read_text("utf-8").splitlines()
]

_ANTONYMS = {
    "increased": "decreased", "increase": "decrease", "increases": "decreases",
    "increasing": "decreasing", "higher": "lower", "high": "low", "more": "less",
    "positive": "negative", "positively": "negatively", "improved": "worsened",
    "enhanced": "reduced", "greater": "smaller", "upregulated": "downregulated",
    "before": "after", "major": "minor", "maximum": "minimum", "present": "absent",
    "inhibits": "promotes", "activates": "represses", "larger": "smaller", "up": "down",
}  # fmt: skip
_ANTONYMS |= {b: a for a, b in _ANTONYMS.items()}
_PREFIXED = {
    "significant": "insignificant", "significantly": "insignificantly", "effective": "ineffective",
    "associated": "unassociated", "active": "inactive", "consistent": "inconsistent",
    "sufficient": "insufficient", "dependent": "independent", "stable": "unstable",
    "likely": "unlikely", "affected": "unaffected", "changed": "unchanged", "related": "unrelated",
    "known": "unknown", "able": "unable", "common": "uncommon", "complete": "incomplete",
    "direct": "indirect", "treated": "untreated", "detectable": "undetectable",
    "regulated": "dysregulated", "responsive": "unresponsive", "sensitive": "insensitive",
}  # fmt: skip
_PREFIXED |= {b: a for a, b in _PREFIXED.items()}
_AUXILIARY = re.compile(r"\b(is|are|was|were|did|does|do|can|could|may|might|will|has|have|had)\b")


def _swap_word(sentence: str, table: dict[str, str]) -> str | None:
    words = sentence.split(" ")
    for i, word in enumerate(words):
        core = word.strip(".,;:()")
        if core.lower() in table:
            words[i] = word.replace(core, table[core.lower()])
            return " ".join(words)
    return None


def change_number(sentence: str) -> str | None:
    digit = re.search(r"\d", sentence)
    if digit is None:
        return None
    new = str((int(digit.group()) + 1) % 10)
    return sentence[: digit.start()] + new + sentence[digit.end() :]


def flip_negation(sentence: str) -> str | None:
    if re.search(r"\bnot ", sentence):
        return re.sub(r"\bnot ", "", sentence, count=1)
    aux = _AUXILIARY.search(sentence)
    if aux is not None:
        return sentence[: aux.end()] + " not" + sentence[aux.end() :]
    words = sentence.split()
    return " ".join([*words[: len(words) // 2], "not", *words[len(words) // 2 :]])


def swap_antonym(sentence: str) -> str | None:
    return _swap_word(sentence, _ANTONYMS)


def flip_prefix(sentence: str) -> str | None:
    return _swap_word(sentence, _PREFIXED)


def drop_word(sentence: str) -> str | None:
    words = sentence.split()
    middle = len(words) // 2
    i = min((i for i, w in enumerate(words) if re.search(r"\w", w)), key=lambda i: abs(i - middle))
    return " ".join(words[:i] + words[i + 1 :])


def add_word(sentence: str) -> str | None:
    words = sentence.split()
    return " ".join([*words[: len(words) // 2], "also", *words[len(words) // 2 :]])


def test_every_rationale_verifies_exactly_against_its_abstract() -> None:
    results = [verify_quote(r["rationale"], r["abstract"]) for r in RATIONALES]
    assert len(results) >= 150
    assert [m.method for m in results] == ["exact"] * len(results)
    assert all(m.verified and m.score == 100.0 and m.page == 1 for m in results)


@pytest.mark.parametrize(
    ("alter", "at_least"),
    [
        (change_number, 90),
        (flip_negation, 140),
        (swap_antonym, 40),
        (flip_prefix, 20),
        (drop_word, 150),
        (add_word, 150),
    ],
    ids=["number", "negation", "antonym", "negating-prefix", "dropped-word", "added-word"],
)
def test_altered_rationales_never_verify_and_show_a_near_miss(
    alter: Callable[[str], str | None], at_least: int
) -> None:
    tried = [(r, alter(r["rationale"])) for r in RATIONALES]
    altered = [(r, body) for r, body in tried if body is not None]
    assert len(altered) >= at_least
    wrongly = []
    for record, body in altered:
        match = verify_quote(body, record["abstract"])
        if match.verified or match.method != "none" or not match.near_miss:
            wrongly.append((body, match))
    assert wrongly == []


@pytest.mark.parametrize(
    ("source", "quote"),
    [
        ("He said “it works” today.", 'he said "it works" today'),
        ("The ﬁrst eﬀect was ﬂat.", "The first effect was flat."),
        ("the treat-\nment arm improved", "the treatment arm improved"),
        ("the treat\u00ad\nment arm improved", "the treatment arm improved"),
        ("doses of 5–10 mg — daily", "doses of 5-10 mg - daily"),
        ("a change of −3 points", "a change of -3 points"),
        ("COVID-\n19 patients", "COVID-19 patients"),
        ("MANY\n\n  Spaces\there", "many spaces here"),
    ],
    ids=[
        "curly-quotes", "ligatures", "line-break-hyphen", "soft-hyphen", "dashes", "minus-sign",
        "hyphen-before-digits", "whitespace-and-case",
    ],
)  # fmt: skip
def test_typography_is_normalised_to_an_exact_match(source: str, quote: str) -> None:
    match = verify_quote(quote, source)
    assert (match.verified, match.method) == (True, "exact")


@pytest.mark.parametrize(
    ("quote", "source"),
    [
        ("The patients recieved a placebo daily", "The patients received a placebo daily"),
        ("Mortality fell among the treated cohrot", "Mortality fell among the treated cohort"),
        ("the rnortality in the cornbined group", "the mortality in the combined group"),
        ("the treat-ment arm improved markedly", "the treatment arm improved markedly"),
        ("the treatment arm improved markedly", "the treat- ment arm improved markedly"),
        ("an activin-like knnase-2 receptor", "an activin-like kinase-2 receptor"),
    ],
    ids=[
        "typo",
        "transposition",
        "ocr-rn-for-m",
        "hyphen-in-quote",
        "hyphen-in-source",
        "typo-beside-digits",
    ],
)  # fmt: skip
def test_in_word_noise_verifies_as_fuzzy(quote: str, source: str) -> None:
    match = verify_quote(quote, "Preamble text here. " + source + " More text.")
    assert (match.verified, match.method) == (True, "fuzzy")
    assert 90.0 <= match.score < 100.0
    # What it confirms is the source's own span at the match, in the source's spelling.
    assert match.confirmed_source_text and match.confirmed_source_text in " ".join(source.split())


@pytest.mark.parametrize(
    ("quote", "source"),
    [
        ("mortality fell in 13 of 40 patients", "mortality fell in 12 of 40 patients"),
        ("the dose was 0.5 mg per day", "the dose was 0.05 mg per day"),
        ("the effect was significant (p > 0.05)", "the effect was significant (p < 0.05)"),
        ("the treatment was effective in adults", "the treatment was ineffective in adults"),
        ("the treatment was non-toxic in adults", "the treatment was toxic in adults"),
        ("the result does hold in adults", "the result doesn't hold in adults"),
        ("hypotension was common in the cohort", "hypertension was common in the cohort"),
        ("levels increased in treated mice", "levels decreased in treated mice"),
        ("effective in adults", "the treatment was ineffective in adults"),
        ("the dose was 5 mg", "the dose was 5.5 mg daily"),
        ("levels were not raised in mice", "levels were raised in mice"),
        ("levels were raised in mice", "levels were raised in old mice"),
        ("the score changed by 5 points", "the score changed by -5 points"),
        ("weight fell by 31.6 7.2 kg", "weight fell by 31.6 +/- 7.2 kg"),
        ("CD5 cells were counted", "CD4 cells were counted"),
    ],
    ids=[
        "number", "decimal", "comparator", "prefix-added", "prefix-removed", "contraction",
        "close-antonym", "antonym", "word-cut-inside", "number-cut-inside", "added-not",
        "dropped-word", "sign", "dropped-symbol", "digit-in-word",
    ],
)  # fmt: skip
def test_meaning_changes_are_rejected(quote: str, source: str) -> None:
    match = verify_quote(quote, source)
    assert not match.verified
    assert match.method == "none"


def test_near_miss_quotes_the_source_in_its_own_wording() -> None:
    source = "Intro.\fResults:  The Drug “lowered” mortality by 12%\nin adults."
    match = verify_quote("the drug lowered mortality by 13% in adults", source)
    assert not match.verified
    assert match.near_miss == "The Drug “lowered” mortality by 12% in adults"
    assert match.page == 2


def test_pages_are_counted_from_form_feeds() -> None:
    source = "cover page\fsecond page text\f\nthird page holds the finding we want\fend"
    assert verify_quote("the finding we want", source).page == 3
    assert verify_quote("the findng we want", source).page == 3
    assert verify_quote("second page", source).page == 2
    assert verify_quote("cover page", source).page == 1


@pytest.mark.parametrize("fulltext", [None, "", " \n\f "], ids=["none", "empty", "blank"])
def test_missing_source_is_unavailable_not_refuted(fulltext: str | None) -> None:
    match = verify_quote("anything", fulltext)
    assert (match.verified, match.method) == (False, "unavailable")
    assert match == QuoteMatch.unavailable()


@pytest.mark.parametrize("quote", ["", "   ", "[my note: check this]", "“ ”"])
def test_empty_quote_is_not_verified(quote: str) -> None:
    match = verify_quote(quote, "some source text")
    assert (match.verified, match.method, match.near_miss) == (False, "none", None)


@pytest.mark.parametrize(
    "quote",
    [
        "the drug lowered mortality [my note: check the dose]",
        "the drug lowered mortality (note: only in adults)",
        "the drug lowered mortality — note: compare with trial B",
        "the drug lowered mortality [N.B. small sample]",
        "the drug lowered mortality (emphasis added)",
        "the drug lowerd [sic] mortality",
        "“the drug lowered mortality…”",
    ],
    ids=["my-note", "paren-note", "dash-note", "nb", "emphasis", "sic", "quotes-and-ellipsis"],
)
def test_reader_notes_are_stripped(quote: str) -> None:
    assert quote_needle(quote) in {"the drug lowered mortality", "the drug lowerd mortality"}
    assert verify_quote(quote, "In 2019 the drug lowered mortality in adults.").verified


def test_a_parenthesis_that_is_not_a_note_is_kept() -> None:
    assert quote_needle("mortality fell (n = 20)") == "mortality fell (n = 20)"
    assert not verify_quote("mortality fell (n = 20)", "mortality fell (n = 30)").verified


SOURCE = "Page one.\fWe found that drug X lowered blood pressure; the effect lasted weeks."


@pytest.mark.parametrize(
    ("quote", "highlight", "verified"),
    [
        ("Drug X lowered blood pressure.", "drug X lowered blood pressure", True),
        ("Drug X lowered blood pressure in mice", "drug X lowered blood pressure", False),
        ("Drug Y raised blood pressure.", "Drug Y raised blood pressure", False),
    ],
    ids=["highlight-covers-quote", "extra-words-outside-highlight", "highlight-not-in-source"],
)
def test_annotation_highlight_confirms_quote(quote: str, highlight: str, verified: bool) -> None:
    notes: list[dict[str, object]] = [
        {"text": "unrelated", "page": 9, "color": "#ff0"},
        {"text": highlight, "page": "4"},
    ]
    match = verify_quote(quote, SOURCE, notes)
    assert match.verified is verified
    if verified:
        assert (match.method, match.page, match.confirmed_source_text) == (
            "annotation",
            4,
            highlight,
        )
        assert match.score >= 90.0
    else:
        assert match.method == "none"


def test_fuzzy_floor_is_respected_and_validated() -> None:
    source = "the patients received a placebo daily"
    assert verify_quote("the patients recieved a placebo daily", source).verified
    strict = verify_quote("the patients recieved a placebo daily", source, fuzzy_floor=99)
    assert not strict.verified
    with pytest.raises(ConfigError):
        verify_quote("x", source, fuzzy_floor=101)


def test_match_is_frozen_and_serialises_its_seven_fields() -> None:
    match = verify_quote("a placebo", "patients received a placebo")
    assert json.loads(json.dumps(match.to_dict())) == {
        "verified": True,
        "method": "exact",
        "score": 100.0,
        "page": 1,
        "near_miss": None,
        "confirmed_source_text": "a placebo",
        "reason": None,
    }
    with pytest.raises(FrozenInstanceError):
        match.verified = False  # type: ignore[misc]


def test_typo_deep_in_a_long_source_is_found_on_its_page() -> None:
    pages = [r["abstract"] for r in RATIONALES[::3]]
    source = "\f".join(pages)
    target = RATIONALES[-3]["rationale"]
    # A typo in a long word: a short word's typo is too often another word to forgive.
    word = max(target.split(), key=len)
    typo = target.replace(word, word[:2] + word[3] + word[2] + word[4:], 1)
    match = verify_quote(typo, source)
    assert match.verified
    assert match.page == len(pages)


@pytest.fixture(scope="module")
def cli(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[int, str, str]]:
    """Every CLI case, run at once as `python -m engine` subprocesses: name -> (code, out, err)."""
    folder = tmp_path_factory.mktemp("cli")
    (folder / "paper.txt").write_text("Cover.\fDrug X lowered mortality by 12%.", "utf-8")
    lines = [
        {"id": "a", "quote": "drug x lowered mortality", "source": "paper.txt"},
        "not json",
        {"id": "c", "quote": "anything", "fulltext": None},
        {"id": "d", "quote": "anything", "source": "missing.txt"},
        {"id": "e", "fulltext": "text"},
        {"id": "f", "quote": "drug x lowered mortality by 13%", "source": "paper.txt"},
    ]
    batch = folder / "quotes.jsonl"
    batch.write_text("\n".join(x if isinstance(x, str) else json.dumps(x) for x in lines), "utf-8")
    paper = str(folder / "paper.txt")
    cases = {
        "verified": ["--source", paper, "drug x lowered mortality"],
        "batch": ["--batch", str(batch)],
        "misuse": ["just a quote"],
    }
    running = {name: start("verify-quote", *args) for name, args in cases.items()}
    return {name: proc.wait() for name, proc in running.items()}


def test_cli_single_quote(cli: dict[str, tuple[int, str, str]]) -> None:
    code, out, _ = cli["verified"]
    assert code == 0
    assert json.loads(out) == {
        "verified": True,
        "method": "exact",
        "score": 100.0,
        "page": 2,
        "near_miss": None,
    }


def test_cli_batch_reports_each_line_and_keeps_going(cli: dict[str, tuple[int, str, str]]) -> None:
    code, out, _ = cli["batch"]
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 2  # malformed lines (not JSON, no quote) make the batch exit 2
    assert [row.get("id") for row in rows] == ["a", None, "c", "d", "e", "f"]
    assert (rows[0]["verified"], rows[0]["method"]) == (True, "exact")
    assert "not valid JSON" in rows[1]["error"]
    assert rows[2]["method"] == "unavailable"
    assert "missing.txt" in rows[3]["error"]
    assert "'quote'" in rows[4]["error"]
    assert (rows[5]["verified"], rows[5]["page"]) == (False, 2)
    assert rows[5]["near_miss"] == "Drug X lowered mortality by 12%"


def test_cli_misuse_exits_2_with_one_line(cli: dict[str, tuple[int, str, str]]) -> None:
    code, out, err = cli["misuse"]
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and err.startswith("error:")


@pytest.mark.parametrize(
    ("quote", "source"),
    [
        (
            "tumor-unassociated macrophages were counted",
            "We saw that tumor-associated macrophages were counted.",
        ),
        (
            "tumor-non-associated macrophages were counted",
            "We saw that tumor-associated macrophages were counted.",
        ),
        ("the drug-responsive tumours shrank", "Only the drug-unresponsive tumours shrank."),
        ("Risk rose 10^3 fold in the cohort", "Risk rose 10⁻³ fold in the cohort."),
        ("Risk rose 10-3 fold in the cohort", "Risk rose 10⁻³ fold in the cohort."),
        ("Risk rose 103 fold in the cohort", "Risk rose 10⁻³ fold in the cohort."),
        ("Risk rose 10³ fold in the cohort", "Risk rose 10⁻³ fold in the cohort."),
        ("The change was -5% overall in the cohort", "The change was 5% overall in the cohort."),
        ("The change was –5% overall in the cohort", "The change was 5% overall in the cohort."),
        ("The change was 5% overall in the cohort", "The change was −5% overall in the cohort."),
        ("Effect at p > 0.05 in the whole cohort", "Effect at p < 0.05 in the whole cohort."),
        ("Effect at p ≥ 0.05 in the whole cohort", "Effect at p > 0.05 in the whole cohort."),
        ("Tamoxifen helped ER- tumours in the trial", "Tamoxifen helped ER+ tumours in the trial."),
        ("Tamoxifen helped ER tumours in the trial", "Tamoxifen helped ER- tumours in the trial."),
        (
            "association was detected between surgery and fractures",
            "No association was detected between surgery and fractures.",
        ),
        (
            "associaton was detected between surgery and fractures",
            "No association was detected between surgery and fractures.",
        ),
    ],
    ids=[
        "negating-prefix-added-in-compound",
        "negating-part-added-to-compound",
        "negating-prefix-dropped-in-compound",
        "exponent-sign-dropped",
        "exponent-as-range",
        "exponent-as-digits",
        "exponent-sign-dropped-superscript",
        "sign-added-hyphen",
        "sign-added-en-dash",
        "sign-dropped-minus-sign",
        "comparator-reversed",
        "comparator-loosened",
        "marker-flipped",
        "marker-dropped",
        "negation-cut-off-exact",
        "negation-cut-off-fuzzy",
    ],
)
def test_meaning_changes_are_refused_with_a_near_miss(quote: str, source: str) -> None:
    match = verify_quote(quote, "Preamble text here. " + source + " More text.")
    assert not match.verified, match
    assert match.method == "none" and match.near_miss


@pytest.mark.parametrize(
    ("quote", "source"),
    [
        ("IL6 levels rose in the treated mice", "IL-6 levels rose in the treated mice."),
        ("tumor-asociated macrophages were counted", "tumor-associated macrophages were counted."),
        ("Risk rose 10⁻³ fold in the cohort", "Risk rose 10⁻³ fold in the cohort."),
        ("Tamoxifen helpd ER+ tumours in the trial", "Tamoxifen helped ER+ tumours in the trial."),
        ("The chnage was −5% overall in the cohort", "The change was –5% overall in the cohort."),
    ],
    ids=[
        "spelling-variant",
        "typo-in-compound",
        "superscript-exact",
        "typo-beside-marker",
        "typo-beside-sign",
    ],
)
def test_noise_beside_meaning_marks_still_verifies(quote: str, source: str) -> None:
    assert verify_quote(quote, "Preamble text here. " + source + " More text.").verified


DISPLAYED = "The drug lowered blood pressure at 12 months (p < 0.001)."


@pytest.mark.parametrize(
    "quote",
    [
        "The drug lowered blood pressure at \u202e12 months (p < 0.001).",
        "The drug lowered blood pressure at 12 months (p \u2066< 0.001).",
        "The drug lowered blood pressure at 12 months (p \u200f< 0.001).",
    ],
    ids=["right-to-left-override", "left-to-right-isolate", "right-to-left-mark"],
)
def test_a_quote_holding_a_bidi_control_is_refused_with_the_control_named(quote: str) -> None:
    found = verify_quote(quote, f"Trial. {DISPLAYED} End.")
    assert (found.verified, found.method.value) == (False, "refused")
    assert "U+20" in (found.reason or "")


@pytest.mark.parametrize(
    ("quote", "verified"),
    [
        ("The drug lowered blood pressure at \u02d712 months (p < 0.001).", False),
        ("The drug lowered blood pressure at 12 months (p \u2796 0.001).", False),
        ("The drug lowered blood pressure at 12 months (p < \u23af0.001).", False),
        ("The drug lowe\u200bred blood pressure at 12 months (p < 0.001).", False),
        ("The drug low\u00adered blood pressure at 12 months (p < 0.001).", True),
    ],
    ids=["modifier-minus", "heavy-minus-for-comparator", "line-extension", "zero-width",
         "soft-hyphen"],
)  # fmt: skip
def test_look_alikes_and_invisible_characters_are_compared_as_displayed(
    quote: str, verified: bool
) -> None:
    assert verify_quote(quote, f"Trial. {DISPLAYED} End.").verified is verified
