"""Labelled claim/sentence pairs for the reader, with their folds, from the data on disk.

- SciFact train: rationale sentences (SUPPORT / CONTRADICT); the other sentences of the
  cited abstracts, and the best BM25 sentences of abstracts the claim does not cite (NONE).
  Folds from `engine.evaluation.folds.claim_folds` (claims sharing an abstract share one).
- Climate-FEVER: each claim's five evidence sentences (SUPPORTS / REFUTES /
  NOT_ENOUGH_INFO); folds by the claim's words (`text_fold`).
- Synthetic CONTRADICT pairs: a SUPPORT rationale mutated here (negation, antonym,
  direction, number) against its claim, marked `synthetic` so training weighs them down.

Deterministic: sorted inputs and a seeded `random.Random`.
"""

from __future__ import annotations

import gzip
import json
import math
import random
import re
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.commands.eval_reader import read_pairs
from engine.evaluation.folds import claim_folds, text_fold
from lab.climate import climate_fever, climate_rows

ROOT = Path(__file__).resolve().parents[1]
SCIFACT = ROOT / "data" / "scifact"
CLIMATE = climate_fever()
LABEL = {"SUPPORT": 1, "SUPPORTS": 1, "CONTRADICT": 2, "REFUTES": 2, "NOT_ENOUGH_INFO": 0}
NEIGHBOURS = 3  # BM25 sentences of uncited abstracts per claim, as hard NONE examples


@dataclass(frozen=True)
class Example:
    claim: str
    sentence: str
    label: int  # 0 NONE, 1 SUPPORT, 2 CONTRADICT
    fold: int
    source: str  # scifact | climate | synthetic | triage
    claim_id: str = ""
    doc_id: str = ""
    index: int = -1  # sentence index within doc_id
    cited: bool = False  # the claim cites doc_id


def corpus() -> dict[str, dict[str, Any]]:
    with gzip.open(SCIFACT / "corpus.jsonl.gz", "rt", encoding="utf-8") as f:
        docs = [json.loads(line) for line in f if line.strip()]
    return {str(d["doc_id"]): d for d in docs}


