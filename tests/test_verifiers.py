"""The verifier registry and its five built-ins, on real files in a temporary workspace."""

from __future__ import annotations

import json
import struct
import zlib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from engine.core.epistemics import Tier, Verdict
from engine.core.errors import EngineError
from engine.core.registry import Registry
from engine.core.verifiers import (
    VERIFIERS,
    Verifier,
    VerifierResult,
    VerifierStatus,
    VerifyContext,
    verify,
)

OK, FAILED, UNVERIFIABLE = VerifierStatus
INJECTION = "__import__('pathlib').Path('pwned').touch()"

SCORES_CSV = "group,score,label\na,1.0,x\na,3.0,y\nb,5.0,x\nb,7.0,z\n"
TREE = {
    "id": "root",
    "children": [
        {
            "id": "adult",
            "when": [["age", ">=", 18]],
            "children": [
                {"id": "high_dose", "when": [["dose", ">", 10]]},
                {"id": "arm_ok", "when": [["arm", "in", ["a", "b"]]]},
            ],
        },
        {"id": "child", "when": [["age", "<", 18]]},
        {"id": "flagged", "when": [["flag", "==", 1]]},
    ],
}


def png_bytes() -> bytes:
    """A minimal PNG: signature plus a 1x1 RGB IHDR chunk with its CRC."""
    ihdr = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    chunk = b"IHDR" + ihdr
    crc = struct.pack(">I", zlib.crc32(chunk))
    return b"\x89PNG\r\n\x1a\n" + struct.pack(">I", len(ihdr)) + chunk + crc


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    (ws / "sources").mkdir(parents=True)
    (ws / "figs").mkdir()
    (ws / "scores.csv").write_text(SCORES_CSV)
    (ws / "empty.csv").write_text("")
    (ws / "tree.json").write_text(json.dumps(TREE))
    (ws / "broken.json").write_text("{not json")
    (ws / "sources" / "smith2020.txt").write_text("Aspirin reduced the risk of stroke by 20%.")
    highlights = [{"text": "the risk of stroke", "page": 4}]
    (ws / "sources" / "smith2020.annotations.json").write_text(json.dumps(highlights))
    (ws / "figs" / "plot.png").write_bytes(png_bytes())
    (ws / "figs" / "photo.jpg").write_bytes(b"\xff\xd8\xff\xe0" + b"\x00" * 16)
    (ws / "figs" / "anim.gif").write_bytes(b"GIF89a" + b"\x00" * 16)
    (ws / "figs" / "pic.webp").write_bytes(b"RIFF\x10\x00\x00\x00WEBPVP8 ")
    (ws / "figs" / "chart.svg").write_text('<?xml version="1.0"?>\n<svg xmlns="x"></svg>')
    (ws / "figs" / "notes.png").write_text("just text pretending to be a png")
    Image.new("L", (4, 3), 128).save(ws / "figs" / "scan.tif", format="TIFF")
    (ws / "figs" / "scan-be.tiff").write_bytes(b"MM\x00*\x00\x00\x00\x08" + b"\x00" * 16)
    (ws / "figs" / "fake.tif").write_bytes(b"II\x00*" + b"\x00" * 16)
    # A valid target outside the workspace: reading it would make the checks pass.
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.csv").write_text(SCORES_CSV)
    (outside / "secret.png").write_bytes(png_bytes())
    (outside / "secret.txt").write_text("Aspirin reduced the risk of stroke by 20%.")
    (outside / "tree.json").write_text(json.dumps(TREE))
    (ws / "link.csv").symlink_to(outside / "secret.csv")
    (ws / "link.png").symlink_to(outside / "secret.png")
    (ws / "link.json").symlink_to(outside / "tree.json")
    (ws / "sources" / "linked.txt").symlink_to(outside / "secret.txt")
    return ws


@pytest.fixture
def registry() -> Registry[Verifier]:
    """A registry of the test's own, with the built-ins copied in."""
    return VERIFIERS.copy()


