"""The server's dice are fair, come from the operating system, and no request reaches them.

A chi-square goodness-of-fit test at a significance of 0.001 (df = 5), with enough throws
to catch one face a single percentage point too likely (1/6 + 0.01, the five others
sharing the loss) with a power of 0.99:

- the effect size is w = sqrt(sum((p1 - p0)² / p0)) = sqrt(6 · (0.01² + 5 · 0.002²))
  = sqrt(0.00072) ≈ 0.0268;
- the test refuses past the critical value c with sf(c) = 0.001: c ≈ 20.515;
- with n throws the statistic is noncentral chi-square with noncentrality λ = n · w²; the
  power is its survival function at c, a Poisson mixture of central ones;
- a power of 0.99 needs λ ≈ 42.07, that is n ≈ 58 433 throws: :data:`THROWS` is 60 000.

:func:`throws_needed` computes it again; the survival functions are computed here in closed
form (scipy is not needed), and checked against published critical values.
"""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from collections.abc import Callable, Sequence
from functools import cache
from itertools import cycle
from math import ceil, erfc, exp, lgamma, log, pi, sqrt
from pathlib import Path

import httpx2 as httpx
import pytest
from fastapi.testclient import TestClient

from zar.dice import FACES, SeededDice, SystemDice
from zar.server import create_app
from zar.store import SqliteStore

ALPHA = 0.001
BIAS = 0.01
POWER = 0.99
THROWS = 60_000
DF = len(FACES) - 1


