"""Hypothesis strategies for routing payloads: random valid DAG payloads and arbitrary JSON."""

from __future__ import annotations

import copy
import string
from typing import Any

from hypothesis import strategies as st

ADDRESSES = tuple(f"zk:box:n{i}" for i in range(1, 7))
OUTSIDER = "mem:_memory:m1"
KINDS = ("restatement", "deduction", "inference", "assumption")
TIERS = ("measured", "grounded", "inferred", "assumption")
FLAGS = ("stale", "outdated", "contested", "unresolved")
REASONS = ("missing-hop", "stale", "false-premise", "low-coverage")

# Realistic claim sentences: numbers, abbreviations and compound clauses the tokeniser splits.
SENTENCES = (
    "Momentum returns were 12% a year in the sample.",
    "Value returns were flat.",
    "Dose 5 mg cut pain by 30% in adults; 10 mg had no effect.",
    "Aspirin reduced fever by 1.5 °C, but ibuprofen did not.",
    "Mice on the high-fat diet gained 12 % more weight than controls.",
    "The effect held across 1,204 patients (Fig. 2).",
    "Serum levels rose whereas urinary levels fell after 3.5 weeks.",
    "Adverse events were rare and did not differ between arms.",
    "Smith et al. found no link between sleep and recall.",
    "Returns fell 4% after the announcement.",
)
WORDS = (
    "returns",
    "rose",
    "fell",
    "dose",
    "the",
    "effect",
    "was",
    "not",
    "mice",
    "p53",
    "5",
    "0.4%",
)
EXTRAS = (" Buy now.", " It rose 40%.", " Clearly", " 7", " In short, yes.", " ")
LATEX = (r"\frac{a}{b}", r"\begin{align} x &= 1 \end{align}", r"\frac{a}{b", "", "Ã©", r"[0, 1)")
GROUNDING_TYPES = ("quote", "equation", "sql-exec", "figure", "expr-recompute")

# Payload keys, so arbitrary dicts often look like (broken) payloads.
PAYLOAD_KEYS = (
    "dag", "prose", "groundings", "node_status", "node_bodies", "asserted", "edges",
    "coverage_report", "claims", "conclusion", "prose_citations", "id", "text", "kind",
    "cites", "premises", "start", "end", "claim", "type", "payload", "tier", *FLAGS,
    "blocking_count", "src", "dst", "relation", "body", "fulltext", "annotations",
)  # fmt: skip
SCALAR_STRINGS = (*KINDS, *TIERS, *ADDRESSES, "c0", "c1", "contradicts", "quote", "", "\ud800")


def _generated_sentence() -> st.SearchStrategy[str]:
    words = st.lists(st.sampled_from(WORDS), min_size=1, max_size=8)
    return words.map(lambda ws: " ".join(ws).capitalize() + ".")


claim_texts = st.one_of(
    st.sampled_from(SENTENCES), _generated_sentence(), st.just(""), st.sampled_from(SENTENCES)
)


def verdicts() -> st.SearchStrategy[object]:
    """A node status on the wire: a bare tier or a tier with flags."""
    flagged = st.fixed_dictionaries(
        {"tier": st.sampled_from(TIERS)}, optional={flag: st.booleans() for flag in FLAGS}
    )
    return st.one_of(st.sampled_from(TIERS), flagged)


def closure(claims: list[dict[str, Any]], conclusion: str) -> set[str]:
    """The conclusion and every claim it transitively rests on."""
    by_id = {c["id"]: c for c in claims}
    seen: set[str] = set()
    stack = [conclusion]
    while stack:
        current = stack.pop()
        if current not in seen:
            seen.add(current)
            stack.extend(by_id[current]["premises"])
    return seen


def closure_cites(claims: list[dict[str, Any]], conclusion: str) -> set[str]:
    members = closure(claims, conclusion)
    return {ref for c in claims if c["id"] in members for ref in c["cites"]}


