"""The replay a ruling page shows: each step cut at its key moments, each part with its board.

A step's events are told in order; a board follows the step, and also each *key moment*
inside it, where the position matters to the ruling: the crush of life cloth into the check
zone (with every card it crushed), the end of a Life Burst (or one not used) and a refresh.
The boards of key moments are the positions the trace recorded at those events
(:attr:`judge.engine.trace.Trace.key_positions`): nothing is replayed here. A key moment
whose sentence goes on (the second card of a crush is told with the first) is drawn after the
last card of it. Every board is marked against the previous board drawn in the same replay
(:func:`judge.site.board.marked`); a board that shows nothing new is not drawn.
Language-free: the context phase tells the events and draws the boards.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import NamedTuple

from judge.engine import events as ev
from judge.engine.events import Event
from judge.engine.trace import CheckGroup, Trace
from judge.narrate.moves import same_move
from judge.site.board import Board, at_check, board_of, marked

#: What a moment of a round of rule processing is (:attr:`Moment.check`): the moment of the
#: check, every condition holding at once, and the moment once every kind has applied.
AT_CHECK = "at"
AFTER_CHECK = "after"


@dataclass(frozen=True)
class Moment:
    """A part of a step: its events, told together, and the board after them (None when it
    is not drawn: nothing changed since the previous board). ``key`` is the key event the
    part ends with (None: the end of the step); for the two moments of a round of rule
    processing, its ``rule_check`` event, with ``check`` saying which (:data:`AT_CHECK`,
    :data:`AFTER_CHECK`)."""

    events: tuple[Event, ...]
    board: Board | None
    key: Event | None = None
    check: str = ""


@dataclass(frozen=True)
class StepView:
    """One step of a replay (index 0: the set-up), cut into its moments. ``unchanged``: the
    step changed nothing the boards show, so no board follows it."""

    index: int
    moments: tuple[Moment, ...]
    unchanged: bool = False
    #: in a replay folded under the first one of the page, how many moments from the start
    #: of the step go as in the first (:func:`fold`): the page tells the rest only
    same: int = 0

    @property
    def boards(self) -> tuple[Board, ...]:
        """The boards the page draws for this step."""
        return tuple(m.board for m in self.moments[self.same:] if m.board is not None)


def is_key_moment(e: Event) -> bool:
    """Whether a key event of the trace (:func:`judge.engine.trace.is_key_event`) is a key
    moment of the page: a crush into the check zone, the end of a Life Burst, a refresh (not
    an ARTS or Spell put into the check zone as it is used: the step's board shows it)."""
    return not isinstance(e, ev.Move) or e.verb == "crush"


class Part(NamedTuple):
    """A part of a step (:func:`cut`): its events, the key event it ends with (None: the end
    of the step), and for a part of a round of rule processing, that round and which moment
    of it (:data:`AT_CHECK`, :data:`AFTER_CHECK`)."""

    events: list[Event]
    key: Event | None
    check: CheckGroup | None = None
    which: str = ""


def cut(events: Sequence[Event], keys: frozenset[int],
        checks: Sequence[CheckGroup] = ()) -> list[Part]:
    """A step's events in parts, each ending with a key event (its ``seq`` in ``keys``), the
    last with whatever follows the last key event (None as its key). A key move that the next
    move continues (:func:`~judge.narrate.moves.same_move`: one sentence) does not end a
    part: the last of them does. A round of rule processing (``checks``) is one moment: a
    part ends with its ``rule_check`` (:data:`AT_CHECK`: the choices asked while the kinds
    looked are told with it) and the next with its last event (:data:`AFTER_CHECK`); no key
    event inside it ends a part. :func:`step_views` passes the rounds that act on several
    things at once (:func:`at_once`)."""
    at = {c.at: c for c in checks}
    last = {c.end - 1: c for c in checks}
    inside = frozenset(i for c in checks for i in range(c.start, c.end))
    parts: list[Part] = []
    current: list[Event] = []
    seen: dict[int, Event] = {}  # the rule_check of each round, by its index
    for i, e in enumerate(events):
        current.append(e)
        group = at.get(e.seq)
        if group is not None:
            seen[e.seq] = e
            parts.append(Part(current, e, group, AT_CHECK))
            current = []
        group = last.get(e.seq)
        if group is not None:
            parts.append(Part(current, seen.get(group.at, e), group, AFTER_CHECK))
            current = []
            continue
        if e.seq not in keys or e.seq in inside:
            continue
        following = events[i + 1] if i + 1 < len(events) else None
        if isinstance(e, ev.Move) and isinstance(following, ev.Move) and \
                same_move(e, following):
            continue
        parts.append(Part(current, e))
        current = []
    if current or not parts:
        parts.append(Part(current, None))
    return parts


def step_views(trace: Trace | None, after: Sequence[Board],
               printed: Mapping[str, Iterable[str]] | None = None) -> tuple[StepView, ...]:
    """The steps of ``trace`` (``after[k]``: the board after step k, 0 the set-up), cut at
    their key moments, with their boards marked (``printed``: card id -> printed keywords,
    as :func:`judge.site.board.board_of` takes it)."""
    if trace is None:
        return ()
    keys = frozenset(i for i in trace.key_events if is_key_moment(trace.events[i]))
    at_once_checks = [c for c in trace.checks if at_once(trace.events[c.at])]
    by_step: dict[int, list[Event]] = {}
    for e in trace.events:
        if e.type != "step":
            by_step.setdefault(e.step, []).append(e)
    previous: Board | None = None
    out = []
    for k in sorted({*by_step, *range(len(after))}):
        moments = []
        drawn = False
        parts = cut(by_step.get(k, []), keys, at_once_checks)
        if parts[-1][1] is not None:  # the step ends with a key event: its board may differ
            parts.append(Part([], None))
        waiting: list[Event] = []  # told with the next part: no board between them
        for events, key, group, which in parts:
            waiting += events
            board: Board | None
            if group is not None:
                board = _check_board(group, which, trace.events[group.at], printed)
            else:
                board = board_of(trace.position_at(key.seq), printed) if key is not None \
                    else after[k] if k < len(after) else None
            if board is None or board == previous:
                continue
            moments.append(Moment(tuple(waiting), marked(board, previous), key, which))
            previous, drawn, waiting = board, True, []
        if waiting:
            moments.append(Moment(tuple(waiting), None))
        out.append(StepView(k, tuple(moments), unchanged=not drawn and k < len(after)))
    return tuple(out)


def at_once(check: Event) -> bool:
    """Whether a round of rule processing is a moment the page draws (at its check, and once
    every kind has applied): it applies two or more kinds, or acts on two or more cards or
    players at the same time. A check that acts on one card is told with its step (its
    sentence says what it acts on) and drawn with it."""
    return isinstance(check, ev.RuleCheck) and (len(check.kinds) > 1 or len(check.acts) > 1)


def _check_board(group: CheckGroup, which: str, check: Event,
                 printed: Mapping[str, Iterable[str]] | None) -> Board:
    """The board of one moment of a round of rule processing: at the check, every card and
    zone a kind acts on marked (:func:`judge.site.board.at_check`); after it, as it is."""
    if which == AFTER_CHECK:
        return board_of(group.after.position, printed)
    acts = check.acts if isinstance(check, ev.RuleCheck) else ()
    return at_check(board_of(group.before.position, printed),
                    ((a.kind, a.target) for a in acts))


def same_moments(view: StepView, first: StepView | None) -> int:
    """How many moments, from the start of a step, ``view`` tells and draws as ``first``
    does (the same events, the same board); when all of them but ``first`` goes on, all but
    the last, so that the page shows where the step ends."""
    if first is None:
        return 0
    same = 0
    for mine, theirs in zip(view.moments, first.moments, strict=False):
        if mine.board != theirs.board or \
                [str(e) for e in mine.events] != [str(e) for e in theirs.events]:
            break
        same += 1
    if same == len(view.moments) and same < len(first.moments):
        same -= 1
    return same


def fold(first: Sequence[StepView], other: Sequence[StepView]) -> tuple[StepView, ...]:
    """The steps of a replay shown folded under ``first`` (the page's first replay), each
    with how many of its first moments go as in ``first`` (the set-up aside: the page says
    when it is the same position)."""
    by_index = {view.index: view for view in first}
    return tuple(replace(view, same=same_moments(view, by_index.get(view.index)))
                 if view.index > 0 else view for view in other)
