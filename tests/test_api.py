import json
import pickle

import pytest

from engine.api import (
    Answer,
    OpenWorkspace,
    answer,
    claim_shaped,
    question_stance,
    route_json,
    stance_toward,
)
from engine.core.router import Decision
from engine.core.stance import Overstated
from engine.core.wire import dumps

ART = (
    "Antiretroviral therapy led to a strong reduction in the incidence of tuberculosis across "
    "all CD4 count strata."
)
# The same finding said as an association: it answers "is X associated with …", not "does X
# reduce …".
ART_ASSOCIATED = (
    "Antiretroviral therapy is strongly associated with a reduction in the incidence of "
    "tuberculosis across all CD4 count strata."
)


def decision_citing(sentence: str, *, body: str | None = None) -> Decision:
    ref = "zk:scifact:4883040"
    payload = {
        "dag": {
            "claims": [{"id": "c1", "text": sentence, "kind": "restatement", "cites": [ref]}],
            "conclusion": "c1",
        },
        "prose": sentence,
        "node_status": {ref: {"tier": "grounded"}},
        "node_bodies": {ref: body if body is not None else sentence},
    }
    return route_json(dumps(payload))


@pytest.mark.parametrize(
    ("text", "claim"),
    [
        ("Antiretroviral therapy increases rates of tuberculosis.", True),
        ("What does the knowledge base say about BRCA1 mutations?", False),
        ("Does vitamin D prevent fractures", False),
        ("Statins lower LDL?", False),
        ("", False),
    ],
    ids=["statement", "what-question", "yes-no-question", "question-mark", "empty"],
)
def test_claim_shaped(text: str, claim: bool) -> None:
    assert claim_shaped(text) is claim


def test_opposite_direction_words_contradict_with_the_cue_named() -> None:
    stance = question_stance(
        "Antiretroviral therapy increases rates of tuberculosis across CD4 strata.",
        decision_citing(ART),
    )
    assert stance is not None
    assert stance.relation.value == "contradicts"
    assert "reduction" in stance.phrase and "increases" in stance.phrase
    assert stance.evidence == ART
    assert stance.to_dict()["relation"] == "contradicts"


def test_the_same_direction_supports() -> None:
    stance = question_stance(
        "Antiretroviral therapy reduces the incidence of tuberculosis across CD4 strata.",
        decision_citing(ART),
    )
    assert stance is not None
    assert stance.relation.value == "supports" and "reduc" in stance.phrase


def test_an_association_answers_the_association_asked_not_a_change() -> None:
    cited = decision_citing(ART_ASSOCIATED)
    asked = question_stance(
        "Is antiretroviral therapy associated with reduced tuberculosis?", cited
    )
    assert asked is not None and asked.reading == "yes"
    held = question_stance("Does antiretroviral therapy reduce tuberculosis?", cited)
    assert held is not None and held.reading == "mixed"
    assert held.overstated is Overstated.ASSOCIATION and not held.withheld_no
    # The other way an association is a tension a reviewer should see: still a no.
    denied = question_stance("Does antiretroviral therapy increase tuberculosis?", cited)
    assert denied is not None and denied.reading == "no"


def test_no_explicit_cue_is_neither() -> None:
    sentence = "We reviewed studies of antiretroviral therapy and tuberculosis in adults."
    stance = question_stance(
        "Antiretroviral therapy increases rates of tuberculosis.", decision_citing(sentence)
    )
    assert stance is not None
    assert stance.relation.value == "neither" and stance.confidence == 0.0


def test_a_yes_no_question_is_answered_yes_or_no() -> None:
    said = question_stance("Does antiretroviral therapy reduce tuberculosis?", decision_citing(ART))
    assert said is not None and said.asked and said.reading == "yes"
    denied = question_stance(
        "Does antiretroviral therapy increase tuberculosis?", decision_citing(ART)
    )
    assert denied is not None and denied.reading == "no"


def test_no_stance_for_an_open_question_or_an_abstention() -> None:
    assert question_stance("How does therapy affect tuberculosis?", decision_citing(ART)) is None
    unlicensed = decision_citing(ART, body="Something else entirely.")
    assert not unlicensed.answered
    assert question_stance("Antiretroviral therapy increases tuberculosis.", unlicensed) is None
    assert question_stance("Antiretroviral therapy increases tuberculosis.", None) is None


def test_a_flip_in_a_loosely_matching_sentence_does_not_contradict() -> None:
    stance = stance_toward(
        "Antiretroviral therapy increases rates of tuberculosis across CD4 strata.",
        ["Poverty reduces adherence to treatment in rural clinics."],
    )
    assert stance is not None
    assert stance.relation.value == "neither"
    assert stance_toward("Anything at all.", ["  "]) is None


def test_an_answer_survives_the_app_cache_and_a_routed_payload_reads_like_one(
    lab: OpenWorkspace,
) -> None:
    # The app's answer cache pickles the frozen value and hands back a copy.
    answered = answer(lab, "Does the momentum signal skip the most recent month?")
    assert pickle.loads(pickle.dumps(answered)) == answered
    claim = {"id": "c1", "text": "Momentum persists.", "kind": "restatement", "cites": ["zk:a:n"]}
    payload = {
        "dag": {"claims": [claim], "conclusion": "c1"},
        "prose": "Momentum persists.",
        "node_status": {"zk:a:n": {"tier": "grounded"}},
    }
    routed = route_json(json.dumps(payload))
    audited = Answer.from_route(routed, payload)
    assert (audited.label, audited.run.decision, audited.contests) == (routed.label, routed, None)
    assert audited.run.prose == "Momentum persists." and audited.run.cited == ("zk:a:n",)
    assert audited.to_dict()["decision"] == routed.to_dict()
