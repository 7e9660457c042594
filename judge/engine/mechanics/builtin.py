"""Registers every mechanic of this package: each module's ``MECHANICS``, modules in name
order. :mod:`judge.engine` imports this, so the built-in mechanics are known as soon as any
part of the engine is; a new mechanic module needs no line here."""

from __future__ import annotations

import importlib
import pkgutil
from typing import Final

from judge.engine import mechanics
from judge.engine.mechanics import Mechanic, register

#: The modules of this package that are not mechanics.
NOT_MECHANICS: Final = frozenset({"builtin"})


def _modules() -> list[str]:
    return sorted(info.name for info in pkgutil.iter_modules(mechanics.__path__)
                  if info.name not in NOT_MECHANICS and not info.name.startswith("_"))


#: The mechanic modules, in registration order.
MODULES: Final[tuple[str, ...]] = tuple(_modules())

for _name in MODULES:
    _module = importlib.import_module(f"{mechanics.__name__}.{_name}")
    _declared = getattr(_module, "MECHANICS", None)
    if not isinstance(_declared, tuple) or not all(isinstance(m, Mechanic) for m in _declared):
        raise TypeError(f"{_module.__name__} must declare MECHANICS, a tuple of Mechanic")
    for _mechanic in _declared:
        register(_mechanic)
