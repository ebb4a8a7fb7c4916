"""The app's HTML vocabulary: escaping, the colour keys, their chips and legend strips."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass

from engine import (
    reveal,
)


@dataclass(frozen=True)
class Swatch:
    """One legend entry: a name, its colour and what it means."""

    name: str
    colour: str
    meaning: str
    label: str = ""  # what a reader is shown, where the name is a store's wire value

    @property
    def shown(self) -> str:
        return self.label or self.name


# The one status legend the whole app uses: graph nodes, chips in tables and the key.
status_swatches = (
    Swatch("measured", "#1f5fa8", "reproduced from data"),
    Swatch("grounded", "#2e8b57", "verified against a source"),
    Swatch("inferred", "#e0a100", "goes beyond what was verified"),
    Swatch("assumption", "#8e7cc3", "taken as given"),
)
status_colours = {s.name: s.colour for s in status_swatches}
unknown_colour = "#9aa0a6"
flag_mark = Swatch(
    "stale · outdated · contested · unresolved",
    "#c0392b",
    "dashed red border; the flags are named on the node",
)
missing_mark = Swatch(
    "missing hop",
    "#b03a2e",
    "solid red with white text: a premise not written yet, or cited but never checked",
)
violation_mark = Swatch(
    "honesty violation",
    "#111111",
    "thick black border and ⚠: asserted above what the engine derived",
)

# Traceability highlights, one colour per finding.
trace_swatches = (
    Swatch("licensed", "#d4efd9", "restates one verified claim"),
    Swatch("orphan", "#f9c9c9", "a sentence no verified claim licenses"),
    Swatch("uncited", "#ffd58a", "words outside every prose citation"),
    Swatch("number", "#d9c8f5", "a number in an orphan sentence"),
)
trace_colours = {s.name: s.colour for s in trace_swatches}
# Text on a highlight is always set with it: in the dark theme the page's text is light, and
# light text on a pastel highlight cannot be read.
HIGHLIGHT_TEXT = "#1f2328"
QUOTE_MARK = "#fde68a"  # a quoted sentence in its source


def quote_mark_style() -> str:
    """The inline style of a quoted sentence's mark: its background and its own text colour."""
    return f"background:{QUOTE_MARK};color:{HIGHLIGHT_TEXT}"


def relative_luminance(colour: str) -> float:
    """The WCAG relative luminance of a `#rrggbb` colour."""
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(first: str, second: str) -> float:
    """The WCAG contrast ratio of two `#rrggbb` colours (1 to 21)."""
    a, b = sorted((relative_luminance(first), relative_luminance(second)), reverse=True)
    return (a + 0.05) / (b + 0.05)


def text_on(background: str) -> str:
    """Black or white text, whichever reads better on `background` (at least 4.5:1 on any
    colour of the app's palette)."""
    return (
        "#000000"
        if contrast(background, "#000000") >= contrast(background, "#ffffff")
        else "#ffffff"
    )


# Stores in the navigation graph.
store_swatches = (
    Swatch("zk", "#4e79a7", "canon notes (circles)", "canon"),
    Swatch("mem", "#f28e2b", "practice entries (squares)", "practice"),
    Swatch("code", "#59a14f", "code files (triangles)"),
)
store_colours = {s.name: s.colour for s in store_swatches}

# Relations in the claim matrix, and the marks of a cell's triage state.
relation_swatches = (
    Swatch("supports", "#2e8b57", "the practice entry agrees with the canon claim"),
    Swatch("contradicts", "#c0392b", "the practice entry contradicts the canon claim"),
    Swatch("tension", "#d68910", "a possible tension, below the measured contradiction bar"),
    Swatch("extends", "#1f5fa8", "the practice entry goes beyond the canon claim"),
)
relation_colours = {s.name: s.colour for s in relation_swatches}
triage_marks = {
    "confirmed": "✓",
    "practice-wrong": "✎",
    "scope-differs": "≈",
    "dismissed": "✗",
    "follow-up": "?",
}

_markdown_specials = re.compile(r"([\\`*_\[\]<>|~$])")
_markdown_block_start = re.compile(r"^([#+=-]|\d+(?=[.)]))")
# Streamlit's Markdown turns bare addresses into live links, backslash escapes or not; an
# invisible word joiner after a scheme or `www` and before every `@` keeps them text.
_autolink = re.compile(r"(?i)\b([a-z][a-z0-9+.-]*(?=://)|www(?=\.))|(?=@)")
WORD_JOINER = "\u2060"


def esc(text: object) -> str:
    """`text` as HTML-escaped text, quotes included, invisible format characters shown."""
    return html.escape(reveal(str(text)), quote=True)


