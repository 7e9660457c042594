"""The sandbox's board editor: what a judge taps, as edits of the ruling's text.

The sandbox shows the set-up as a board of zones (:func:`board_view`, in the page's language:
players, zones, cards, steps and every choice named in the glossary's terms) and each tap is
an edit of the ruling file (:func:`edit`): add a card to a zone from the palette, move or
remove it, set it down or frozen, set its power, level, colour or keywords, add or remove a
step (or one more operation of the last effect), pick the rule set and the format, or empty
the board; :func:`proposal` makes the file a judge proposes to the project from it. The
edits are made on the file's tomlkit document, the writer ``judge migrate`` uses, which
keeps the comments, the key order and the layout: a change made on the board gives the file
a judge would get by editing it by hand (tests/test_editor.py sets the two side by side). The
TOML stays the advanced view; the sandbox replays whatever text results, so the board and
the text never disagree.

Everything runs natively and, in the browser, under Pyodide (tomlkit is packed into the
sandbox's zip). A refused edit raises :class:`EditError`, one line naming the field.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

import tomlkit
from tomlkit.items import AoT

from judge.data import card_library, load_rulesets
from judge.engine import mechanics
from judge.engine.actions import ACTIONS
from judge.engine.costs import ENER_COLOURS
from judge.engine.formats import FORMATS
from judge.engine.state import ATTACK_STEPS, PHASES, PLAYERS, SIGNI_ZONES, ZONES
from judge.errors import JudgeError
from judge.i18n import N_, gettext_for
from judge.langs import LANGS
from judge.migrate.rules import _inline as _rewritten
from judge.narrate import Narrator
from judge.narrate.cards import OP_NAMES, OP_TERMS, TYPE_TERMS
from judge.narrate.catalogue import messages
from judge.narrate.flow import ACTION_NAMES
from judge.scenario.model import Scenario
from judge.site.sections import Words
from judge.site.topics import TOPIC_NAMES

#: Zones that hold one card, written ``signi1 = "S1:signi-2"`` rather than as a list.
SINGLE_ZONES = (*SIGNI_ZONES, "seed1", "seed2", "seed3", "trap1", "trap2", "trap3", "cheer")
#: Zones whose cards may be written down or frozen (docs/scenario-format.md, Zone notation).
STATE_ZONES = ("lrig", "key", "assist1", "assist2", *SIGNI_ZONES, "cheer")
#: The operations the step menu offers for an effect: those that its fields (OP_MENU_FIELDS)
#: describe; the others (a zone, a keyword, what cannot happen, a replacement, a target
#: table of the look operations, a cost) are written in the TOML view.
EFFECT_OPS = ("draw", "mill", "ener_charge", "crush", "discard", "damage", "shuffle", "banish",
              "trash", "to_ener", "to_hand", "to_deck", "put_onto_field", "power", "level",
              "set_power", "set_level", "limit", "banish_to_trash", "charm", "freeze", "down",
              "up", "lose_abilities", "draw_limit", "coins", "use", "bloom", "keyword")
#: The fields of an operation the menu asks for, when the operation has them (judge.engine.
#: cards.OPS): the card it acts on (a label of the board), how many, by how much, and the
#: keyword it gives.
OP_MENU_FIELDS = ("target", "count", "amount", "keyword")
#: The operations whose amount is the value they set: they need one.
AMOUNT_NEEDED = ("set_power", "set_level", "draw_limit")
#: The steps the menu offers, and the fields each asks for.
STEP_MENU: dict[str, tuple[str, ...]] = {
    "advance": ("to",), "effect": ("player", "op", *OP_MENU_FIELDS), "use": ("card",),
    "attack": ("card",), "play": ("card",), "pass": ("player",), "ener": ("card",),
    "grow": ("card",), "remove": ("card",), "activate": ("card",), "damage": ("player",),
    "crush": ("player", "count"),
}
#: The label prefix of a new card, by its type (the filler is a SIGNI).
LABEL_PREFIX = {"lrig": "L", "signi": "S", "arts": "A", "spell": "P", "key": "K",
                "resona": "R", "piece": "C"}
#: The names of the formats (the glossary's term ``format`` names them among its aliases).
FORMAT_NAMES = {"all-star": N_("All Star"), "key-selection": N_("Key Selection"),
                "diva-selection": N_("Diva Selection")}
FILLER = N_("A plain level-1 SIGNI")
_ITEM = re.compile(r"(?P<label>[A-Za-z][A-Za-z0-9_-]*?)(?:\*(?P<count>\d+))?(?::(?P<card>.+))?")


class EditError(JudgeError):
    """An edit the board cannot make (an unknown label, zone or action), in one line."""


@dataclass(frozen=True)
class Spot:
    """Where one label is written: in ``holder[key]`` of ``[setup.PLAYER]``'s ``zone``."""

    player: str
    zone: str
    holder: Any  # the array, table or inline table holding the item
    key: int | str  # its index in an array, or its key in a table
    item: Any  # the string or inline table written there
    #: where the array ``holder`` is itself written (None when ``holder`` is a table)
    owner: Any = None
    owner_key: str = ""

    def replace(self, items: list[Any]) -> None:
        """Write the array again with ``items`` in place of this item (a fresh array: tomlkit
        spaces the items of an array edited in place unevenly)."""
        values = list(self.holder)
        assert isinstance(self.key, int) and self.owner is not None
        values[self.key:self.key + 1] = items
        if values or self.owner_key not in ZONES:
            self.owner[self.owner_key] = _array(values)
        else:
            del self.owner[self.owner_key]  # an emptied zone goes with its last card


