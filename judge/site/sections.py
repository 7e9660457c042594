"""The replay sections of a ruling page, in one language: the answer under each rule set, the
narrated replay with its boards, and the legal outcomes (the branches a choice opens).

One home for the ruling pages (:mod:`judge.site.context`) and the browser sandbox
(:mod:`judge.site.sandbox`): both turn a :class:`~judge.site.load.RulingData` into the values
of ``site_templates/replay.html`` with :func:`replay_sections`, so a ruling replayed in the
browser reads and draws exactly as its static page. Nothing here reads a file or needs more
than the engine, the narration and the boards (the sandbox runs it under Pyodide).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from markupsafe import Markup, escape

from judge.coverage import RuleRef, event_rules
from judge.engine import events as ev
from judge.engine.events import Event
from judge.engine.rule_processing import BY_ID as RULE_KIND_BY_ID
from judge.engine.rule_processing import TOGETHER_NAME
from judge.engine.rulesets import RuleSet
from judge.engine.state import ZoneRef
from judge.engine.trace import Trace
from judge.i18n import N_, gettext_for, ngettext_for
from judge.langs import NP_
from judge.narrate import Narrator, Told, scenario_cards
from judge.narrate.cards import short_names
from judge.scenario.expect import ORDERED_ZONES
from judge.scenario.model import Scenario, StatePattern, ZonePattern
from judge.site.board import card_key, frame_svg, label_order, marks_used
from judge.site.load import RulingData
from judge.site.replay import AFTER_CHECK, AT_CHECK
from judge.site.timeline import Row, expectation_keys
from judge.sources import load_sources


@dataclass
class Words:
    """The catalogue's messages in one language (the site's pages extend it with the corpus's
    names: :class:`judge.site.context.Lang`)."""

    lang: str
    #: The rule sets by id, for their short names (an id not in it is shown as it is).
    rule_sets: Mapping[str, RuleSet] = field(default_factory=dict, kw_only=True)

    def _(self, message: str, **values: Any) -> str:
        text = gettext_for(self.lang, message)
        return text % values if values else text

    def rules(self, ids: Iterable[str]) -> str:
        """Rule sets as a reader sees them: each by its short name in this language
        (``current`` is 現行 in Japanese), joined by middle dots."""
        return " · ".join(self.rule_sets[i].short_name(self.lang) if i in self.rule_sets
                          else i for i in ids)

    def rule_span(self, ids: Iterable[str]) -> str:
        """Rule sets as a list of rulings shows them beside each title, shorter than
        :meth:`rules`: three or more that follow one another in the corpus's order as the
        first and the last ("2014-04–current"), the others as :meth:`rules` names them."""
        order = {rs: i for i, rs in enumerate(self.rule_sets)}
        runs: list[list[str]] = []
        for rs in ids:
            if runs and rs in order and order.get(runs[-1][-1]) == order[rs] - 1:
                runs[-1].append(rs)
            else:
                runs.append([rs])
        return " · ".join(
            self._(RULE_SPAN, first=self.rules(run[:1]), last=self.rules(run[-1:]))
            if len(run) >= 3 else self.rules(run) for run in runs)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return ngettext_for(self.lang, singular, plural, n) % {"num": n}


#: Three or more rule sets in a row, in a list of rulings (:meth:`Words.rule_span`).
RULE_SPAN = N_("%(first)s–%(last)s")


#: The rows of the answers' tables a phone shows without folding them: about one screen
#: (a row is two lines at 390 px); past it the tables fold under a summary, so that the
#: replay is not pushed far down.
FOLD_ROWS = 10


def replay_sections(data: RulingData, L: Words, n: Narrator) -> dict[str, Any]:
    """The values ``site_templates/replay.html`` shows for one ruling in ``L``'s language."""
    tables = answers(data, L, n)
    rows = sum(len(a["rows"]) for a in tables)
    shown = replays(data, L, n)
    outcomes = outcome_views(data, L, n)
    return {
        "answers": tables,
        "answer_rows": rows,
        "fold_answers": rows > FOLD_ROWS,
        "replays": shown,
        "outcomes": outcomes,
        "frame": Markup(frame_svg(data.layout, n, data.painter.defs())),
        "card_key": card_key(data.boards, n),
        "board_marks": marks_used(data.boards),
        "full_stop": n.sentence_end(),
    }