@st.composite
def _claims(draw: st.DrawFn, max_claims: int, sane: bool) -> list[dict[str, Any]]:
    """Claims whose premises point only to earlier claims; `sane` ones all rest on something."""
    count = draw(st.integers(1, max_claims))
    claims: list[dict[str, Any]] = []
    for i in range(count):
        earlier = [c["id"] for c in claims]
        last = i == count - 1
        if sane:
            kinds = ("restatement", "deduction", "inference") if last else KINDS[:2]
            kind = draw(st.sampled_from(kinds if i else KINDS[:1]))
            text = draw(st.one_of(st.sampled_from(SENTENCES), _generated_sentence()))
        else:
            kind, text = draw(st.sampled_from(KINDS)), draw(claim_texts)
        needs_cite = sane and kind == "restatement"
        needs_premise = sane and kind != "restatement"
        cites = st.lists(st.sampled_from(ADDRESSES), min_size=needs_cite, max_size=3, unique=True)
        premises = st.lists(
            st.sampled_from(earlier or ["-"]), min_size=needs_premise, max_size=3, unique=True
        )
        claims.append(
            {
                "id": f"c{i}",
                "text": text,
                "kind": kind,
                "cites": draw(cites),
                "premises": draw(premises) if earlier else [],
            }
        )
    return claims


@st.composite
def _prose(
    draw: st.DrawFn, claims: list[dict[str, Any]], conclusion: str, sane: bool
) -> tuple[str, list[dict[str, Any]]]:
    """Prose built from claim texts, with citation spans (or none, for fallback mode)."""
    by_id = {c["id"]: c for c in claims}
    modes = ("empty", "cited", "fallback") if sane else ("empty", "cited", "fallback", "random")
    mode = draw(st.sampled_from(modes))
    if mode == "empty":
        return draw(st.sampled_from(("", "  "))), []
    if mode == "random":
        return draw(_generated_sentence()), []
    members = sorted(closure(claims, conclusion))
    # Mostly closure claims, sometimes any claim (which may not license prose).
    pool = st.sampled_from(members)
    if not sane:
        pool = st.one_of(pool, st.sampled_from(sorted(by_id)))
    extras = st.sampled_from(("",) if sane else ("", *EXTRAS))
    if mode == "fallback":
        return by_id[draw(pool)]["text"] + draw(extras), []
    prose, spans = "", []
    for claim_id in draw(st.lists(pool, min_size=1, max_size=4)):
        text = by_id[claim_id]["text"]
        if not text:
            continue
        if prose:
            prose += " "
        # Occasionally cite a different claim than the one whose text is restated.
        cited = claim_id if sane else draw(st.one_of(st.just(claim_id), pool))
        spans.append({"start": len(prose), "end": len(prose) + len(text), "claim": cited})
        prose += text
        if draw(st.integers(0, 4)) == 0:
            prose += draw(extras)
    return prose, spans


@st.composite
def _grounding(
    draw: st.DrawFn, ref: str, claims: list[dict[str, Any]], sane: bool
) -> dict[str, Any]:
    kind = draw(st.sampled_from(("quote", "equation") if sane else GROUNDING_TYPES))
    if kind == "equation":
        return {
            "type": kind,
            "payload": {"body": draw(st.sampled_from(LATEX[:2] if sane else LATEX))},
        }
    if kind != "quote":
        return {"type": kind, "payload": {"path": "missing.png", "file": "data/x.csv"}}
    texts = [c["text"] for c in claims if ref in c["cites"] and c["text"]]
    body = (
        draw(st.sampled_from(texts)) if bool(texts) and draw(st.booleans()) else draw(claim_texts)
    )
    contained = f"Intro text. {body} More text."
    others = (body.replace("12", "13"), " ".join(SENTENCES[:3]), None)
    fulltext = contained if sane else draw(st.sampled_from((contained, *others)))
    payload = {"body": body}
    if fulltext is not None:
        payload["fulltext"] = fulltext
    return {"type": kind, "payload": payload}


def _body(draw: st.DrawFn, ref: str, claims: list[dict[str, Any]], sane: bool) -> str:
    texts = [c["text"] for c in claims if ref in c["cites"]]
    if sane:
        return " ".join(texts)
    options: list[str] = ["", draw(st.sampled_from(SENTENCES))]
    if texts:
        options += [" ".join(texts), f"{draw(st.sampled_from(texts))} {SENTENCES[1]}"]
    return draw(st.sampled_from(options))


