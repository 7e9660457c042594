"""Build phase 2, context: the site's indexes and, per page and language, what it shows.

:class:`SiteModel` computes the language-free indexes once (tags, topics, rule sets, the
kinds of rule processing and the phases seen in the replays, the rule-change timeline, which
rulings use which glossary term, and :func:`judge.coverage.compute`'s table of the same loaded
corpus for the coverage page) and lists the pages (:class:`PageSpec`: an address key and a
template). ``model.context(spec, lang)`` then builds the values a template needs in one
language; every text there is either the ruling's own (with a Japanese fallback and a flag
that the template turns into a "not yet translated" notice) or a catalogue message.
"""

from __future__ import annotations

import functools
import posixpath
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from markupsafe import Markup

from judge.corpus import Corpus, Term
from judge.coverage import Coverage, Row
from judge.coverage import compute as compute_coverage
from judge.engine import mechanics
from judge.engine.rule_processing import BY_ID as RULE_KIND_BY_ID
from judge.engine.rule_processing import KINDS as RULE_KINDS
from judge.engine.rule_processing import TABLE as RULE_KIND_TABLE
from judge.engine.rule_processing import (
    TOGETHER_DESCRIPTION,
    TOGETHER_NAME,
    TOGETHER_SOURCE,
)
from judge.engine.rulesets import RuleSet
from judge.engine.state import ATTACK_STEP_TERMS, ATTACK_STEPS, PHASE_TERMS, PHASES
from judge.i18n import LANGS, N_, NATIVE_NAMES, gettext_for
from judge.langs import TEXT_FIELDS
from judge.narrate import (
    Narrator,
    scenario_cards,
)
from judge.quiz.bank import Bank
from judge.quiz.site import quiz_context
from judge.scenario.model import Expectation
from judge.site import citations, timeline
from judge.site.api import API_VERSION, COVERAGE_FILE, DATABASE, ruling_file
from judge.site.api import FOLDER as API_FOLDER
from judge.site.load import RulingData, RulingSummary, SiteInput
from judge.site.markup import RenderedTexts, TermLinker
from judge.site.sections import (  # noqa: F401 - board_caption, facts, moment_caption: re-exported
    FACT_SENTENCES,
    MOMENT_NAMES,
    Words,
    answer_sentences,
    board_caption,
    facts,
    moment_caption,
    page_anchors,
    replay_sections,
    timeline_card_key,
)
from judge.site.topics import TOPIC_NAMES
from judge.sources import Citation, has_interpretation, rests_on_official

NEWEST = 10
#: The rendered texts a build that streams its rulings keeps (RenderedTexts): a ruling's
#: texts in its three pages' languages, with room to spare.
STREAMED_TEXTS = 64

#: Tags that are not glossary terms (those take the glossary's names).
TAG_NAMES: dict[str, str] = {
    "attack-limit": N_("attacks per turn"),
    "bloom": N_("bloom"),
    "card-name": N_("card names"),
    "choice": N_("choices"),
    "colour": N_("colour"),
    "cost-change": N_("cost changes"),
    "craft": N_("craft ARTS"),
    "deck-construction": N_("deck construction"),
    "deck-out": N_("deck out"),
    "effect-in-force": N_("effects in force"),
    "empty-trash": N_("empty trash"),
    "encore": N_("Encore"),
    "ener": N_("ener"),
    "first-player": N_("first player"),
    "forced-attack": N_("forced attacks"),
    "game-flow": N_("game flow"),
    "hand-limit": N_("hand limit"),
    "hidden-information": N_("hidden information"),
    "keyword": N_("keywords"),
    "leave-field": N_("leaving the field"),
    "look": N_("looking at cards"),
    "loop": N_("loops"),
    "lrig-attack": N_("LRIG attacks"),
    "mandatory": N_("mandatory abilities"),
    "negate": N_("negating"),
    "on-play": N_("on-play"),
    "optional": N_("optional abilities"),
    "other-card": N_("another card's event"),
    "other-signi": N_("another SIGNI's event"),
    "phase-start": N_("start of a phase"),
    "play": N_("playing SIGNI"),
    "put-onto-field": N_("putting onto the field"),
    "replacement": N_("replacement"),
    "reveal": N_("revealing"),
    "rule-change": N_("rule changes"),
    "rule-history": N_("rule history"),
    "search": N_("searching the deck"),
    "second-refresh": N_("second refresh"),
    "signi-cap": N_("cap on the SIGNI on the field"),
    "simultaneous": N_("simultaneous"),
    "target": N_("targets"),
    "timing": N_("timing"),
    "trigger": N_("triggers"),
    "turn-end": N_("end of the turn"),
    "up-to": N_("up to"),
    "upper-limit": N_("upper limit"),
}
#: The search page's interface strings (search.js shows them), by key.
SEARCH_STRINGS: dict[str, str] = {
    "placeholder": N_("Search rulings"),
    "filters": N_("Filters"),
    "ruleset": N_("Rule set"),
    "tag": N_("Tag"),
    "term": N_("Term"),
    "basis": citations.BASIS,
    "official": citations.BASIS_OFFICIAL,
    "community": citations.BASIS_COMMUNITY,
    "more": N_("More results"),
    "none": N_("No ruling matches %(query)s."),
    "count_one": N_("1 result for %(query)s"),
    "count": N_("%(num)s results for %(query)s"),
    "some_words": N_("No ruling holds all the words; results for some of them:"),
    "corrected": N_("No ruling matches %(query)s; results for %(corrected)s:"),
    "kind_term": N_("Glossary"),
    "kind_processing": N_("Rule processing"),
    "kind_change": N_("Rule change"),
    "missing": N_("This copy of the site was built without its search index. Browse by topic, "
                  "tag or rule set from the home page instead."),
    "unreachable": N_("The search index could not be loaded. Check the connection and search "
                      "again."),
}
#: The coverage page (``coverage/``): per section of :data:`judge.coverage.CATEGORIES`, its
#: heading, the heading of its first column and what a ruling counts for.
COVERAGE_SECTIONS: dict[str, tuple[str, str, str]] = {
    "rule-processing": (
        N_("Kinds of rule processing"), N_("Kind"),
        N_("A ruling counts when rule processing of that kind takes place in one of its "
           "replays.")),
    "phase": (
        N_("Phases"), N_("Phase"),
        N_("A ruling counts when one of its replays enters the phase. A ruling whose set-up "
           "starts inside a phase and never reaches another one counts for none.")),
    "attack-step": (
        N_("Steps of the attack phase"), N_("Step"),
        N_("A ruling counts when one of its replays enters the step.")),
    "ruleset": (
        N_("Rule sets"), N_("Rule set"),
        N_("Rulings: those replayed under the rule set. Different replay: those whose replay "
           "under it differs from their replay under another of their rule sets, that is, "
           "the rulings where this rule set changes what happens.")),
    "term": (
        N_("Glossary terms"), N_("Term"),
        N_("From events: rulings with an event in their replays that involves the term. "
           "Listed in the ruling: rulings that list the term among their glossary terms. "
           "Rulings: either of the two. Terms that no event shows (most keywords, for "
           "example) count only through the lists.")),
}