# --- result values -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("result", "expected"),
    [
        (VerifierResult.confirmed("fine"), Verdict(Tier.GROUNDED)),
        (VerifierResult.confirmed("re-run", tier=Tier.MEASURED), Verdict(Tier.MEASURED)),
        (VerifierResult.refuted("refuted"), Verdict(Tier.INFERRED)),
        (VerifierResult.undecided("no source"), Verdict(Tier.INFERRED, unresolved=True)),
    ],
    ids=["ok-grounded", "ok-measured", "failed", "unverifiable"],
)
def test_verdict_mapping(result: VerifierResult, expected: Verdict) -> None:
    assert result.verdict() == expected


def test_constructors_and_status_properties() -> None:
    good = VerifierResult.confirmed("found", method="exact", confirmed_source_text="x", score=1.0)
    bad = VerifierResult.refuted("absent", near_miss="y")
    assert (good.status, good.ok, good.failed, good.unverifiable) == (OK, True, False, False)
    assert (bad.ok, bad.failed) == (False, True)
    assert VerifierResult.undecided("?").unverifiable
    with pytest.raises(EngineError):
        VerifierResult.refuted("absent", confirmed_source_text="never on a failure")


def test_to_dict_is_json_serialisable() -> None:
    result = VerifierResult.confirmed(
        "found", method="exact", confirmed_source_text="a b", score=0.97, page=3
    )
    data = json.loads(json.dumps(result.to_dict()))
    assert data == {
        "status": "ok",
        "method": "exact",
        "detail": "found",
        "score": 0.97,
        "page": 3,
        "near_miss": None,
        "confirmed_source_text": "a b",
    }
    assert "confirmed_source_text" not in VerifierResult.refuted("no").to_dict()


# --- registry and dispatch ------------------------------------------------------------


def test_builtins_are_registered() -> None:
    assert {"quote", "expr-recompute", "equation", "figure", "decision-tree"} <= set(VERIFIERS)
    assert VERIFIERS.get("decision_tree") is VERIFIERS["decision-tree"]  # the older wire name


@pytest.mark.parametrize(
    ("kind", "payload", "detail"),
    [
        ("nope", {}, "no verifier registered for type 'nope'"),
        (["quote"], {}, "no verifier registered"),
        ("equation", ["x"], "must be an object, got list"),
        ("equation", None, "must be an object, got NoneType"),
        ("equation", "x^2", "must be an object, got str"),
    ],
    ids=["unknown-type", "unhashable-type", "list-payload", "none-payload", "str-payload"],
)
def test_bad_dispatch_is_unverifiable(
    kind: Any,  # a list included: the wire's type name is untrusted JSON
    payload: dict[Any, Any] | list[str] | str | None,
    detail: str,
) -> None:
    result = verify(kind, payload)
    assert result.status is UNVERIFIABLE
    assert detail in result.detail


def test_user_verifier_is_dispatched_with_workspace(
    registry: Registry[Verifier], workspace: Path
) -> None:
    def always(payload: Mapping[str, Any], context: VerifyContext) -> VerifierResult:
        assert context.workspace is not None
        return VerifierResult.confirmed(
            f"{payload['n']} in {context.workspace.name}", method="custom"
        )

    registry.register("always", always)
    result = verify("always", {"n": 7}, workspace=str(workspace), registry=registry)
    assert "always" not in VERIFIERS
    assert (result.status, result.detail, result.method) == (OK, "7 in ws", "custom")


@pytest.mark.parametrize(
    ("fn", "detail"),
    [
        (lambda p, c: 1 / 0, "boom verifier error: ZeroDivisionError: division by zero"),
        (lambda p, c: p["missing"], "boom verifier error: KeyError: 'missing'"),
        (lambda p, c: "ok", "boom verifier returned str, not a VerifierResult"),
    ],
    ids=["raises", "key-error", "wrong-return"],
)
def test_misbehaving_verifier_is_unverifiable(
    registry: Registry[Verifier], fn: Verifier, detail: str
) -> None:
    registry.register("boom", fn)
    result = verify("boom", {}, registry=registry)
    assert (result.status, result.detail) == (UNVERIFIABLE, detail)


@pytest.mark.parametrize(
    ("name", "fn"), [("", print), (None, print), ("x", "not callable")], ids=["empty", "none", "fn"]
)
def test_register_rejects_misuse(
    registry: Registry[Verifier],
    name: Any,  # None included: a plugin's entry point may hand anything
    fn: Any,
) -> None:
    with pytest.raises(EngineError):
        registry.register(name, fn)


