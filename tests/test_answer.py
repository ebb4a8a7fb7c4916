from dataclasses import replace
from typing import Any

import pytest

from engine import (
    Budget,
    Claim,
    NavResult,
    ReasoningDAG,
    Stance,
    StanceRelation,
    Tier,
    Verdict,
    VerifierResult,
)
from engine.core.model import CONTRADICTS, ClaimKind, Edge, ProseCitation
from engine.core.router import Outcome, Reason
from engine.core.stance import NO_CUE, Cue, CueShape, Overstated
from engine.core.wire import RouteInput
from engine.navigation.coverage import CoverageReport, Term
from engine.navigation.substrate import Neighbourhood, Node
from present import answer, causes
from tests.values import decision

ART = "Antiretroviral therapy is associated with a reduction in tuberculosis."
REF = "zk:scifact:4883040"
HOOD = (Node(REF, "zk", "scifact", "ART for prevention of TB", "", ""),)


def result(
    label: str,
    *,
    hood: tuple[Node, ...] = HOOD,
    edges: tuple[Edge, ...] = (),
    coverage: CoverageReport | None = None,
    uncovered: tuple[str, ...] = (),
    prose: str = ART,
    **decided: Any,
) -> NavResult:
    """A run with a hand-set decision: `decided` replaces fields of the router's Decision."""
    dag = ReasoningDAG(
        (Claim("c1", ART, ClaimKind.RESTATEMENT, (REF,)),),
        "c1",
        (ProseCitation(0, len(ART), "c1"),),
    )
    abstain = label == "ABSTAIN"
    decided = {
        "outcome": Outcome.ABSTAIN if abstain else Outcome.ANSWER,
        "status": Tier.GROUNDED if label == "ANSWER" else None,
        "reasons": (Reason.LOW_COVERAGE,) if abstain else (),
        **decided,
    }
    nodes = {n.address: n for n in hood}
    return NavResult(
        "q",
        "offline",
        Budget(),
        Neighbourhood(nodes=nodes),
        (),
        decision=decision(dag, **decided),
        route_input=RouteInput(dag=dag, prose=prose, edges=edges, uncovered=uncovered),
        coverage=coverage,
    )


def test_a_licensed_answer_is_shown_as_the_answer_with_numbered_citations() -> None:
    area = answer.answer_area(result("ANSWER"))
    assert area.licensed and area.heading == "Answer"
    assert "answer-licensed" in area.html and "[1]" in area.html and "c1" not in area.html


def test_a_citation_marker_is_a_link_to_its_source_in_the_sources_list() -> None:
    html = answer.answer_area(result("ANSWER")).html
    assert '<a class="cite-mark" href="#sources" data-source="0"' in html
    assert 'title="Open “ART for prevention of TB”"' in html


def test_unlicensed_prose_under_an_abstention_is_marked_not_an_answer() -> None:
    area = answer.answer_area(result("ABSTAIN", prose="<b>made up</b>"))
    assert not area.licensed and area.heading == "Not licensed"
    assert "Not an answer" in area.html and "answer-unlicensed" in area.html
    assert "&lt;b&gt;made up&lt;/b&gt;" in area.html


def test_a_given_up_abstention_shows_the_closest_sentence_marked() -> None:
    area = answer.answer_area(result("ABSTAIN", prose=""))
    assert "closest sentence" in area.html and ART in area.html


def test_the_banner_names_sources_by_title_and_gaps_in_words() -> None:
    gaps = result(
        "ABSTAIN",
        uncovered=("tuberculosis",),
    )
    assert "never mentions ‘tuberculosis’" in causes.summary(gaps)
    assert "“ART for prevention of TB”" in answer.summary(result("ANSWER"))


def test_stance_lines() -> None:
    said = Cue(CueShape.DIRECTION, "reduction", "increases")
    contra = replace(result("ANSWER"), stance=Stance(StanceRelation.CONTRADICTS, said, 0.9))
    line = answer.stance_line(contra)
    assert line is not None
    assert line.tone == "warning" and line.text.startswith("The cited source contradicts")
    assert 'says "reduction" where the question says "increases"' in line.text
    assert answer.stance_line(result("ANSWER")) is None
    neither = replace(result("ANSWER"), stance=Stance(StanceRelation.NEITHER, NO_CUE, 0.0))
    neither_line = answer.stance_line(neither)
    assert neither_line is not None
    assert "neither" in neither_line.text