# ---------------------------------------------------------------------------- addresses


def page_file(lang: str | None, key: str) -> str:
    """The output file of a page: ``en/rulings/x/index.html`` (``index.html`` at the root)."""
    return f"{lang}/{key}index.html" if lang else f"{key}index.html"


@dataclass(frozen=True)
class Links:
    """Addresses relative to one page, so the site works from any folder of a server."""

    here: str  # the page's output file

    def to(self, target: str) -> str:
        """``target`` is a path from the site root (a folder ends with ``/``)."""
        return _link(self.here, target)


@functools.lru_cache(maxsize=1 << 16)
def _link(here: str, target: str) -> str:
    """:meth:`Links.to`, remembered: every page of a kind links to the same few places (its
    language's glossary, topics, rule sets), and a ruling's three pages to the same rulings."""
    return _relative(posixpath.dirname(here), target)


def _relative(base: str, target: str) -> str:
    """``posixpath.relpath`` for clean site paths, without its normalising cost."""
    folder = target.endswith("/") or target == ""
    parts = [p for p in target.split("/") if p]
    base_parts = [p for p in base.split("/") if p]
    common = 0
    for a, b in zip(base_parts, parts, strict=False):
        if a != b:
            break
        common += 1
    rel = "/".join([".."] * (len(base_parts) - common) + parts[common:])
    if folder:
        return rel + "/" if rel else "./"
    return rel or "."


@dataclass(frozen=True)
class PageSpec:
    key: str  # "" (home), "rulings/<id>/", "glossary/", ...
    template: str
    subject: str = ""  # the ruling id, tag, topic or rule set the page is about


# ---------------------------------------------------------------------------- languages


@dataclass
class Lang(Words):
    """Texts in one language: catalogue messages and the corpus's names, with fallbacks."""

    corpus: Corpus
    #: the build's rendered texts (each rendered once, whichever page shows it)
    rendered: RenderedTexts = field(default_factory=RenderedTexts, kw_only=True)

    def term(self, term_id: str) -> str:
        term = self.corpus.glossary.get(term_id)
        return term.name(self.lang) if term else term_id

    def tag(self, tag: str) -> str:
        if tag in TAG_NAMES:
            return self._(TAG_NAMES[tag])
        if tag in self.corpus.glossary:
            return self.term(tag)
        return tag

    def topic(self, topic: str) -> str:
        return self._(TOPIC_NAMES[topic]) if topic in TOPIC_NAMES else topic or "—"

    def ruleset_title(self, rs: RuleSet) -> str:
        return rs.title.get(self.lang) or rs.title.get("ja") or rs.id

    def ruleset_summary(self, rs: RuleSet) -> Text:
        return _text(rs.summary, self.lang)

    @property
    def interpretation(self) -> str:
        """The label after a sentence marked as this project's interpretation."""
        return self._(citations.INTERPRETATION)

    def sources(self, cited: Iterable[Citation | str]) -> list[dict[str, Any]]:
        """Cited documents as a page shows them (:func:`judge.site.citations.entries`)."""
        return citations.entries(cited, self.corpus.sources, self.lang, self._)

    def markdown(self, text: str) -> str:
        """A ruling's Markdown as sanitized HTML, interpretations labelled in this language."""
        return self.rendered.html(text, self.interpretation)