def chi2_sf(x: float, df: int) -> float:
    """P(X > x) for a chi-square variable with an odd number ``df`` of degrees of freedom.

    The closed form: erfc(sqrt(x/2)) + sqrt(2x/π)·e^(−x/2)·Σ x^(i−1)/(1·3·…·(2i−1)) for
    i = 1..(df−1)/2; for df = 5, erfc(sqrt(x/2)) + sqrt(2x/π)·e^(−x/2)·(1 + x/3).

    >>> round(chi2_sf(20.515, 5), 5)
    0.001
    """
    if df % 2 != 1:
        raise ValueError(f"the closed form here is for odd degrees of freedom, not {df}")
    total, term = 0.0, 1.0
    for i in range(1, (df - 1) // 2 + 1):
        total += term
        term *= x / (2 * i + 1)
    return erfc(sqrt(x / 2)) + sqrt(2 * x / pi) * exp(-x / 2) * total


def noncentral_chi2_sf(x: float, df: int, noncentrality: float) -> float:
    """P(X > x) for a noncentral chi-square: central ones with df + 2j degrees of freedom,
    weighted by the Poisson probabilities of j with mean ``noncentrality`` / 2."""
    half = noncentrality / 2
    if half == 0:
        return chi2_sf(x, df)
    terms = int(half + 12 * sqrt(half) + 60)
    return sum(
        exp(-half + j * log(half) - lgamma(j + 1)) * chi2_sf(x, df + 2 * j) for j in range(terms)
    )


def _solve(f: Callable[[float], bool], low: float, high: float) -> float:
    """The least x in [low, high] where ``f`` turns true (it stays true above)."""
    for _ in range(100):
        middle = (low + high) / 2
        low, high = (low, middle) if f(middle) else (middle, high)
    return high


@cache
def critical_value(alpha: float = ALPHA, df: int = DF) -> float:
    return _solve(lambda x: chi2_sf(x, df) <= alpha, 0.0, 1000.0)


def effect_size(bias: float = BIAS) -> float:
    """w for one face ``bias`` more likely and the others sharing the loss evenly."""
    p0 = 1 / len(FACES)
    others = bias / (len(FACES) - 1)
    return sqrt((bias**2 + (len(FACES) - 1) * others**2) / p0)


def power(throws: int, bias: float = BIAS, alpha: float = ALPHA) -> float:
    return noncentral_chi2_sf(critical_value(alpha), DF, throws * effect_size(bias) ** 2)


def throws_needed(bias: float = BIAS, alpha: float = ALPHA, target: float = POWER) -> int:
    """The fewest throws that catch ``bias`` with power ``target`` at significance ``alpha``."""
    c = critical_value(alpha)
    noncentrality = _solve(lambda lam: noncentral_chi2_sf(c, DF, lam) >= target, 0.0, 1000.0)
    return ceil(noncentrality / effect_size(bias) ** 2)


def chi_square(faces: Sequence[int]) -> float:
    """Pearson's statistic of the faces against six equally likely ones."""
    expected = len(faces) / len(FACES)
    seen = Counter(faces)
    return sum((seen[face] - expected) ** 2 / expected for face in FACES)


def looks_fair(faces: Sequence[int]) -> bool:
    """The test: the faces pass at the significance ALPHA."""
    return chi_square(faces) <= critical_value()


def throw(roll: Callable[[int], tuple[int, ...]], count: int = THROWS) -> list[int]:
    faces: list[int] = []
    while len(faces) < count:
        faces.extend(roll(min(6, count - len(faces))))
    return faces


class LoadedDice:
    """Dice with ``face`` ``bias`` more likely than 1/6, the five others sharing the loss."""

    def __init__(self, seed: int, face: int = 6, bias: float = BIAS) -> None:
        self._random = random.Random(seed)
        others = [f for f in FACES if f != face]
        self._faces = [*others, face]
        low = 1 / 6 - bias / 5
        self._cumulative = [low * (i + 1) for i in range(5)]

    def roll(self, n: int) -> tuple[int, ...]:
        faces = []
        for _ in range(n):
            u = self._random.random()
            faces.append(self._faces[sum(u >= edge for edge in self._cumulative)])
        return tuple(faces)


# The statistics


@pytest.mark.parametrize(
    ("x", "alpha"),
    # Upper critical values of chi-square, df = 5 (NIST/SEMATECH e-Handbook of Statistical
    # Methods, 1.3.6.7.4): 11.070 at 0.05, 15.086 at 0.01, 20.515 at 0.001.
    [(11.070, 0.05), (15.086, 0.01), (20.515, 0.001)],
)
def test_the_closed_form_gives_the_published_critical_values(x: float, alpha: float) -> None:
    assert chi2_sf(x, 5) == pytest.approx(alpha, rel=2e-4)


def test_the_survival_functions_at_their_edges() -> None:
    assert chi2_sf(0.0, 5) == 1.0
    assert chi2_sf(200.0, 5) < 1e-30
    # df = 1: erfc alone; df = 3: the first term of the sum
    assert chi2_sf(3.841, 1) == pytest.approx(0.05, rel=1e-3)
    assert chi2_sf(7.815, 3) == pytest.approx(0.05, rel=1e-3)
    assert noncentral_chi2_sf(20.515, 5, 0.0) == chi2_sf(20.515, 5)
    # More noncentrality, more power.
    assert noncentral_chi2_sf(20.515, 5, 10) < noncentral_chi2_sf(20.515, 5, 40) < 1


def test_enough_throws_to_catch_a_one_point_bias() -> None:
    needed = throws_needed()
    assert critical_value() == pytest.approx(20.515, abs=1e-3)
    assert effect_size() == pytest.approx(sqrt(0.00072))
    assert needed <= THROWS < 1.1 * needed  # enough, and not wastefully more
    assert power(needed) >= POWER > power(needed - 100)


# The dice


def test_the_system_dice_are_fair() -> None:
    assert looks_fair(throw(SystemDice().roll))


def test_the_test_catches_a_one_point_bias() -> None:
    """Loaded dice, one face a point too likely: refused, whichever face it is; fair
    seeded dice pass."""
    assert looks_fair(throw(SeededDice(11).roll))
    for face in (1, 6):
        loaded = throw(LoadedDice(seed=11, face=face).roll)
        assert Counter(loaded).most_common(1)[0][0] == face
        assert not looks_fair(loaded)


async def _faces_through_the_api(store: SqliteStore, count: int) -> list[int]:
    """Games of Yams alone, through the API of an app with its own dice (none injected),
    every throw of all five dice: the faces its replies show."""
    app = create_app(store, games_per_minute=None, action_rates=None)
    faces: list[int] = []
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
        while len(faces) < count:
            created = await client.post("/api/games", json={"game": "yams", "players": ["Ali"]})
            game = created.json()
            url = f"/api/games/{game['id']}/actions"
            while not game["over"] and len(faces) < count:
                for _ in range(3):
                    reply = await client.post(
                        url, json={"version": game["version"], "type": "throw"}
                    )
                    game = reply.json()
                    faces.extend(game["dice"])
                box = next(iter(game["options"]))
                reply = await client.post(
                    url, json={"version": game["version"], "type": "fill", "box": box}
                )
                game = reply.json()
    return faces


def test_faces_through_the_api_are_fair() -> None:
    """Each request costs a few milliseconds: 6 000 faces here, enough to catch a bias of
    about 3 points with a power of 0.99 (the 1-point test is on the dice themselves, and
    the tests below show that the API's faces are theirs)."""
    store = SqliteStore(":memory:")  # no disk: it is the dice that are tested
    faces = asyncio.run(_faces_through_the_api(store, 6_000))
    store.close()
    assert power(len(faces), bias=0.032) >= POWER
    assert looks_fair(faces)


# Where the faces come from


def _bytes_from(pattern: bytes) -> Callable[[int], bytes]:
    stream = cycle(pattern)
    return lambda n: bytes(next(stream) for _ in range(n))


@pytest.fixture
def os_bytes(monkeypatch: pytest.MonkeyPatch) -> Callable[[bytes], None]:
    """Make the operating system's randomness give these bytes, over and over.

    random.SystemRandom reads os.urandom through the name random._urandom."""

    def give(pattern: bytes) -> None:
        fake = _bytes_from(pattern)
        monkeypatch.setattr("os.urandom", fake)
        monkeypatch.setattr(random, "_urandom", fake)

    return give


def test_the_system_dice_follow_the_operating_system(os_bytes: Callable[[bytes], None]) -> None:
    os_bytes(b"\x00")
    assert SystemDice().roll(5) == (1, 1, 1, 1, 1)
    os_bytes(b"\xff\xa0")  # a die is the byte's top three bits; 7 is thrown again
    assert SystemDice().roll(5) == (6, 6, 6, 6, 6)
    pattern = bytes(range(0, 256, 7))
    os_bytes(pattern)
    first = SystemDice().roll(6)
    os_bytes(pattern)
    assert SystemDice().roll(6) == first
    assert len(set(first)) > 1


def test_the_api_throws_the_operating_systems_faces(
    tmp_path: Path, os_bytes: Callable[[bytes], None]
) -> None:
    """No dice injected: the faces a throw shows are the ones the system's bytes give,
    whatever the request carries."""
    pattern = bytes(range(3, 256, 11))
    os_bytes(pattern)
    expected = SystemDice().roll(5)
    store = SqliteStore(tmp_path / "zar.sqlite3")
    with TestClient(create_app(store)) as client:
        game = client.post("/api/games", json={"game": "yams", "players": ["Ali"]}).json()
        os_bytes(pattern)
        url = f"/api/games/{game['id']}/actions?seed=1&dice=66666"
        thrown = client.post(url, json={"version": 0, "type": "throw"}).json()
    store.close()
    assert tuple(thrown["dice"]) == expected


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/games", {"game": "yams", "players": ["Ali"], "seed": 42}),
        ("/api/games", {"game": "10000", "players": ["Ali"], "dice": [1, 1, 1, 1, 1, 1]}),
        ("/api/games/{id}/actions", {"version": 0, "type": "throw", "dice": [6, 6, 6, 6, 6]}),
        ("/api/games/{id}/actions", {"version": 0, "type": "throw", "seed": 1}),
        ("/api/games/{id}/actions", {"version": 0, "type": "throw", "faces": [6]}),
    ],
)
def test_no_request_names_a_face_or_a_seed(
    tmp_path: Path, path: str, body: dict[str, object]
) -> None:
    store = SqliteStore(tmp_path / "zar.sqlite3")
    with TestClient(create_app(store)) as client:
        game = client.post("/api/games", json={"game": "yams", "players": ["Ece"]}).json()
        response = client.post(path.format(id=game["id"]), json=body)
        assert response.status_code == 422
        assert response.json()["reason"] == "bad-request"
        assert client.get(f"/api/games/{game['id']}").json()["version"] == 0
        schema = client.get("/api/openapi.json").json()["components"]["schemas"]
    store.close()
    for model in ("Intent", "NewGame"):
        assert not {"dice", "seed", "faces"} & set(schema[model]["properties"])
