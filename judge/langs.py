"""The project's languages, the texts a ruling writes in each, and the marks of message ids.

Defined once here and read everywhere: by the loader and the data readers (which languages a
text table may hold), by the engine (card and rule-set names), by narration and the site. This
module imports nothing, so that the engine may use it without touching the catalogues;
:mod:`judge.i18n` reads the catalogues themselves.
"""

from __future__ import annotations

#: The languages, as BCP 47 tags (``zh-Hans``), in display order; Japanese is the source
#: language that every other falls back to.
LANGS: tuple[str, ...] = ("ja", "en", "zh-Hans")
#: The texts a ruling gives per language.
TEXT_FIELDS: tuple[str, ...] = ("title", "question", "answer", "explanation")


def N_(message: str) -> str:  # noqa: N802 - the gettext convention for "mark, do not translate"
    """Mark a message id for extraction; it is translated where it is used."""
    return message


def NP_(singular: str, plural: str) -> tuple[str, str]:  # noqa: N802 - as N_
    """Mark a message id with a plural form (extracted with ``-k NP_:1,2``)."""
    return (singular, plural)
