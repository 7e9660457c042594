"""Sources on the site: citations resolved against the registry, in the page's language.

A ruling, a rule set and an engine declaration cite documents of ``data/sources.toml`` by id
(:mod:`judge.sources`); here each citation becomes what a page shows: the document's title in
the page's language, its authority as a label (official, official as quoted, community), its
date (the fullest the document gives, or "undated"), its note, its link where it is public,
and the names of the sections cited. Citations of one document are shown together.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from judge.langs import N_
from judge.sources import Citation, Document, grouped, rests_on_official

#: The authority labels, in the page's language through the catalogues.
AUTHORITY_NAMES: dict[str, str] = {
    "official": N_("official"),
    "official-quoted": N_("official, as quoted"),
    "community": N_("community"),
}
#: The label after each sentence a ruling marks as the project's own reading.
INTERPRETATION = N_("this project's interpretation")
#: What the sources list says under a ruling that marks such sentences.
INTERPRETATION_NOTE = N_("Sentences marked “this project's interpretation” are this "
                         "project's reading where the sources are silent; they are not "
                         "sources.")
UNDATED = N_("undated")
#: The search filter on what a ruling rests on, and its two values.
BASIS = N_("Sources")
BASIS_OFFICIAL = N_("official text")
BASIS_COMMUNITY = N_("community only")


def basis(citations: Iterable[Citation], registry: Mapping[str, Document],
          translate: Callable[[str], str]) -> str:
    """The search filter's value for a ruling with these citations, in the page's language."""
    return translate(BASIS_OFFICIAL if rests_on_official(citations, registry)
                     else BASIS_COMMUNITY)


def entries(citations: Iterable[Citation | str], registry: Mapping[str, Document], lang: str,
            translate: Callable[[str], str]) -> list[dict[str, Any]]:
    """One entry per cited document, in the order first cited, with the sections cited."""
    cited = [c if isinstance(c, Citation) else Citation.of(c) for c in citations]
    out = []
    for doc_id, sections in grouped(cited).items():
        doc = registry.get(doc_id)
        if doc is None:  # the loaders refuse such a citation; never shown
            continue
        out.append({
            "id": doc.id, "title": doc.title(lang), "url": doc.url,
            "authority": doc.authority,
            "authority_name": translate(AUTHORITY_NAMES[doc.authority]),
            "date": doc.date or translate(UNDATED), "dated": bool(doc.date),
            "note": doc.note.get(lang) or doc.note.get("ja", ""),
            "sections": [doc.sections[s].name(lang) for s in sections if s in doc.sections],
        })
    return out
