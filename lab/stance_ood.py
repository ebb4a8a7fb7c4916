"""Out-of-domain check of the answer stance on Climate-FEVER claim/evidence pairs.

`python -m lab.stance_ood PATH/climate-fever.jsonl` prints, for every evidence
sentence labelled SUPPORTS, REFUTES or NOT_ENOUGH_INFO, how often the stance the app would show
(`supports`, `contradicts`, `neither`) is right. Nothing is tuned on it.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

from engine.api import stance_toward

EXPECTED = {"SUPPORTS": "supports", "REFUTES": "contradicts"}


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(
            "usage: python -m lab.stance_ood PATH/climate-fever.jsonl",
            file=sys.stderr,
        )
        return 2
    pairs: Counter[tuple[str, str]] = Counter()
    for line in Path(argv[0]).read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        item = json.loads(line)
        for ev in item["evidences"]:
            stance = stance_toward(item["claim"], [ev["evidence"]])
            relation = stance.relation.value if stance else "neither"
            pairs[(ev["evidence_label"], relation)] += 1
    out: dict[str, object] = {"pairs": sum(pairs.values())}
    for relation, label in (("supports", "SUPPORTS"), ("contradicts", "REFUTES")):
        said = sum(n for (_, s), n in pairs.items() if s == relation)
        right = pairs[(label, relation)]
        truly = sum(n for (lab, _), n in pairs.items() if lab == label)
        out[f"{relation}_said"] = said
        out[f"{relation}_precision"] = round(right / said, 4) if said else None
        out[f"{relation}_recall"] = round(right / truly, 4) if truly else None
    out["by_label"] = {f"{lab}->{s}": n for (lab, s), n in sorted(pairs.items())}
    print(json.dumps(out, sort_keys=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
