"""What each verifier found, in words, from the result's status, method and fit.

A quote can be found word for word and still license nothing (it sits inside a longer
sentence of its source), or be found with a typo and license in the source's spelling; the
words here follow those values, never a template that assumes "not found".
"""

from __future__ import annotations

from engine import Decision, Fit, MatchMethod, VerifierResult, VerifierStatus, shorten

_WHOLE = "only a whole sentence or clause of the source licenses an answer"


def check_words(check: VerifierResult | None) -> str:
    """One sentence on what a verifier found for a cited node; "" when it was not checked."""
    if check is None:
        return ""
    if check.status is VerifierStatus.FAILED:
        if check.method == MatchMethod.NONE:
            return "Not found in the source" + _score(check) + "."
        return f"Refuted: {check.detail or 'the check failed'}."
    if check.status is VerifierStatus.UNVERIFIABLE:
        return f"Could not be checked here: {check.detail or 'no verdict'}."
    how = _how(check)
    if check.fit is Fit.INSIDE:
        inside = f": “{shorten(check.sentence, 200)}”" if check.sentence else "."
        return f"{how}, but inside a longer sentence, so it licenses nothing ({_WHOLE}){inside}"
    if check.fit is Fit.ACROSS:
        return f"{how}, but not as whole sentences (it runs across them): {_WHOLE}."
    if check.fit is Fit.PART:
        return f"{how}; only the part of it that is whole sentences of the source licenses."
    if check.fit is Fit.WHOLE:
        return f"{how}, as whole sentences of the source."
    return f"Confirmed ({check.method or 'checked'})" + _score(check) + "."


def confirmed_words(check: VerifierResult | None, verified: bool) -> str:
    """The "confirmed text" cell: the text that licenses, or why none does."""
    if check is None:
        return "its text, checked elsewhere (given status)" if verified else ""
    if check.ok and check.confirmed_source_text:
        return shorten(check.confirmed_source_text, 240)
    if not check.ok:
        return ""
    if check.fit in (Fit.INSIDE, Fit.ACROSS):
        return "none: the quote is found, but " + (
            "inside a longer sentence" if check.fit is Fit.INSIDE else "not as whole sentences"
        )
    return "none: this check confirms no sentence of text"


def floor_fit(decision: Decision, claim_id: str) -> Fit | None:
    """Why a floored restatement's quote licensed nothing, when that is why: INSIDE or ACROSS.

    None when a cited check confirmed text (the claim then differs from it) or none was a quote.
    """
    checks = [decision.verifier_results.get(ref) for ref in _cites(decision, claim_id)]
    found = [c for c in checks if c is not None and c.ok]
    if any(c.confirmed_source_text for c in found):
        return None
    return next((c.fit for c in found if c.fit in (Fit.INSIDE, Fit.ACROSS)), None)


def floor_note(decision: Decision, claim_id: str) -> str:
    """The short note under a floored claim: why its sources do not license it."""
    fit = floor_fit(decision, claim_id)
    if fit is Fit.INSIDE:
        return "floored: its quote sits inside a longer sentence of the source"
    if fit is Fit.ACROSS:
        return "floored: its quote is not whole sentences of the source"
    return "floored: not licensed by its sources"


def floor_line(decision: Decision, claim_id: str, text: str) -> str:
    """Why a floored restatement is not licensed, from what its cited checks found."""
    fit = floor_fit(decision, claim_id)
    if fit is None:
        return f"The sentence “{text}” is not found word for word in what it cites."
    check = next(
        c
        for c in (decision.verifier_results.get(r) for r in _cites(decision, claim_id))
        if c is not None and c.fit is fit
    )
    found = check_words(check)
    return f"The quote behind “{text}” is {found[0].lower()}{found[1:]}"


def _cites(decision: Decision, claim_id: str) -> tuple[str, ...]:
    claim = next((c for c in decision.dag.claims if c.id == claim_id), None)
    return claim.cites if claim is not None else ()


def _how(check: VerifierResult) -> str:
    if check.method == MatchMethod.FUZZY:
        return "Found with a typo" + _score(check)
    if check.method == MatchMethod.ANNOTATION:
        return "Found as a highlight of the source"
    return "Found word for word" + _score(check)


def _score(check: VerifierResult) -> str:
    score = check.score
    if score is None or score != score or check.method == MatchMethod.EXACT:
        return ""
    return f" (score {score:.0f})"