def answers(data: RulingData, L: Words, n: Narrator) -> list[dict[str, Any]]:
    """One table per group of rule sets that share their expectations."""
    sc = data.scenario
    groups: dict[tuple[int, ...], list[str]] = {}
    for rs in sc.rulesets:
        groups.setdefault(expectation_keys(sc.expectations, rs), []).append(rs)
    out = []
    for keys, rules in groups.items():
        rows: list[tuple[str, str]] = []
        for i in keys:
            rows.extend(facts(sc.expectations[i].state, L, n))
            if sc.expectations[i].outcomes:
                rows.append((L._("Legal outcomes"),
                             n.join(o.title(L.lang)[0]
                                    for o in sc.expectations[i].outcomes)))
        out.append({"rules": rules, "label": heading(L.rules(rules), L.lang), "rows": rows})
    return out

def replays(data: RulingData, L: Words, n: Narrator) -> list[dict[str, Any]]:
    """The replay of each group of rule sets, the latest rules first (and open): each step
    cut at its key moments (:mod:`judge.site.replay`), each part told and followed by its
    board; the set-up board is drawn once, since every group starts from the same
    position."""
    out = []
    first_setup = None
    anchors: set[str] = set()  # the rules a sentence of the page is the first to cite
    sourced: set[str] = set()  # the rules whose sources a note has given
    for gi, rv in enumerate(reversed(data.replays)):
        checked = checked_events(rv.trace)
        steps = []
        when: tuple[Any, ...] = ()  # the turn and phase the last caption gave
        for view in rv.steps:
            k = view.index
            step = data.scenario.steps[k - 1] if 0 < k <= len(data.scenario.steps) \
                else None
            title = n.step_title(step)
            setup = view.boards[0] if k == 0 and view.boards else None
            same_setup = gi > 0 and setup is not None and setup == first_setup
            if gi == 0 and k == 0:
                first_setup = setup
            same = view.same  # a folded replay tells only from where it differs
            parts = []
            heading_id = ""  # the heading's id when it names a board (no caption repeats it)
            number = 1
            for j, moment in enumerate(view.moments):
                told = n.told(moment.events)
                if j < same:  # told as in the first replay: counted, not shown
                    number += len(told)
                    continue
                sentences = _lines(told, checked, L, n, anchors, sourced)
                part: dict[str, Any] = {"sentences": sentences, "start": number,
                                        "svg": None}
                number += len(sentences)
                if moment.board is not None and not same_setup:
                    board = moment.board
                    now = (board.turn, board.turn_player, board.phase, board.attack_step)
                    caption = moment_caption(L, n, moment.key, board, title,
                                             when=now != when, check=moment.check)
                    caption_id = f"b{gi}-{k}-{j}"
                    if caption == title:  # the step's heading just above names the board
                        heading_id = caption_id = f"h{gi}-{k}"
                        caption = ""
                    part.update(
                        svg=Markup(data.painter.svg(board, labelledby=caption_id)),
                        caption=caption, caption_id=caption_id)
                    when = now
                parts.append(part)
            steps.append({"index": k, "title": title, "heading_id": heading_id,
                          "parts": parts,
                          "unchanged": view.unchanged, "same_setup": same_setup,
                          "same": "all" if same and same == len(view.moments)
                          else "start" if same else ""})
        out.append({"rules": rv.rules, "label": L.rules(rv.rules), "open": gi == 0,
                    "steps": steps,
                    "id": "replay-" + "-".join(rv.rules)})
    return out

