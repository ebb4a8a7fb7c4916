"""Why an answer was kept back, in words: the one place a `Cause` becomes words for people.

The router's decision names its causes as values (`Decision.causes`); each one here gets a
short name for the headline, a sentence saying what it means, and the concrete lines naming
what triggered it in this run (notes by title, question words as the user typed them).
"""

from __future__ import annotations

from collections.abc import Iterable

from engine import Cause, GiveUpReason, NavResult, Reason, VerifierStatus
from present import answer
from present.checks import floor_fit, floor_line

# The headline's words for each cause, in the order the router reports them.
CAUSE_WORDS = {
    Cause.MISSING_HOP: "missing hop",
    Cause.STALE: "stale source",
    Cause.FALSE_PREMISE: "refuted source",
    Cause.HONESTY_VIOLATION: "honesty violation",
    Cause.CONTESTED_SOURCE: "contested source",
    Cause.UNRESOLVED_GROUND: "unresolved source",
    Cause.UNCOVERED_TERM: "uncovered term",
    Cause.UNLICENSED_SENTENCE: "unlicensed sentence",
    Cause.NOT_FOUND_VERBATIM: "not found word for word",
    Cause.UNVERIFIED_CONCLUSION: "unverified inference",
    Cause.CLOSED_BOOK: "nothing verified anchors it",
}

CAUSE_EXPLANATIONS = {
    Cause.MISSING_HOP: (
        "A premise the conclusion rests on has no verdict: the note is not written yet, or it "
        "was cited but never checked. A chain with a missing hop never licenses an answer."
    ),
    Cause.STALE: (
        "The conclusion rests on a note whose tethered file changed so much that the anchored "
        "text is gone; the grounding no longer holds."
    ),
    Cause.FALSE_PREMISE: (
        "A verifier refuted a ground the conclusion rests on: a quote is not in its source, a "
        "figure did not recompute, an equation is malformed or a clause is excluded."
    ),
    Cause.HONESTY_VIOLATION: (
        "The reasoner asserted a status above the one its evidence derives; an answer that "
        "overstates its evidence is never shown."
    ),
    Cause.CONTESTED_SOURCE: (
        "A source the conclusion rests on is an endpoint of a contradiction, so it cannot "
        "ground an answer until the contradiction is resolved."
    ),
    Cause.UNRESOLVED_GROUND: "A ground the conclusion rests on could not be found on disk.",
    Cause.UNCOVERED_TERM: (
        "The question asks about something that nothing the answer cites mentions, so the "
        "answer, however well grounded, is not about what was asked."
    ),
    Cause.UNLICENSED_SENTENCE: (
        "The prose says something no single verified claim licenses word for word."
    ),
    Cause.NOT_FOUND_VERBATIM: (
        "A restatement is not found word for word in the text its check confirmed, so it is "
        "at most an inference."
    ),
    Cause.UNVERIFIED_CONCLUSION: (
        "The conclusion goes beyond what its sources say, and no verified premise backs it."
    ),
    Cause.CLOSED_BOOK: "Nothing verified that was retrieved anchors the answer.",
}

# Under which of the wire's four reasons each cause falls.
REASON_OF = {
    Cause.MISSING_HOP: Reason.MISSING_HOP,
    Cause.STALE: Reason.STALE,
    Cause.FALSE_PREMISE: Reason.FALSE_PREMISE,
}

_GIVE_UP_WORDS = {
    GiveUpReason.WEAK: "no note answers it closely enough",
    GiveUpReason.AIM: "only a study's aim matches",
    GiveUpReason.OWN_WORDS: "only unchecked note text matches",
}


_SAYS_GIVE_UP = frozenset({Cause.UNCOVERED_TERM, Cause.UNVERIFIED_CONCLUSION})


def causes(result: NavResult) -> tuple[Cause, ...]:
    """The causes of an abstention, as the engine reads them (`NavResult.causes`)."""
    return result.causes


def headline(result: NavResult) -> str:
    """The few words after "ABSTAIN —": each cause by name, a give-up by what happened."""
    words = []
    for cause in causes(result):
        given_up = result.given_up
        if cause is Cause.UNVERIFIED_CONCLUSION and given_up is not None:
            words.append(_GIVE_UP_WORDS[given_up.reason])
        elif cause is Cause.NOT_FOUND_VERBATIM and _quoted_not_whole(result):
            words.append("quote not a whole sentence")
        else:
            words.append(CAUSE_WORDS[cause])
    if not words and result.decision is not None:
        words = [str(r.value).replace("-", " ") for r in result.decision.reasons]
    return ", ".join(words) or "no answer"