def md_escape(text: object) -> str:
    """`text` on one line with every Markdown control character backslash-escaped.

    Invisible format characters (a bidi override) are shown as their codes first, so what
    is displayed is what was compared.
    """
    flat = _markdown_specials.sub(r"\\\1", " ".join(reveal(str(text)).split()))
    flat = _autolink.sub(lambda m: (m.group(1) or "") + WORD_JOINER, flat)
    # Block syntax only counts at the start of a line: a heading, list or rule marker there.
    return _markdown_block_start.sub(
        lambda m: m.group(1) + "\\" if m.group(1)[0].isdigit() else "\\" + m.group(1), flat
    )


def page_link_css() -> str:
    """A style sheet that makes page links look like links: underlined, in the link colour.

    The sidebar's page list keeps its own look. Underlined text in the theme's own text
    colour reads in both themes.
    """
    return (
        "<style>"
        "[data-testid='stMain'] a[data-testid='stPageLink-NavLink'] p,"
        "[data-testid='stMain'] a[data-testid='stPageLink-NavLink'] span"
        "{text-decoration:underline;text-underline-offset:3px;text-decoration-thickness:1px}"
        "[data-testid='stMain'] a[data-testid='stPageLink-NavLink']:hover p"
        "{text-decoration-thickness:2px}"
        "</style>"
    )


QUESTION_HINT = "Enter asks, Shift+Enter: new line"


def question_hint_css(key: str) -> str:
    """A style sheet that puts the box's one true key hint where Streamlit writes its own.

    A form's text area says "Press Ctrl+Enter to submit form" under the box, which beside
    the app's Enter hook was a second, conflicting hint. Its words are replaced by
    `QUESTION_HINT` (the character count beside them stays); `key` is the app's widget key.
    """
    where = f".st-key-{key} [data-testid='InputInstructions'] > span:first-child"
    return (
        f"<style>{where}{{font-size:0}}"
        f"{where}::after{{content:{json.dumps(QUESTION_HINT)};font-size:0.75rem}}</style>"
    )


def enter_asks_html(key: str, button: str) -> str:
    """A tiny page whose script makes Enter in the text area keyed `key` submit its form
    (through the form's button keyed `button` when the text did not change).

    Shift+Enter still starts a new line; Ctrl+Enter (⌘+Enter) submits as Streamlit does. The
    script sends the text area the Ctrl+Enter Streamlit listens for, so the typed text is
    committed with the submit. Both keys are the app's own widget keys, never user text.
    """
    selector = json.dumps(f".st-key-{key} textarea")
    button = json.dumps(f".st-key-{button} button")
    # One listener on the app's document (replaced whenever this frame loads), so a box
    # Streamlit draws anew after a rerun is still hooked.
    return (
        "<script>(function(){const doc=window.parent.document;"
        "if(doc.__enterAsks){doc.removeEventListener('keydown',doc.__enterAsks,true);}"
        "doc.__enterAsks=function(e){const box=e.target;"
        f"if(!box||!box.matches||!box.matches({selector})){{return;}}"
        "if(e.key!=='Enter'||e.shiftKey||e.ctrlKey||e.metaKey||e.altKey||e.isComposing){return;}"
        "e.preventDefault();e.stopPropagation();"
        "const sent=new KeyboardEvent('keydown',{key:'Enter',code:'Enter',keyCode:13,"
        "which:13,ctrlKey:true,bubbles:true,cancelable:true});"
        # Streamlit handles Ctrl+Enter only when the text changed; otherwise press the button.
        f"if(box.dispatchEvent(sent)){{const ask=doc.querySelector({button});"
        "if(ask){ask.click();}}};"
        "doc.addEventListener('keydown',doc.__enterAsks,true);})();</script>"
    )


# At this width and below the sidebar starts folded, once per browser tab, so the page gets
# the whole window; Streamlit folds it on its own only below 768 px.
FOLD_SIDEBAR_WIDTH = 960


def fold_sidebar_js(width: int = FOLD_SIDEBAR_WIDTH) -> str:
    """A script, run in a frame of the app, that folds the open sidebar once per tab when the
    app's window is `width` px or less.

    Once per tab, so a reader who opens it again keeps it open; the fold waits for the
    sidebar's button, which Streamlit may draw after the frame loads.
    """
    return (
        "<script>(function(){const w=window.parent;const doc=w.document;"
        f"if(w.innerWidth>{int(width)}||w.sessionStorage.getItem('synapseFolded')){{return;}}"
        "let tries=0;const fold=function(){"
        "const button=doc.querySelector("
        "'[data-testid=\"stSidebarCollapseButton\"] button[aria-expanded]');"
        "if(button){if(button.getAttribute('aria-expanded')==='true'){button.click();}"
        "w.sessionStorage.setItem('synapseFolded','1');return;}"
        "if(++tries<40){setTimeout(fold,100);}};fold();})();</script>"
    )