def outcome_views(data: RulingData, L: Words, n: Narrator) -> list[dict[str, Any]]:
    out = []
    for ov in data.outcomes:
        svg = None
        name, name_lang = ov.outcome.title(L.lang)
        name = heading(name, name_lang or L.lang)
        if ov.board is not None:
            svg = Markup(data.painter.svg(ov.board, label=name))
        choices = [n.event(e) for e in ov.choices]
        out.append({"name": name, "name_lang": name_lang, "rules": L.rules([ov.rules]),
                    "choices": choices,
                    "rows": facts(ov.outcome.state, L, n), "svg": svg})
    return out


#: What the board of a key moment inside a step (:mod:`judge.site.replay`) comes after: its
#: caption (the step's heading above says which step, and the turn and phase do not change);
#: the two moments of a round of rule processing: at its check and once it has applied.
MOMENT_NAMES: dict[str, str] = {
    "crush": N_("After the crush"),
    "check": N_("After %(card)s goes into the check zone"),
    "burst": N_("After the Life Burst of %(card)s"),
    "refresh": N_("After the refresh of %(player)s"),
    AT_CHECK: N_("At the check of rule processing: every condition at once, marked !"),
    AFTER_CHECK: N_("After rule processing: every kind has applied"),
}


def moment_caption(L: Words, n: Narrator, key: Event | None, board: Any, title: str,
                   when: bool = True, check: str = "") -> str:
    """The caption of a board: after a step, the step's title, with the turn, the turn player
    and the phase when they are not those of the previous board's caption (``when``); at a
    key moment inside a step, what it comes after; at a round of rule processing
    (``check``: :data:`~judge.site.replay.AT_CHECK`, :data:`~judge.site.replay.AFTER_CHECK`),
    which of its two moments it is."""
    if check:
        return L._(MOMENT_NAMES[check])
    if key is None:
        return board_caption(L, n, board, title) if when else title
    if isinstance(key, ev.Move):
        which = "crush" if key.verb == "crush" else "check"
    elif isinstance(key, ev.Refresh):
        which = "refresh"
    else:
        which = "burst"
    card = key.ability.card if isinstance(key, ev.EffectEnd) else key.card
    return L._(MOMENT_NAMES[which], card=n.card(card), player=n.player(key.player))


#: What a link to a rule says (:func:`rule_note`): a kind of rule processing by its number
#: and name, property 3 by its name, a mechanic by its glossary term.
RULE_NAMES: dict[str, str] = {
    "kind": N_("rule processing %(number)s: %(name)s"),
    "number": N_("rule processing %(number)s"),
    "together": N_("rule processing: %(name)s"),
}
#: The note after a sentence, around the rules behind it (:func:`rule_note`).
NOTE = N_(" (%(note)s)")
#: From a ruling page to its language's root (``<lang>/rulings/<id>/``): a rule's link is
#: relative to it (the sandbox, on a page at another depth, makes it lead from the language's
#: root: site_templates/sandbox.js).
LANG_ROOT = "../../"
#: A parenthesis at the end of a title or a section's name (``(as quoted on wixoss.81.la)``,
#: ``（パワー0以下のシグニ）``): left out where a step names its source.
_TAIL = re.compile(r"\s*[(（][^()（）]*[)）]$")


def _lines(told: Iterable[Told], checked: frozenset[int], L: Words, n: Narrator,
           anchors: set[str], sourced: set[str]) -> list[dict[str, Any]]:
    """The sentences of one moment of a replay, each with the rules behind it
    (:func:`rule_note`; ``checked``: the events of the trace's rounds of rule processing,
    :func:`judge.coverage.event_rules`): a run of sentences driven by the same rules is noted
    at its first, with the rules' sources the first time the page cites them (``sourced``),
    by their links alone after that. The first sentence of the page to cite a rule carries
    the anchor its page links back to (``rule-kind-power``: the processing page's
    rulings)."""
    out = []
    previous: tuple[RuleRef, ...] = ()
    for t in told:
        rules = tuple(dict.fromkeys(r for e in t.events
                                    for r in event_rules(e, e.seq in checked)))
        ids = []
        for rule in rules:
            name = rule_anchor(rule)
            if name not in anchors:
                anchors.add(name)
                ids.append(name)
        # a run of sentences that the same rules drive (a refresh and the moves it is made
        # of) is noted once, at its first; the sources with a rule's first note of the page
        note = Markup("") if rules == previous else \
            rule_note(rules, L, n, short=all(rule_anchor(r) in sourced for r in rules),
                      named=_named_kinds(t))
        sourced.update(rule_anchor(r) for r in rules)
        out.append({"text": t.text, "rule": note, "ids": ids})
        previous = rules
    return out


