"""What a card is, in a few words: the short names of a ruling page's key to the cards.

A ruling names its made-up cards by what they do ("SIGNI with Life Burst: put the top card of
your deck into the ener zone"): exact, but too long to list beside a label. The key says
instead what each card is, from its definition: its type and the one feature that sets it
apart, in this order: a keyword ("SIGNI with Double Crush"), Guard, a Life Burst by what it
does first ("SIGNI with a draw burst"), its first ability by kind (an on-play, action or
constant ability; a triggered one by its trigger: "SIGNI that triggers when it is banished"),
an ARTS's or Spell's effect ("Spell: draw"), a limiting condition ("SIGNI limited to
Hanayo"). A card whose own name is short already (at most :data:`SHORT` characters in
English, and no colon or semicolon: "Red LRIG, level 4", "White LRIG Mk. I", "Key A") keeps
it, since it may be the point of the ruling. Operations are named by their glossary term where
there is one (draw, mill, Ener Charge, banish, ...), else by :data:`OP_NAMES`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from judge.engine.cards import CardDef, Op
from judge.langs import N_
from judge.narrate.abilities import TRIGGER_NAMES
from judge.narrate.words import glossary_names

if TYPE_CHECKING:
    from judge.narrate.narrator import Narrator

#: The longest card name (in English) that is kept as the card's short name.
SHORT = 28

#: The glossary term of each card type.
TYPE_TERMS: dict[str, str] = {t: t for t in ("lrig", "signi", "arts", "spell", "key",
                                             "resona", "piece")}

#: Operations named by a glossary term (:data:`judge.engine.cards.OPS`).
OP_TERMS: dict[str, str] = {
    "draw": "draw", "mill": "mill", "ener_charge": "ener-charge", "banish": "banish",
    "discard": "discard", "crush": "crush", "damage": "damage", "shuffle": "shuffle",
    "charm": "charm", "attach": "accessory", "down": "down", "up": "up", "ride": "ride",
    "crystal_arm": "crystal-armament",
}
#: The other operations' names.
OP_NAMES: dict[str, str] = {
    "trash": N_("put into the trash"),
    "to_ener": N_("put into the Ener Zone"),
    "to_hand": N_("return to the hand"),
    "to_deck": N_("put into the main deck"),
    "place": N_("put into a zone"),
    "put_onto_field": N_("put onto the field"),
    "power": N_("power change"),
    "level": N_("level change"),
    "limit": N_("limit change"),
    "banish_to_trash": N_("banished SIGNI go to the trash"),
    "freeze": N_("freeze"),
    "keyword": N_("gain a keyword"),
    "cost_change": N_("cost change"),
    "cost_modify": N_("cost change"),
    "set_seed": N_("set as a Seed"),
    "set_trap": N_("set as a Trap"),
    "bloom": N_("bloom"),
    "make_token": N_("make a craft ARTS"),
    "coins": N_("coins"),
    "set_power": N_("set power"),
    "set_level": N_("set level"),
    "cannot": N_("a \"cannot\" effect"),
    "lose_abilities": N_("lose all abilities"),
    "replace": N_("a replacement effect"),
    "upper_limit": N_("an upper limit"),
    "draw_limit": N_("a draw limit"),
    "attack_limit": N_("an attack limit"),
    "must_attack": N_("a forced attack"),
    "signi_cap": N_("a cap on the SIGNI on the field"),
    "use": N_("use a card through an effect"),
    "look": N_("look at the top of the main deck"),
    "reveal_until": N_("reveal until a card is found"),
    "search": N_("search the main deck"),
    "negate_attack": N_("negate the attack"),
    "set_virus": N_("set a virus"),
    "remove_virus": N_("remove a virus"),
    "set_gate": N_("set a gate"),
    "registrations": N_("gain registrations"),
}

#: The forms of a short name, by the feature that sets the card apart.
SHORT_MESSAGES: dict[str, str] = {
    "keyword": N_("%(type)s with %(keyword)s"),
    "guard": N_("%(type)s with Guard"),
    "burst": N_("%(type)s with a %(what)s burst"),
    "burst:an": N_("%(type)s with an %(what)s burst"),
    "burst:phrase": N_("%(type)s with Life Burst: %(what)s"),
    "on_play": N_("%(type)s with an on-play ability"),
    "action": N_("%(type)s with an action ability"),
    "const": N_("%(type)s with a constant ability"),
    "auto": N_("%(type)s (%(when)s: %(what)s)"),
    "effect": N_("%(type)s: %(what)s"),
    "limiting": N_("%(type)s limited to %(lrig_type)s"),
}


#: An operation done to or by the opponent.
OPPONENT = N_("the opponent's %(what)s")


def op_name(n: Narrator, op: Op) -> str:
    """An operation's name in the narrator's language ("the opponent's mill" for an
    operation on the opponent's deck, hand or limit)."""
    name = op.name
    if name in OP_TERMS:
        what = n.term(OP_TERMS[name], name)
    else:
        what = n._(OP_NAMES[name]) if name in OP_NAMES else name
    return n._(OPPONENT, what=what) if op.target is None and op.who == "opponent" else what


def _an(op: str) -> bool:
    """Whether the English name of ``op`` (a glossary term's) takes "an"."""
    return glossary_names().get(OP_TERMS[op], {}).get("en", op)[:1].lower() in "aeiou"


def short_name(n: Narrator, card: CardDef) -> str:
    """What ``card`` is, in a few words, in the narrator's language (see the module)."""
    english = card.names.get("en", "")
    own = card.names.get(n.lang)
    if own and english and len(english) <= SHORT and not any(c in english for c in ":;"):
        return own
    kind = n.term(TYPE_TERMS.get(card.type, card.type), card.type)
    if card.keywords:
        keyword = card.keywords[0]
        term = n.tables.keyword_terms.get(keyword, keyword)
        return n._(SHORT_MESSAGES["keyword"], type=kind, keyword=n.term(term, keyword))
    if card.guard:
        return n._(SHORT_MESSAGES["guard"], type=kind)
    if card.life_burst:
        op = card.life_burst[0]
        form = "burst:phrase" if op.name not in OP_TERMS or op.who == "opponent" else \
            "burst:an" if _an(op.name) else "burst"
        return n._(SHORT_MESSAGES[form], type=kind, what=op_name(n, op))
    if card.abilities:
        ability = card.abilities[0]
        if ability.kind == "auto" and ability.trigger in TRIGGER_NAMES and ability.effect:
            return n._(SHORT_MESSAGES["auto"], type=kind,
                       when=n._(TRIGGER_NAMES[ability.trigger]),
                       what=op_name(n, ability.effect[0]))
        if ability.kind in SHORT_MESSAGES:
            return n._(SHORT_MESSAGES[ability.kind], type=kind)
    if card.effect:
        return n._(SHORT_MESSAGES["effect"], type=kind, what=op_name(n, card.effect[0]))
    if card.limiting:
        # an LRIG type is an id written in one language; the card's own name, translated by
        # the ruling, says the same in the page's language
        return own or n._(SHORT_MESSAGES["limiting"], type=kind, lrig_type=card.limiting)
    return own or kind


def short_names(n: Narrator, labels: Iterable[str]) -> dict[str, str]:
    """The short name of each named card of ``labels``; where two different cards (by their
    definitions) would get the same short name, each keeps its own name instead, the
    distinction the ruling draws (two cards that share their name keep it: "White LRIG
    Mk. I")."""
    cards = {label: n.cards[label] for label in labels
             if label in n.cards and n.cards[label].names}
    short = {label: short_name(n, card) for label, card in cards.items()}
    kinds: dict[str, set[tuple[str, str]]] = {}
    for label, name in short.items():
        card = cards[label]
        kinds.setdefault(name, set()).add((card.id, card.names.get("en", "")))
    return {label: (cards[label].names.get(n.lang) or name) if len(kinds[name]) > 1 else name
            for label, name in short.items()}
