"""A hostile workspace: broken files, paths that leave the workspace and HTML in notes.

`build_hostile(root)` writes it and returns a `Hostile` naming what a load must report,
which notes must load, which carry paths leading outside, and which carry markup. Every
file outside the workspace holds `canary`, so any output that shows it read too far.
"""

from __future__ import annotations

import os
import uuid
from dataclasses import dataclass
from pathlib import Path

HUGE_BYTES = 50 * 1024 * 1024
SCRIPT = "<script>alert('xss')</script>"
IMG = "<img src=x onerror=alert(1)>"
HOVER = "<b onmouseover=alert(2)>hover</b>"
BOX, PEER = "lab", "peer"
# Words shared by the good notes and the questions, so answers reach the hostile ones too.
TOPIC = "momentum profits persist after trading costs"
# Notes that load but whose figure, data, tree, tether or source leads outside.
LEAKY_IDS = (
    "leak-figure-climb",
    "leak-figure-abs",
    "leak-figure-link",
    "leak-data",
    "leak-tree",
    "leak-tether-abs",
    "leak-tether-link",
    "leak-citekey",
    "leak-source",
)


@dataclass(frozen=True)
class Hostile:
    """What `build_hostile` wrote: paths, the canary, and the expected load outcome."""

    root: Path
    outside: Path
    canary: str
    refused: tuple[tuple[str, str], ...]  # (relative path, words the report must give)
    good: tuple[str, ...]  # addresses that must load
    leaky: tuple[str, ...]  # loaded notes whose evidence points outside the workspace
    marked: tuple[str, ...]  # loaded notes with HTML in their title, body or quotes
    questions: tuple[str, ...]


def note(note_id: str, title: str, body: str, *, kind: str = "finding", **fields: str) -> str:
    """A note file's text; `fields` are extra front matter lines, already in YAML."""
    extra = "".join(f"{key}: {value}\n" for key, value in fields.items())
    return f"---\nid: {q(note_id)}\ntype: {kind}\ntitle: {q(title)}\n{extra}---\n{body}\n"


