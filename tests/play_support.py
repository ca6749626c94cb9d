"""Random play, for the tests that play whole games: legal moves of either game drawn by
Hypothesis (the dice included), and a person who chooses at random from seeded chance."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st

from zar import farkle, yams
from zar.farkle import FarkleState
from zar.yams import Box, YamsState

__all__ = ["AtRandom", "farkle_move", "shortest_yams_intent", "yams_move"]


def shortest_yams_intent(game: Mapping[str, Any]) -> dict[str, Any]:
    """The intention that ends a Yams game soonest, read from the game as the API shows it:
    the computer plays its own turn; a person throws once and writes the first box offered."""
    if game["players"][game["seat"]]["computer"]:
        return {"type": "computer"}
    if not game["dice"]:
        return {"type": "throw"}
    return {"type": "fill", "box": next(iter(game["options"]))}


def faces(data: st.DataObject, n: int) -> tuple[int, ...]:
    return tuple(data.draw(st.lists(st.integers(1, 6), min_size=n, max_size=n), label="dice"))


def yams_move(data: st.DataObject, state: YamsState) -> yams.YamsAction:
    """A legal move of the seat on turn: a throw (a Penta one time in six), or a box."""
    seat = state.seat
    if not state.dice:
        if data.draw(st.integers(0, 5), label="penta if 5") == 5:
            return yams.Throw(seat, (), (data.draw(st.integers(1, 6)),) * 5)
        return yams.Throw(seat, (), faces(data, 5))
    if state.throws_left and data.draw(st.booleans(), label="throw again"):
        keep = tuple(sorted(data.draw(st.sets(st.integers(0, 4), max_size=4))))
        return yams.Throw(seat, keep, faces(data, 5 - len(keep)))
    return yams.Fill(seat, data.draw(st.sampled_from(sorted(state.options, key=lambda b: b.value))))


def farkle_move(data: st.DataObject, state: FarkleState) -> farkle.FarkleAction:
    """A legal move of the seat on turn: any dice of the tray that score, by their places; a
    bank when it may; a throw."""
    seat = state.seat
    if state.phase is farkle.Phase.SET_ASIDE:
        free = [p for p in range(farkle.DICE) if not state.aside[p]]
        legal = []
        for mask in range(1, 1 << len(free)):
            chosen = tuple(p for i, p in enumerate(free) if mask >> i & 1)
            if tuple(sorted(state.tray[p] or 0 for p in chosen)) in farkle.selections(state.throw):
                legal.append(chosen)
        return farkle.SetAside(seat, data.draw(st.sampled_from(legal), label="set aside"))
    if state.can_bank and data.draw(st.booleans(), label="bank"):
        return farkle.Bank(seat)
    return farkle.Throw(seat, faces(data, state.dice_in_play))


@dataclass
class AtRandom:
    """A person who chooses at random among the legal choices, of either game, and banks
    with the chance ``banking`` when 10 000 lets her."""

    chance: random.Random
    banking: float = 0.4

    def keep(self, state: YamsState) -> tuple[int, ...] | None:
        if self.chance.random() < 0.2:
            return None
        return tuple(p for p in range(yams.DICE) if self.chance.random() < 0.5)

    def box(self, state: YamsState) -> Box:
        return self.chance.choice(sorted(state.options, key=lambda box: box.value))

    def set_aside(self, state: FarkleState) -> tuple[int, ...]:
        chosen = self.chance.choice(sorted(farkle.selections(state.throw)))
        free = [p for p in range(farkle.DICE) if not state.aside[p]]
        positions: list[int] = []
        for face in chosen:
            positions.append(next(p for p in free if state.tray[p] == face and p not in positions))
        return tuple(positions)

    def banks(self, state: FarkleState) -> bool:
        return self.chance.random() < self.banking
