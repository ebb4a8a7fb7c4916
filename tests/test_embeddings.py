"""Sentence vectors beside the index: incremental, sealed, and never able to move an answer."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from engine.api import OpenWorkspace, ask, open_workspace
from engine.models.encoder import Encoder, load_encoder
from engine.workspace.caches import VECTORS_DIR, ready, vectors_path
from engine.workspace.embeddings import (
    MAGIC,
    SCAN_SLICE,
    SentenceVectors,
    note_sentences,
    quantise,
    read_vectors,
    refresh,
    text_key,
)
from engine.workspace.semantic import open_meaning
from engine.workspace.stores import load_workspace

QUESTION = "Did momentum returns survive transaction costs?"


@pytest.fixture(scope="module")
def minilm() -> Encoder:
    encoder = load_encoder("minilm").encoder
    assert encoder is not None
    return encoder


def _file(root: Path) -> Path:
    return vectors_path(root, "minilm")


def _header_size(raw: bytes) -> int:
    return len(MAGIC) + 4 + int.from_bytes(raw[len(MAGIC) : len(MAGIC) + 4], "little")


def test_every_sentence_is_encoded_once_and_kept_for_the_next_open(
    lab_path: Path, minilm: Encoder
) -> None:
    workspace = load_workspace(lab_path)
    wanted = {text_key(t) for n in workspace.notes.values() for t in note_sentences(n)}
    _, first = refresh(lab_path, workspace.notes.values(), minilm)
    assert first.encoded == len(wanted) and first.saved and _file(lab_path).exists()
    again, second = refresh(lab_path, workspace.notes.values(), minilm)
    assert (second.encoded, second.kept, second.saved) == (0, len(wanted), False)
    assert len(again) == len(wanted)


def test_an_edited_note_costs_only_its_new_sentences(lab_path: Path, minilm: Encoder) -> None:
    workspace = load_workspace(lab_path)
    refresh(lab_path, workspace.notes.values(), minilm)
    note = next(n for n in workspace.notes.values() if n.path.startswith(".zettelkasten"))
    path = lab_path / note.path
    path.write_text(path.read_text() + "\nA sentence nobody wrote before appears here.\n")
    _, stats = refresh(lab_path, load_workspace(lab_path).notes.values(), minilm)
    assert stats.encoded == 1 and stats.saved


def test_a_removed_note_takes_its_sentences_out(lab_path: Path, minilm: Encoder) -> None:
    workspace = load_workspace(lab_path)
    refresh(lab_path, workspace.notes.values(), minilm)
    note = next(n for n in workspace.notes.values() if n.path.startswith(".zettelkasten"))
    (lab_path / note.path).unlink()
    _, stats = refresh(lab_path, load_workspace(lab_path).notes.values(), minilm)
    assert stats.removed > 0 and stats.encoded == 0


@pytest.mark.parametrize(
    "damage",
    ["flip-a-vector-byte", "swap-two-vectors", "truncate-a-record"],
)
def test_a_tampered_vector_is_dropped_and_encoded_again(
    lab_path: Path, minilm: Encoder, damage: str
) -> None:
    workspace = load_workspace(lab_path)
    before, _ = refresh(lab_path, workspace.notes.values(), minilm)
    raw = bytearray(_file(lab_path).read_bytes())
    start, size = _header_size(bytes(raw)), before.records.dtype.itemsize
    codes = start + 16 + 4  # key, scale, then the int8 vector
    if damage == "flip-a-vector-byte":
        raw[codes] ^= 0x7F
        expected = 1
    elif damage == "swap-two-vectors":
        first, second = (
            bytes(raw[codes : codes + 384]),
            bytes(raw[codes + size : codes + size + 384]),
        )
        raw[codes : codes + 384], raw[codes + size : codes + size + 384] = second, first
        expected = 2
    else:
        raw = raw[: start + size * len(before) - 1]
        expected = None  # a file of the wrong length is foreign: everything is encoded again
    _file(lab_path).write_bytes(bytes(raw))
    after, stats = refresh(lab_path, workspace.notes.values(), minilm)
    if expected is None:
        assert stats.kept == 0 and stats.encoded == len(before)
    else:
        assert stats.unsealed == expected and stats.encoded == expected
    assert np.array_equal(after.records["codes"], before.records["codes"])


def test_vectors_of_another_model_are_never_read(lab_path: Path, minilm: Encoder) -> None:
    workspace = load_workspace(lab_path)
    refresh(lab_path, workspace.notes.values(), minilm)
    raw = _file(lab_path).read_bytes().replace(b"minilm:", b"othmod:", 1)
    _file(lab_path).write_bytes(raw)
    stored, unsealed = read_vectors(lab_path, minilm)
    assert len(stored) == 0 and unsealed == 0


def test_a_tampered_vector_file_never_moves_an_answer(lab_path: Path) -> None:
    opened = open_workspace(lab_path)
    clean = ask(opened, QUESTION).to_json(timings=False)
    opened.close()
    raw = bytearray(_file(lab_path).read_bytes())
    start = _header_size(bytes(raw))
    encoder = load_encoder("minilm").encoder
    assert encoder is not None
    stored, _ = read_vectors(lab_path, encoder)
    size = stored.records.dtype.itemsize
    for i in range(len(stored)):  # every vector made to point the same way
        at = start + i * size + 16 + 4
        raw[at : at + 384] = bytes([127] * 384)
    _file(lab_path).write_bytes(bytes(raw))
    reopened = open_workspace(lab_path)
    assert reopened.meaning.stats is not None
    assert reopened.meaning.stats.unsealed == len(stored)
    assert ask(reopened, QUESTION).to_json(timings=False) == clean
    reopened.close()


def test_an_unwritable_vector_folder_keeps_vectors_in_memory(
    lab_path: Path, minilm: Encoder
) -> None:
    (ready(lab_path) / VECTORS_DIR).write_text("a file where the folder should be")
    workspace = load_workspace(lab_path)
    meaning = open_meaning(lab_path, workspace.notes.values(), load_encoder("minilm"))
    assert meaning.semantic is not None
    assert "kept in memory" in meaning.notice


def test_nearest_notes_come_best_first_and_ties_go_to_the_address(lab: OpenWorkspace) -> None:
    semantic = lab.meaning.semantic
    assert semantic is not None
    found = semantic.nearest(semantic.question(QUESTION), 5, store="zk")
    scores = [n.score for n in found]
    assert scores == sorted(scores, reverse=True)
    assert all(n.address.startswith("zk:") for n in found)
    keys = [(-n.score, n.address) for n in found]
    assert keys == sorted(keys)


def test_a_sentence_without_a_stored_vector_is_encoded_on_demand(lab: OpenWorkspace) -> None:
    semantic = lab.meaning.semantic
    assert semantic is not None
    query = semantic.question(QUESTION)
    text = "Transaction costs erase the momentum premium."
    got = semantic.similarities(query, [text])[0]
    direct = float(semantic.encoder.encode([text])[0] @ query)
    assert got == pytest.approx(direct, abs=1e-6)


@pytest.mark.parametrize("count", [1, SCAN_SLICE, 3 * SCAN_SLICE + 7])
def test_a_scan_of_the_records_gives_the_float_vectors_products_bit_for_bit(count: int) -> None:
    rng = np.random.default_rng(count)
    floats = rng.standard_normal((count, 384)).astype(np.float32)
    floats /= np.linalg.norm(floats, axis=1, keepdims=True)
    keys = [i.to_bytes(16, "big") for i in range(count)]
    vectors = SentenceVectors("test", 384, quantise("test", keys, floats))
    dense = vectors.dense(np.arange(count))
    for query in (floats[0], floats[0].astype(np.float64)):
        scanned = vectors.products(query)
        assert scanned.dtype == (dense @ query).dtype
        assert np.array_equal(scanned, dense @ query)


def test_the_nearest_sentence_scan_reads_the_int8_records_and_keeps_no_float_copy(
    lab: OpenWorkspace,
) -> None:
    semantic = lab.meaning.semantic
    assert semantic is not None
    query = semantic.question(QUESTION)
    every = semantic.vectors.dense(np.arange(len(semantic.vectors))) @ query
    expected = {}
    for address in semantic.addresses:
        rows = [semantic.vectors.row(t) for t in note_sentences(lab.workspace.notes[address])]
        expected[address] = float(np.round(every[[r for r in rows if r is not None]].max(), 6))
    found = semantic.nearest(query, len(semantic.addresses))
    assert {n.address: n.score for n in found} == expected
    held = [v for v in vars(semantic).values() if isinstance(v, np.ndarray)]
    assert held and all(array.ndim == 1 for array in held)