@dataclass(frozen=True)
class Text:
    """A text in the page's language, or the Japanese one with ``fallback`` set."""

    value: str
    lang: str
    fallback: bool = False


def _text(texts: Mapping[str, str], lang: str) -> Text:
    if texts.get(lang):
        return Text(texts[lang], lang)
    return Text(texts.get("ja", ""), "ja", fallback=lang != "ja")


# ---------------------------------------------------------------------------- the model


@dataclass
class SiteModel:
    site: SiteInput
    by_id: dict[str, RulingSummary] = field(default_factory=dict)
    tags: dict[str, list[str]] = field(default_factory=dict)
    topics: dict[str, list[str]] = field(default_factory=dict)
    by_ruleset: dict[str, list[str]] = field(default_factory=dict)
    kinds: dict[str, list[str]] = field(default_factory=dict)
    phases: dict[str, list[str]] = field(default_factory=dict)
    #: rulings whose replays apply several kinds at once, or ask an owner's order of two
    together: list[str] = field(default_factory=list)
    #: ruling -> the anchors of its page's sentences that first cite a rule (made when asked)
    anchors: dict[str, frozenset[str]] = field(default_factory=dict)
    term_use: dict[str, list[str]] = field(default_factory=dict)
    #: the dated rule changes with the rulings whose answer differs across each
    #: (:func:`judge.site.timeline.changes`)
    changes: list[timeline.Change] = field(default_factory=list)
    newest: list[str] = field(default_factory=list)
    main_terms: dict[str, list[Term]] = field(default_factory=dict)  # ruling -> terms it explains
    coverage: Coverage | None = None  # judge.coverage's table of the same corpus
    official: set[str] = field(default_factory=set)  # rulings that rest on official text
    #: every ruling text rendered, before the pages are (forked workers inherit them)
    rendered: RenderedTexts = field(default_factory=RenderedTexts)
    #: the judge-training quiz's bank (judge.quiz.site; None until the quiz phase made it,
    #: and in a site built without the quiz)
    quiz: Bank | None = None
    #: the site has the quiz page (every page's menu links to it)
    quiz_page: bool = False
    #: what the sandbox downloads on a first use (0: no sandbox in this build), which its
    #: buttons say (judge.site.sandbox_build.SandboxReport.bytes)
    sandbox_bytes: int = 0
    #: the repository's "new file" page the sandbox proposes rulings on (site.toml; empty:
    #: no such button)
    propose: str = ""
    #: the ruling whose page is being rendered, with its boards (:meth:`full`)
    _full: RulingData | None = field(default=None, repr=False)

    def sandbox_size(self, L: Lang) -> str:
        """What the sandbox's buttons add to their label: the megabytes a first use
        downloads (nothing without a sandbox)."""
        if not self.sandbox_bytes:
            return ""
        return L._("(%(size)s MB to download the first time)",
                   size=f"{self.sandbox_bytes / 1e6:.1f}")

    def script_words(self, lang: str) -> dict[str, object]:
        """What ``assets/site.js`` writes into a ruling page in ``lang`` from the site's one
        copy rather than each page holding it (judge build puts it into the script with the
        board words, :func:`judge.site.board.with_board_words`): the rule sets' titles, which
        the rule-set chips show on hover (``rulesets``: id -> title), and the label of the
        "Try it" button (``try``, with ``size``, what a first use downloads, and ``loading``,
        what it says while the engine loads), and what the header's search box says
        (``search``: site.js makes it from the header's link to the search page)."""
        L = self.lang(lang)
        return {"rulesets": {rs.id: L.ruleset_title(rs)
                             for rs in self.site.corpus.rulesets.values()},
                "try": L._("Try it: edit and replay"), "size": self.sandbox_size(L),
                "loading": L._("Loading the engine…"), "search": L._("Search rulings")}

    @classmethod
    def build(cls, site: SiteInput) -> SiteModel:
        model = cls(site)
        corpus = site.corpus
        for data in site.rulings:
            rid = data.id
            model.by_id[rid] = data
            if rests_on_official(data.sources, corpus.sources):
                model.official.add(rid)
            for tag in data.tags:
                model.tags.setdefault(tag, []).append(rid)
            model.topics.setdefault(data.topic, []).append(rid)
            for rs in data.rulesets:
                model.by_ruleset.setdefault(rs, []).append(rid)
            for term in data.terms:
                model.term_use.setdefault(term, []).append(rid)
            seen = data.seen
            if seen.together:
                model.together.append(rid)
            for kind in seen.kinds:
                model.kinds.setdefault(kind, []).append(rid)
            for phase in seen.phases:
                model.phases.setdefault(phase, []).append(rid)
        model.changes = timeline.changes(corpus.rulesets,
                                         [(d.id, d.answers) for d in site.rulings])
        model.tags = dict(sorted(model.tags.items()))
        model.topics = dict(sorted(model.topics.items()))
        model.newest = [d.id for d in sorted(
            site.rulings, key=lambda d: _newest_key(d, corpus.sources))][:NEWEST]
        for glossary_term in corpus.glossary.values():
            if glossary_term.main in model.by_id:
                model.main_terms.setdefault(glossary_term.main, []).append(glossary_term)
        # counted while the rulings were replayed, or from the replays loaded: no second replay
        model.coverage = site.coverage or compute_coverage(corpus)
        if site.streamed:  # each text rendered when a page shows it, the latest kept
            model.rendered = RenderedTexts(keep=STREAMED_TEXTS)
        else:
            model.render_texts()
        return model

    def render_texts(self) -> None:
        """Render every text a page shows as Markdown (question, answer, explanation, in each
        language or its Japanese fallback), each once: the pages then only look them up."""
        for lang in LANGS:
            L = self.lang(lang)
            for data in self.site.rulings:
                for name in TEXT_FIELDS:
                    raw = data.texts.get(name)
                    if raw and name != "title":
                        L.markdown(_text(raw, lang).value)

    def lang(self, lang: str) -> Lang:
        """The texts of one language, with this build's rendered texts."""
        return Lang(lang, self.site.corpus, rule_sets=self.site.corpus.rulesets,
                    rendered=self.rendered)

    # ------------------------------------------------------------------ pages

    def pages(self) -> list[PageSpec]:
        specs = [PageSpec("", "home.html"), PageSpec("glossary/", "glossary.html"),
                 PageSpec("processing/", "processing.html"),
                 PageSpec("coverage/", "coverage.html"),
                 PageSpec("timeline/", "timeline.html"), PageSpec("tags/", "tags.html"),
                 PageSpec("sources/", "sources.html"),
                 PageSpec("search/", "search.html"), PageSpec("rulings/", "rulings.html"),
                 PageSpec("maintainers/", "maintainers.html"),
                 PageSpec("offline/", "offline.html"), PageSpec("sandbox/", "sandbox.html")]
        specs += [PageSpec(f"topics/{t or 'other'}/", "list.html", f"topic:{t}")
                  for t in self.topics]
        specs += [PageSpec(f"tags/{t}/", "list.html", f"tag:{t}") for t in self.tags]
        specs += [PageSpec(f"rulesets/{rs}/", "list.html", f"ruleset:{rs}")
                  for rs in self.site.corpus.rulesets]
        specs += [PageSpec(f"rulings/{d.id}/", "ruling.html", d.id) for d in self.site.rulings]
        return specs

    def quiz_pages(self) -> list[PageSpec]:
        """The quiz's page, which the quiz phase renders once it has made the bank
        (:func:`judge.quiz.site.make_quiz`); none in a site without the quiz."""
        return [PageSpec("quiz/", "quiz.html")] if self.quiz_page else []

    # ------------------------------------------------------------------ contexts

    def context(self, spec: PageSpec, lang: str) -> dict[str, Any]:
        here = page_file(lang, spec.key)
        links = Links(here)
        L = self.lang(lang)
        page = PageInfo(lang=lang, key=spec.key, links=links)
        ctx: dict[str, Any] = {"page": page, "L": L, "model": self}
        builder: Callable[[Lang, Links, PageSpec], dict[str, Any]] = {
            "home.html": self._home, "glossary.html": self._glossary,
            "processing.html": self._processing, "coverage.html": self._coverage,
            "timeline.html": self._timeline,
            "tags.html": self._tags, "search.html": self._search,
            "sources.html": self._sources,
            "rulings.html": self._rulings,
            "maintainers.html": self._maintainers, "offline.html": self._offline,
            "sandbox.html": self._sandbox,
            "list.html": self._list, "ruling.html": self._ruling,
            "quiz.html": lambda L, links, spec: quiz_context(self, L, links),
        }[spec.template]
        ctx.update(builder(L, links, spec))
        return ctx

    def entry(self, rid: str, L: Lang, links: Links) -> dict[str, Any]:
        """A ruling in a list: title, link, rule sets and whether it fails."""
        data = self.by_id[rid]
        return {"id": rid, "title": _text(data.texts.get("title", {}), L.lang),
                "href": links.to(f"{L.lang}/rulings/{rid}/"),
                "rulesets": data.rulesets, "sets": L.rule_span(data.rulesets),
                "failing": bool(data.failing),
                "official": rid in self.official}

    def _home(self, L: Lang, links: Links, spec: PageSpec) -> dict[str, Any]:
        corpus = self.site.corpus
        return {
            "title": L._("WIXOSS rulings"),
            "topics": [{"name": L.topic(t), "href": links.to(f"{L.lang}/topics/{t or 'other'}/"),
                        "count": len(ids)} for t, ids in self.topics.items()],
            "rulesets": [{"id": rs.id, "title": L.ruleset_title(rs), "start": rs.start,
                          "href": links.to(f"{L.lang}/rulesets/{rs.id}/"),
                          "count": len(self.by_ruleset.get(rs.id, []))}
                         for rs in corpus.rulesets.values()],
            "tags": self._tag_list(L, links),
            "newest": [self.entry(rid, L, links) for rid in self.newest],
            "count": len(self.site.rulings),
        }

    def _tag_list(self, L: Lang, links: Links) -> list[dict[str, Any]]:
        return [{"id": t, "name": L.tag(t), "href": links.to(f"{L.lang}/tags/{t}/"),
                 "count": len(ids)} for t, ids in self.tags.items()]

    def _sources(self, L: Lang, links: Links, spec: PageSpec) -> dict[str, Any]:
        """Every document of the registry, with what it is, its sections and the rulings that
        cite it; a ruling's sources link here (``#src-<id>``)."""
        citing: dict[str, list[str]] = {}
        for rid, data in self.by_id.items():
            for doc_id in dict.fromkeys(c.source for c in data.sources):
                citing.setdefault(doc_id, []).append(rid)
        documents = []
        for doc in self.site.corpus.sources.values():
            entry = L.sources([doc.id])[0]
            entry["all_sections"] = [sec.name(L.lang) for sec in doc.sections.values()]
            entry["rulings"] = [self.entry(r, L, links) for r in citing.get(doc.id, [])]
            documents.append(entry)
        return {"title": L._("Sources"), "documents": documents,
                "official": len(self.official), "count": len(self.by_id)}

    def _tags(self, L: Lang, links: Links, spec: PageSpec) -> dict[str, Any]:
        return {"title": L._("Tags"), "tags": self._tag_list(L, links)}

    def _search(self, L: Lang, links: Links, spec: PageSpec) -> dict[str, Any]:
        strings: dict[str, Any] = {key: L._(message) for key, message in SEARCH_STRINGS.items()}
        strings["ruleset_names"] = {rid: L.rules([rid]) for rid in self.site.corpus.rulesets}
        return {"title": L._("Search"), "strings": strings}

    def _rulings(self, L: Lang, links: Links, spec: PageSpec) -> dict[str, Any]:
        """Every ruling by topic, each with its answer: what the search box leads to without
        JavaScript (and the index of ``rulings/``)."""
        topics = []
        for topic, ids in self.topics.items():
            entries = []
            for rid in ids:
                entry = self.entry(rid, L, links)
                raw = self.by_id[rid].texts.get("answer")
                answer = _text(raw, L.lang) if raw else None
                entry["answer"] = Text(Markup(L.markdown(answer.value)), answer.lang,
                                       answer.fallback) if answer else None
                entries.append(entry)
            topics.append({"id": topic or "other", "name": L.topic(topic),
                           "href": links.to(f"{L.lang}/topics/{topic or 'other'}/"),
                           "entries": entries})
        return {"title": L._("All rulings"), "topics": topics, "count": len(self.by_id),
                "official": len(self.official)}

    def _maintainers(self, L: Lang, links: Links, spec: PageSpec) -> dict[str, Any]:
        """The developer pages, the downloads (``judge.site.api``) and offline use."""
        example = self.site.rulings[0].id if self.site.rulings else ""
        return {"title": L._("For maintainers"), "api_version": API_VERSION,
                "example": example,
                "files": {"database": links.to(f"{API_FOLDER}/{DATABASE}"),
                          "index": links.to(f"{API_FOLDER}/rulings.json"),
                          "example": links.to(f"{API_FOLDER}/{ruling_file(example)}"),
                          "readme": links.to(f"{API_FOLDER}/README.md"),
                          "tables": links.to(f"{API_FOLDER}/database.md"),
                          "events": links.to(f"{API_FOLDER}/events.md")}}

    def _offline(self, L: Lang, links: Links, spec: PageSpec) -> dict[str, Any]:
        """What the service worker shows for a page it did not keep, without a network."""
        return {"title": L._("Offline")}

    def _sandbox(self, L: Lang, links: Links, spec: PageSpec) -> dict[str, Any]:
        """The blank sandbox: write a ruling from ``judge new``'s skeleton, replay it in the
        browser, download it (judge/site/sandbox.py)."""
        return {"title": L._("Write a ruling in your browser"),
                "check": Markup("<code>judge check</code>")}

    def _list(self, L: Lang, links: Links, spec: PageSpec) -> dict[str, Any]:
        kind, _, subject = spec.subject.partition(":")
        summary: Text | None = None
        if kind == "topic":
            title, ids = L.topic(subject), self.topics.get(subject, [])
            heading = L._("Topic")
        elif kind == "tag":
            title, ids = L.tag(subject), self.tags.get(subject, [])
            heading = L._("Tag")
        else:
            rs = self.site.corpus.rulesets[subject]
            title, ids = L.ruleset_title(rs), self.by_ruleset.get(subject, [])
            heading = L._("Rule set")
            summary = L.ruleset_summary(rs)
        return {"title": title, "heading": heading, "summary": summary,
                "entries": [self.entry(rid, L, links) for rid in ids]}

    def _glossary(self, L: Lang, links: Links, spec: PageSpec) -> dict[str, Any]:
        # a keyword's rulings link to the first sentence of their replay that it drives
        keyword = {m.term: m.id for m in mechanics.all_mechanics()}
        terms = []
        for term in self.site.corpus.glossary.values():
            anchor = f"rule-mechanic-{keyword[term.id]}" if term.id in keyword else ""
            terms.append({
                "id": term.id, "names": _names(term),
                "name": _text(term.names, L.lang),
                "aliases": aliases(term, L.lang),
                "definition": _text(term.definition, L.lang),
                "main": self.entry(term.main, L, links) if term.main in self.by_id else None,
                "rulings": [self._step_entry(rid, L, links, anchor) if anchor
                            else self.entry(rid, L, links)
                            for rid in self.term_use.get(term.id, [])],
            })
        return {"title": L._("Glossary"), "terms": terms}

    def _processing(self, L: Lang, links: Links, spec: PageSpec) -> dict[str, Any]:
        glossary = links.to(f"{L.lang}/glossary/")
        # each ruling links to the first step of its page that the kind drives
        kinds = [{"id": k.id, "number": k.number, "name": gettext_for(L.lang, k.name),
                  "description": L._(k.description), "sources": L.sources([k.source]),
                  "term_href": f"{glossary}#t-{k.term}" if k.term else "",
                  "rulings": [self._step_entry(r, L, links, f"rule-kind-{k.id}")
                              for r in self.kinds.get(k.id, [])]}
                 for k in RULE_KIND_TABLE]
        together = {"name": L._(TOGETHER_NAME), "description": L._(TOGETHER_DESCRIPTION),
                    "sources": L.sources([TOGETHER_SOURCE]),
                    "rulings": [self._step_entry(r, L, links, "rule-together-together")
                                for r in self.together]}
        phases = []
        for phase in ("setup", *PHASES):
            phases.append({"id": phase, "name": L.term(PHASE_TERMS[phase]),
                           "term_href": links.to(f"{L.lang}/glossary/") +
                           f"#t-{PHASE_TERMS[phase]}",
                           "rulings": [self.entry(r, L, links)
                                       for r in self.phases.get(phase, [])]})
        steps = [{"id": s, "name": L.term(ATTACK_STEP_TERMS[s]),
                  "term_href": links.to(f"{L.lang}/glossary/") + f"#t-{ATTACK_STEP_TERMS[s]}",
                  "rulings": [self.entry(r, L, links)
                              for r in self.phases.get(f"attack:{s}", [])]}
                 for s in ATTACK_STEPS]
        return {"title": L._("Rule processing and phases"), "kinds": kinds, "phases": phases,
                "steps": steps, "together": together}

    def _step_entry(self, rid: str, L: Lang, links: Links, anchor: str) -> dict[str, Any]:
        """A ruling in a list, linked to the sentence of its replay with id ``anchor`` when
        its page has one (the rule may apply only in a branch the page does not tell)."""
        entry = self.entry(rid, L, links)
        if rid not in self.anchors:
            self.anchors[rid] = page_anchors(self.full(rid))
        return {**entry, "href": f"{entry['href']}#{anchor}"} \
            if anchor in self.anchors[rid] else entry

    def _coverage(self, L: Lang, links: Links, spec: PageSpec) -> dict[str, Any]:
        """The table of ``judge coverage`` (:func:`judge.coverage.compute`), translated."""
        cov = self.coverage if self.coverage is not None else \
            compute_coverage(self.site.corpus)
        sections = []
        for category, (heading, column, note) in COVERAGE_SECTIONS.items():
            rows = []
            for row in cov.section(category):
                label, href = self._coverage_label(row, L, links)
                rows.append({
                    "id": f"cov-{category}-{row.item}", "item": row.item, "label": label,
                    "href": href, "count": row.count,
                    "from_events": len(row.from_events), "from_terms": len(row.from_terms),
                    "rulings": bool(row.rulings), "differs": len(row.differs)})
            sections.append({"id": category, "anchor": f"cov-{category}",
                             "heading": L._(heading), "column": L._(column), "note": L._(note),
                             "rows": rows, "total": len(rows),
                             "exercised": sum(1 for r in rows if r["count"]),
                             "missing": [r for r in rows if not r["count"]]})
        # the rows' lists of rulings are in api/coverage.json, one file for the three
        # languages (judge.site.api.COVERAGE), which the page's script reads
        json_href = links.to(f"{API_FOLDER}/{COVERAGE_FILE}")
        json_link = Markup('<a href="{}"><code>{}/{}</code></a>').format(
            json_href, API_FOLDER, COVERAGE_FILE)
        failing = sorted({rid for row in cov.rows for rid in (*row.rulings, *row.differs)
                          if rid in self.by_id and self.by_id[rid].failing})
        return {"title": L._("Coverage"), "sections": sections, "count": cov.rulings,
                "json_href": json_href, "json_link": json_link, "failing": failing,
                "rulings_href": links.to(f"{L.lang}/rulings/")}

    def _coverage_label(self, row: Row, L: Lang, links: Links) -> tuple[Text, str]:
        """A row's name in the page's language and the page that explains its item."""
        lang, corpus = L.lang, self.site.corpus
        processing = links.to(f"{lang}/processing/")
        glossary = links.to(f"{lang}/glossary/")
        if row.category == "rule-processing":
            name = gettext_for(lang, RULE_KIND_BY_ID[row.item].name)
            return Text(f"{RULE_KINDS[row.item]}. {name}", lang), \
                f"{processing}#kind-{row.item}"
        if row.category == "phase":
            return _term_text(corpus, PHASE_TERMS[row.item], lang), \
                f"{processing}#phase-{row.item}"
        if row.category == "attack-step":
            return _term_text(corpus, ATTACK_STEP_TERMS[row.item], lang), \
                f"{processing}#step-{row.item}"
        if row.category == "ruleset":
            return _text(corpus.rulesets[row.item].title, lang), \
                links.to(f"{lang}/rulesets/{row.item}/")
        return _term_text(corpus, row.item, lang), f"{glossary}#t-{row.item}"

    def _timeline(self, L: Lang, links: Links, spec: PageSpec) -> dict[str, Any]:
        """Each rule set with its summary and sources; each after the first is a dated change
        with the rulings whose answer differs across it, before and after side by side."""
        corpus = self.site.corpus
        by_set = {c.ruleset: c for c in self.changes}
        sets = []
        for rs in corpus.rulesets.values():
            change = by_set.get(rs.id)
            sets.append({"id": rs.id, "title": L.ruleset_title(rs), "start": rs.start,
                         "summary": L.ruleset_summary(rs), "sources": L.sources(rs.sources),
                         "href": links.to(f"{L.lang}/rulesets/{rs.id}/"),
                         "change": change is not None,
                         "rows": [self._changed(row, L, links)
                                  for row in (change.rows if change else ())]})
        return {"title": L._("Rule changes"), "rulesets": sets,
                "full_stop": Narrator(L.lang, {}).sentence_end()}

    def _changed(self, row: timeline.Row, L: Lang, links: Links) -> dict[str, Any]:
        """One ruling of the timeline: its answer's facts that differ across the change, under
        the rule set before and the one after, each named with its date."""
        corpus = self.site.corpus
        scenario = self.site.ruling(row.ruling).scenario  # loaded again in a streamed build
        n = Narrator(L.lang, scenario_cards(scenario),
                     {t.id: t.names for t in corpus.glossary.values()})

        def state_facts(exp: Expectation) -> list[tuple[str, str]]:
            return facts(exp.state, L, n)

        def outcome_names(exp: Expectation) -> str:
            return n.join(o.title(L.lang)[0] for o in exp.outcomes)

        def sentences(exp: Expectation) -> list[tuple[str, str]]:
            return answer_sentences(exp.state, L, n)

        def outcome_sentence(exp: Expectation) -> str:
            return L._(FACT_SENTENCES["outcomes"], names=outcome_names(exp))

        before, after = corpus.rulesets[row.before], corpus.rulesets[row.after]
        label = L._("Legal outcomes")
        told = timeline.differences(scenario, row, sentences, outcome_sentence, label)
        compared = timeline.differences(scenario, row, state_facts, outcome_names, label)
        return {**self.entry(row.ruling, L, links),
                "before": {"id": before.id, "label": L.rules([before.id]),
                           "title": L.ruleset_title(before), "start": before.start,
                           "answer": " ".join(f["before"] for f in told if f["before"])},
                "after": {"id": after.id, "label": L.rules([after.id]),
                          "title": L.ruleset_title(after), "start": after.start,
                          "answer": " ".join(f["after"] for f in told if f["after"])},
                "facts": compared,
                "card_key": timeline_card_key(scenario, row, n, (
                    f[side] for f in compared for side in ("what", "before", "after")))}

    # ------------------------------------------------------------------ a ruling

    def full(self, rid: str) -> RulingData:
        """A ruling with its replays and boards (:meth:`SiteInput.full`); the last one made
        is kept, as its page is rendered in each language in turn."""
        if self._full is None or self._full.id != rid:
            self._full = self.site.full(rid)
        return self._full

    def anchored(self) -> set[str]:
        """The rulings that the processing page and the glossary link to a sentence of
        (:meth:`_step_entry`): whose anchors the ruling pages' phase works out."""
        mechanic_terms = {m.term for m in mechanics.all_mechanics()}
        out = {rid for ids in self.kinds.values() for rid in ids} | set(self.together)
        out.update(rid for term, ids in self.term_use.items() if term in mechanic_terms
                   for rid in ids)
        return out

    def _ruling(self, L: Lang, links: Links, spec: PageSpec) -> dict[str, Any]:
        data = self.full(spec.subject)
        sc = data.scenario
        corpus = self.site.corpus
        lang = L.lang
        glossary_href = links.to(f"{lang}/glossary/")
        linker = TermLinker(
            names={t: corpus.glossary[t].name(lang) for t in sc.terms if t in corpus.glossary},
            href={t: f"{glossary_href}#t-{t}" for t in sc.terms})
        texts: dict[str, Any] = {}
        for name in TEXT_FIELDS:
            raw = sc.texts.get(name)
            if not raw:
                texts[name] = None
                continue
            text = _text(raw, lang)
            rendered = text.value if name == "title" else \
                Markup(linker.link(L.markdown(text.value)))
            texts[name] = Text(rendered, text.lang, text.fallback)
        narrator = Narrator(lang, scenario_cards(sc),
                            {t.id: t.names for t in corpus.glossary.values()},
                            steps={s.index: s for s in sc.steps})
        rulesets = [{"id": rs, "label": L.rules([rs]),
                     "title": L.ruleset_title(corpus.rulesets[rs]),
                     "href": links.to(f"{lang}/rulesets/{rs}/")} for rs in sc.rulesets]
        return {
            "title": texts["title"].value, "texts": texts, "data": data,
            "topic": {"name": L.topic(data.topic),
                      "href": links.to(f"{lang}/topics/{data.topic or 'other'}/")},
            "rulesets": rulesets,
            "tags": [{"id": t, "name": L.tag(t), "href": links.to(f"{lang}/tags/{t}/")}
                     for t in sc.tags],
            "failing": [{"rules": L.rules([r.rules]), "lines": r.failures}
                        for r in data.failing],
            **replay_sections(data, L, narrator),
            "sources": L.sources(sc.sources),
            "official": data.id in self.official,
            "basis": citations.basis(sc.sources, corpus.sources, L._),
            "interpretations": any(has_interpretation(t) for texts in sc.texts.values()
                                   for t in texts.values()),
            "terms": [{"id": t, "names": _names(corpus.glossary[t]),
                       "name": L.term(t), "href": f"{glossary_href}#t-{t}"}
                      for t in sc.terms if t in corpus.glossary],
            "explains": [{"id": t.id, "name": _text(t.names, lang),
                          "others": [n for n in _names(t) if n["lang"] != lang],
                          "aliases": aliases(t, lang, others=False),
                          "href": f"{glossary_href}#t-{t.id}"}
                         for t in self.main_terms.get(data.id, [])],
            "related": [self.entry(r, L, links) for r in sc.related if r in self.by_id],
            "related_missing": [r for r in sc.related if r not in self.by_id],
        }

