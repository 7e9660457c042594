"""What ``judge search`` finds: one document per ruling, glossary term, kind of rule
processing and rule-change timeline entry (the four result kinds of docs/search.md).

Only :func:`corpus_documents` reads the corpus (and imports the rules engine and the message
catalogues to do so); a search itself never imports this module's dependencies.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any, NamedTuple

LANGS = ("ja", "en", "zh-Hans")
BODY_FIELDS = ("answer", "question", "explanation")

#: Each kind of rule processing (judge/engine/rule_processing.py, KINDS) in a sentence, and
#: the glossary terms it is about. Written for the search; the names come from the message
#: catalogues, as on the site's processing page.
PROCESSING: dict[str, tuple[dict[str, str], tuple[str, ...]]] = {
    "power": ({
        "ja": "パワーが0以下になったシグニは、ルール処理によってバニッシュされる。",
        "en": "A SIGNI whose power is 0 or less is banished by rule processing.",
        "zh-Hans": "力量为0以下的精灵因规则处理被破坏。"},
        ("power", "banish", "signi")),
    "excess": ({
        "ja": "ルリグのレベルを超えるレベルのシグニや、レベルの合計がリミットを超えた分のシグニを、"
              "1体ずつ選んでトラッシュに置く（バニッシュではない）。",
        "en": "SIGNI whose level is above the LRIG's level, or beyond what the LRIG's limit "
              "allows in total, are chosen one at a time and put into the trash (they are not "
              "banished).",
        "zh-Hans": "等级高于分身等级的精灵，或等级总和超出界限时多出的精灵，"
                   "逐只选择后放入废弃区（这不是破坏）。"},
        ("exceed-level-limit", "level", "limit", "trash")),
    "under": ({
        "ja": "場を離れたシグニの下に置かれていたカードや、"
              "付いていたチャームやアクセはトラッシュに置かれる。",
        "en": "The cards under a SIGNI that left the field, and its Charm or Accessory, go to "
              "the trash.",
        "zh-Hans": "离场精灵下方的牌以及附在它上面的魅饰、附属放入废弃区。"},
        ("charm", "accessory", "rise", "trash")),
    "check": ({
        "ja": "クラッシュされてチェックゾーンに置かれたカードは、"
              "ライフバーストがないか発動しなかった場合、エナゾーンに置かれる。",
        "en": "A crushed card left in the check zone, without a Life Burst or with one not "
              "used, goes to the ener zone.",
        "zh-Hans": "被击溃而留在检查区的牌，若没有生命爆发或未发动，则放入能量区。"},
        ("check-zone", "crush", "life-burst", "ener-zone")),
    "refresh": ({
        "ja": "メインデッキが0枚のプレイヤーはリフレッシュする：トラッシュのカードをシャッフルして"
              "新しいメインデッキにし、ライフクロス1枚をトラッシュに置く。",
        "en": "A player whose main deck is empty refreshes: the trash is shuffled into a new "
              "main deck, then one life cloth goes to the trash.",
        "zh-Hans": "主牌组为0张的玩家进行重构：把废弃区的牌洗切成为新的主牌组，"
                   "然后把1张生命护甲放入废弃区。"},
        ("refresh", "main-deck", "trash", "life-cloth")),
    "resona": ({
        "ja": "ルリグデッキ、ルリグトラッシュ、シグニゾーン以外の場所に移ったレゾナは、"
              "ルリグデッキに戻る。",
        "en": "A Resona that ends up anywhere but the LRIG deck, the LRIG trash or a SIGNI zone "
              "returns to the LRIG deck.",
        "zh-Hans": "共鸣精灵去到分身牌组、分身废弃区和精灵区以外的地方时，回到分身牌组。"},
        ("resona", "lrig-deck")),
    "key": ({
        "ja": "ルリグデッキ、ルリグトラッシュ、ルリグゾーン以外の場所に移ったキーは、"
              "ルリグトラッシュに置かれる。",
        "en": "A Key that ends up anywhere but the LRIG deck, the LRIG trash or the LRIG zone "
              "is put into the LRIG trash.",
        "zh-Hans": "钥匙去到分身牌组、分身废弃区和分身区以外的地方时，放入分身废弃区。"},
        ("key", "lrig-trash")),
    "upper_limit": ({
        "ja": "置ける枚数を超えたカード（2枚目のキー、1体のシグニに付いた2枚目のアクセなど）は、"
              "選んでトラッシュ（キーはルリグトラッシュ）に置く。",
        "en": "Cards beyond what a zone or a SIGNI may hold (a second Key, a second Accessory "
              "on one SIGNI) are chosen and put into the trash, a Key into the LRIG trash.",
        "zh-Hans": "超过可放置张数的牌（第2张钥匙、同一精灵上的第2张附属等）"
                   "由玩家选择后放入废弃区，钥匙放入分身废弃区。"},
        ("key", "accessory", "trash", "lrig-trash")),
    "limiting": ({
        "ja": "限定条件がセンタールリグのルリグタイプと合わないシグニやキーは、"
              "トラッシュに置かれる。",
        "en": "A SIGNI or Key whose limiting condition does not match the centre LRIG's LRIG "
              "type is put into the trash.",
        "zh-Hans": "限定条件与核心分身的分身类别不符的精灵或钥匙被放入废弃区。"},
        ("limiting-condition", "lrig-type", "centre-lrig")),
    "lrig_type": ({
        "ja": "同じルリグタイプのルリグが場に2体いるとき、"
              "センタールリグでない方の束がルリグトラッシュに置かれる。",
        "en": "With two LRIGs of one LRIG type on the field, the stack that is not the centre "
              "LRIG goes to the LRIG trash.",
        "zh-Hans": "场上有两只同一分身类别的分身时，非核心分身的那一叠放入分身废弃区。"},
        ("lrig-type", "assist-lrig", "centre-lrig", "lrig-trash")),
}
#: The empty texts of a document without them (shared: it cannot be changed).
NONE: Mapping[str, str] = MappingProxyType({})
#: Words that every rule-change entry is found by, beside its own title and summary.
CHANGE_WORDS = "ルール変更 改定 rule change revision 规则变更 修订"


class SearchDoc(NamedTuple):
    """One result the index holds.

    ``titles`` and ``bodies`` (the text shown under the title: a ruling's answer, a term's or
    a kind's definition, a rule change's summary) by language; ``questions`` and
    ``explanations`` are indexed but not shown; ``keywords`` (a ruling's id, tags and the
    names of the terms it lists; a term's aliases) are indexed with a low weight; ``label``
    is shown beside the id."""

    id: str
    path: str
    titles: Mapping[str, str]
    bodies: Mapping[str, str] = NONE
    tags: tuple[str, ...] = ()
    rules: tuple[str, ...] = ()
    terms: tuple[str, ...] = ()
    kind: str = "ruling"
    questions: Mapping[str, str] = NONE
    explanations: Mapping[str, str] = NONE
    keywords: str = ""
    label: str = ""


def _texts(ruling: Any, name: str) -> dict[str, str]:
    return {lang: t for lang in LANGS if (t := ruling.text(name, lang, False))}


def ruling_doc(ruling: Any, glossary: Mapping[str, Any]) -> SearchDoc:
    """The document of a loaded ruling (:class:`judge.corpus.Ruling`)."""
    scenario = ruling.scenario
    names = [n for t in scenario.terms if t in glossary
             for n in glossary[t].names.values()]
    # the id too: its authors sum the ruling up in it (cost-exact-payment-no-overpaying)
    keywords = " ".join([ruling.id.replace("-", " "),
                         *(t.replace("-", " ") for t in scenario.tags), *names])
    return SearchDoc(id=ruling.id, path=ruling.path, titles=_texts(ruling, "title"),
                     bodies=_texts(ruling, "answer"), questions=_texts(ruling, "question"),
                     explanations=_texts(ruling, "explanation"), tags=tuple(scenario.tags),
                     rules=tuple(scenario.rulesets), terms=tuple(scenario.terms),
                     keywords=keywords)


def term_docs(terms: Iterable[Any]) -> Iterator[SearchDoc]:
    """A document per glossary term (:class:`judge.corpus.Term`): its names, its definition,
    its aliases."""
    for term in terms:
        yield SearchDoc(id=f"term:{term.id}", path="data/glossary.toml", kind="term",
                        titles=dict(term.names), bodies=dict(term.definition),
                        terms=(term.id,), keywords=" ".join(term.aliases),
                        label=term.main and f"main ruling {term.main}")


def processing_docs(glossary: Mapping[str, Any]) -> Iterator[SearchDoc]:
    """A document per kind of rule processing, named as the message catalogues name it."""
    from judge.engine.rule_processing import KINDS
    from judge.i18n import gettext_for
    from judge.narrate import RULE_KIND_NAMES

    rule = glossary.get("rule-processing")
    for kind, number in KINDS.items():
        definition, related = PROCESSING.get(kind, ({}, ()))
        titles = {lang: f"{number}. {gettext_for(lang, RULE_KIND_NAMES[kind])}"
                  for lang in LANGS}
        words = [*(rule.names.values() if rule else ()), *(rule.aliases if rule else ())]
        words += [n for t in related if t in glossary for n in glossary[t].names.values()]
        yield SearchDoc(id=f"processing:{kind}", path="judge/engine/rule_processing.py",
                        kind="processing", titles=titles, bodies=definition,
                        terms=("rule-processing", *related), keywords=" ".join(words),
                        label=f"kind {number}")


def change_docs(rulesets: Iterable[Any]) -> Iterator[SearchDoc]:
    """A document per dated rule set (:class:`judge.engine.rulesets.RuleSet`): the change it
    brought, as the timeline shows it."""
    for rs in rulesets:
        yield SearchDoc(id=f"change:{rs.id}", path="data/rulesets.toml", kind="change",
                        titles=dict(rs.title), bodies=dict(rs.summary), rules=(rs.id,),
                        keywords=" ".join([CHANGE_WORDS, rs.id, *rs.sources]),
                        label=f"from {rs.start}")


def corpus_documents(root: Path) -> tuple[list[SearchDoc], list[Any], list[str]]:
    """Every document of the corpus at ``root``, the glossary terms and the rule set ids."""
    from judge.corpus import load_corpus

    corpus = load_corpus(root, replay=False)
    glossary = dict(corpus.glossary)
    docs = [ruling_doc(r, glossary) for r in corpus.rulings]
    docs += term_docs(glossary.values())
    docs += processing_docs(glossary)
    docs += change_docs(corpus.rulesets.values())
    return docs, list(glossary.values()), list(corpus.rulesets)
