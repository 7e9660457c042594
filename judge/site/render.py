"""Build phase 3, render: Jinja2 templates from ``site_templates/``, one environment per
language (autoescape, ``StrictUndefined``: a missing value is an error, not an empty string),
with the interface strings translated by the same gettext catalogues as the narration."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import jinja2

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
    env.install_gettext_translations(translations(lang), newstyle=True)  # type: ignore[attr-defined]
    env.globals.update(LANGS=LANGS, NATIVE_NAMES=NATIVE_NAMES)
    return env


def fresh_environments() -> None:
    """Forget the compiled templates (each build starts from the files as they are now)."""
    environment.cache_clear()


def render(template: str, lang: str, context: dict[str, Any]) -> str:
    return environment(lang).get_template(template).render(context)