@pytest.mark.parametrize("asked", [False, True], ids=["claim", "yes-no-question"])
def test_a_withheld_yes_says_how_the_claim_says_more(asked: bool) -> None:
    withheld = Stance(StanceRelation.NEITHER, NO_CUE, 0.0, overstated=Overstated.HEDGE, asked=asked)
    line = answer.stance_line(replace(result("ANSWER"), stance=withheld))
    assert line is not None and line.text.startswith("Not a yes: the cited sentence hedges it")
    assert withheld.to_dict()["overstated"] == "hedge"


def test_a_yes_no_question_is_read_yes_no_or_not_stated_with_why() -> None:
    cue = Cue(CueShape.AGREEMENT, "reduction", "reduce")
    yes = replace(result("ANSWER"), stance=Stance(StanceRelation.SUPPORTS, cue, 0.9, asked=True))
    yes_line = answer.stance_line(yes)
    assert yes_line is not None
    assert yes_line.text.startswith("Yes: ")
    hedged = result("HEDGED ANSWER", status=Tier.INFERRED, unmentioned=("sepsis",))
    unsaid = replace(hedged, stance=Stance(StanceRelation.NEITHER, NO_CUE, 0.0, asked=True))
    unsaid_line = answer.stance_line(unsaid)
    assert unsaid_line is not None
    line = unsaid_line.text
    assert line.startswith("Not stated: ") and "never says ‘sepsis’" in line
    area = answer.answer_area(hedged)
    assert "answer-hedged" in area.html and "never says ‘sepsis’" in area.html


@pytest.mark.parametrize(
    ("relation", "start", "chip"),
    [
        (StanceRelation.SUPPORTS, "Denied too, as the question asks: ", "denied too"),
        (StanceRelation.CONTRADICTS, "Stated, not denied as the question asks: ",
         "stated, not denied"),
    ],
    ids=["denied-too", "stated"],
)  # fmt: skip
def test_a_question_that_asks_a_denial_gets_no_bare_yes_or_no(
    relation: StanceRelation, start: str, chip: str
) -> None:
    cue = Cue(CueShape.NEGATED_ONE_SIDE, "reduced", "", in_claim=True)
    stance = Stance(relation, cue, 0.9, asked=True, denied=True)
    line = answer.stance_line(replace(result("ANSWER"), stance=stance))
    assert line is not None and line.text.startswith(start)
    assert stance.answer_words == chip and stance.reading in ("yes", "no")
    plain = answer.stance_line(replace(result("ANSWER"), stance=replace(stance, denied=False)))
    assert plain is not None and plain.text.startswith(("Yes: ", "No: "))


def test_a_contested_node_names_the_contradicting_note_and_its_review_state() -> None:
    practice = "mem:_memory:exp-1"
    contested = result(
        "ABSTAIN",
        claim_verdicts={"c1": Verdict(Tier.GROUNDED, contested=True)},
        node_verdicts={REF: Verdict(Tier.GROUNDED, contested=True)},
        edges=(Edge(practice, REF, CONTRADICTS),),
        hood=(*HOOD, Node(practice, "mem", "_memory", "Our trial", "", "")),
    )
    (line,) = answer.contested_lines(contested, confirmed=set())
    assert "“Our trial”" in line and "not yet reviewed" in line and "Claim matrix" in line
    (line,) = answer.contested_lines(contested, confirmed={(practice, REF)})
    assert "confirmed by a reviewer" in line
    assert answer.contested_pairs(contested) == [(practice, REF)]


def test_an_answer_says_which_terms_it_covers_and_which_checks_passed() -> None:
    answered = result(
        "ANSWER",
        coverage=CoverageReport(
            (Term("tuberculosis", 3.0, True, True), Term("rate", 0.5, False, True))
        ),
        verifier_results={REF: VerifierResult.confirmed("quote found (exact)")},
    )
    lines = answer.answered_lines(answered)
    assert lines[0] == (
        "With the papers it cites, it says every topic word of the question: "
        "‘tuberculosis’, ‘rate’."
    )
    assert lines[1] == "“ART for prevention of TB”: quote found (exact)."
