"""Message catalogues: gettext ``.po`` files read and compiled in-process with Babel.

The catalogues live in ``judge/locale/<locale>/LC_MESSAGES/messages.po`` (``ja``, ``en`` and
``zh_Hans``). Message ids are English and written in the code with ``%(name)s`` placeholders;
``N_`` marks a message id where it is defined, ``pybabel extract`` finds it (see ``babel.cfg``
and docs/site.md). No compiled ``.mo`` file needs to be committed: :func:`translations` compiles
a catalogue in memory the first time it is asked for, and :func:`compile_catalogues` writes
the ``.mo`` files (what ``pybabel compile`` does) for tools that want them. Where a language has
only its compiled ``.mo`` file (the copy of the package the browser sandbox runs, see
:mod:`judge.site.sandbox`), :func:`translations` reads it, and Babel is not imported at all.
"""

from __future__ import annotations

import gettext
import io
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from judge.langs import LANGS as LANGS  # the site's languages, defined once
from judge.langs import N_ as N_
from judge.langs import NP_ as NP_

if TYPE_CHECKING:
    from babel.messages.catalog import Catalog

#: The gettext locale folder of each language.
LOCALES: dict[str, str] = {"ja": "ja", "en": "en", "zh-Hans": "zh_Hans"}
#: Each language's name in that language (the language switcher's labels).
NATIVE_NAMES: dict[str, str] = {"ja": "日本語", "en": "English", "zh-Hans": "简体中文"}
DOMAIN = "messages"


def locale_dir() -> Path:
    return Path(__file__).resolve().parent / "locale"


def po_path(lang: str) -> Path:
    return locale_dir() / LOCALES[lang] / "LC_MESSAGES" / f"{DOMAIN}.po"


@cache
def catalog(lang: str) -> Catalog:
    """The parsed ``.po`` catalogue of ``lang``."""
    from babel.messages.pofile import read_po  # here: the sandbox's copy runs without Babel

    with po_path(lang).open("rb") as fh:
        return read_po(fh, locale=LOCALES[lang], domain=DOMAIN)


def mo_bytes(lang: str) -> bytes:
    """The compiled (``.mo``) form of ``lang``'s catalogue; fuzzy entries are left out."""
    from babel.messages.mofile import write_mo

    buffer = io.BytesIO()
    write_mo(buffer, catalog(lang), use_fuzzy=False)
    return buffer.getvalue()


@cache
def translations(lang: str) -> gettext.GNUTranslations:
    """gettext translations for ``lang``, compiled in memory from its ``.po`` file (or read
    from its ``.mo`` file where there is no ``.po``: the sandbox's copy of the package)."""
    po = po_path(lang)
    if not po.is_file() and po.with_suffix(".mo").is_file():
        return gettext.GNUTranslations(io.BytesIO(po.with_suffix(".mo").read_bytes()))
    return gettext.GNUTranslations(io.BytesIO(mo_bytes(lang)))


def compile_catalogues(out: Path | None = None) -> list[Path]:
    """Write ``messages.mo`` beside each ``.po`` (or under ``out/<locale>/LC_MESSAGES``), as
    ``pybabel compile -d judge/locale`` does. Returns the files written."""
    written = []
    for lang in LANGS:
        target = (out / LOCALES[lang] / "LC_MESSAGES" if out else po_path(lang).parent) \
            / f"{DOMAIN}.mo"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(mo_bytes(lang))
        written.append(target)
    return written


def catalogue_problems(lang: str) -> list[str]:
    """Messages that are missing, fuzzy or whose placeholders do not match their id."""
    out = []
    for message in catalog(lang):
        if not message.id:
            continue
        msgid = message.id if isinstance(message.id, str) else message.id[0]
        if not message.string or (not isinstance(message.string, str)
                                  and not all(message.string)):
            out.append(f"{lang}: untranslated: {msgid!r}")
        elif message.fuzzy:
            out.append(f"{lang}: fuzzy: {msgid!r}")
        for error in message.check(catalog(lang)):
            out.append(f"{lang}: {msgid!r}: {error}")
    return out


def gettext_for(lang: str, message: str) -> str:
    return translations(lang).gettext(message)


def ngettext_for(lang: str, singular: str, plural: str, n: int) -> str:
    return translations(lang).ngettext(singular, plural, n)