def lines(
    result: NavResult, cause: Cause, *, confirmed: Iterable[tuple[str, str]] = ()
) -> list[str]:
    """One concrete sentence per thing in this run that triggered `cause`."""
    decision = result.decision
    if decision is None:
        return []
    texts = {c.id: c.text for c in decision.dag.claims}
    out: list[str] = []
    if cause is Cause.MISSING_HOP:
        out.extend(_missing_lines(result))
    elif cause is Cause.STALE:
        for ref, node in sorted(decision.node_verdicts.items()):
            if node.stale:
                name = answer.name_of(result, ref)
                out.append(f"{name} is tethered to a file whose anchored text is gone.")
    elif cause is Cause.FALSE_PREMISE:
        for ref, check in sorted(decision.verifier_results.items()):
            if check.status is VerifierStatus.FAILED:
                name = answer.name_of(result, ref)
                line = f"The check of {name} failed: {check.detail or 'refuted'}"
                if check.near_miss:
                    line += f"; the nearest text in the source is “{check.near_miss}”"
                out.append(line + ".")
    elif cause is Cause.HONESTY_VIOLATION:
        for v in decision.honesty_violations:
            out.append(
                f"The reasoner asserted “{texts.get(v.claim, v.claim)}” as {v.asserted}, "
                f"but only {v.derived} could be derived."
            )
    elif cause is Cause.CONTESTED_SOURCE:
        out.extend(answer.contested_lines(result, confirmed=set(confirmed)))
    elif cause is Cause.UNRESOLVED_GROUND:
        out.append("The answer rests on a ground that could not be resolved (its file is missing).")
    elif cause is Cause.UNCOVERED_TERM:
        gaps = result.gaps
        if gaps:
            named = ", ".join(f"‘{g}’" for g in gaps)
            out.append(f"The answer never mentions {named}, which the question asks about.")
        if result.given_up is not None:
            why = result.given_up.explanation(gaps_named=bool(gaps))
            out.append(f"The reasoner gave up: {why}.")
    elif cause is Cause.UNLICENSED_SENTENCE:
        why = decision.traceability.detail or "not licensed"
        out.append(f"The prose says something no single verified claim licenses: {why}.")
    elif cause is Cause.NOT_FOUND_VERBATIM:
        for cid in decision.floored:
            out.append(floor_line(decision, cid, texts.get(cid, "")))
    elif cause is Cause.UNVERIFIED_CONCLUSION:
        if result.given_up is not None:
            out.append(f"The reasoner gave up: {result.given_up.explanation(gaps_named=False)}.")
        else:
            out.append(CAUSE_EXPLANATIONS[cause])
    elif cause is Cause.CLOSED_BOOK:
        out.append("Nothing verified that was retrieved anchors the answer (closed book).")
    return out


def _quoted_not_whole(result: NavResult) -> bool:
    """Whether every floored claim's quote is found but sits inside or across sentences."""
    decision = result.decision
    floored = decision.floored if decision is not None else ()
    return (
        decision is not None
        and bool(floored)
        and all(floor_fit(decision, cid) is not None for cid in floored)
    )


def _missing_lines(result: NavResult) -> list[str]:
    """Each missing hop by name: a note not written yet, or a node cited but never checked."""
    decision = result.decision
    if decision is None:
        return []
    out = []
    for ref in decision.missing_refs:
        name = answer.name_of(result, ref)
        if answer.unwritten(result, ref):
            rests = answer.resting_on(result, ref)
            who = f"The claim {rests}" if rests else "The answer"
            out.append(
                f"{who} rests on {name}, a note not written yet: a missing hop, so nothing "
                "says whether it holds."
            )
        else:
            out.append(
                f"The answer cites {name}, but it was never checked: nothing says whether it holds."
            )
    return out


def summary(result: NavResult, *, confirmed: Iterable[tuple[str, str]] = ()) -> str:
    """The banner's plain-words sentences after the label, for every verdict."""
    if result.label != "ABSTAIN" or answer.failure(result) is not None:
        return answer.summary(result, confirmed=confirmed)
    said: list[str] = []
    found = causes(result)
    for cause in found:
        said.extend(lines(result, cause, confirmed=confirmed))
    # The give-up is said under an uncovered term or an unverified inference; else here.
    if result.given_up is not None and not set(found) & _SAYS_GIVE_UP:
        said.append(f"The reasoner gave up: {result.given_up.explanation(gaps_named=False)}.")
    return " ".join(dict.fromkeys(said)) or answer.summary(result, confirmed=confirmed)