def _inline(values: dict[str, Any]) -> Any:
    """An inline table written as the project writes them, ``{ card = "S1", down = true }``
    (:func:`judge.migrate.rules._inline`, the one place that writes one)."""
    table = tomlkit.inline_table()
    table.update(values)
    return _rewritten(table)


def _array(items: list[Any]) -> Any:
    """A TOML array of ``items`` (written on one line, as hand-written zones are)."""
    out = tomlkit.array()
    out.extend(items)
    return out


def _insert_before(doc: Any, before: str, name: str, value: Any) -> None:
    """Add ``name`` to the document just before its key ``before`` (at the end without
    it): the keys from ``before`` on are taken out and written again after it."""
    keys = list(doc.keys())
    after = keys[keys.index(before):] if before in keys else []
    moved = [(key, doc.pop(key)) for key in after]
    doc.append(name, value)
    for key, item in moved:
        doc.append(key, item)


def _parse(text: str) -> tomlkit.TOMLDocument:
    try:
        return tomlkit.parse(text)
    except Exception as exc:  # tomlkit's ParseError and friends: the text does not parse
        raise EditError(f"the text is not valid TOML ({exc}); fix it in the text first") \
            from None


def _split(item: str) -> tuple[str, int | None, str]:
    """``"S1:signi-2"`` -> (S1, None, signi-2); ``"d*5"`` -> (d, 5, "")."""
    found = _ITEM.fullmatch(item)
    if not found:
        return item, None, ""
    count = found.group("count")
    return found.group("label"), int(count) if count else None, found.group("card") or ""


def _card_of(item: Any) -> str:
    return str(item.get("card", "")) if isinstance(item, dict) else str(item)


def _spots(doc: Any) -> Iterator[Spot]:
    """Every item of the set-up's zones (tables' ``under``/``charm``/``accessory`` too)."""
    setup = doc.get("setup", {})
    for player in PLAYERS:
        side = setup.get(player, {})
        for zone in list(side.keys()):
            if zone not in ZONES:
                continue
            value = side[zone]
            if isinstance(value, list):
                for i, item in enumerate(value):
                    yield from _with_inner(Spot(player, zone, value, i, item, side, zone))
            else:
                yield from _with_inner(Spot(player, zone, side, zone, value))


def _with_inner(spot: Spot) -> Iterator[Spot]:
    yield spot
    item = spot.item
    if isinstance(item, dict):
        zone = spot.zone
        under = "under" + zone[-1] if zone in SIGNI_ZONES else zone
        for name in ("under", "charm", "accessory"):
            inner = item.get(name)
            if isinstance(inner, list):
                for i, one in enumerate(inner):
                    yield Spot(spot.player, under, inner, i, one, item, name)
            elif inner is not None:
                yield Spot(spot.player, under, item, name, inner)


def _labels(doc: Any) -> set[str]:
    out: set[str] = set()
    for spot in _spots(doc):
        label, count, _ = _split(_card_of(spot.item))
        out.update(f"{label}{i}" for i in range(1, count + 1)) if count else out.add(label)
    return out


