import pytest

from engine.core.jsonsafe import MAX_DEPTH, depth_exceeds, loads


@pytest.mark.parametrize(
    ("data", "problem"),
    [
        (b'{"a": "caf\xe9"}', "not valid UTF-8"),
        ("[" * 100_000 + "]" * 100_000, "nested deeper"),
        ("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1), "nested deeper"),
        ('{"a": ', "Expecting value"),
    ],
    ids=["bad-utf8", "recursion-deep", "just-past-the-bound", "truncated"],
)
def test_bad_json_is_a_value_error_naming_the_problem(data: bytes | str, problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        loads(data)


def test_json_up_to_the_bound_loads() -> None:
    nested = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    assert depth_exceeds(loads(nested), MAX_DEPTH) is False
    assert loads(b'{"a": [1, {"b": null}]}') == {"a": [1, {"b": None}]}
    assert loads("3") == 3
