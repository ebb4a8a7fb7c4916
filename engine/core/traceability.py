"""Whether every prose sentence is licensed by one verified claim, with orphans located.

A sentence is licensed when its word sequence equals a claim's whole word sequence, one of
its sentences or one of its independent clauses (see `engine.core.licensing`): verbatim up
to case, punctuation and spacing, every meaning-bearing token kept (`engine.text.tokens`).
Licensing never pools words across claims, so a paraphrase or a synthesis of two claims is
an orphan by design.
"""

from __future__ import annotations

import bisect
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import KW_ONLY, dataclass
from enum import StrEnum
from functools import lru_cache
from operator import attrgetter
from typing import Any

from engine.core.licensing import restatement_forms
from engine.core.model import ProseCitation
from engine.core.prose_reading import ProseSentence, read_prose
from engine.core.values import quick_init
from engine.text.numbers import read
from engine.text.sentences import Span
from engine.text.tokens import TokenSpan, word_sequence

Words = tuple[str, ...]


class TraceMode(StrEnum):
    """How the prose was bound to claims."""

    CITATION = "citation"
    FALLBACK = "fallback"
    EMPTY = "empty"


class OrphanKind(StrEnum):
    """What an orphan span marks."""

    SENTENCE = "sentence"
    UNCITED = "uncited"
    NUMBER = "number"


_KIND_ORDER = {OrphanKind.SENTENCE: 0, OrphanKind.UNCITED: 1, OrphanKind.NUMBER: 2}


@dataclass(frozen=True)
class OrphanSpan:
    """An unlicensed stretch `[start, end)` of the prose as given, and why."""

    start: int
    end: int
    kind: OrphanKind
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "start": self.start,
            "end": self.end,
            "kind": self.kind.value,
            "reason": self.reason,
        }


@quick_init
@dataclass(frozen=True)
class SentenceTrace:
    """One prose sentence and the claim that licenses it, or `None` with the reason."""

    start: int
    end: int
    text: str
    _: KW_ONLY
    claim: str | None
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "start": self.start,
            "end": self.end,
            "text": self.text,
            "claim": self.claim,
            "reason": self.reason,
        }


@dataclass(frozen=True)
class Traceability:
    """The verdict on the prose: `ok` when nothing is orphaned.

    `orphans` holds, in prose order, each orphan sentence's text, `uncited:<word>` and
    `number:<token>`; `spans` locates the same findings one to one.
    """

    ok: bool
    mode: TraceMode
    _: KW_ONLY
    orphans: tuple[str, ...] = ()
    spans: tuple[OrphanSpan, ...] = ()
    sentences: tuple[SentenceTrace, ...] = ()
    detail: str = ""

    @classmethod
    def empty(cls) -> Traceability:
        return cls(True, TraceMode.EMPTY, detail="no prose to trace")

    @classmethod
    def judged(
        cls,
        mode: TraceMode,
        traces: Sequence[SentenceTrace],
        findings: Iterable[tuple[OrphanSpan, str]],
    ) -> Traceability:
        """The result for sentence traces and (span, orphan label) findings in any order."""
        ordered = sorted(findings, key=lambda f: (f[0].start, _KIND_ORDER[f[0].kind], f[0].end))
        return cls(
            not ordered,
            mode,
            orphans=tuple(label for _, label in ordered),
            spans=tuple(span for span, _ in ordered),
            sentences=tuple(traces),
            detail=_detail(traces, [span for span, _ in ordered]),
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "mode": self.mode.value,
            "orphans": list(self.orphans),
            "spans": [span.to_dict() for span in self.spans],
            "sentences": [trace.to_dict() for trace in self.sentences],
            "detail": self.detail,
        }


def check_traceability(
    prose: str,
    licensing: Mapping[str, str],
    *,
    citations: Sequence[ProseCitation] = (),
    known: Mapping[str, str] | None = None,
) -> Traceability:
    """Trace every sentence of `prose` to one claim of `licensing` (claim id → text).

    Pass only the claims allowed to license prose (the verified claims of the conclusion's
    premise closure); `known`, all claim ids → text, lets reasons tell an unverified claim
    from an unknown one. With `citations` each sentence is checked against the claims its
    spans cite and every token outside all spans is uncited; without them the whole prose
    must restate one claim. Whitespace-only prose passes; prose with no word or number fails.
    """
    if not prose.strip():
        return Traceability.empty()
    parts = read_prose(prose)
    if citations:
        return _citation_mode(parts, licensing, citations, known=known)
    return _fallback_mode(parts, licensing)


