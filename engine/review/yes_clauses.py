"""Which clause of a sentence a claim is about, and the nos read off another clause.

A compound sentence can state a finding of one subject and the opposite of another: "Low-dose
alcohol reduced cardiac mortality, whereas high-dose alcohol increased cardiac mortality".
The clause about a claim's subject is the one that opens on the claim's own opening words;
the yes rules read its directions (`other_clause`), and the no rules (`engine.review.no_rules`)
read a "no" as neither where it comes from another clause or from a hedge the claim does not
make.
"""

from __future__ import annotations

from collections import Counter

from engine.core.licensing import independent_clauses, withdraws
from engine.core.traceability import common_prefix
from engine.text.frame_words import DENIED_ALTERNATIVES
from engine.text.lexicon import HEDGES, NEGATIONS, STOP_WORDS, cue_of, relation_word
from engine.text.stems import mention_stem
from engine.text.tokens import word_sequence

# Words that open a clause with a verb of the subject before it ("…, and were higher").
_AUXILIARIES = frozenset(
    "is are was were has have had do does did can could may might will would should".split()  # noqa: SIM905
)
# Pronouns that open a relative clause about the word before them.
_RELATIVES = frozenset({"which", "who"})
# Words that join a second clause without a comma ("… and caffeine reduced reaction time").
_JOINS = frozenset({"and", "while", "whereas", "but"})
_ARTICLES = frozenset({"a", "an", "the"})
# How far after a direction word what it changes is looked for ("inhibits autophagy").
_OBJECT_REACH = 3
# The prefix that negates a word ("nonadhesive"), or stands alone where a hyphen was.
NON = "non"


def cues(words: tuple[str, ...]) -> list[tuple[int, tuple[str, int]]]:
    """Where the words state a direction, with its axis and sign (`cue_of`), in order."""
    found = []
    for at, (word, after) in enumerate(zip(words, (*words[1:], ""), strict=True)):
        cue = cue_of(word, after)
        if cue is not None:
            found.append((at, cue))
    return found


def directions(words: tuple[str, ...]) -> Counter[tuple[str, int]]:
    """The directions words state (axis and sign, `cue_of`), each as often as said."""
    return Counter(cue for _, cue in cues(words))


def asserted(words: tuple[str, ...]) -> Counter[tuple[str, int]]:
    """The directions the words state, less those named as the alternative set aside
    ("increased rather than reduced anxiety" states an increase only)."""
    denied = alternatives(words)
    return Counter(cue for at, cue in cues(words) if at not in denied)


def alternatives(words: tuple[str, ...]) -> set[int]:
    """Where the words name an alternative set aside: the word just after "rather than" or
    "instead of", past an article."""
    denied: set[int] = set()
    for at in range(len(words)):
        for marker in DENIED_ALTERNATIVES:
            if words[at : at + len(marker)] == marker:
                end = at + len(marker)
                # The word the alternative is, past an article: "rather than the negative
                # feedback"; "rather than caffeine, impaired …" sets aside no direction.
                while end < len(words) and words[end] in _ARTICLES:
                    end += 1
                denied.add(end)
    return denied


def other_subject(claim: tuple[str, ...], sentence: str) -> bool:
    """Whether every word of `sentence` stating the claim's direction stands in a second
    clause with a subject of its own, joined without a comma ("Melatonin improved sleep
    quality and caffeine reduced reaction time" for "Melatonin reduces reaction time"): after
    the last joining word before it come content words the claim never uses, and a direction
    word stands before that join. A second verb of the same subject ("… and reduced reaction
    time", "… and markedly reduced …") joins no other subject."""
    wanted = set(directions(claim))
    said = word_sequence(sentence)
    found = cues(said)
    hits = [at for at, cue in found if cue in wanted]
    if not hits:
        return False
    own = {mention_stem(word) for word in claim}
    first = found[0][0]
    for at in hits:
        join = next((i for i in range(at - 1, first, -1) if said[i] in _JOINS), None)
        if join is None:
            return False
        between = said[join + 1 : at]
        if not any(_subject_word(word, own) for word in between):
            return False
    return True


def scattered(claim: tuple[str, ...], sentence: str) -> bool:
    """Whether the claim's words after its direction word stand only in another independent
    clause than the one stating its direction ("Fish oil reduced arrhythmias in men; women
    were not studied" for "Fish oil reduces arrhythmias in women"): the clause that says it
    never says of what, and the clause that names it denies or withdraws."""
    clauses = [word_sequence(clause) for clause in independent_clauses(sentence)]
    wanted = set(directions(claim))
    if len(clauses) < 2 or not wanted:
        return False
    stating = [c for c in clauses if wanted & set(asserted(c))]
    if not stating:
        return False
    start = _first_cue(claim)
    after = {
        mention_stem(word)
        for word in claim[start + 1 :]
        if word not in STOP_WORDS and word.isalpha() and not relation_word(word)
    }
    # Only a clause that denies or withdraws holds a word back ("women were not studied"):
    # a compound claim may draw its words from two clauses that both state.
    elsewhere = {
        mention_stem(word) for c in clauses if c not in stating and withdraws(c) for word in c
    }
    said = {mention_stem(word) for clause in stating for word in clause}
    return any(stem in elsewhere and stem not in said for stem in after)