def _find(doc: Any, label: str) -> Spot:
    """Where ``label`` is written; a run (``d*5``) is first written out card by card."""
    for spot in _spots(doc):
        name, count, card = _split(_card_of(spot.item))
        if count is None and name == label:
            return spot
        if count is not None and label in {f"{name}{i}" for i in range(1, count + 1)}:
            if spot.owner is None or isinstance(spot.item, dict):
                raise EditError(f"{label} is one of the run {_card_of(spot.item)!r}, which "
                                "the board cannot split here; edit it in the text")
            suffix = f":{card}" if card else ""
            spot.replace([f"{name}{i}{suffix}" for i in range(1, count + 1)])
            return _find(doc, label)
    raise EditError(f"no card labelled {label!r} in the set-up")


def _side(doc: Any, player: str) -> Any:
    if player not in PLAYERS:
        raise EditError(f"player: expected one of {', '.join(PLAYERS)}, got {player!r}")
    if "setup" not in doc:
        doc["setup"] = tomlkit.table()
    setup = doc["setup"]
    if player not in setup:
        setup[player] = tomlkit.table()
    return setup[player]


def _put(doc: Any, player: str, zone: str, item: Any) -> None:
    """Write ``item`` (a string or an inline table) into ``zone`` of ``player``."""
    if zone not in ZONES:
        raise EditError(f"zone: expected one of {', '.join(ZONES)}, got {zone!r}")
    side = _side(doc, player)
    if zone not in side:
        side[zone] = item if zone in SINGLE_ZONES else _array([item])
        return
    value = side[zone]
    if isinstance(value, list):
        value.append(item)
    else:  # one item alone: a second one makes it a list (the loader says if it is refused)
        side[zone] = _array([value, item])


def _take(doc: Any, spot: Spot) -> None:
    """Remove the item at ``spot``; a zone left empty is removed with it."""
    if spot.owner is not None:
        spot.replace([])
    else:
        del spot.holder[spot.key]


def _fresh_label(doc: Any, kind: str) -> str:
    used = _labels(doc)
    prefix = LABEL_PREFIX.get(kind, "S")
    n = 1
    while f"{prefix}{n}" in used:
        n += 1
    return f"{prefix}{n}"


def _card_type(doc: Any, card: str) -> str:
    """The type of the card ``card`` (the ruling's own, a shared one; the filler: SIGNI)."""
    own = doc.get("cards", {}).get(card)
    if own is not None:
        return str(own.get("type", "signi"))
    shared = card_library().cards.get(card)
    return shared.type if shared is not None else "signi"


def _add(doc: Any, player: str, zone: str, card: str = "") -> str:
    if card and card not in doc.get("cards", {}) and card not in card_library().cards:
        raise EditError(f"card: no card {card!r} in the ruling or the shared card files")
    label = _fresh_label(doc, _card_type(doc, card) if card else "signi")
    _put(doc, player, zone, f"{label}:{card}" if card else label)
    return label


def _move(doc: Any, label: str, player: str, zone: str) -> None:
    spot = _find(doc, label)
    item = spot.item
    _take(doc, spot)
    if isinstance(item, dict) and zone not in STATE_ZONES:  # down and frozen stay behind
        rest = {k: v for k, v in item.items() if k not in ("down", "frozen")}
        item = str(rest["card"]) if set(rest) == {"card"} else item
    _put(doc, player, zone, item)


def _set_state(doc: Any, label: str, down: bool, frozen: bool) -> None:
    spot = _find(doc, label)
    if (down or frozen) and spot.zone not in STATE_ZONES:
        raise EditError(f"{label}: only a card in {', '.join(STATE_ZONES)} can be down or "
                        f"frozen, not one in {spot.zone}")
    item = spot.item
    table = dict(item) if isinstance(item, dict) else {"card": str(item)}
    for name, on in (("down", down), ("frozen", frozen)):
        if on:
            table[name] = True
        else:
            table.pop(name, None)
    spot.holder[spot.key] = table["card"] if set(table) == {"card"} else _inline(table)


