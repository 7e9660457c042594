"""The site's settings: ``site.toml`` beside ``rulings/``, read by ``judge build``.

One setting so far, in one place: the project's repository, which the sandbox's *Propose
this ruling* opens on its "new file" page (:func:`judge.site.editor.proposal` makes the
file). Without the file, or without ``repository``, the site has no such button::

    # site.toml
    repository = "https://github.com/OWNER/NAME"   # a GitHub repository's address
    branch = "main"                                # where a proposed file goes (default)

A wrong value is a one-line error naming the file, line, setting and what is accepted.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from judge.errors import DataError, FieldError
from judge.tomlfile import read_toml, shown_path

SETTINGS = "site.toml"
#: Each setting and the form it must have.
FORMS = {"repository": (re.compile(r"https://github\.com/[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+"),
                        "https://github.com/OWNER/NAME"),
         "branch": (re.compile(r"[A-Za-z0-9._-]+(?:/[A-Za-z0-9._-]+)*"), "a branch name")}


@dataclass(frozen=True)
class Settings:
    repository: str = ""
    branch: str = "main"

    @property
    def new_file(self) -> str:
        """The repository's "new file" page on the branch (empty without a repository)."""
        return f"{self.repository}/new/{self.branch}" if self.repository else ""


def load_settings(root: Path) -> Settings:
    """The settings of the corpus at ``root`` (the defaults without ``site.toml``)."""
    path = root / SETTINGS
    if not path.is_file():
        return Settings()
    raw, index = read_toml(path, error=DataError)
    values: dict[str, str] = {}
    for key, value in raw.items():
        if key not in FORMS:
            raise DataError(shown_path(path), index.line(key),
                            FieldError(key, "not a setting of the site", tuple(FORMS)))
        pattern, form = FORMS[key]
        if not isinstance(value, str) or not pattern.fullmatch(value):
            raise DataError(shown_path(path), index.line(key),
                            FieldError(key, f"expected {form}, got {value!r}"))
        values[key] = value
    return Settings(**values)
