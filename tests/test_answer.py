from present import answer

ART = "Antiretroviral therapy is associated with a reduction in tuberculosis."
REF = "zk:scifact:4883040"
HOOD = {"nodes": [{"address": REF, "title": "ART for prevention of TB"}]}


def result(label: str, **extra) -> dict:
    dag = {
        "claims": [{"id": "c1", "text": ART, "kind": "restatement", "cites": [REF]}],
        "conclusion": "c1",
        "prose_citations": [{"start": 0, "end": len(ART), "claim": "c1"}],
    }
    base = {
        "label": label,
        "status": "grounded" if label == "ANSWER" else None,
        "reasons": [] if label != "ABSTAIN" else ["low-coverage"],
        "prose": ART,
        "cited": [REF],
        "dag": dag,
        "decision": {"conclusion": "c1", "claims": {"c1": {"status": "grounded"}}},
        "neighbourhood": HOOD,
    }
    return {**base, **extra}


def test_a_licensed_answer_is_shown_as_the_answer_with_numbered_citations():
    area = answer.answer_area(result("ANSWER"))
    assert area.licensed and area.heading == "Answer"
    assert "answer-licensed" in area.html and "[1]" in area.html and "c1" not in area.html


def test_unlicensed_prose_under_an_abstention_is_marked_not_an_answer():
    area = answer.answer_area(result("ABSTAIN", prose="<b>made up</b>"))
    assert not area.licensed and area.heading == "Not licensed"
    assert "Not an answer" in area.html and "answer-unlicensed" in area.html
    assert "&lt;b&gt;made up&lt;/b&gt;" in area.html


def test_a_given_up_abstention_shows_the_closest_sentence_marked():
    area = answer.answer_area(result("ABSTAIN", prose=""))
    assert "closest sentence" in area.html and ART in area.html


def test_the_banner_names_sources_by_title_and_gaps_in_words():
    gaps = result(
        "ABSTAIN",
        payload={"coverage_report": {"blocking_count": 1, "uncovered": ["tuberculosis"]}},
    )
    assert "never mentions ‘tuberculosis’" in answer.summary(gaps)
    assert "“ART for prevention of TB”" in answer.summary(result("ANSWER"))


def test_stance_lines():
    contra = {"stance": {"relation": "contradicts", "cue": 'the source says "reduction"'}}
    line = answer.stance_line(contra)
    assert line.tone == "warning" and line.text.startswith("The cited source contradicts")
    assert answer.stance_line({"stance": None}) is None
    neither = answer.stance_line({"stance": {"relation": "neither", "cue": ""}})
    assert "neither" in neither.text


def test_a_contested_node_names_the_contradicting_note_and_its_review_state():
    practice = "mem:_memory:exp-1"
    contested = result(
        "ABSTAIN",
        decision={
            "conclusion": "c1",
            "claims": {"c1": {"status": "inferred", "flags": ["contested"]}},
            "nodes": {REF: {"flags": ["contested"]}},
        },
        payload={"edges": [{"src": practice, "dst": REF, "relation": "contradicts"}]},
        neighbourhood={"nodes": [*HOOD["nodes"], {"address": practice, "title": "Our trial"}]},
    )
    (line,) = answer.contested_lines(contested, confirmed=set())
    assert "“Our trial”" in line and "not yet reviewed" in line and "Claim matrix" in line
    (line,) = answer.contested_lines(contested, confirmed={(practice, REF)})
    assert "confirmed by a reviewer" in line
    assert answer.contested_pairs(contested) == [(practice, REF)]


def test_an_answer_says_which_terms_it_covers_and_which_checks_passed():
    answered = result(
        "ANSWER",
        payload={
            "coverage_report": {
                "terms": [
                    {"word": "tuberculosis", "salient": True, "covered": True},
                    {"word": "rate", "salient": False, "covered": False},
                ]
            }
        },
        decision={
            "conclusion": "c1",
            "verifiers": {REF: {"status": "ok", "detail": "quote found (exact)"}},
        },
    )
    lines = answer.answered_lines(answered)
    assert lines[0] == (
        "With the notes it cites, it mentions every salient term of the question: ‘tuberculosis’."
    )
    assert lines[1] == "“ART for prevention of TB”: quote found (exact)."