# --- quote ----------------------------------------------------------------------------

SOURCE = "Aspirin reduced the risk of stroke by 20%."


@pytest.mark.parametrize(
    ("payload", "status", "method"),
    [
        ({"body": "reduced the risk of stroke", "fulltext": SOURCE}, OK, "exact"),
        ({"body": SOURCE, "fulltext": f"Background. {SOURCE} More."}, OK, "exact"),
        ({"body": "reduced the risk of stroke", "source": "smith2020"}, OK, "exact"),
        ({"body": "the risk of stroke!", "source": "smith2020"}, OK, "annotation"),
        ({"body": "Aspirin reducd the risk of stroke by 20%", "fulltext": SOURCE}, OK, "fuzzy"),
        ({"body": "increased the risk of stroke", "fulltext": SOURCE}, FAILED, "none"),
        ({"body": "  ", "fulltext": SOURCE}, UNVERIFIABLE, None),
        ({"body": "reduced the risk of stroke"}, UNVERIFIABLE, "unavailable"),
        ({"body": "reduced", "source": "jones1999"}, UNVERIFIABLE, "unavailable"),
        ({"body": "reduced", "source": "../outside/secret"}, UNVERIFIABLE, "unavailable"),
        ({"body": "reduced", "source": "linked"}, UNVERIFIABLE, "unavailable"),
        ({"fulltext": SOURCE}, UNVERIFIABLE, None),
        ({"body": "reduced", "fulltext": SOURCE, "fuzzy_floor": INJECTION}, UNVERIFIABLE, None),
    ],
    ids=[
        "exact-inline",
        "exact-whole-sentence",
        "exact-from-sources",
        "annotation-from-sources",
        "fuzzy-typo",
        "absent",
        "blank-body",
        "no-fulltext",
        "missing-source-file",
        "source-escapes",
        "source-symlink-escapes",
        "no-body",
        "floor-not-a-number",
    ],
)
def test_quote(
    workspace: Path, payload: dict[str, str], status: VerifierStatus, method: str | None
) -> None:
    result = verify("quote", payload, workspace=workspace)
    assert result.status is status, result.detail
    if method:
        assert result.method == method
    # Only an exact needle, a real highlight or the source's own span at a fuzzy match is
    # text proven to be in the source, and of that only a whole sentence or independent
    # clause of the source may license a claim.
    whole = payload.get("body") == SOURCE or method == "fuzzy"
    proven = method in ("exact", "annotation", "fuzzy")
    assert bool(result.confirmed_source_text) == (proven and whole)
    assert json.dumps(result.to_dict())
    if status is OK:
        assert result.verdict() == Verdict(Tier.GROUNDED)


# --- expr-recompute -------------------------------------------------------------------


def recompute_payload(**overrides: Any) -> dict[str, Any]:
    return {"file": "scores.csv", "column": "score", "agg": "mean", "value": 4.0} | overrides