def relative_subject(claim: tuple[str, ...], sentence: str) -> bool:
    """Whether every word of `sentence` stating the claim's direction of what it changes
    stands in a relative clause about another thing ("Rapamycin is an inhibitor of mTOR,
    which inhibits autophagy" for "Rapamycin inhibits autophagy"): "which" or "who" just
    before it, after a word the claim does not name."""
    wanted = set(directions(claim))
    if not wanted:
        return False
    said = word_sequence(sentence)
    own = {mention_stem(word) for word in claim}
    objects = {mention_stem(word) for word in claim[_first_cue(claim) + 1 :]} - _actor(claim)
    hits = [
        at
        for at, cue in cues(said)
        if cue in wanted
        and objects & {mention_stem(w) for w in said[at + 1 : at + 1 + _OBJECT_REACH]}
    ]
    return bool(hits) and all(_foreign_relative(said, at, own) for at in hits)


def _actor(claim: tuple[str, ...]) -> set[str]:
    """The stems of the claim's words before its first direction word (what acts)."""
    return {mention_stem(word) for word in claim[: _first_cue(claim)]}


def _first_cue(words: tuple[str, ...]) -> int:
    found = cues(words)
    return found[0][0] if found else len(words)


def _foreign_relative(said: tuple[str, ...], at: int, own: set[str]) -> bool:
    """Whether "which" or "who" stands within two words before `at`, after a word the claim
    does not name."""
    for back in range(at - 1, max(-1, at - 3), -1):
        if said[back] in _RELATIVES:
            return back > 0 and mention_stem(said[back - 1]) not in own
    return False


def _subject_word(word: str, own: set[str]) -> bool:
    """Whether `word` could name a subject the claim does not: a content word, not an adverb
    ("markedly"), that the claim never uses."""
    named = word not in STOP_WORDS and word.isalpha() and not word.endswith("ly")
    return named and mention_stem(word) not in own


def negates(token: str) -> bool:
    # "non" stands alone where a hyphen was: "non-coding" reads ("non", "coding").
    return token in NEGATIONS or token == NON


def other_clause(claim: tuple[str, ...], sentence: str) -> bool:
    """Whether the clause of `sentence` about the claim's subject (`_actor_clause`) states
    fewer of its directions ("Low-dose alcohol reduced cardiac mortality, whereas high-dose
    alcohol increased cardiac mortality" for "High-dose alcohol reduces cardiac mortality")."""
    clause = _actor_clause(claim, sentence)
    return clause is not None and bool(directions(claim) - directions(clause))


def denied_elsewhere(claim_text: str, sentence: str) -> bool:
    """Whether a "no" read off `sentence` comes from a clause about something else: the
    clause about the claim's subject (`_actor_clause`) holds no negation and no direction
    against the claim's ("Ribavirin alone did not clear hepatitis C, but ribavirin plus
    interferon did" for "Ribavirin plus interferon clears hepatitis C"), or a word of the
    claim stands only in clauses with no negation ("Aspirin did not reduce stroke overall,
    but it did in women" for "Aspirin reduces stroke in women")."""
    claim = word_sequence(claim_text)
    clause = _actor_clause(claim, sentence)
    if clause is not None and not any(negates(word) for word in clause):
        against = {(axis, -sign) for axis, sign in directions(claim)}
        if not against & set(directions(clause)):
            return True
    clauses = [word_sequence(c) for c in independent_clauses(sentence)]
    if len(clauses) < 2 or any(negates(word) for word in claim):
        return False
    plain = [c for c in clauses if not any(negates(word) for word in c)]
    if len(plain) == len(clauses):
        return False  # the no came from no clause's negation
    denying = {word for c in clauses if c not in plain for word in c}
    return any(
        word not in denying and any(word in c for c in plain)
        for word in claim
        if word not in STOP_WORDS
        and any(char.isalpha() for char in word)
        and not relation_word(word)
    )


def hedged_no(claim_text: str, sentence: str) -> bool:
    """Whether a "no" read off `sentence` is hedged there and not in the claim: a hedge
    before the sentence's first negation or direction word ("Vitamin E may not prevent
    cataracts", "These data suggest that X does not …"), not one in a clause that follows
    ("… increases telomere fragility, suggesting that …")."""
    said, claim = word_sequence(sentence), word_sequence(claim_text)
    first = next(
        (at for at, word in enumerate(said) if negates(word) or cue_of(word) is not None),
        len(said),
    )
    hedges = Counter(word for word in said[:first] if word in HEDGES)
    return bool(hedges - Counter(word for word in claim if word in HEDGES))


def _actor_clause(claim: tuple[str, ...], sentence: str) -> tuple[str, ...] | None:
    """The independent clause of `sentence` that opens on the longest run of the claim's own
    opening content words (its subject, read without a list of verbs): "high-dose alcohol
    increased …" for "High-dose alcohol reduces …". None when the sentence does not split,
    a clause opens on an auxiliary (a second verb of one subject, "…, and were higher"), or
    no one clause opens on a longer run than the others."""
    clauses = [word_sequence(clause) for clause in independent_clauses(sentence)]
    if len(clauses) < 2 or any(c[0] in _AUXILIARIES for c in clauses[1:]):
        return None
    opening = _opening(claim)
    runs = [common_prefix(opening, _opening(clause)) for clause in clauses]
    best = max(runs)
    return clauses[runs.index(best)] if best and runs.count(best) == 1 else None


def _opening(words: tuple[str, ...]) -> list[str]:
    return [mention_stem(word) for word in words if word not in STOP_WORDS]
