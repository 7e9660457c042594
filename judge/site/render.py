"""Build phase 3, render: Jinja2 templates from ``site_templates/``, one environment per
language (autoescape, ``StrictUndefined``: a missing value is an error, not an empty string),
with the interface strings translated by the same gettext catalogues as the narration."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup

from judge.i18n import LANGS, NATIVE_NAMES, translations
from judge.paths import project_root


def templates_dir() -> Path:
    return project_root() / "site_templates"


def assets_dir() -> Path:
    return templates_dir() / "assets"


@cache
def environment(lang: str, folder: str = "") -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(folder or str(templates_dir())),
        autoescape=True, undefined=jinja2.StrictUndefined, trim_blocks=True,
        lstrip_blocks=True, keep_trailing_newline=True, auto_reload=False,
        extensions=["jinja2.ext.i18n"])
    catalogue = translations(lang)
    env.install_gettext_translations(catalogue, newstyle=True)  # type: ignore[attr-defined]
    gettext = _remembering_gettext(catalogue.gettext)
    # ``_`` too: the extension's ``_`` looks ``gettext`` up in the context at each call
    env.globals.update(LANGS=LANGS, NATIVE_NAMES=NATIVE_NAMES, gettext=gettext, _=gettext)
    return env


def _remembering_gettext(translate: Callable[[str], str]) -> Callable[..., str]:
    """The templates' ``_`` and ``gettext``: what the i18n extension's new-style gettext
    gives (the message translated, as markup when escaping, formatted with its values), each
    message translated once per language rather than at every call (a ruling page asks for
    some sixty messages, mostly the same on every page; the site's bytes do not change)."""
    markup: dict[str, Markup] = {}
    done: dict[str, Markup] = {}

    @jinja2.pass_context
    def gettext(context: jinja2.runtime.Context, message: str, /, **values: Any) -> str:
        if not context.eval_ctx.autoescape:
            return translate(message) % values
        if not values:
            out = done.get(message)
            if out is None:
                out = done[message] = Markup(translate(message)) % values
            return out
        text = markup.get(message)
        if text is None:
            text = markup[message] = Markup(translate(message))
        return text % values

    return gettext


def fresh_environments() -> None:
    """Forget the compiled templates (each build starts from the files as they are now)."""
    environment.cache_clear()


#: A line break after a tag and before the tag of a block (or of the head), where a page shows
#: no space either way; the templates keep their lines readable, and :func:`render` drops
#: these breaks from the page (about 90 bytes of a ruling page, 0.3 KB a ruling at three).
#: No element the site styles inline is named, and the text of ``<pre>`` is escaped, so no
#: such break is inside it.
_BLOCK_BREAK = re.compile(
    r">\n(?=</?(?:html|head|body|meta|link|script|title|header|nav|footer|main|article|"
    r"section|p|h[1-6]|ul|ol|li|div|table|tr|caption|details|summary|figure|dl|dt|dd)[\s>])")


def render(template: str, lang: str, context: dict[str, Any]) -> str:
    return _BLOCK_BREAK.sub(">", environment(lang).get_template(template).render(context))