@dataclass(frozen=True)
class _License:
    """A claim's word sequence followed by its atoms' sequences, each once, none empty."""

    forms: tuple[Words, ...]
    lookup: frozenset[Words]


@lru_cache(maxsize=4096)
def _license(text: str) -> _License:
    forms = restatement_forms(text)
    return _License(forms, frozenset(forms))


def _trace(part: ProseSentence, claim: str | None, reason: str) -> SentenceTrace:
    return SentenceTrace(part.span.start, part.span.end, part.text, claim=claim, reason=reason)


def _citation_mode(
    parts: Sequence[ProseSentence],
    licensing: Mapping[str, str],
    citations: Sequence[ProseCitation],
    *,
    known: Mapping[str, str] | None,
) -> Traceability:
    cited = _cited_claims([part.span for part in parts], citations)
    covered = _covered(citations)
    empty_prose = not any(part.has_words for part in parts)
    findings: list[tuple[OrphanSpan, str]] = []
    flagged: set[int] = set()
    for token in _uncited(parts, covered):
        flagged.add(token.start)
        span = OrphanSpan(token.start, token.end, OrphanKind.UNCITED, "outside every citation")
        findings.append((span, f"uncited:{token.norm}"))
    traces = []
    for part, claim_ids in zip(parts, cited, strict=True):
        if part.has_words:
            claim, reason = _judge_cited(part, claim_ids, licensing, known=known)
        else:
            claim, reason = None, "no words or numbers"
        traces.append(_trace(part, claim, reason))
        if claim is None and (part.has_words or empty_prose):
            findings.extend(_sentence_findings(part, reason, skip=flagged))
    return Traceability.judged(TraceMode.CITATION, traces, findings)


def _cited_claims(spans: Sequence[Span], citations: Sequence[ProseCitation]) -> list[list[str]]:
    """For each sentence, the claims cited by spans overlapping it, first cited first."""
    ends = [span.end for span in spans]
    out: list[list[str]] = [[] for _ in spans]
    for cite in sorted(citations, key=lambda c: (c.start, c.end)):
        first = bisect.bisect_right(ends, cite.start)
        for i in range(first, len(spans)):
            if spans[i].start >= cite.end:
                break
            if cite.claim not in out[i]:
                out[i].append(cite.claim)
    return out


def _covered(citations: Sequence[ProseCitation]) -> list[tuple[int, int]]:
    """The union of the citation spans as sorted disjoint ranges."""
    merged: list[tuple[int, int]] = []
    for cite in sorted(citations, key=lambda c: c.start):
        lo, hi = cite.start, cite.end
        if hi <= lo:
            continue
        if merged and lo <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], hi))
        else:
            merged.append((lo, hi))
    return merged


_START, _END = attrgetter("start"), attrgetter("end")


def _uncited(parts: Sequence[ProseSentence], covered: Sequence[tuple[int, int]]) -> list[TokenSpan]:
    """Tokens that overlap no citation span."""
    out = []
    i = 0
    for part in parts:
        if not part.has_words:
            continue
        # A sentence read alone has its tokens inside its span; whole-prose tokens are
        # grouped by where they start, so their own bounds are taken.
        if part.given is None:
            lo, hi = part.span.start, part.span.end
        else:
            lo = min(part.local, key=_START).start + part.offset
            hi = max(part.local, key=_END).end + part.offset
        while i < len(covered) and covered[i][1] <= lo:
            i += 1
        if i < len(covered) and covered[i][0] <= lo and hi <= covered[i][1]:
            continue  # the whole sentence lies inside one citation span: nothing uncited
        for token in part.words:
            while i < len(covered) and covered[i][1] <= token.start:
                i += 1
            if i == len(covered) or covered[i][0] >= token.end:
                out.append(token)
    return out


def _judge_cited(
    part: ProseSentence,
    claim_ids: Sequence[str],
    licensing: Mapping[str, str],
    *,
    known: Mapping[str, str] | None,
) -> tuple[str | None, str]:
    if not claim_ids:
        return None, "cites no claim"
    problems = []
    for claim_id in claim_ids:
        text = licensing.get(claim_id)
        if text is None:
            problems.append(_not_licensing(claim_id, known))
        elif _restates(part, text):
            return claim_id, f"restates {claim_id}"
        else:
            problems.append(_difference(part.seq, claim_id, _license(text).forms))
    return None, "; ".join(problems)