def _named_kinds(told: Told) -> frozenset[str]:
    """The kinds of rule processing a sentence names itself (a ``rule_check``, a move made by
    a kind): its note links them by their numbers alone."""
    out: set[str] = set()
    for e in told.events:
        if isinstance(e, ev.RuleCheck):
            out.update(e.kinds, (a.kind for a in e.acts))
        elif isinstance(e, ev.Move) and e.cause == "rule":
            out.add(e.verb)
    return frozenset(out)


def page_anchors(data: RulingData) -> frozenset[str]:
    """The anchors a ruling's page gives the sentences that first cite each rule
    (:func:`rule_anchor`), whatever its language: the rules behind the sentences its replays
    show."""
    n = Narrator("en", scenario_cards(data.scenario))
    out: set[str] = set()
    for rv in data.replays:
        checked = checked_events(rv.trace)
        for view in rv.steps:
            for moment in view.moments[view.same:]:
                for told in n.told(moment.events):
                    out.update(rule_anchor(r) for e in told.events
                               for r in event_rules(e, e.seq in checked))
    return frozenset(out)


def checked_events(trace: Trace | None) -> frozenset[int]:
    """The events of ``trace``'s rounds of rule processing (a refresh among them is kind
    5's; one outside, under the launch rules, interrupts)."""
    return frozenset(i for c in (trace.checks if trace is not None else ())
                     for i in range(c.start, c.end))


def rule_anchor(rule: RuleRef) -> str:
    """The id of the first sentence of a ruling page that a rule drives: the processing page
    and the glossary link back to it."""
    return f"rule-{rule.what}-{rule.id}"


def rule_note(rules: Iterable[RuleRef], L: Words, n: Narrator, short: bool = False,
              named: frozenset[str] = frozenset()) -> Markup:
    """After a sentence, the rules behind it, each linked to where the site states it (the
    processing page for rule processing, the glossary for a keyword), then their sources by
    document and section: "(rule processing 1: power 0 or less; WIXOSS glossary: Rule
    processing § kind 1)"; ``short``, the links alone; a kind the sentence names itself
    (``named``) by its number alone. Empty for a sentence no rule drives."""
    rules = list(rules)
    if not rules:
        return Markup("")
    links = []
    cited: dict[str, list[str]] = {}
    for rule in rules:
        if rule.what == "kind":
            kind = RULE_KIND_BY_ID[rule.id]
            text = L._(RULE_NAMES["number"], number=kind.number) if rule.id in named else \
                L._(RULE_NAMES["kind"], number=kind.number, name=L._(kind.name))
            href = f"processing/#kind-{rule.id}"
        elif rule.what == "together":
            text = L._(RULE_NAMES["together"], name=L._(TOGETHER_NAME))
            href = "processing/#together"
        else:
            text = n.term(rule.term or rule.id, rule.id)
            href = f"glossary/#t-{rule.term or rule.id}"
        links.append(Markup('<a href="{}">{}</a>').format(LANG_ROOT + href, text))
        doc_id, _, section = rule.source.partition("#")
        cited.setdefault(doc_id, [])
        if section and section not in cited[doc_id]:
            cited[doc_id].append(section)
    registry = load_sources()
    sources = []
    for doc_id, sections in () if short else cited.items():
        doc = registry.get(doc_id)
        if doc is None:
            continue
        title = _TAIL.sub("", doc.title(L.lang))
        names = [_TAIL.sub("", doc.sections[name].name(L.lang)) for name in sections
                 if name in doc.sections]
        sources.append(f"{title} § {n.join(names)}" if names else title)
    sep = escape(L._(N_("; ")))
    note = escape(n.join(["", ""])).join(links) + \
        (sep + sep.join(escape(t) for t in sources) if sources else "")
    return Markup('<span class="rule">{}</span>').format(
        escape(L._(NOTE)).replace("%(note)s", note))


