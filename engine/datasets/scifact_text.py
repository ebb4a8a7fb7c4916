"""SciFact train sentences and the wire payloads that restate them, for checks and benchmarks.

Only the abstracts cited by SciFact *train* claims are read: nothing here touches the dev
or test splits, so figures tuned on these sentences stay honest.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.datasets import DATA as DATA
from engine.datasets.scifact import read_jsonl


@dataclass(frozen=True)
class TrainSentence:
    """One sentence of a train-cited abstract, with the abstract it comes from.

    `fragment` says SciFact's own segmentation cut it short (see `fragments`): it is not a
    whole sentence, so no control expects it to be licensed.
    """

    doc_id: str
    index: int
    text: str
    abstract: str
    fragment: bool = False

    @property
    def ref(self) -> str:
        return f"zk:scifact:{self.doc_id}-s{self.index}"


def train_abstracts(
    corpus: Path = DATA / "corpus.jsonl.gz", claims: Path = DATA / "claims_train.jsonl"
) -> dict[str, list[str]]:
    """doc id → sentences, for every abstract a train claim cites, in doc id order."""
    cited = {str(d) for claim in read_jsonl(claims) for d in claim.get("cited_doc_ids", [])}
    docs = {
        str(doc["doc_id"]): list(doc["sentences"])
        for doc in read_jsonl(corpus)
        if str(doc["doc_id"]) in cited
    }
    return dict(sorted(docs.items(), key=lambda item: int(item[0])))


def train_sentences(abstracts: dict[str, list[str]]) -> list[TrainSentence]:
    """Every sentence of the given abstracts, stripped, with its abstract joined by spaces."""
    out = []
    for doc_id, sentences in abstracts.items():
        abstract = " ".join(sentences)
        cut = fragments(sentences)
        for index, text in enumerate(sentences):
            if text.strip():
                out.append(TrainSentence(doc_id, index, text.strip(), abstract, cut[index]))
    return out


_ENDS = re.compile(r"""[.!?]["')\]]*\Z""")
_CONTINUES = re.compile(r"""\A(?:[a-z]+\b(?![-\d])|[,;:)\]])""")


def fragments(sentences: Sequence[str]) -> list[bool]:
    """For each SciFact sentence, whether it is a piece of a sentence rather than a whole one.

    A piece has no word; or unbalanced brackets; or no terminator at its end; or starts
    the way no sentence starts (a plain lower-case word such as `aegypti`, or `,` `;` `)`);
    or is followed by such a start (it was cut short); or follows a sentence with no
    terminator (it continues it). Gene-like starts (`p53`, `mRNA`, `β-catenin`) are whole.
    """
    texts = [text.strip() for text in sentences]
    broken = [
        not any(ch.isalnum() for ch in text)
        or _unbalanced(text)
        or not _ENDS.search(text)
        or bool(_CONTINUES.match(text))
        for text in texts
    ]
    out = []
    for i in range(len(texts)):
        after = i + 1 < len(texts) and bool(_CONTINUES.match(texts[i + 1]))
        before = i > 0 and not _ENDS.search(texts[i - 1])
        out.append(broken[i] or after or before)
    return out


def _unbalanced(text: str) -> bool:
    depth = 0
    for char in text:
        if char in "([":
            depth += 1
        elif char in ")]":
            depth -= 1
            if depth < 0:
                return True
    return depth != 0


def rationales(
    abstracts: dict[str, list[str]], claims: Path = DATA / "claims_train.jsonl"
) -> list[TrainSentence]:
    """The gold rationale sentences of the train claims, each once, in a fixed order."""
    seen: dict[tuple[str, int], TrainSentence] = {}
    for claim in read_jsonl(claims):
        for doc_id, sets in (claim.get("evidence") or {}).items():
            sentences = abstracts.get(str(doc_id))
            if sentences is None:
                continue
            for evidence in [sets] if isinstance(sets, dict) else sets:
                for index in evidence.get("sentences", []):
                    key = (str(doc_id), int(index))
                    if key not in seen and sentences[index].strip():
                        abstract = " ".join(sentences)
                        text = sentences[index].strip()
                        seen[key] = TrainSentence(key[0], key[1], text, abstract)
    return [seen[key] for key in sorted(seen, key=lambda k: (int(k[0]), k[1]))]


def restatement_payload(
    items: Sequence[TrainSentence], *, texts: Sequence[str] = ()
) -> dict[str, Any]:
    """A payload restating each sentence as a claim grounded by a quote against its abstract.

    Claim `c{i}` cites the sentence's node (body: the abstract; grounding: the sentence quoted
    against the abstract); the last claim is the conclusion and rests on all the others; the
    prose is the claims' texts joined by spaces, each span citing its claim. `texts`, when
    given, replaces the claims' (and the prose's) wording, one per item.
    """
    wording = list(texts) or [item.text for item in items]
    claims, groundings, bodies, spans = [], {}, {}, []
    prose = ""
    for i, (item, text) in enumerate(zip(items, wording, strict=True)):
        last = i == len(items) - 1
        claims.append(
            {
                "id": f"c{i}",
                "text": text,
                "kind": "restatement",
                "cites": [item.ref],
                "premises": [f"c{j}" for j in range(i)] if last else [],
            }
        )
        groundings[item.ref] = {
            "type": "quote",
            "payload": {"body": item.text, "fulltext": item.abstract},
        }
        bodies[item.ref] = item.abstract
        if prose:
            prose += " "
        spans.append({"start": len(prose), "end": len(prose) + len(text), "claim": f"c{i}"})
        prose += text
    return {
        "dag": {"claims": claims, "conclusion": claims[-1]["id"], "prose_citations": spans},
        "prose": prose,
        "groundings": groundings,
        "node_bodies": bodies,
    }
