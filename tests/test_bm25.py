"""BM25 postings: one pass sums every query word's weights exactly as a word-by-word sum."""

from __future__ import annotations

import numpy as np
import pytest

from engine.workspace.bm25 import BAG_DTYPE, Bm25Params, Postings, _lengths, top_k


def _postings(seed: int, n_docs: int = 300, n_terms: int = 40) -> Postings:
    rng = np.random.default_rng(seed)
    bags = []
    for _ in range(n_docs):
        terms = np.sort(rng.choice(n_terms, size=rng.integers(1, 12), replace=False))
        bag = np.empty(len(terms), dtype=BAG_DTYPE)
        bag["term"], bag["title"] = terms, rng.integers(0, 3, len(terms))
        bag["body"] = rng.integers(1, 9, len(terms))
        bags.append(bag.tobytes())
    return Postings.build(bags, n_terms=n_terms, params=Bm25Params())


def _word_by_word(postings: Postings, query: dict[int, int]) -> np.ndarray:
    scores = np.zeros(postings.n_docs, dtype=np.float64)
    for term, count in sorted(query.items()):
        if term >= len(postings.indptr) - 1:
            continue
        lo, hi = postings.indptr[term], postings.indptr[term + 1]
        scores[postings.docs[lo:hi]] += count * postings.weights[lo:hi]
    return scores


@pytest.mark.parametrize("seed", range(5), ids=lambda s: f"corpus-{s}")
def test_scores_equal_the_word_by_word_sum_bit_for_bit(seed: int) -> None:
    postings = _postings(seed)
    rng = np.random.default_rng(100 + seed)
    for _ in range(50):
        words = rng.choice(40, size=rng.integers(1, 9), replace=False)
        query = {int(w): int(rng.integers(1, 4)) for w in words} | {999: 1}  # 999: unknown
        assert postings.scores(query).tobytes() == _word_by_word(postings, query).tobytes()


def test_an_empty_or_unknown_query_scores_nothing() -> None:
    postings = _postings(0)
    assert not postings.scores({}).any() and not postings.scores({-1: 1, 999: 2}).any()
    assert postings.scores({}).shape == (postings.n_docs,)


def test_top_k_keeps_only_allowed_positive_documents_ties_in_document_order() -> None:
    scores = np.array([0.0, 2.0, 5.0, 2.0, 5.0, 1.0, 2.0])
    allowed = np.array([True, True, False, True, True, True, True])
    assert top_k(scores, 3).tolist() == [2, 4, 1]
    assert top_k(scores, 3, allowed=allowed).tolist() == [4, 1, 3]
    assert top_k(scores, 10, allowed=~allowed).tolist() == [2]


def _ranked(scores: np.ndarray, k: int, allowed: np.ndarray | None = None) -> list[int]:
    """The top k by a full sort: best score first, ties in document order, positive only."""
    keep = scores > 0.0 if allowed is None else (scores > 0.0) & allowed
    docs = np.flatnonzero(keep)
    return sorted(docs.tolist(), key=lambda d: (-scores[d], d))[:k]


@pytest.mark.parametrize("k", [1, 3, 10, 50], ids=lambda k: f"k-{k}")
def test_the_best_k_are_those_of_a_full_sort_whatever_the_hint(k: int) -> None:
    postings = _postings(7, n_docs=400, n_terms=30)
    rng = np.random.default_rng(k)
    allowed = rng.random(postings.n_docs) < 0.7
    for _ in range(60):
        words = rng.choice(30, size=rng.integers(1, 7), replace=False)
        query = {int(w): int(rng.integers(1, 3)) for w in words}
        scores = postings.scores(query)
        hints = [postings.docs[postings.indptr[w] : postings.indptr[w + 1]] for w in words]
        for mask in (None, allowed):
            want = _ranked(scores, k, mask)
            assert top_k(scores, k, allowed=mask).tolist() == want
            assert top_k(scores, k, allowed=mask, likely=hints).tolist() == want
            best, values = postings.top(query, k, allowed=mask)
            assert best.tolist() == want
            assert values.tobytes() == scores[want].tobytes()


def test_a_hint_of_unscored_or_disallowed_documents_changes_nothing() -> None:
    scores = np.array([0.0, 2.0, 5.0, 0.0, 5.0, 1.0, 2.0, 0.0])
    allowed = np.array([True, True, False, True, True, True, True, True])
    unscored, few_allowed = np.array([0, 3, 7, 5]), np.array([2, 4, 6])
    for hints in ([unscored], [few_allowed], [unscored, few_allowed, np.arange(8)]):
        for mask in (None, allowed):
            for k in (1, 2, 3, 6):
                assert top_k(scores, k, allowed=mask, likely=hints).tolist() == _ranked(
                    scores, k, mask
                )


def test_top_leaves_out_words_in_no_document_and_unknown_ids() -> None:
    bag = np.zeros(3, dtype=BAG_DTYPE)
    bag["term"], bag["body"] = [0, 1, 2], 1
    other = np.zeros(2, dtype=BAG_DTYPE)
    other["term"], other["body"] = [1, 3], 2
    # Words 4 to 59 are in no document.
    postings = Postings.build(
        [bag.tobytes(), other.tobytes(), bag.tobytes()], n_terms=60, params=Bm25Params()
    )
    empty = {40: 1, 41: 1, 59: 2, -1: 1, 999: 1}
    assert [a.tolist() for a in postings.top(empty, 3)] == [[], []]
    query = {**empty, 0: 1, 1: 1, 3: 1}
    best, values = postings.top(query, 3)
    assert best.tolist() == _ranked(postings.scores(query), 3) == [1, 0, 2]
    assert values.tolist() == postings.scores(query)[[1, 0, 2]].tolist()


@pytest.mark.parametrize("title_weight", [2.0, 1.3], ids=["whole-weight", "fractional-weight"])
def test_document_lengths_are_the_scatter_sums_bit_for_bit_empty_bags_included(
    title_weight: float,
) -> None:
    rng = np.random.default_rng(11)
    bags = []
    for n in range(200):
        size = 0 if n % 17 in (0, 16) else int(rng.integers(1, 9))  # empty bags, first and last
        bag = np.zeros(size, dtype=BAG_DTYPE)
        bag["term"] = np.sort(rng.choice(30, size=size, replace=False))
        bag["title"], bag["body"] = rng.integers(0, 3, size), rng.integers(1, 50, size)
        bags.append(bag)
    flat = np.concatenate(bags)
    tf = flat["title"].astype(np.float32) * np.float32(title_weight) + flat["body"]
    sizes = np.array([len(bag) for bag in bags])
    doc = np.repeat(np.arange(len(bags)), sizes)
    want = np.bincount(doc, weights=tf, minlength=len(bags))
    assert _lengths(tf, sizes).tobytes() == want.tobytes()
    assert _lengths(tf[:0], np.zeros(3, dtype=np.int64)).tolist() == [0.0, 0.0, 0.0]
