"""``zar serve`` on a machine whose cache holds no table yet: the tables, the optimal Yams
player's first, are built in a process of its own while the server answers, so that the
game's screen is there at once and the computer's first turn waits for its table only.

On such a machine the server used to build it in a thread of its own process, and a new
game waited for it in the event loop: every request waited with it (the game's screen came
16 s after the start, measured by ``bench/first_turn.py``). No time is asserted here: what
the server answers while the table is still being built, and what the computer does
once it is."""

from __future__ import annotations

import signal
from pathlib import Path

from server.serving import Server

DEADLINE = 600.0  # generous: the build takes 10 s to a minute and a half on a busy machine


def test_a_new_game_and_its_screen_answer_while_the_table_is_built(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    env = {"ZAR_CACHE_DIR": str(cache), "ZAR_WARM": "on"}
    server = Server(tmp_path / "zar.sqlite3", env, group=True)
    server.start()
    try:
        # One person and the computer: Ali's coach is on, which asks for the chances too.
        game = server.call(
            "POST", "/api/games", {"game": "yams", "players": ["Ali"], "computer": True}
        )
        assert server.call("GET", f"/api/games/{game['id']}")["version"] == 0
        with server.open(server.url + "/", timeout=30) as page:
            assert page.status == 200
        assert not list(cache.glob("yams-strategy-*.npz"))  # still being built meanwhile
        thrown = server.call(
            "POST", f"/api/games/{game['id']}/actions", {"version": 0, "type": "throw"}
        )
        box = next(iter(thrown["options"]))
        played = server.call(
            "POST",
            f"/api/games/{game['id']}/actions",
            {"version": 1, "type": "fill", "box": box},
        )
        assert played["seat"] == 1  # the computer's turn
        step = server.call(
            "POST",
            f"/api/games/{game['id']}/actions",
            {"version": played["version"], "type": "computer"},
            timeout=DEADLINE,
        )
        assert step["version"] == played["version"] + 1  # its throw, once the table is in
        assert list(cache.glob("yams-strategy-*.npz"))
        server.interrupt(signal.SIGTERM)
        assert server.process is not None
        assert server.process.wait(timeout=60) == 0
        assert "Traceback" not in server.lines()
    finally:
        if server.process is not None and server.process.poll() is None:
            server.kill()