@pytest.mark.parametrize(
    ("overrides", "status", "detail"),
    [
        ({}, OK, "mean(score) = 4"),
        ({"where": {"group": "a"}, "value": 2}, OK, "= 2"),
        ({"where": [["score", ">=", 3]], "agg": "sum", "value": 15}, OK, "= 15"),
        ({"where": [["group", "in", ["a"]]], "agg": "count", "value": 2}, OK, "= 2"),
        ({"where": [["label", "!=", "x"]], "agg": "max", "value": 7}, OK, "= 7"),
        ({"agg": "median", "value": "4.0"}, OK, "= 4"),
        ({"agg": "nunique", "column": "label", "value": 3}, OK, "= 3"),
        ({"agg": "std", "value": 2.581988897471611}, OK, "std(score)"),
        ({"value": 4.04, "tolerance": 0.05}, OK, "declared 4.04"),
        ({"value": 5}, FAILED, "= 4 but declared 5"),
        ({"where": {"group": "a"}}, FAILED, "= 2 but declared 4"),
        ({"value": 4.04}, FAILED, "tolerance"),
        ({"agg": "mode"}, UNVERIFIABLE, "unknown aggregate 'mode'"),
        ({"agg": INJECTION}, UNVERIFIABLE, "unknown aggregate"),
        ({"where": {"group": INJECTION}}, UNVERIFIABLE, "no rows"),
        ({"where": [["score", INJECTION, 1]]}, UNVERIFIABLE, "condition"),
        ({"where": INJECTION}, UNVERIFIABLE, "where must be"),
        ({"where": [["group", "<", 3]]}, UNVERIFIABLE, "cannot compare"),
        ({"where": [["nope", "==", 1]]}, UNVERIFIABLE, "column 'nope'"),
        ({"column": "nope"}, UNVERIFIABLE, "column 'nope' is not in the CSV"),
        ({"column": "label"}, UNVERIFIABLE, "not numeric"),
        ({"where": [["score", ">", 100]]}, UNVERIFIABLE, "no rows"),
        ({"value": INJECTION}, UNVERIFIABLE, "value must be a number"),
        ({"value": "nan"}, UNVERIFIABLE, "finite"),
        ({"tolerance": -1}, UNVERIFIABLE, "negative"),
        ({"file": "missing.csv"}, UNVERIFIABLE, "not a file"),
        ({"file": "empty.csv"}, UNVERIFIABLE, "cannot read"),
        ({"file": "sources"}, UNVERIFIABLE, "not a file"),
    ],
    ids=[
        "mean",
        "where-mapping",
        "where-ge",
        "where-in-count",
        "where-ne-max",
        "median-string-value",
        "nunique-text",
        "std-sample",
        "within-tolerance",
        "wrong-value",
        "wrong-after-filter",
        "outside-default-tolerance",
        "unknown-agg",
        "agg-injection-is-data",
        "where-value-injection-is-data",
        "op-injection-is-data",
        "where-string",
        "type-mismatch",
        "where-column-missing",
        "column-missing",
        "non-numeric",
        "empty-selection",
        "value-injection-is-data",
        "value-nan",
        "negative-tolerance",
        "file-missing",
        "file-empty",
        "file-is-directory",
    ],
)
def test_recompute(
    workspace: Path,
    monkeypatch: pytest.MonkeyPatch,
    overrides: dict[str, Any],
    status: VerifierStatus,
    detail: str,
) -> None:
    monkeypatch.chdir(workspace)
    result = verify("expr-recompute", recompute_payload(**overrides), workspace=workspace)
    assert result.status is status, result.detail
    assert detail in result.detail
    assert not (workspace / "pwned").exists()
    if status is OK:
        assert (result.method, result.verdict()) == ("recompute", Verdict(Tier.MEASURED))


def test_recompute_needs_a_workspace() -> None:
    result = verify("expr-recompute", recompute_payload())
    assert result.status is UNVERIFIABLE
    assert "no workspace" in result.detail


# --- path escapes, for every verifier that reads a file ---------------------------------


@pytest.mark.parametrize(
    ("kind", "payload", "reason"),
    [
        ("expr-recompute", recompute_payload(file="../outside/secret.csv"), "'..'"),
        ("expr-recompute", recompute_payload(file="{outside}/secret.csv"), "absolute"),
        ("expr-recompute", recompute_payload(file="/etc/passwd"), "absolute"),
        ("expr-recompute", recompute_payload(file="link.csv"), "outside the workspace"),
        ("figure", {"path": "../outside/secret.png"}, "'..'"),
        ("figure", {"path": "{outside}/secret.png"}, "absolute"),
        ("figure", {"path": "link.png"}, "outside the workspace"),
        ("decision_tree", {"file": "../outside/tree.json", "target": "root"}, "'..'"),
        ("decision_tree", {"file": "link.json", "target": "root"}, "outside the workspace"),
        ("quote", {"body": "reduced", "source": "linked"}, "outside the workspace"),
    ],
    ids=[
        "csv-dotdot",
        "csv-absolute",
        "csv-etc-passwd",
        "csv-symlink",
        "figure-dotdot",
        "figure-absolute",
        "figure-symlink",
        "tree-dotdot",
        "tree-symlink",
        "quote-symlink",
    ],
)
def test_paths_outside_the_workspace_are_refused(
    workspace: Path, kind: str, payload: dict[str, Any], reason: str
) -> None:
    outside = str(workspace.parent / "outside")
    payload = {k: v.replace("{outside}", outside) if isinstance(v, str) else v
               for k, v in payload.items()}  # fmt: skip
    result = verify(kind, payload, workspace=workspace)
    assert result.status is UNVERIFIABLE
    assert reason in result.detail