def claims() -> list[dict[str, Any]]:
    lines = (SCIFACT / "claims_train.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def scifact_folds(items: list[dict[str, Any]]) -> dict[str, int]:
    return claim_folds({str(c["id"]): [str(d) for d in c["cited_doc_ids"]] for c in items})


_WORD = re.compile(r"[a-z0-9]+")
STOP = frozenset(
    [
        "a",
        "an",
        "the",
        "of",
        "in",
        "on",
        "and",
        "or",
        "to",
        "for",
        "with",
        "by",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "that",
        "this",
        "these",
        "those",
        "as",
        "at",
        "from",
        "it",
        "its",
        "than",
        "which",
        "who",
        "whom",
        "not",
        "no",
    ]
)


def words(text: str) -> list[str]:
    return [w for w in _WORD.findall(text.lower()) if w not in STOP]


class BM25:
    """Okapi BM25 over the corpus's sentences (k1 1.5, b 0.75), for hard negatives."""

    def __init__(self, docs: dict[str, dict[str, Any]]) -> None:
        self.keys: list[tuple[str, int]] = []
        self.bags: list[Counter[str]] = []
        for doc_id in sorted(docs):
            for i, s in enumerate(docs[doc_id]["sentences"]):
                self.keys.append((doc_id, i))
                self.bags.append(Counter(words(s)))
        self.df: Counter[str] = Counter()
        self.postings: dict[str, list[int]] = defaultdict(list)
        for n, bag in enumerate(self.bags):
            for w in bag:
                self.df[w] += 1
                self.postings[w].append(n)
        self.avg = sum(sum(b.values()) for b in self.bags) / max(1, len(self.bags))

    def top(self, query: str, k: int, skip: set[str]) -> list[tuple[str, int]]:
        total = len(self.bags)
        scores: dict[int, float] = defaultdict(float)
        for w in set(words(query)):
            idf = math.log(1 + (total - self.df[w] + 0.5) / (self.df[w] + 0.5))
            for n in self.postings.get(w, ()):
                tf = self.bags[n][w]
                size = sum(self.bags[n].values())
                scores[n] += idf * tf * 2.5 / (tf + 1.5 * (0.25 + 0.75 * size / self.avg))
        ranked = sorted(scores, key=lambda n: (-scores[n], n))
        out = []
        for n in ranked:
            if self.keys[n][0] not in skip:
                out.append(self.keys[n])
            if len(out) == k:
                break
        return out


def scifact_examples(
    docs: dict[str, dict[str, Any]], items: list[dict[str, Any]], bm25: BM25
) -> list[Example]:
    folds = scifact_folds(items)
    out = []
    for c in items:
        cid, claim = str(c["id"]), c["claim"]
        cited = {str(d) for d in c["cited_doc_ids"]}
        for doc_id in sorted(cited):
            if doc_id not in docs:
                continue
            ev = c["evidence"].get(doc_id)
            rationale = set(ev["sentences"]) if ev else set()
            for i, s in enumerate(docs[doc_id]["sentences"]):
                label = LABEL[ev["label"]] if ev and i in rationale else 0
                out.append(Example(claim, s, label, folds[cid], "scifact", cid, doc_id, i, True))
        for doc_id, i in bm25.top(claim, NEIGHBOURS, cited):
            s = docs[doc_id]["sentences"][i]
            out.append(Example(claim, s, 0, folds[cid], "scifact", cid, doc_id, i, False))
    return out


def climate_examples(path: Path = CLIMATE) -> list[Example]:
    out = []
    for item in climate_rows(path):
        fold = text_fold(item["claim"])
        for n, ev in enumerate(item["evidences"]):
            label = LABEL[ev["evidence_label"]]
            out.append(
                Example(
                    item["claim"],
                    ev["evidence"],
                    label,
                    fold,
                    "climate",
                    f"cf-{item['claim_id']}",
                    ev.get("article", ""),
                    n,
                    True,
                )
            )
    return out


def triage_examples(paths: list[Path]) -> list[Example]:
    """Reviewers' decided pairs (`python -m engine triage pairs`), for training only.

    They come from a team's own workspace, not from the held-out sets, so they are never
    scored out of fold (the bands stay comparable between runs); every fold trains on them.
    A bad file stops the run with the line it could not read.
    """
    out = []
    for path in paths:
        for claim, sentence, label in read_pairs(path):
            out.append(Example(claim, sentence, label, text_fold(claim), "triage"))
    return out


_FLIPS = {
    "increased": "decreased",
    "decreased": "increased",
    "increases": "decreases",
    "decreases": "increases",
    "increase": "decrease",
    "decrease": "increase",
    "higher": "lower",
    "lower": "higher",
    "more": "less",
    "less": "more",
    "reduced": "elevated",
    "elevated": "reduced",
    "reduces": "raises",
    "enhanced": "impaired",
    "impaired": "enhanced",
    "promotes": "inhibits",
    "inhibits": "promotes",
    "induces": "suppresses",
    "suppresses": "induces",
    "activates": "inhibits",
    "positive": "negative",
    "negative": "positive",
    "improved": "worsened",
    "greater": "smaller",
    "smaller": "greater",
    "upregulated": "downregulated",
    "downregulated": "upregulated",
    "associated": "unassociated",
    "significant": "insignificant",
    "rise": "fall",
    "risk": "protection",
    "beneficial": "harmful",
    "harmful": "beneficial",
}


def _mutations(claim: str, sentence: str, rng: random.Random) -> list[str]:
    """Contradicting edits of `sentence` that touch what `claim` says, never elsewhere."""
    out = []
    said = set(_WORD.findall(claim.lower()))
    tokens = sentence.split(" ")
    flips = [i for i, t in enumerate(tokens) if t.lower().strip(",.;:") in _FLIPS.keys() & said]
    if flips:
        i = rng.choice(flips)
        core = tokens[i].strip(",.;:")
        rep = _FLIPS[core.lower()]
        rep = rep.capitalize() if core[:1].isupper() else rep
        out.append(" ".join([*tokens[:i], tokens[i].replace(core, rep), *tokens[i + 1 :]]))
    m = re.search(r"\b(is|are|was|were|did|does|can|could|may)\b(?! not)", sentence)
    close = len(set(words(claim)) & set(words(sentence))) >= 0.5 * len(set(words(claim)))
    if m and close:
        out.append(sentence[: m.end()] + " not" + sentence[m.end() :])
    elif close and " not " in sentence:
        out.append(sentence.replace(" not ", " ", 1))
    nums = [n for n in re.finditer(r"\b\d+(\.\d+)?\b", sentence) if n.group() in said]
    if nums:
        n = rng.choice(nums)
        value = float(n.group())
        new = value * rng.choice((3, 5, 10)) + 1
        text = f"{new:.{len(n.group().split('.')[1])}f}" if "." in n.group() else str(int(new))
        out.append(sentence[: n.start()] + text + sentence[n.end() :])
    return out


def synthetic_examples(real: list[Example], seed: int) -> list[Example]:
    """Mutants of SUPPORT rationales, each a CONTRADICT example against the same claim."""
    rng = random.Random(seed)
    out = []
    for ex in real:
        if ex.label != 1:
            continue
        for mutant in _mutations(ex.claim, ex.sentence, rng):
            if mutant != ex.sentence:
                out.append(
                    Example(ex.claim, mutant, 2, ex.fold, "synthetic", ex.claim_id, ex.doc_id)
                )
    return out
