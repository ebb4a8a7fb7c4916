"""Write the public face's lists from its `TYPE_CHECKING` imports, and docs/API.md.

After adding or removing an import in `engine/__init__.py`'s `TYPE_CHECKING` block, run
`python -m tools.api_doc`: it rewrites the lazy table (`_EXPORTS`) and `__all__` there,
literally, and docs/API.md with the first line of each docstring. tests/test_public_face.py
fails while any of them names other exports.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HEAD = """# The public face

Everything a page, a renderer, a tool or a user imports comes from `engine`
(`from engine import ask`); a name not listed here is internal and may change. Each name is
listed under the module that defines it, with the first line of its docstring. Written by
`python -m tools.api_doc`.
"""


def groups() -> list[tuple[str, list[str]]]:
    """(module, names) in the order the `TYPE_CHECKING` imports of the face list them."""
    tree = ast.parse((ROOT / "engine" / "__init__.py").read_text(encoding="utf-8"))
    block = next(n for n in tree.body if isinstance(n, ast.If))
    return [
        (node.module, [a.asname or a.name for a in node.names])
        for node in block.body
        if isinstance(node, ast.ImportFrom) and node.module
    ]


def summary(value: object) -> str:
    if callable(value) or isinstance(value, type):
        lines = (getattr(value, "__doc__", None) or "").strip().splitlines()
        return lines[0].strip() if lines else ""
    return f"a constant ({type(value).__name__})"


def _ruff_order(name: str) -> tuple[int, str]:
    """The order ruff keeps `__all__` in: constants, then classes, then the rest."""
    kind = 0 if name.isupper() else 1 if name[:1].isupper() else 2
    return kind, name


def write_face() -> None:
    """Rewrite `_EXPORTS` and `__all__` in engine/__init__.py from its imports."""
    path = ROOT / "engine" / "__init__.py"
    text = path.read_text(encoding="utf-8")
    pairs = [(name, module) for module, names in groups() for name in names]
    table = "".join(f'    "{name}": "{module}",\n' for name, module in pairs)
    listed = "".join(f'    "{name}",\n' for name in sorted((n for n, _ in pairs), key=_ruff_order))
    start = text.index("_EXPORTS: dict[str, str] = {")
    end = text.index("def __getattr__")
    face = f"_EXPORTS: dict[str, str] = {{\n{table}}}\n\n__all__ = [\n{listed}]\n\n\n"
    path.write_text(text[:start] + face + text[end:], encoding="utf-8")


def main() -> None:
    write_face()
    lines = [HEAD]
    for module, names in groups():
        lines += [f"## `{module}`", ""]
        loaded = importlib.import_module(module)
        for name in names:
            said = summary(getattr(loaded, name))
            lines.append(f"- `{name}`" + (f": {said}" if said else ""))
        lines.append("")
    (ROOT / "docs" / "API.md").write_text("\n".join(lines).rstrip() + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