def _own_card(doc: Any, label: str) -> Any:
    """The ruling's own definition of the card labelled ``label``: the one it names, or a new
    ``[cards.ID]`` copied from the shared card (or the filler) that the item is then made to
    name, as a judge changing one card's numbers would write it."""
    spot = _find(doc, label)
    name, _, card = _split(_card_of(spot.item))
    cards = doc.get("cards")
    if card and cards is not None and card in cards:
        return cards[card]
    base = card_library().cards.get(card) if card else None
    new_id = re.sub(r"[^a-z0-9]+", "-", f"{card or 'signi'}-{name}".lower()).strip("-")
    table = tomlkit.table()
    if base is not None:
        table["name"] = _inline(dict(base.names))
    table["type"] = base.type if base is not None else "signi"
    colours = base.colour if base is not None else ("white",)
    table["colour"] = colours[0] if len(colours) == 1 else list(colours)
    for field in ("level", "power", "limit", "lrig_type"):
        value = getattr(base, field) if base is not None else \
            {"level": 1, "power": 1000}.get(field)
        if value is not None:
            table[field] = value
    if base is not None and base.keywords:
        table["keywords"] = list(base.keywords)
    if cards is None:  # the first card of its own: before the set-up, where rulings put them
        _insert_before(doc, "setup", "cards", tomlkit.table(is_super_table=True))
        cards = doc["cards"]
    cards[new_id] = table
    written = f"{name}:{new_id}"
    if isinstance(spot.item, dict):
        spot.item["card"] = written
    else:
        spot.holder[spot.key] = written
    return cards[new_id]


def _set_card(doc: Any, label: str, field: str, value: Any) -> None:
    if field not in ("power", "level", "colour"):
        raise EditError(f"field: expected power, level or colour, got {field!r}")
    if field == "colour" and value not in ENER_COLOURS:
        raise EditError(f"colour: expected one of {', '.join(ENER_COLOURS)}, got {value!r}")
    if field != "colour" and (isinstance(value, bool) or not isinstance(value, int)):
        raise EditError(f"{field}: expected a whole number, got {value!r}")
    _own_card(doc, label)[field] = value


def _toggle_keyword(doc: Any, label: str, keyword: str) -> None:
    if keyword not in mechanics.keyword_ids():
        raise EditError(f"keyword: expected one of {', '.join(mechanics.keyword_ids())}, "
                        f"got {keyword!r}")
    card = _own_card(doc, label)
    words = [str(k) for k in card.get("keywords", [])]
    words = [k for k in words if k != keyword] if keyword in words else [*words, keyword]
    if words:
        card["keywords"] = words
    elif "keywords" in card:
        del card["keywords"]


def _add_step(doc: Any, action: str, fields: dict[str, Any]) -> None:
    if action not in STEP_MENU:
        raise EditError(f"action: expected one of {', '.join(STEP_MENU)}, got {action!r}")
    step = tomlkit.table()
    step["action"] = action
    for name in STEP_MENU[action]:
        value = fields.get(name)
        if value in (None, ""):
            continue
        if name == "op":
            if value not in EFFECT_OPS:
                raise EditError(f"op: expected one of {', '.join(EFFECT_OPS)}, got {value!r}")
            step["ops"] = _array([_inline(_operation(str(value), fields))])
        elif name in OP_MENU_FIELDS and action == "effect":
            continue  # the operation's own (above)
        elif name == "count":
            step["count"] = int(value)
        else:
            step[name] = str(value)
    if action == "effect" and "ops" not in step:
        raise EditError("op: an effect needs an operation")
    step.add(tomlkit.nl())
    if "steps" in doc:
        doc["steps"].append(step)
    else:  # the first step: before the expectations, where a ruling has its steps
        _insert_before(doc, "expect", "steps", AoT([step]))


def _add_operation(doc: Any, fields: dict[str, Any]) -> None:
    """One more operation (``op``, ``count``) at the end of the last step, an effect: an
    effect's operations resolve whole, in order, before the game settles."""
    steps = doc.get("steps")
    last = steps[-1] if steps is not None and len(steps) else None
    if last is None or last.get("action") != "effect":
        raise EditError("op: the last step is not an effect; add an effect step first")
    probe = tomlkit.document()
    _add_step(probe, "effect", fields)  # the operation as a new effect would write it
    ops = [*last.get("ops", []), *probe["steps"][0]["ops"]]
    last["ops"] = _array([_inline(dict(o)) for o in ops])


def _op_fields(op: str) -> tuple[str, ...]:
    """The fields of ``op`` the menu asks for (:data:`OP_MENU_FIELDS`)."""
    from judge.engine.cards import OPS

    if op == "discard":  # a target or a count, never both: the menu's discard takes a count
        return ("count",)
    return tuple(f for f in OP_MENU_FIELDS if f in OPS[op][0])


