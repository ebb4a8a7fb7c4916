"""Write the PDFs of examples/vault-lab from SciFact abstracts (ODC-By 1.0), deterministically.

Each PDF has a title page and the abstract's sentences over two pages; one of them
numbers its title page `i` and the abstract from 1, as books and journals do, so the
example exercises printed page labels. Run `python -m tools.build_vault_example`, then
`python -m engine sources add examples/vault-lab/papers --workspace examples/vault-lab`.
"""

from __future__ import annotations

import gzip
import json
import textwrap
from pathlib import Path

from tests.builders.pdfgen import write_pdf

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "data" / "scifact" / "corpus.jsonl.gz"
OUT = ROOT / "examples" / "vault-lab" / "papers"
# doc_id -> page labels (None: positions 1, 2, 3)
PAPERS = {7157436: None, 43534665: [(0, "r", 1), (1, "D", 1)], 20697217: None}


def _lines(sentences: list[str]) -> list[str]:
    out: list[str] = []
    for sentence in sentences:
        out.extend(textwrap.wrap(" ".join(sentence.split()), width=88))
    return out


def main() -> None:
    docs = {}
    with gzip.open(CORPUS, "rt", encoding="utf-8") as lines:
        for line in lines:
            doc = json.loads(line)
            if int(doc["doc_id"]) in PAPERS:
                docs[int(doc["doc_id"])] = doc
    for doc_id, labels in PAPERS.items():
        doc = docs[doc_id]
        sentences = doc["sentences"]
        half = (len(sentences) + 1) // 2
        title_page = [
            *textwrap.wrap(doc["title"], width=80),
            "",
            f"SciFact corpus document {doc_id}: the abstract only.",
            "Text from the SciFact release (Wadden et al., 2020), ODC-By 1.0.",
        ]
        pages = [title_page, _lines(sentences[:half]), _lines(sentences[half:])]
        write_pdf(OUT / f"scifact-{doc_id}.pdf", pages, labels=labels or (), title=doc["title"])
        print(OUT / f"scifact-{doc_id}.pdf")


if __name__ == "__main__":
    main()
