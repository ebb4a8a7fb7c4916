"""Whether a claim keeps the evidence's own words in their order.

"Chronic pain predicted later depression" names every word of "Depression predicts later
chronic pain" and says the other thing: who does what to whom lies in the order. A relation
word compares by its stem within one sentence ("predicts" is "predicted"), a passive
sentence turns the order around, and a scope a sentence opens on ("In mice, …") may stand at
the claim's end ("… in mice?").
"""

from __future__ import annotations

from collections import Counter
from itertools import pairwise

from engine.review.yes_frames import relates
from engine.text.lexicon import STOP_WORDS
from engine.text.stems import mention_stem
from engine.text.tokens import word_sequence

# A sentence's opening scope, read also at its end: at most this many words, opening so.
_SCOPE_WORDS = 8
_SCOPE_OPENERS = frozenset(
    {"in", "at", "among", "under", "during", "after", "before", "for", "with", "without"}
)


def reordered(claim_text: str, evidence: list[str]) -> bool:
    """Whether the claim's content words all stand in an evidence sentence (or the sentences
    together) but in no such text in the claim's order: its words, moved around. Within one
    sentence a relation word compares by its stem ("predicts" is "predicted"), so
    "Depression predicts pain" is read against "Pain predicted depression" as its words
    moved, unless the sentence is passive ("was predicted by"), which turns the order
    around; across sentences, where words lie far apart, only the same words count."""
    exact = content_words(claim_text)
    if not exact:
        return False
    stemmed = _related_stems(exact)
    # A scope a sentence opens on ("In mice, metformin reduced …") may close the claim
    # ("Does metformin reduce … in mice?"): the sentence is read both ways.
    texts = [turned for text in evidence for turned in _fronted_last(text)]
    pairs = [(stemmed, _related_stems(content_words(text))) for text in texts if not _passive(text)]
    pairs += [(exact, content_words(text)) for text in texts]
    pairs.append((exact, content_words(" ".join(evidence))))
    holding = [(mine, said) for mine, said in pairs if not Counter(mine) - Counter(said)]
    return bool(holding) and not any(_in_order(mine, said) for mine, said in holding)


def content_words(text: str) -> tuple[str, ...]:
    """The words of `text` that are not stop words, in order."""
    return tuple(token for token in word_sequence(text) if token not in STOP_WORDS)


def _passive(text: str) -> bool:
    """Whether a relation word of `text` is followed by "by" (its actor after it)."""
    words = word_sequence(text)
    return any(after == "by" and relates(word) for word, after in pairwise(words))


def _related_stems(words: tuple[str, ...]) -> tuple[str, ...]:
    """The words, each relation word as its stem."""
    # Cut to five letters: "reduces" stems to "reduce" and "reduced" to "reduc".
    return tuple(mention_stem(word)[:5] if relates(word) else word for word in words)


def _fronted_last(text: str) -> tuple[str, ...]:
    """`text`, and when it opens on a short scope ("In mice, …", "At high doses, …") the same
    with that scope moved to its end."""
    head, comma, rest = text.partition(",")
    words = word_sequence(head)
    if not comma or not rest.strip() or not 1 < len(words) <= _SCOPE_WORDS:
        return (text,)
    if words[0] not in _SCOPE_OPENERS:
        return (text,)
    return (text, f"{rest.strip()} {head.strip()}")


def _in_order(words: tuple[str, ...], said: tuple[str, ...]) -> bool:
    """Whether `words` are a subsequence of `said`."""
    remaining = iter(said)
    return all(word in remaining for word in words)
