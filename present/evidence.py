"""What a citation opens, as HTML: the note, abstract or source page, the quote marked."""

from __future__ import annotations

from engine import Evidence, EvidenceKind
from present.markup import esc, quote_mark_style

_OPENS = {
    EvidenceKind.NOTE: "the note",
    EvidenceKind.ABSTRACT: "the abstract",
    EvidenceKind.SOURCE: "the source text",
    EvidenceKind.UNKNOWN: "nothing: this workspace holds no note at this address",
}


def source_label(item: Evidence) -> str:
    """A citation's link text: "Author Year — title", the title alone, or the address."""
    if item.title and item.title != item.label:
        return f"{item.label} — {item.title}"
    return item.label


def evidence_html(item: Evidence) -> str:
    """The cited note's text with every sentence the answer quotes from it marked.

    A source page with the quote on it comes first when the workspace has the full text.
    Every text is escaped; each mark sets its own text colour, so it reads in both themes.
    """
    mark = quote_mark_style()
    heading = item.citation or item.label
    title = f"<br><small>{esc(item.title)}</small>" if item.title not in heading else ""
    head = (
        f"<div class='evidence' title='{esc(item.address)}'><b>{esc(heading)}</b>{title}"
        f"<br><small>Opens {esc(_OPENS[item.kind])}</small>"
    )
    parts = [head]
    context = item.context
    if context is not None:
        quoted = f"<mark class='quoted' style='{mark}'>{esc(context.sentence)}</mark>"
        parts.append(
            f"<p style='margin:8px 0 2px'><small>Page {context.page} of the source text"
            "</small></p><div class='evidence-page' style='font-size:0.92em;line-height:1.6'>"
            f"<span style='opacity:0.8'>{esc(context.before)}</span> {quoted} "
            f"<span style='opacity:0.8'>{esc(context.after)}</span></div>"
        )
        if item.hidden:
            lines = f"{item.hidden} line{'s' if item.hidden != 1 else ''}"
            parts.append(
                f"<p style='margin:4px 0'><small>The PDF also holds {lines} of text on this "
                "page that a reader does not see (invisible, white, off the page, too small, "
                "clipped or covered): left out of the source text.</small></p>"
            )
        page = context.page_parts()
        if page is not None:
            before, sentence, after = page
            marked = f"<mark class='quoted' style='{mark}'>{esc(sentence)}</mark>"
            body = esc(before) + marked + esc(after)
            parts.append(
                f"<details style='margin-top:6px'><summary>Read all of page {context.page}"
                "</summary><div style='white-space:pre-wrap;max-height:26em;overflow:auto;"
                f"font-size:0.9em;line-height:1.6'>{body}</div></details>"
            )
    elif item.pieces:
        body = "".join(
            f"<mark class='quoted' style='{mark}'>{esc(p.text)}</mark>" if p.quoted else esc(p.text)
            for p in item.pieces
        )
        parts.append(
            "<div class='evidence-note' style='white-space:pre-wrap;max-height:26em;"
            f"overflow:auto;font-size:0.92em;line-height:1.6;margin-top:8px'>{body}</div>"
        )
    if item.kind is not EvidenceKind.UNKNOWN and not item.found:
        parts.append("<p><small>The quoted words were not found in this text.</small></p>")
    parts.append("</div>")
    return "".join(parts)