def _operation(op: str, fields: dict[str, Any]) -> dict[str, Any]:
    """The operation ``op`` with the menu's fields it has: a target card (a label), a count
    and an amount, as a hand-written operation gives them."""
    out: dict[str, Any] = {"op": op}
    names = _op_fields(op)
    for name in names:
        value = fields.get(name)
        if value in (None, ""):
            continue
        out[name] = str(value) if name in ("target", "keyword") else int(value)
    if "target" in names and "target" not in out:
        raise EditError(f"target: the {op} operation needs a card to act on")
    if "keyword" in names and "keyword" not in out:
        raise EditError(f"keyword: the {op} operation needs the keyword it gives")
    if op in AMOUNT_NEEDED and "amount" not in out:
        raise EditError(f"amount: the {op} operation needs the value it sets")
    return out


def _remove_step(doc: Any, index: int) -> None:
    steps = doc.get("steps")
    if steps is None or not 1 <= index <= len(steps):
        raise EditError(f"step: no step {index}")
    del steps[index - 1]
    if not len(steps):
        del doc["steps"]


def _empty(doc: Any) -> None:
    """No card on the board (nor the ruling's own cards, which no card would then be), no
    step, and an expectation block that states nothing yet: a position to build from
    nothing, which ``judge check`` accepts as it is."""
    setup = doc.get("setup")
    if setup is not None:
        for player in PLAYERS:
            if player in setup:
                setup[player] = tomlkit.table()
    for name in ("cards", "steps", "expect", "choices"):
        if name in doc:
            del doc[name]
    expect = tomlkit.table()
    expect.add(tomlkit.comment("What must hold at the end: the facts the answer states."))
    doc.append("expect", AoT([expect]))


def edit(text: str, op: str, args: dict[str, Any]) -> str:
    """``text`` with one board edit made (see the module); :class:`EditError` if refused."""
    doc = _parse(text)
    try:
        if op == "add":
            _add(doc, str(args["player"]), str(args["zone"]), str(args.get("card", "")))
        elif op == "move":
            _move(doc, str(args["label"]), str(args["player"]), str(args["zone"]))
        elif op == "remove":
            _take(doc, _find(doc, str(args["label"])))
        elif op == "state":
            _set_state(doc, str(args["label"]), bool(args.get("down")),
                       bool(args.get("frozen")))
        elif op == "card":
            _set_card(doc, str(args["label"]), str(args["field"]), args["value"])
        elif op == "keyword":
            _toggle_keyword(doc, str(args["label"]), str(args["keyword"]))
        elif op == "step":
            _add_step(doc, str(args["action"]), dict(args))
        elif op == "operation":
            _add_operation(doc, dict(args))
        elif op == "unstep":
            _remove_step(doc, int(args["index"]))
        elif op == "rulesets":
            rules = [str(r) for r in args["rules"]]
            unknown = [r for r in rules if r not in load_rulesets()]
            if unknown or not rules:
                raise EditError(f"rulesets: expected some of {', '.join(load_rulesets())}, "
                                f"got {rules!r}")
            doc["rulesets"] = rules
        elif op == "format":
            if args["format"] not in FORMATS:
                raise EditError(f"format: expected one of {', '.join(FORMATS)}, "
                                f"got {args['format']!r}")
            setup = doc.setdefault("setup", tomlkit.table())
            setup["format"] = str(args["format"])
        elif op == "empty":
            _empty(doc)
        else:
            raise EditError(f"unknown edit {op!r}")
    except KeyError as exc:
        raise EditError(f"the edit {op!r} needs {exc.args[0]!r}") from None
    except (TypeError, ValueError) as exc:
        raise EditError(f"the edit {op!r}: {exc}") from None
    return tomlkit.dumps(doc)


def proposal(text: str, path: str, topic: str, known: Collection[str]) -> dict[str, str]:
    """The file a judge proposes to the project and where it goes: ``text`` itself, or,
    when its id is already a ruling's of the corpus (``known``: a ruling edited in the
    sandbox), with a new id (``ID-variant``, ``ID-variant-2``, ...) so that it adds a ruling
    rather than clashing with one; its path ``rulings/TOPIC/ID.toml``, in the ``topic``
    asked for (one of :data:`~judge.site.topics.TOPIC_NAMES`), else the folder of ``path``,
    else the first of the ruling's tags that is a topic."""
    doc = _parse(text)
    rid = str(doc.get("id", "")) or "my-ruling"
    if rid in known:
        new, n = f"{rid}-variant", 1
        while new in known:
            n += 1
            new = f"{rid}-variant-{n}"
        doc["id"] = rid = new
        text = tomlkit.dumps(doc)
    folder = path.split("/")[1] if path.count("/") >= 2 else ""
    tags = [str(t) for t in doc.get("tags", [])]
    chosen = next((t for t in (topic, folder, *tags) if t in TOPIC_NAMES), "")
    return {"path": f"rulings/{chosen}/{rid}.toml" if chosen else f"rulings/{rid}.toml",
            "text": text}