def q(text: str) -> str:
    """`text` as a double-quoted YAML scalar."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def build_hostile(root: Path, *, outside: Path | None = None, huge: bool = True) -> Hostile:
    """Write the hostile workspace at `root` and its canary files at `outside`."""
    outside = outside or root.parent / f"{root.name}-outside"
    canary = f"CANARY-{uuid.uuid4().hex}"
    climb = os.path.relpath(outside, root)
    canon, practice = root / ".zettelkasten" / BOX, root / ".memory"
    for folder in (canon, root / ".zettelkasten" / PEER, practice, outside / "box"):
        folder.mkdir(parents=True, exist_ok=True)
    for name in ("sources", "figures", "data", "trees", "src"):
        (root / name).mkdir(exist_ok=True)

    # Outside: each file would make its check pass if it were read, and shows the canary.
    # Read through a leak, the quote would match around the canary or show it as a near miss.
    leaked_quote = "Momentum profits persist after trading costs in the outside sample."
    (outside / "canary.txt").write_text(
        f"Momentum profits persist after trading costs {canary} in the outside sample.\n",
        encoding="utf-8",
    )
    (outside / "canary.png").write_bytes(b"\x89PNG\r\n\x1a\n" + canary.encode() + bytes(64))
    (outside / "canary.csv").write_text(f"ret,tag\n0.5,{canary}\n", encoding="utf-8")
    (outside / "canary.json").write_text(
        f'{{"id": "root", "note": "{canary}", "children": []}}', encoding="utf-8"
    )
    (outside / "canary.py").write_text(f"def anchor():\n    return '{canary}'\n")
    evil = note("evil", f"Evil {canary}", f"{TOPIC} {canary}")
    (outside / "evil.md").write_text(evil, encoding="utf-8")
    (outside / "box" / "evil.md").write_text(evil, encoding="utf-8")
    for link, target in (
        ("figures/leak.png", "canary.png"),
        ("data/leak.csv", "canary.csv"),
        ("src/leak.py", "canary.py"),
        ("sources/leaky.txt", "canary.txt"),
        (f".zettelkasten/{BOX}/outside-link.md", "evil.md"),
        (".zettelkasten/escape", "box"),
    ):
        (root / link).symlink_to(outside / target)

    (root / "workspace.toml").write_text(
        f'[[federated]]\nrepo = "climb"\nbox = "b"\npath = "{climb}/box"\n\n'
        f'[[federated]]\nrepo = "abs"\nbox = "b"\npath = "{outside}/box"\n',
        encoding="utf-8",
    )
    files: dict[str, str | bytes] = {}
    refused: list[tuple[str, str]] = [
        (f"{climb}/box", "climbs out with '..'"),
        (f"{outside}/box", "is not allowed"),
        (".zettelkasten/escape", "leads outside the workspace"),
        (f".zettelkasten/{BOX}/outside-link.md", "symlink not followed"),
    ]

    def bad(name: str, content: str | bytes, reason: str) -> None:
        files[f".zettelkasten/{BOX}/{name}"] = content
        refused.append((f".zettelkasten/{BOX}/{name}", reason))

    bad("broken-yaml.md", "---\nid: [unclosed\ntitle: {\n---\nbody\n", "bad YAML front matter")
    bad("binary.md", b"---\nid: bin\n---\n\x00\x01\x02\xff" * 50, "binary file (contains NUL")
    latin = note("latin", "Caf\u00e9 cr\u00e8me", "Accents in Latin-1.").encode("latin-1")
    bad("latin1.md", latin, "not UTF-8")
    bad("climb-id.md", note(f"{climb}/evil", "Climbing id", TOPIC), "is not address-safe")
    bad("abs-id.md", note(str(outside / "evil"), "Absolute id", TOPIC), "is not address-safe")
    bad(
        "twin2.md",
        note("twin", "Twin again", TOPIC),
        f"duplicate id 'twin' in {BOX} (kept .zettelkasten/{BOX}/twin.md)",
    )

    leaks = {
        "leak-figure-climb": ({"figure": q(f"{climb}/canary.png")}, "figure: path"),
        "leak-figure-abs": ({"figure": q(f"{outside}/canary.png")}, "figure: absolute path"),
        "leak-figure-link": ({"figure": "figures/leak.png"}, "leads outside the workspace"),
        "leak-data": (
            {"data": "{file: data/leak.csv, column: ret, agg: mean, value: 0.5}"},
            "data file: path 'data/leak.csv' leads outside the workspace",
        ),
        "leak-tree": (
            {"tree": f"{{file: {q(f'{climb}/canary.json')}, params: {{}}, target: root}}"},
            "tree file: path",
        ),
        "leak-tether-abs": (
            {"tether": f"{{path: {q(f'{outside}/canary.py')}, anchor: anchor}}"},
            "tether path: absolute path",
        ),
        "leak-tether-link": (
            {"tether": "{path: src/leak.py, anchor: anchor}"},
            "tether path: path 'src/leak.py' leads outside the workspace",
        ),
        "leak-citekey": (
            {"source": q(f"{climb}/canary"), "quotes": f"[{{body: {q(leaked_quote)}}}]"},
            "is not a usable citekey",
        ),
    }
    for name, (fields, reason) in leaks.items():
        title = f"Leaky {name.removeprefix('leak-')}: {TOPIC}"
        files[f".zettelkasten/{BOX}/{name}.md"] = note(name, title, f"{TOPIC}.", **fields)
        refused.append((f".zettelkasten/{BOX}/{name}.md", reason))
    # Loads cleanly: the symlinked source text is only refused when a verifier asks for it.
    leaky_quote = {"source": "leaky", "quotes": f"[{{body: {q(leaked_quote)}}}]"}
    files[f".zettelkasten/{BOX}/leak-source.md"] = note(
        "leak-source", f"Leaky source: {TOPIC}", f"{TOPIC}.", **leaky_quote
    )

    marked_body = f"Momentum profits persist {IMG} after trading costs. {SCRIPT} {HOVER}"
    marked_quote = f"Momentum profits persist {IMG} after trading costs."
    (root / "sources" / "marked.txt").write_text(
        f"{marked_quote} Nothing else {SCRIPT}.\n", encoding="utf-8"
    )
    files[f".zettelkasten/{BOX}/marked.md"] = note(
        "marked",
        f"{SCRIPT} Momentum persists {IMG}",
        marked_body,
        source="marked",
        quotes=f"[{{body: {q(marked_quote)}}}, {{body: {q(f'{HOVER} profits persist')}}}]",
        links="[{target: good-1, relation: supports}]",
    )
    files[f".zettelkasten/{BOX}/marked-id.md"] = note(
        "<script>alert(3)", f"Marked id {HOVER}", f"{TOPIC} {IMG}."
    )
    files[".memory/marked-decision.md"] = note(
        "marked-decision",
        f"We trade momentum {SCRIPT}",
        f"Momentum profits persist after trading costs, so we trade it {IMG}.",
        kind="decision",
    )

    good_text = "Momentum profits persist after trading costs in every sample we examined."
    (root / "sources" / "good.txt").write_text(f"{good_text}\n", encoding="utf-8")
    files[f".zettelkasten/{BOX}/good-1.md"] = note(
        "good-1",
        "Momentum survives costs",
        good_text,
        source="good",
        quotes=f"[{{body: {q(good_text)}}}]",
    )
    files[f".zettelkasten/{BOX}/good-2.md"] = note(
        "good-2",
        "Value is flat",
        "Value returns were flat over the sample.",
        links="[{target: good-1, relation: related}]",
    )
    files[f".zettelkasten/{BOX}/twin.md"] = note("twin", "Twin here", "The same id, first.")
    files[f".zettelkasten/{PEER}/twin.md"] = note("twin", "Twin there", "The same id, a peer.")
    files[".memory/good-decision.md"] = note(
        "good-decision", "Keep trading momentum", "We keep trading momentum.", kind="decision"
    )
    for relative, content in files.items():
        path = root / relative
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")

    fifo = f".zettelkasten/{BOX}/fifo.md"
    os.mkfifo(root / fifo)
    refused.append((fifo, "not a regular file"))
    if huge:
        refused.append((f".zettelkasten/{BOX}/huge.md", f"file is {HUGE_BYTES:,} bytes, over"))
        with (root / refused[-1][0]).open("wb") as stream:
            stream.write(note("huge", "Huge", TOPIC).encode())
            # Sparse: the size is what the loader must refuse, so no need to fill it.
            stream.truncate(HUGE_BYTES)

    good = (
        f"zk:{BOX}:good-1",
        f"zk:{BOX}:good-2",
        f"zk:{BOX}:twin",
        f"zk:{PEER}:twin",
        "mem:_memory:good-decision",
    )
    assert (*leaks, "leak-source") == LEAKY_IDS
    leaky = tuple(f"zk:{BOX}:{name}" for name in LEAKY_IDS)
    marked = (f"zk:{BOX}:marked", f"zk:{BOX}:<script>alert(3)", "mem:_memory:marked-decision")
    questions = (
        "Do momentum profits persist after trading costs?",
        "What does the evil note outside the workspace say?",
        "Does the leaky figure, data, tree, tether or citekey show momentum persists?",
        "Is the momentum signal marked with a script or an image?",
    )
    return Hostile(root, outside, canary, tuple(refused), good, leaky, marked, questions)