# --- equation ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("payload", "status", "detail"),
    [
        ({"body": "x^2 + y^2 = z^2"}, OK, ""),
        ({"latex": r"\frac{a}{b} + \sqrt[3]{c}"}, OK, ""),
        ({"body": r"\begin{align} a &= (b) \\ c &= [d] \end{align}"}, OK, ""),
        ({"body": r"x \in \left[ 0, 1 \right)"}, OK, ""),
        ({"body": r"\{ x \mid x > 0 \}"}, OK, ""),
        ({"body": "50\\% of {n} % a comment with { in it\n+ 1"}, OK, ""),
        ({"body": "   "}, FAILED, "empty"),
        ({"body": r"\frac{a}{b"}, FAILED, "never closed"),
        ({"body": "a}"}, FAILED, "unbalanced '}'"),
        ({"body": "(a]"}, OK, ""),
        ({"body": r"x \in [0, 1)"}, OK, ""),
        ({"body": r"p \in ]0, 1[ \cup (1, 2]"}, OK, ""),
        ({"body": r"\frac{[0, 1)}{2"}, FAILED, "never closed"),
        ({"body": r"\begin{align} x \end{equation}"}, FAILED, r"\end{equation}"),
        ({"body": r"\begin{align} { \end{align} }"}, FAILED, r"\end{align}"),
        ({"body": r"\begin x"}, FAILED, "has no {name}"),
        ({"body": r"\left( x"}, FAILED, "never closed"),
        ({"body": r"x \right)"}, FAILED, r"\right"),
        ({"body": "caf\u00c3\u00a9 = 1"}, FAILED, "mojibake"),
        ({"body": "x \u00e2\u20ac\u201c y"}, FAILED, "mojibake"),
        ({"body": "x \ufffd y"}, FAILED, "mojibake"),
        ({"body": "x \\"}, FAILED, "backslash"),
        ({"body": 42}, UNVERIFIABLE, "must be a string"),
        ({}, UNVERIFIABLE, "no body or latex"),
    ],
    ids=[
        "plain",
        "latex-alias",
        "environment",
        "left-right-free-delimiters",
        "escaped-braces",
        "escaped-percent-and-comment",
        "blank",
        "unclosed-brace",
        "stray-closer",
        "half-open-bracket-paren",
        "half-open-interval",
        "reversed-brackets",
        "interval-inside-unclosed-brace",
        "mismatched-environment",
        "interleaved-environment",
        "begin-without-name",
        "left-without-right",
        "right-without-left",
        "mojibake-a-tilde",
        "mojibake-smart-quote",
        "replacement-char",
        "trailing-backslash",
        "not-a-string",
        "no-body",
    ],
)
def test_equation(payload: dict[str, Any], status: VerifierStatus, detail: str) -> None:
    result = verify("equation", payload)
    assert result.status is status, result.detail
    assert detail in result.detail
    if status is not UNVERIFIABLE:
        assert result.method == "latex"


# --- figure -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("payload", "status", "detail"),
    [
        ({"path": "figs/plot.png"}, OK, "png"),
        ({"snapshot": "figs/photo.jpg"}, OK, "jpeg"),
        ({"path": "figs/anim.gif"}, OK, "gif"),
        ({"path": "figs/pic.webp"}, OK, "webp"),
        ({"path": "figs/chart.svg"}, OK, "svg"),
        ({"path": "figs/scan.tif"}, OK, "tiff"),
        ({"path": "figs/scan-be.tiff"}, OK, "tiff"),
        ({"path": "figs/fake.tif"}, UNVERIFIABLE, "not a known image"),
        ({"path": "figs/notes.png"}, UNVERIFIABLE, "not a known image"),
        ({"path": "figs/missing.png"}, UNVERIFIABLE, "not a file"),
        ({"path": "figs"}, UNVERIFIABLE, "not a file"),
        ({}, UNVERIFIABLE, "missing"),
    ],
    ids=[
        "png",
        "jpeg-snapshot",
        "gif",
        "webp",
        "svg",
        "tiff-little-endian",
        "tiff-big-endian",
        "tiff-wrong-magic",
        "text",
        "missing",
        "directory",
        "no-path",
    ],
)
def test_figure(
    workspace: Path, payload: dict[str, str], status: VerifierStatus, detail: str
) -> None:
    result = verify("figure", payload, workspace=workspace)
    assert result.status is status, result.detail
    assert detail in result.detail


