"""The offline reasoner on a small SciFact-shaped workspace: what it restates, when it gives up."""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.api import OpenWorkspace, ask, open_workspace
from engine.core.environment import ENV_ENCODER
from engine.datasets.scifact import import_scifact
from tests.cli import run, untimed
from tests.conftest import ROOT

FILLER_TOPICS = ["asthma", "malaria", "obesity", "glaucoma", "anemia", "migraine", "sepsis",
                 "psoriasis", "gout", "rickets", "scurvy", "leprosy"]  # fmt: skip
ABSTRACTS = {
    # The salient 'dialysis' is only in the first sentence; the second restates the finding.
    "101": (
        "Menaquinone supplementation trial",
        [
            "We enrolled 200 dialysis patients in a randomised trial.",
            "Vitamin K2 intake lowered arterial calcification over two years.",
        ],
    ),
    # Two unrelated notes that cover the second question equally well: neither stands out.
    "201": (
        "Zebrafish fin regrowth",
        ["In zebrafish, osteoblast dedifferentiation drives fin regrowth."],
    ),
    "202": (
        "Fin regrowth in zebrafish",
        ["Osteoblast dedifferentiation drives zebrafish fin regrowth."],
    ),
    # Never says "SCD", "coavtivator" or "asymptomatic": only the spelling rules can cover them.
    "301": (
        "Inhaled gas in paediatric pain crises",
        [
            "Children with sickle cell disease in a vaso-occlusive crisis inhaled nitric oxide.",
            "Inhaled nitric oxide lowered morphine use over four hours.",
        ],
    ),
    "401": (
        "Ubiquitination of MafA",
        ["MafA ubiquitination reduced the recruitment of the coactivator P/CAF by MafA."],
    ),
    "601": (
        "Birth weight and perinatal deaths",
        ["Low birth weight accounted for 40% of perinatal deaths in the registry."],
    ),
    "501": (
        "Mosquito feeding on malaria carriers",
        ["Symptomatic carriers of gametocytes transmitted parasites to feeding mosquitoes."],
    ),
    # The aim covers the claim word for word; only the finding says what the study found.
    "701": (
        "Statins and hip fractures in the elderly",
        [
            "To determine whether statin use is associated with reduced hip fracture risk.",
            "Statin users had fewer hip fractures than non-users over five years.",
        ],
    ),
    # A finding its own sentence goes on to take back, and one the comparison did as well.
    "901": (
        "Coffee drinking and mortality in a prospective cohort",
        [
            "Coffee intake was associated with lower mortality, but the association "
            "disappeared after adjustment for smoking."
        ],
    ),
    "902": (
        "Aspirin after a first stroke",
        ["Aspirin reduced recurrent stroke, but so did placebo."],
    ),
    # Aspirin is named only as what metformin is set against.
    "903": (
        "Metformin and colorectal adenoma",
        ["Metformin, unlike aspirin, lowered the incidence of colorectal adenoma."],
    ),
    # Only the aim and the design: nothing in it says whether the vitamin slows cataracts.
    "801": (
        "Tocopherol supplements and lens opacity",
        [
            "We investigated whether tocopherol supplements slow cataract progression.",
            "DESIGN Participants were examined yearly with slit-lamp photographs.",
        ],
    ),
}


def _corpus(tmp_path: Path) -> tuple[Path, Path]:
    docs = [
        {"doc_id": doc_id, "title": title, "sentences": sentences}
        for doc_id, (title, sentences) in ABSTRACTS.items()
    ]
    for n, topic in enumerate(FILLER_TOPICS * 4):
        docs.append(
            {
                "doc_id": str(1000 + n),
                "title": f"A study of {topic} in patients, cohort {n}",
                "sentences": [
                    f"Patients with {topic} had an increased risk of hospital admission.",
                    "Intake of supplements and therapy over two years was recorded in 53 clinics.",
                ],
            }
        )
    corpus = tmp_path / "corpus.jsonl.gz"
    with gzip.open(corpus, "wt", encoding="utf-8") as out:
        out.writelines(json.dumps(doc) + "\n" for doc in docs)
    claims = tmp_path / "claims.jsonl"
    claims.write_text("", encoding="utf-8")
    return corpus, claims


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Iterator[OpenWorkspace]:
    tmp = tmp_path_factory.mktemp("offline")
    corpus, claims = _corpus(tmp)
    import_scifact(corpus, claims, tmp / "ws")
    opened = open_workspace(tmp / "ws")
    yield opened
    opened.close()