# ----------------------------------------------------------------------------- the views


def board_view(scenario: Scenario, n: Narrator) -> dict[str, Any]:
    """The set-up as the board shows it, in ``n``'s language: each player's zones that hold
    cards (glossary names), each card with its label, name, state and whether the ruling
    defines it; the steps' titles; the rule sets and the format."""
    names: dict[str, str] = {}
    players = []
    for player in PLAYERS:
        zones = []
        for zone in ZONES:
            cards = []
            for p in scenario.setup.placements:
                if p.player != player or p.zone != zone or p.token:
                    continue
                card = scenario.cards.get(p.card)
                name = n.card_short(p.label) or (
                    n._(FILLER) if p.card in ("", "filler") or card is None else
                    f"{n.term(TYPE_TERMS.get(card.type, card.type), card.type)} ({p.card})")
                names[p.label] = name
                cards.append({"label": p.label, "card": p.card, "name": name,
                              "down": p.down, "frozen": p.frozen})
            if cards:
                zones.append({"id": zone, "name": n.zone_name(zone), "cards": cards})
        players.append({"id": player, "name": n.player(player), "zones": zones})
    return {
        "players": players,
        "cards": [[label, f"{label} {name}"] for label, name in names.items()],
        # the ruling's own cards, for the palette (the shared ones are always in it)
        "own": [[card_id, card.names.get(n.lang) or card.names.get("ja") or card_id]
                for card_id, card in scenario.cards.items()
                if card_id != "filler" and card_id not in card_library().cards],
        # each step's title, and whether it is an effect (which can take one more operation)
        "steps": [[s.index, n.step_title(s), s.action == "effect"] for s in scenario.steps],
        "rulesets": list(scenario.rulesets),
        "format": scenario.setup.format,
    }


@cache
def choices(lang: str) -> dict[str, Any]:
    """Every menu of the board in ``lang``: [value, name] pairs named in the glossary's
    terms (players, zones, the palette's cards, card types, colours, keywords, the steps'
    actions, phases, operations, rule sets and formats)."""
    if lang not in LANGS:
        lang = LANGS[0]
    n = Narrator(lang, {})
    words = Words(lang, rule_sets=load_rulesets())

    def _(message: str) -> str:
        return gettext_for(lang, message)

    library = card_library().cards
    palette = [["", _(FILLER)]] + [[card_id, card.names.get(lang) or card.names.get("ja")
                                    or card_id] for card_id, card in library.items()]
    keyword_terms = messages().keyword_terms
    ops = [[op, n.term(OP_TERMS[op], op) if op in OP_TERMS else _(OP_NAMES[op])]
           for op in EFFECT_OPS]
    return {
        "players": [[p, n.player(p)] for p in PLAYERS],
        "zones": [[z, n.zone_name(z)] for z in ZONES],
        "palette": palette,
        "types": [[t, n.term(TYPE_TERMS[t], t)] for t in TYPE_TERMS],
        "colours": [[c, n.colour(c)] for c in ENER_COLOURS],
        "keywords": [[k, n.term(keyword_terms.get(k, k), k)] for k in mechanics.keyword_ids()],
        "actions": [[a, _(ACTION_NAMES[a])] for a in STEP_MENU if a in ACTIONS],
        "fields": {a: list(f) for a, f in STEP_MENU.items()},
        "opfields": {op: list(_op_fields(op)) for op in EFFECT_OPS},
        "opmenu": list(OP_MENU_FIELDS),
        "phases": [[p, n.phase(p)] for p in PHASES] +
                  [[s, n.attack_step(s)] for s in ATTACK_STEPS],
        "ops": ops,
        "rulesets": [[r, words.rules([r])] for r in load_rulesets()],
        "formats": [[f, _(FORMAT_NAMES[f])] for f in FORMATS],
        "format": n.term("format", "format"),
        "states": [[s, n.term(s, s)] for s in ("down", "frozen")],
        "topics": [[t, _(name)] for t, name in TOPIC_NAMES.items()],
    }

