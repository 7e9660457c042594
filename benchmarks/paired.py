"""Paired runs: the project and its anchor timed in turn, reported as the median and spread
of the ratios of each pair, with the machine's load (DEVELOPERS.md: "State a target as a
ratio against a baseline measured in the same run, alternate the two, report median and
spread of paired ratios with the load").

A busy moment of a shared machine slows whichever command runs in it; timing the two in
turn, in alternating order (project first in odd pairs, anchor first in even ones), puts
both in nearly the same moment, and the ratio of each pair cancels most of what the load
does to both. The median of the ratios is the figure; the spread (lowest to highest) says
how far to trust it. Every benchmark of ``benchmarks/`` prints its figures through
:func:`ratio_line`, whose lines start with ``ratio`` (tests/test_benchmarks.py reads them).
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field


def load() -> float:
    """The machine's load average over the last minute."""
    return os.getloadavg()[0]


@dataclass
class Pairs:
    """The seconds (or any cost) of the project and its anchor, pair by pair."""

    project: list[float] = field(default_factory=list)
    anchor: list[float] = field(default_factory=list)
    loads: list[float] = field(default_factory=list)

    def add(self, project: float, anchor: float) -> None:
        self.project.append(project)
        self.anchor.append(anchor)
        self.loads.append(load())

    @property
    def ratios(self) -> list[float]:
        return [p / max(a, 1e-9) for p, a in zip(self.project, self.anchor, strict=True)]

    @property
    def median(self) -> float:
        return statistics.median(self.ratios)


def timed(work: Callable[[], object]) -> float:
    """Wall seconds of one call."""
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def alternate(project: Callable[[], float], anchor: Callable[[], float], pairs: int,
              into: Pairs | None = None) -> Pairs:
    """Run ``project`` and ``anchor`` (each returns its cost, seconds say) ``pairs`` times,
    in turn: the project first in the first pair, the anchor first in the next, and so on."""
    out = into if into is not None else Pairs()
    for i in range(pairs):
        if i % 2:
            a = anchor()
            p = project()
        else:
            p = project()
            a = anchor()
        out.add(p, a)
    return out


def number(value: float) -> str:
    return f"{value:,.0f}" if abs(value) >= 100 else f"{value:.3f}"


def spread(values: list[float]) -> str:
    return f"{min(values):.2f}-{max(values):.2f}"


def ratio_line(label: str, pairs: Pairs, unit: str = "s", target: float | None = None,
               at_most: bool = True) -> str:
    """``ratio LABEL: median R (spread LO-HI, N pairs; project P s against anchor A s, medians;
    load L)`` and, with a target, whether the median meets it (``at_most``: the ratio must
    not exceed it; else it must reach it)."""
    line = (f"ratio {label}: median {pairs.median:.2f} (spread {spread(pairs.ratios)}, "
            f"{len(pairs.ratios)} pairs; {number(statistics.median(pairs.project))} {unit} against "
            f"{number(statistics.median(pairs.anchor))} {unit}, medians; "
            f"load {spread(pairs.loads)})")
    if target is not None:
        met = pairs.median <= target if at_most else pairs.median >= target
        line += f"; target {'<=' if at_most else '>='} {target:g}: {'met' if met else 'MISSED'}"
    return line


def machine() -> str:
    """One line naming the machine a figure was measured on."""
    import platform

    model = ""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            model = next((line.split(":", 1)[1].strip() for line in fh
                          if line.startswith("model name")), "")
    except OSError:
        pass
    return (f"machine: {os.cpu_count()} CPUs{f' ({model})' if model else ''}, "
            f"Python {platform.python_version()}, load average {load():.2f}")