def test_a_rare_word_said_only_elsewhere_in_the_cited_abstract_hedges(
    workspace: OpenWorkspace,
) -> None:
    # The paper says "dialysis", so nothing blocks; the quoted finding never does, so the
    # answer is verified text that leaves a word of the question unsaid: hedged, named.
    out = ask(workspace, "Vitamin K2 intake lowers arterial calcification in dialysis").to_dict()
    assert out["decision"]["label"] == "HEDGED ANSWER", out["decision"]["detail"]
    assert out["cited"] == ["zk:scifact:101"]
    assert out["prose"] == "Vitamin K2 intake lowered arterial calcification over two years."
    assert out["payload"]["coverage_report"]["uncovered"] == []
    assert out["decision"]["unmentioned"] == ["dialysis"]


def test_a_salient_word_no_cited_note_mentions_still_blocks(workspace: OpenWorkspace) -> None:
    out = ask(workspace, "Vitamin K2 intake lowers arterial calcification in gliomas").to_dict()
    assert out["decision"]["label"] == "ABSTAIN"
    assert "gliomas" in out["payload"]["coverage_report"]["uncovered"]


def test_it_gives_up_when_no_note_stands_out(workspace: OpenWorkspace) -> None:
    out = ask(workspace, "Osteoblast dedifferentiation drives zebrafish fin regrowth").to_dict()
    assert out["decision"]["label"] == "ABSTAIN"
    assert "neither note stands out" in out["trace"][-1]["reason"]


def test_any_note_that_covers_a_topic_question_answers_it(workspace: OpenWorkspace) -> None:
    out = ask(workspace, "What do we know about zebrafish fin regrowth?").to_dict()
    assert out["decision"]["label"] == "ANSWER", out["decision"]["detail"]
    assert out["cited"][0] in ("zk:scifact:201", "zk:scifact:202")


def test_a_misspelt_word_no_note_contains_is_covered_by_its_unique_correction(
    workspace: OpenWorkspace,
) -> None:
    question = "MafA ubiquitination reduced recruitment of the coavtivator P/CAF"
    out = ask(workspace, question).to_dict()
    assert out["decision"]["label"] == "ANSWER", out["decision"]["detail"]
    assert out["cited"] == ["zk:scifact:401"]
    assert out["payload"]["coverage_report"]["uncovered"] == []


def test_a_correction_that_would_change_the_meaning_never_covers(workspace: OpenWorkspace) -> None:
    question = "Asymptomatic carriers of gametocytes transmitted parasites to feeding mosquitoes"
    out = ask(workspace, question).to_dict()
    assert out["decision"]["label"] == "ABSTAIN"
    assert "Asymptomatic" in out["payload"]["coverage_report"]["uncovered"]


def test_an_acronym_the_question_defines_is_covered_by_its_spelled_out_words(
    workspace: OpenWorkspace,
) -> None:
    question = "Inhaled nitric oxide lowers morphine use in sickle cell disease (SCD) crises"
    out = ask(workspace, question).to_dict()
    # Covered, so never blocked; no one sentence says both SCD and morphine, so hedged.
    assert out["decision"]["label"] == "HEDGED ANSWER", out["decision"]["detail"]
    assert out["payload"]["coverage_report"]["uncovered"] == []
    assert out["cited"] == ["zk:scifact:301"]


def test_an_acronym_the_question_never_defines_is_not_guessed(workspace: OpenWorkspace) -> None:
    out = ask(workspace, "Inhaled nitric oxide lowers morphine use in SCD crises").to_dict()
    assert out["decision"]["label"] == "ABSTAIN"
    assert "SCD" in out["payload"]["coverage_report"]["uncovered"]


@pytest.mark.parametrize(
    ("share", "label"), [("40%", "ANSWER"), ("53%", "ABSTAIN")], ids=["stated", "never-stated"]
)
def test_a_number_the_claim_states_must_be_in_the_cited_note(
    workspace: OpenWorkspace, share: str, label: str
) -> None:
    # "53" is in most filler notes, so it is too common to be salient: only the number rule
    # makes the reasoner give up.
    out = ask(workspace, f"Low birth weight accounts for {share} of perinatal deaths").to_dict()
    assert out["decision"]["label"] == label, out["trace"][-1]["reason"]
    if label == "ABSTAIN":
        assert "never mentions \u201853\u2019" in out["trace"][-1]["reason"]


def test_a_tethered_file_is_no_rival_to_its_note(lab: OpenWorkspace) -> None:
    out = ask(lab, "The momentum signal skips the most recent month.").to_dict()
    assert out["decision"]["label"] == "ANSWER", out["trace"][-1]["reason"]
    assert "zk:finance:z-sig-03" in out["cited"]