# --- decision tree ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("target", "params", "status", "detail"),
    [
        ("high_dose", {"age": 30, "dose": 20}, OK, "applies"),
        ("root", {}, OK, "applies"),
        ("arm_ok", {"age": 30, "arm": "b"}, OK, "applies"),
        ("child", {"age": 30}, FAILED, "clause excluded: age < 18"),
        ("high_dose", {"age": 30, "dose": 5}, FAILED, "clause excluded: dose > 10"),
        ("high_dose", {"age": 10}, FAILED, "clause excluded: age >= 18"),
        ("arm_ok", {"age": 30, "arm": "c"}, FAILED, 'arm in ["a", "b"]'),
        ("high_dose", {"age": 30}, UNVERIFIABLE, "parameter 'dose' is missing"),
        ("adult", {"age": "30"}, UNVERIFIABLE, "cannot compare"),
        ("flagged", {"flag": True}, UNVERIFIABLE, "cannot compare"),
        ("adult", {"age": INJECTION}, UNVERIFIABLE, "cannot compare"),
        ("nowhere", {"age": 30}, UNVERIFIABLE, "not in the tree"),
    ],
    ids=[
        "applies",
        "root-applies",
        "in-list",
        "excluded",
        "excluded-leaf",
        "excluded-by-ancestor-despite-missing",
        "not-in-list",
        "missing-param",
        "type-mismatch",
        "bool-is-not-a-number",
        "injection-is-data",
        "unknown-target",
    ],
)
def test_decision_tree_file(
    workspace: Path, target: str, params: dict[str, Any], status: VerifierStatus, detail: str
) -> None:
    payload = {"file": "tree.json", "params": params, "target": target}
    result = verify("decision_tree", payload, workspace=workspace)
    assert result.status is status, result.detail
    assert detail in result.detail
    assert result.method == "tree"


@pytest.mark.parametrize(
    ("tree", "detail"),
    [
        ({"id": "root", "children": [{"id": "root"}]}, "appears twice"),
        ({"id": "root", "when": [["age", INJECTION, 1]]}, "needs a name and one of"),
        ({"id": "root", "when": [["age", "in", 3]]}, "'in' needs a list"),
        ({"id": "root", "children": {"id": "x"}}, "must be a list"),
        ({"children": []}, "needs a string id"),
        ("root", "tree must be an object"),
    ],
    ids=["duplicate-id", "unknown-op", "in-needs-list", "children-not-list", "no-id", "not-object"],
)
def test_malformed_tree_is_unverifiable(tree: dict[str, Any] | str, detail: str) -> None:
    result = verify("decision_tree", {"tree": tree, "params": {"age": 3}, "target": "root"})
    assert result.status is UNVERIFIABLE
    assert detail in result.detail


def test_inline_tree_needs_no_workspace() -> None:
    payload = {"tree": TREE, "params": {"age": 40}, "target": "adult"}
    assert verify("decision_tree", payload).status is OK


@pytest.mark.parametrize(
    ("file", "detail"),
    [("broken.json", "cannot read tree"), ("missing.json", "not a file")],
    ids=["invalid-json", "missing"],
)
def test_unreadable_tree_file_is_unverifiable(workspace: Path, file: str, detail: str) -> None:
    result = verify("decision_tree", {"file": file, "target": "root"}, workspace=workspace)
    assert result.status is UNVERIFIABLE
    assert detail in result.detail


def test_a_quote_without_a_usable_citekey_says_so(tmp_path: Path) -> None:
    result = verify("quote", {"body": "Some quoted words.", "source": ""}, workspace=tmp_path)
    assert result.status is VerifierStatus.UNVERIFIABLE
    assert "no usable source citekey" in result.detail