def _node_status(draw: st.DrawFn, sane: bool) -> dict[str, Any]:
    if not sane:
        refs = st.lists(st.sampled_from(ADDRESSES), max_size=len(ADDRESSES), unique=True)
        return {ref: draw(verdicts()) for ref in draw(refs)}
    verified = st.sampled_from(TIERS[:2])
    status: dict[str, Any] = {ref: draw(verified) for ref in ADDRESSES}
    # A few flags on an otherwise verified substrate reach the stale / contested / hedge paths.
    for ref in draw(st.lists(st.sampled_from(ADDRESSES), max_size=2)):
        status[ref] = {"tier": draw(verified), draw(st.sampled_from(FLAGS)): True}
    return status


@st.composite
def payloads(draw: st.DrawFn, max_claims: int = 30) -> dict[str, Any]:
    """A random valid wire payload: an acyclic claim DAG with prose, statuses and groundings.

    About half are "sane" (every claim rests on something, sources license the texts, the
    substrate is verified bar a few flags) so answers and hedges occur; the rest are noise.
    """
    sane = draw(st.booleans())
    claims = draw(_claims(max_claims, sane))
    ids = [c["id"] for c in claims]
    # Mostly the last claim, so the closure is deep; sometimes any claim.
    conclusion = ids[-1] if sane else draw(st.one_of(st.just(ids[-1]), st.sampled_from(ids)))
    prose, spans = draw(_prose(claims, conclusion, sane))
    refs = st.lists(st.sampled_from(ADDRESSES), max_size=len(ADDRESSES), unique=True)
    dag = {"claims": draw(st.permutations(claims)), "conclusion": conclusion}
    if spans:
        dag["prose_citations"] = spans
    data: dict[str, Any] = {"dag": dag, "prose": prose, "node_status": _node_status(draw, sane)}
    if sane or draw(st.booleans()):
        chosen = ADDRESSES if sane else draw(refs)
        data["node_bodies"] = {ref: _body(draw, ref, claims, sane) for ref in chosen}
    if draw(st.booleans()):
        data["groundings"] = {ref: draw(_grounding(ref, claims, sane)) for ref in draw(refs)}
    if draw(st.booleans()):
        chosen = draw(st.lists(st.sampled_from(ids), max_size=4, unique=True))
        tiers = st.sampled_from(TIERS[2:] if sane else TIERS)
        data["asserted"] = {cid: draw(tiers) for cid in chosen}
    if not sane and draw(st.integers(0, 3)) == 0:
        ends = st.sampled_from((*ADDRESSES, OUTSIDER))
        relation = st.sampled_from(("contradicts", "supports"))
        edge = st.fixed_dictionaries({"src": ends, "dst": ends, "relation": relation})
        data["edges"] = draw(st.lists(edge, max_size=3))
    if draw(st.booleans()):
        blocking = st.integers(0, 0 if sane else 2)
        data["coverage_report"] = draw(
            st.one_of(st.none(), st.fixed_dictionaries({"blocking_count": blocking}))
        )
    return data


_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**64), 2**64),
    st.floats(),
    st.sampled_from(SCALAR_STRINGS),
    st.text(string.printable + "é\u200b\u202e", max_size=12),
)
_keys = st.one_of(st.sampled_from(PAYLOAD_KEYS), st.text(max_size=6))

json_values = st.recursive(
    _scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=4), st.dictionaries(_keys, children, max_size=6)
    ),
    max_leaves=30,
)


def _paths(value: object, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path (sequence of keys and indices) into a nested JSON value."""
    out = [prefix]
    if isinstance(value, dict):
        for key, child in value.items():
            out += _paths(child, (*prefix, key))
    elif isinstance(value, list):
        for i, child in enumerate(value):
            out += _paths(child, (*prefix, i))
    return out


@st.composite
def mutated_payloads(draw: st.DrawFn) -> object:
    """A valid payload with one nested value replaced by arbitrary JSON."""
    data = copy.deepcopy(draw(payloads(max_claims=6)))
    path = draw(st.sampled_from(_paths(data)))
    replacement = draw(json_values)
    if not path:
        return replacement
    parent = data
    for step in path[:-1]:
        parent = parent[step]
    parent[path[-1]] = replacement
    return data


malformed_payloads = st.one_of(json_values, mutated_payloads())