def board_caption(L: Words, n: Narrator, board: Any, title: str) -> str:
    if board is None:
        return title
    phase = n.phase(board.phase)
    if board.phase == "attack" and board.attack_step:
        phase = f"{phase} / {n.attack_step(board.attack_step)}"
    return L._("%(step)s — turn %(turn)s, %(player)s, %(phase)s",
               step=title, turn=board.turn, player=n.player(board.turn_player), phase=phase)


def _zone_value(pattern: ZonePattern, zone: str, L: Words, n: Narrator) -> str:
    cards = [n.card(c) for c in pattern.cards]
    if pattern.mode == "count":
        return L.ngettext("%(num)d card", "%(num)d cards", pattern.count or 0)
    if pattern.mode == "contains":
        return L._("includes %(cards)s", cards=n.join(cards))
    if pattern.mode == "lacks":
        return L._("does not include %(cards)s", cards=n.join(cards))
    if not cards:
        return L._("empty")
    ordered = pattern.mode == "exact" or (pattern.mode == "list" and zone in ORDERED_ZONES)
    if len(cards) > 1:
        suffix = L._("in this order") if ordered else L._("in any order")
        return f"{n.join(cards)} ({suffix})" if L.lang == "en" else f"{n.join(cards)}（{suffix}）"
    return cards[0]


#: The facts of an answer as sentences (:func:`answer_sentences`): what the timeline sets side by
#: side for a ruling whose answer changed.
FACT_SENTENCES: dict[str, str] = {
    "cards": N_("%(zone)s holds %(cards)s."),
    "empty": N_("%(zone)s is empty."),
    "contains": N_("%(zone)s includes %(cards)s."),
    "lacks": N_("%(zone)s does not include %(cards)s."),
    "phase": N_("It is the %(phase)s."),
    "turn": N_("It is turn %(turn)s."),
    "turn_player": N_("It is %(player)s's turn."),
    "winner": N_("%(player)s wins the game."),
    "no_winner": N_("Nobody wins the game."),
    "power": N_("The power of %(card)s is %(value)s."),
    "level": N_("The level of %(card)s is %(value)s."),
    "limit": N_("The limit of %(player)s is %(value)s."),
    "outcomes": N_("The legal outcomes: %(names)s."),
}
#: How many times a player has refreshed this turn, as a sentence (singular, plural).
REFRESHES_SENTENCE = NP_("%(player)s has refreshed %(num)d time this turn.",
                         "%(player)s has refreshed %(num)d times this turn.")


def answer_sentences(state: StatePattern, L: Words, n: Narrator) -> list[tuple[str, str]]:
    """The facts an expectation states (:func:`facts`: the same rows, by the same headings),
    each as a sentence: (what, sentence)."""
    return list(zip((what for what, _ in facts(state, L, n)), fact_sentences(state, L, n),
                    strict=True))


def fact_sentences(state: StatePattern, L: Words, n: Narrator) -> list[str]:
    """The sentences of :func:`answer_sentences` without their headings (a quiz answer
    is its sentences alone: the headings are not made for nothing)."""
    out: list[str] = []
    for kind, values in _fact_kinds(state, L, n):
        if kind == "refreshes":
            text = ngettext_for(L.lang, *REFRESHES_SENTENCE, int(values["num"])) % values
        else:
            text = L._(FACT_SENTENCES[kind], **values)
        out.append(heading(text, L.lang))
    return out


