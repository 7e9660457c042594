"""The static website (``judge build``, ``judge serve``, ``judge i18n-status``); docs/site.md.

Phases: :mod:`judge.site.load` -> :mod:`judge.site.context` -> :mod:`judge.site.render` ->
:mod:`judge.site.build` (write, atomically)."""
