"""HTML of the chat page's side panels; everything from a source or a user is escaped."""

from __future__ import annotations

from html import escape
from urllib.parse import urlparse

from codeweaver.ui.session import Citation, ThreadSnapshot

SOURCE_LABELS = {
    "stackoverflow": "Stack Overflow",
    "github": "GitHub code",
    "docs": "Official docs",
    "local": "Local documents",
}


def _where(citation: Citation) -> str:
    if citation.url and urlparse(citation.url).scheme in ("http", "https"):
        link = escape(citation.url, quote=True)
        return (
            f'<a href="{link}" target="_blank" rel="noopener noreferrer">{escape(citation.url)}</a>'
        )
    place = citation.file or citation.url or ""
    if citation.locator.startswith(place):
        # The locator already names the file (`file § section`): show it once.
        return f"<code>{escape(citation.locator)}</code>"
    locator = f" ({escape(citation.locator)})" if citation.locator else ""
    return f"<code>{escape(place)}</code>{locator}"


def sources_html(citations: list[Citation]) -> str:
    """The sources panel: number, title, source type and link or file of each citation."""
    if not citations:
        return '<div id="cw-sources-empty">No sources for this answer.</div>'
    rows = "".join(
        "<tr>"
        f'<td class="cw-n">[{c.n}]</td>'
        f'<td class="cw-title">{escape(c.title)}</td>'
        f'<td class="cw-source">{escape(SOURCE_LABELS.get(c.source, c.source))}</td>'
        f'<td class="cw-where">{_where(c)}</td>'
        "</tr>"
        for c in citations
    )
    return (
        '<table class="cw-sources-table"><thead><tr><th>#</th><th>Title</th><th>Source</th>'
        f"<th>Link or file</th></tr></thead><tbody>{rows}</tbody></table>"
    )


def details_html(snapshot: ThreadSnapshot | None) -> str:
    """Route and why, cache hit, warning and recorded failures of the last turn."""
    if snapshot is None or snapshot.route is None:
        return '<div class="cw-details">Ask a programming question to start.</div>'
    parts = [
        f'<div class="cw-route">Route: <b>{escape(snapshot.route)}</b>'
        f" — {escape(snapshot.routing_reason or '')}</div>"
    ]
    if snapshot.cache_hit:
        similarity = (
            f" (similarity {snapshot.cache_similarity:.2f})"
            if snapshot.cache_similarity is not None
            else ""
        )
        parts.append(f'<div class="cw-cache">⚡ Served from the cache{similarity}</div>')
    else:
        parts.append('<div class="cw-cache">Fresh answer (not from the cache)</div>')
    if snapshot.warning:
        parts.append(f'<div class="cw-warning">⚠ {escape(snapshot.warning)}</div>')
    if snapshot.errors:
        items = "".join(f"<li>{escape(e)}</li>" for e in snapshot.errors)
        parts.append(f'<details class="cw-errors"><summary>{len(snapshot.errors)} source or '
                     f"model failure(s), recorded</summary><ul>{items}</ul></details>")  # fmt: skip
    parts.append(f'<div class="cw-thread">Thread <code>{escape(snapshot.thread_id)}</code></div>')
    return '<div class="cw-details">' + "".join(parts) + "</div>"


def notice_html(text: str, *, error: bool = False) -> str:
    """A one-line notice (progress, or an error the user must act on)."""
    kind = "cw-error" if error else "cw-progress"
    return f'<div class="{kind}">{escape(text)}</div>'