def _fact_kinds(state: StatePattern, L: Words, n: Narrator
                ) -> list[tuple[str, dict[str, Any]]]:
    """The sentence of each row of :func:`facts`, in the same order: its kind and values."""
    out: list[tuple[str, dict[str, Any]]] = []
    for where, pattern in state.zones.items():
        ref = ZoneRef.parse(where)
        zone = n.zone(ref)
        cards = n.join(n.card(c) for c in pattern.cards)
        if pattern.mode == "count":
            out.append(("cards", {"zone": zone, "cards": _zone_value(pattern, ref.zone, L, n)}))
        elif pattern.mode in ("contains", "lacks"):
            out.append((pattern.mode, {"zone": zone, "cards": cards}))
        elif not pattern.cards:
            out.append(("empty", {"zone": zone}))
        else:
            out.append(("cards", {"zone": zone, "cards": _zone_value(pattern, ref.zone, L, n)}))
    if state.phase:
        out.append(("phase", {"phase": n.phase(state.phase)}))
    if state.attack_step:
        out.append(("phase", {"phase": n.attack_step(state.attack_step)}))
    if state.turn is not None:
        out.append(("turn", {"turn": state.turn}))
    if state.turn_player:
        out.append(("turn_player", {"player": n.player(state.turn_player)}))
    if state.winner:
        out.append(("no_winner", {}) if state.winner == "none" else
                   ("winner", {"player": n.player(state.winner)}))
    out += [("power", {"card": n.card(c), "value": v}) for c, v in state.power.items()]
    out += [("level", {"card": n.card(c), "value": v}) for c, v in state.level.items()]
    out += [("limit", {"player": n.player(p), "value": v}) for p, v in state.limit.items()]
    out += [("refreshes", {"player": n.player(p), "num": v})
            for p, v in state.refreshes.items()]
    return out


def timeline_card_key(scenario: Scenario, row: Row, n: Narrator, shown: Iterable[str]
                      ) -> list[tuple[str, str]]:
    """The key to the card labels that the texts ``shown`` (the facts of ``row`` the timeline
    compares) name, of the ruling's named cards, in label order."""
    labels: list[str] = []
    for rules in (row.before, row.after):
        for i in expectation_keys(scenario.expectations, rules):
            state = scenario.expectations[i].state
            labels += [c for pattern in state.zones.values() for c in pattern.cards]
            labels += [*state.power, *state.level]
    words = {w for text in shown for w in re.findall(r"[A-Za-z0-9_\-]+", text)}
    names = short_names(n, (label for label in dict.fromkeys(labels) if label in words))
    return [(label, names[label]) for label in sorted(names, key=label_order)]


def heading(text: str, lang: str) -> str:
    """``text`` as a heading: in English, from a capital letter ("Under Player 1's SIGNI in
    SIGNI zone 1"); other languages have no capitals."""
    return text[:1].upper() + text[1:] if lang == "en" and text[:1].islower() else text


def facts(state: StatePattern, L: Words, n: Narrator) -> list[tuple[str, str]]:
    """The key facts an expectation states, as (what, value) rows (what: a row's heading)."""
    rows: list[tuple[str, str]] = []
    for where, pattern in state.zones.items():
        ref = ZoneRef.parse(where)
        rows.append((heading(n.zone(ref), L.lang), _zone_value(pattern, ref.zone, L, n)))
    if state.phase:
        rows.append((L._("Phase"), n.phase(state.phase)))
    if state.attack_step:
        rows.append((L._("Attack step"), n.attack_step(state.attack_step)))
    if state.turn is not None:
        rows.append((L._("Turn"), str(state.turn)))
    if state.turn_player:
        rows.append((L._("Turn player"), n.player(state.turn_player)))
    if state.winner:
        rows.append((L._("Winner"), L._("nobody") if state.winner == "none"
                     else n.player(state.winner)))
    for label, value in state.power.items():
        rows.append((L._("Power of %(card)s", card=n.card(label)), str(value)))
    for label, value in state.level.items():
        rows.append((L._("Level of %(card)s", card=n.card(label)), str(value)))
    for player, value in state.limit.items():
        rows.append((L._("Limit of %(player)s", player=n.player(player)), str(value)))
    for player, value in state.refreshes.items():
        rows.append((L._("Refreshes of %(player)s this turn", player=n.player(player)),
                     str(value)))
    return rows