def _restates(part: ProseSentence, claim: str) -> bool:
    """Whether a sentence restates all of `claim`, a sentence of it or one of its clauses."""
    # The whole claim is its first form: a sentence read alone that copies it, the common
    # case, is read no further (a text read alone has the claim's own word sequence), nor
    # are the claim's parts split.
    if part.read is None and part.text == claim:
        return True
    return part.seq == word_sequence(claim) or part.seq in _license(claim).lookup


def _not_licensing(claim_id: str, known: Mapping[str, str] | None) -> str:
    if known is None:
        return f"cites {claim_id}, which may not license prose"
    if claim_id in known:
        return f"cites {claim_id}, which is not a verified claim in the conclusion's closure"
    return f"cites {claim_id}, which is not a known claim"


def _difference(seq: Words, claim_id: str, forms: Sequence[Words]) -> str:
    """Name the first way `seq` departs from the closest form of the claim."""
    if not forms:
        return f"{claim_id} has no words to restate"
    bag = Counter(seq)
    if any(Counter(form) == bag for form in forms):
        return f"reorders the words of {claim_id}"
    best, shared = forms[0], -1
    for form in forms:
        k = common_prefix(seq, form)
        if (k, -abs(len(form) - len(seq))) > (shared, -abs(len(best) - len(seq))):
            best, shared = form, k
    if shared == len(best):
        return f'adds "{seq[shared]}" to {claim_id} (paraphrase / extra words)'
    if shared == len(seq):
        return f'drops "{best[shared]}" from {claim_id}'
    return f'has "{seq[shared]}" where {claim_id} has "{best[shared]}"'


def common_prefix(a: Sequence[str], b: Sequence[str]) -> int:
    """How many words `a` and `b` open on alike."""
    k = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        k += 1
    return k


def _sentence_findings(
    part: ProseSentence, reason: str, *, skip: set[int]
) -> list[tuple[OrphanSpan, str]]:
    """The orphan sentence and each of its numbers (as a reader sees them) not already
    flagged as uncited."""
    span = OrphanSpan(part.span.start, part.span.end, OrphanKind.SENTENCE, reason)
    out = [(span, part.text)]
    offset = part.span.start
    starts = {token.start: token for token in part.words if token.is_number}
    for found in read(part.text, _shifted(part.words, offset)):
        start, end = found.start + offset, found.end + offset
        inside = [t for at, t in starts.items() if start <= at < end]
        if all(t.start in skip for t in inside):
            continue
        number = OrphanSpan(start, end, OrphanKind.NUMBER, "in an orphan sentence")
        out.append((number, f"number:{found.label}"))
    return out


def _shifted(words: Sequence[TokenSpan], offset: int) -> list[TokenSpan]:
    """Tokens with their spans relative to the sentence's own text."""
    return [t._replace(start=t.start - offset, end=t.end - offset) for t in words]


def _fallback_mode(parts: Sequence[ProseSentence], licensing: Mapping[str, str]) -> Traceability:
    by_words: dict[Words, str] = {}
    for claim_id, text in licensing.items():
        for form in _license(text).forms:
            by_words.setdefault(form, claim_id)
    whole = tuple(norm for part in parts for norm in part.seq)
    claim = by_words.get(whole) if whole else None
    findings: list[tuple[OrphanSpan, str]] = []
    traces = []
    for part in parts:
        if not part.seq:
            reason = "no words or numbers"
        elif claim is not None:
            reason = f"the whole prose restates {claim}"
        else:
            reason = "without citations the whole prose must restate one verified claim"
            alone = by_words.get(part.seq)
            if alone is not None:
                reason = f"restates {alone} alone, but {reason}"
        licensed = claim if part.seq else None
        traces.append(_trace(part, licensed, reason))
        if licensed is None and (part.seq or not whole):
            findings.extend(_sentence_findings(part, reason, skip=set()))
    return Traceability.judged(TraceMode.FALLBACK, traces, findings)


def _detail(traces: Sequence[SentenceTrace], spans: Sequence[OrphanSpan]) -> str:
    total = len(traces)
    if not spans:
        return f"all {total} sentence(s) licensed"
    counts = Counter(span.kind for span in spans)
    parts = [f"{counts[OrphanKind.SENTENCE]} of {total} sentence(s) orphaned"]
    if counts[OrphanKind.UNCITED]:
        parts.append(f"{counts[OrphanKind.UNCITED]} uncited token(s)")
    if counts[OrphanKind.NUMBER]:
        parts.append(f"{counts[OrphanKind.NUMBER]} number(s) in orphan sentences")
    return ", ".join(parts)