def test_a_finding_is_restated_rather_than_the_aim_that_covers_more(
    workspace: OpenWorkspace,
) -> None:
    out = ask(workspace, "Statin use is associated with reduced hip fracture risk").to_dict()
    assert out["decision"]["label"] == "ANSWER", out["trace"][-1]["reason"]
    assert out["prose"] == "Statin users had fewer hip fractures than non-users over five years."


@pytest.mark.parametrize(
    ("question", "cited"),
    [
        ("Is coffee intake associated with lower mortality?", "zk:scifact:901"),
        ("Coffee intake was associated with lower mortality.", "zk:scifact:901"),
        ("Does aspirin reduce recurrent stroke?", "zk:scifact:902"),
    ],
    ids=["asked-association-disappeared", "stated-association-disappeared", "placebo-did-so"],
)
def test_a_finding_its_sentence_takes_back_is_never_a_green_yes(
    workspace: OpenWorkspace, question: str, cited: str
) -> None:
    out = ask(workspace, question).to_dict()
    assert out["decision"]["label"] != "ANSWER", out["trace"][-1]["reason"]
    assert out["cited"] == [cited]
    assert out["stance"]["reading"] != "yes" and out["stance"]["overstated"] == "taken-back"


def test_an_actor_named_only_as_the_other_side_is_never_a_green_yes(
    workspace: OpenWorkspace,
) -> None:
    out = ask(workspace, "Does aspirin lower the incidence of colorectal adenoma?").to_dict()
    assert out["decision"]["label"] != "ANSWER" and out["cited"] == ["zk:scifact:903"]
    assert out["stance"]["reading"] != "yes" and out["stance"]["overstated"] == "set-aside"
    control = ask(workspace, "Does metformin lower the incidence of colorectal adenoma?")
    assert control.to_dict()["decision"]["label"] == "ANSWER"
    assert control.to_dict()["stance"]["reading"] == "yes"


def test_it_gives_up_when_only_an_aim_or_a_method_covers_the_claim(
    workspace: OpenWorkspace,
) -> None:
    out = ask(workspace, "Tocopherol supplements slow cataract progression").to_dict()
    assert out["decision"]["label"] == "ABSTAIN"
    assert out["cited"] == ["zk:scifact:801"]
    reason = out["trace"][-1]["reason"]
    assert "what the study set out to do or how, not what it found" in reason
    assert reason.endswith("only what a study found is restated as an answer")


# Two SciFact claims whose runner-up notes in the 300-abstract slice tie on coverage: a plain
# sum over a set of words named one rival or the other depending on the process's string
# hashing. Determinism across processes is a property of the process, so they run in two.
TIED_RIVALS = ("672", "795")


def test_the_same_questions_give_the_same_json_under_any_hash_seed(
    scifact_slice: Path, tmp_path: Path
) -> None:
    claims = ROOT / "data" / "scifact" / "claims_train.jsonl"
    lines = [json.loads(line) for line in claims.read_text(encoding="utf-8").splitlines()]
    batch = tmp_path / "tied.jsonl"
    batch.write_text(
        "".join(
            json.dumps({"id": c["id"], "question": c["claim"]}) + "\n"
            for c in lines
            if c["id"] in TIED_RIVALS
        ),
        encoding="utf-8",
    )
    outputs = set()
    for seed in ("1", "6"):
        env = {"PYTHONHASHSEED": seed, ENV_ENCODER: "none"}
        done = run("ask", "--full", "--workspace", scifact_slice, "--batch", batch, env=env)
        assert done.code == 0, done.err
        assert len(done.out.splitlines()) == len(TIED_RIVALS)
        outputs.add(untimed(done.out))
    assert len(outputs) == 1


@pytest.mark.parametrize(
    ("question", "label"),
    [
        (
            "Buying past winners and selling past losers generated significant abnormal losses.",
            None,
        ),
        (
            "Buying past winners and selling past losers generated significant abnormal returns.",
            "ANSWER",
        ),
        ("Does the momentum signal include the most recent month?", None),
    ],
    ids=["losers-are-no-losses", "control", "include-is-asked"],
)
def test_a_word_named_for_what_it_does_states_no_relation(
    lab: OpenWorkspace, question: str, label: str | None
) -> None:
    # "past losers" names stocks, it says no loss; "include" is the relation a question asks.
    out = ask(lab, question).to_dict()
    if label is None:
        assert out["decision"]["label"] != "ANSWER", out["prose"]
    else:
        assert out["decision"]["label"] == label, out["decision"]["detail"]