@dataclass(frozen=True)
class PageInfo:
    """What every template knows about its page: language, address and the way to others."""

    lang: str
    key: str
    links: Links

    def url(self, key: str, lang: str | None = None) -> str:
        return self.links.to(f"{lang or self.lang}/{key}")

    def asset(self, name: str) -> str:
        return self.links.to(f"assets/{name}")

    @property
    def root(self) -> str:
        return self.links.to("")

    @property
    def languages(self) -> list[dict[str, Any]]:
        return [{"lang": lang, "label": NATIVE_NAMES[lang], "href": self.url(self.key, lang),
                 "current": lang == self.lang} for lang in LANGS]

    @property
    def alternates(self) -> list[dict[str, str]]:
        alts = [{"hreflang": lang, "href": self.url(self.key, lang)} for lang in LANGS]
        default = self.links.to("") if self.key == "" else self.url(self.key, "ja")
        alts.append({"hreflang": "x-default", "href": default})
        return alts


# ---------------------------------------------------------------------------- helpers


def _term_text(corpus: Corpus, term_id: str, lang: str) -> Text:
    term = corpus.glossary.get(term_id)
    return _text(term.names, lang) if term else Text(term_id, lang)


def _names(term: Term) -> list[dict[str, str]]:
    return [{"lang": lang, "name": term.names[lang]} for lang in LANGS if lang in term.names]


def aliases(term: Term, lang: str, others: bool = True) -> list[dict[str, str]]:
    """The aliases of ``term`` (judges' words: デッキ切れ, "deck out"): those of ``lang`` and
    the language-neutral ones, then (``others``) those of the other languages, each once, with
    its language (``""`` when neutral)."""
    order = [lang, ""] + ([other for other in LANGS if other != lang] if others else [])
    out: list[dict[str, str]] = []
    seen = set(term.names.values())
    for key in order:
        for alias in term.alias_by_lang.get(key, ()):
            if alias not in seen:
                seen.add(alias)
                out.append({"lang": key, "name": alias})
    return out


_expectation_keys = timeline.expectation_keys


def _newest_key(data: RulingSummary, registry: Mapping[str, Any]) -> tuple[str, str]:
    dates = [registry[c.source].date for c in data.sources if c.source in registry]
    newest = max(dates) if dates else ""
    # newest first: invert the date's characters so that an ascending sort puts it first
    return ("".join(chr(0x10FFFF - ord(c)) for c in newest.ljust(10, "0")), data.id)