def cite_clicks_html(page: str) -> str:
    """A tiny page whose script makes a click on an answer's `[n]` marker open its source.

    The marker carries its source's place in the Sources list; the script presses that
    source's button (keyed `{page}_cite_{place}`, the page's own widget) unless it is open
    already (keyed `…_open`), then scrolls the opened text into view. `page` is the app's
    own page key, never user text; the place is read as an integer.
    """
    prefix = json.dumps(f".st-key-{page}_cite_")
    box = json.dumps(f".st-key-{page}_evidence")
    return (
        "<script>(function(){const doc=window.parent.document;"
        "if(doc.__citeClicks){doc.removeEventListener('click',doc.__citeClicks,true);}"
        "doc.__citeClicks=function(e){"
        "const mark=e.target&&e.target.closest?e.target.closest('a.cite-mark'):null;"
        "if(!mark){return;}e.preventDefault();"
        "const place=parseInt(mark.getAttribute('data-source'),10);"
        "if(!(place>=0)){return;}"
        f"const open=doc.querySelector({prefix}+place+'_open');"
        f"const button=doc.querySelector({prefix}+place+' button');"
        "if(!open&&button){button.click();}"
        "let tries=0;const show=function(){"
        f"const shown=doc.querySelector({box});"
        "if(shown&&(open||tries>0)){shown.scrollIntoView({block:'center'});return;}"
        "if(tries++<40){setTimeout(show,150);}};show();};"
        "doc.addEventListener('click',doc.__citeClicks,true);})();</script>"
    )


PLAIN = "#ffffff"  # a legend chip without a colour of its own: drawn in the theme's


def legend_html() -> str:
    """The app's one status legend as an HTML strip."""
    chips = [_chip(s.name, s.colour, s.meaning) for s in status_swatches]
    chips.append(
        _chip(flag_mark.name, "#ffffff", flag_mark.meaning, border=f"2px dashed {flag_mark.colour}")
    )
    chips.append(_missing_chip())
    chips.append(
        _chip(
            "⚠ " + violation_mark.name,
            "#ffffff",
            violation_mark.meaning,
            border=f"3px solid {violation_mark.colour}",
        )
    )
    return _strip(chips)


def _missing_chip() -> str:
    return _chip(missing_mark.name, missing_mark.colour, missing_mark.meaning)


def trace_legend_html() -> str:
    """The traceability highlight key as an HTML strip."""
    return _strip([_chip(s.name, s.colour, s.meaning) for s in trace_swatches])


def store_legend_html() -> str:
    """The navigation graph's store colours and marks as an HTML strip."""
    chips = [_chip(s.shown, s.colour, s.meaning) for s in store_swatches]
    chips.append(
        _chip("new at this step", "#ffffff", "added or acted on", border="3px solid #e15759")
    )
    chips.append(
        _chip("not expanded", "#ffffff", "links not followed yet", border="2px dashed #555")
    )
    grounded = _chip("✓ grounded", "#ffffff", "checked by a verifier", border="3px solid #2e7d32")
    chips.append(grounded)
    chips.append(_chip("★ cited", "#ffffff", "cited by the answer", border="2px solid #b8860b"))
    chips.append(_missing_chip())
    return _strip(chips)


def relation_legend_html() -> str:
    """The matrix colours and cell marks as an HTML strip."""
    chips = [_chip(s.name, s.colour, s.meaning) for s in relation_swatches]
    chips.append(_chip("darker = more confident", "#ffffff", "intensity is the typer's confidence"))
    marks = ", ".join(f"{mark} {name}" for name, mark in triage_marks.items())
    chips.append(_chip(f"⚑ contested · {marks}", "#ffffff", "triage state of the cell"))
    return _strip(chips)


def _strip(chips: Sequence[str]) -> str:
    return f'<div style="display:flex;flex-wrap:wrap;gap:6px;margin:4px 0">{"".join(chips)}</div>'


def _chip(name: str, colour: str, meaning: str, *, border: str = "") -> str:
    # A key with no colour of its own (a mark, a border) takes the theme's background and
    # text: a white chip is a bright block in the dark theme.
    if colour == PLAIN:
        paint, edge = "background:transparent;color:inherit", "1px solid rgba(128,128,128,.6)"
    else:
        paint, edge = f"background:{colour};color:{text_on(colour)}", "1px solid transparent"
    style = f"{paint};padding:2px 8px;border-radius:10px;font-size:0.85em;border:{border or edge}"
    return f'<span style="{style}" title="{esc(meaning)}">{esc(name)}</span>'


def status_chip(status: str | None, flags: Sequence[str] = (), *, violation: bool = False) -> str:
    """An HTML chip for a derived status with its flags and violation mark."""
    colour = status_colours.get(status or "", unknown_colour)
    border = "1px solid transparent"
    if flags:
        border = f"2px dashed {flag_mark.colour}"
    if violation:
        border = f"3px solid {violation_mark.colour}"
    text = (status or "no verdict") + "".join(f" · {f}" for f in flags)
    if violation:
        text = "⚠ " + text
    style = (
        f"background:{colour};color:{text_on(colour)};padding:1px 7px;border-radius:9px;"
        f"white-space:nowrap;border:{border}"
    )
    return f'<span style="{style}">{esc(text)}</span>'
