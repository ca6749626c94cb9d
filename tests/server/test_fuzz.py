"""The whole HTTP API against requests generated from its OpenAPI schema: a short run.

``bench/fuzz.py`` runs a long one; what is checked is in ``server.fuzzing``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from server.fuzzing import DEVICES, SEEDS, fuzzer
from zar.ai.yams import Strategy

OPERATIONS = {
    "POST /api/games",
    "GET /api/games",
    "GET /api/games/{game_id}",
    "POST /api/games/{game_id}/actions",
    "GET /api/games/{game_id}/events",
    "GET /api/setup",
    "GET /api/i18n/{lang}",
    "GET /api/network",
    "POST /api/games/{game_id}/invitations",
    "POST /api/invitations/open",
    "POST /api/invitations/claim",
    "POST /api/invitations/watch",
    "POST /api/games/{game_id}/seats/{seat}",
}


def test_generated_requests_get_documented_replies_and_refusals_change_nothing(
    tmp_path: Path, solved: Callable[[str], Strategy]
) -> None:
    # The seeded games' computers read their strategies from the session's cache: a request
    # that built one (seconds) would pass the fuzzer's timeout.
    for variant in ("standard", "scandinavian"):
        solved(variant)
    with fuzzer(tmp_path) as run:
        tally = run.run(examples=25)
        versions = [version for _, version in run.games()]
        labels = {result.ok().label for result in run.schema.get_all_operations()}
    assert tally.failures == [], "\n\n".join(tally.failures)
    # It did try, and got everywhere: every operation, games started, moves accepted,
    # every kind of refusal.
    assert tally.requests >= 300, tally
    assert set(tally.operations) == labels >= OPERATIONS  # and every route added since
    assert {200, 201, 403, 404, 409, 422, 429} <= set(tally.statuses), tally
    assert len(versions) > len(SEEDS)
    # Moves were taken: the games moved on (38 actions in all on the run as it stands).
    assert sum(versions) >= 20, versions
    # Every device asked; those with no place, or no good credential, were refused.
    answers = tally.answers
    assert {device for device, _, _ in answers} == set(DEVICES) - {"holder"}, answers
    for device in ("none", "forged", "watcher"):
        assert answers[device, "POST /api/games/{game_id}/actions", 403], device
    # Real invitations were used: seats claimed, games watched; the guest played its seat.
    for operation in ("open", "claim", "watch"):
        route = f"POST /api/invitations/{operation}"
        assert any(op == route and status == 200 for _, op, status in answers), route
    assert answers["guest", "POST /api/games/{game_id}/actions", 200], answers


def test_every_route_documents_its_replies_and_refusals(tmp_path: Path) -> None:
    with fuzzer(tmp_path) as run:
        schema = run.client.get("/api/openapi.json").json()
    paths = schema["paths"]
    refusal = {"$ref": "#/components/schemas/Refusal"}
    expected = {
        ("/api/games", "post"): {"201", "413", "422", "429", "503"},
        ("/api/games", "get"): {"200", "422", "503"},
        ("/api/games/{game_id}", "get"): {"200", "403", "404", "422", "503"},
        ("/api/games/{game_id}/actions", "post"): {
            "200", "403", "404", "409", "413", "422", "429", "503",
        },
        ("/api/games/{game_id}/events", "get"): {"200", "403", "404", "422", "429", "503"},
        ("/api/setup", "get"): {"200"},
        ("/api/i18n/{lang}", "get"): {"200", "422"},
        ("/api/network", "get"): {"200"},
        ("/api/games/{game_id}/invitations", "post"): {"201", "403", "404", "422", "429", "503"},
        ("/api/invitations/open", "post"): {"200", "403", "413", "422", "429", "503"},
        ("/api/invitations/claim", "post"): {"200", "403", "409", "413", "422", "429", "503"},
        ("/api/invitations/watch", "post"): {"200", "403", "413", "422", "429", "503"},
        ("/api/games/{game_id}/seats/{seat}", "post"): {"200", "403", "404", "409", "422", "503"},
    }  # fmt: skip
    for (path, method), statuses in expected.items():
        responses = paths[path][method]["responses"]
        assert set(responses) == statuses, (path, method)
        for status, response in responses.items():
            content = response["content"]
            if status.startswith("4") or status.startswith("5"):
                assert content == {"application/json": {"schema": refusal}}, (path, status)
            elif path.endswith("/events"):
                assert "itemSchema" in content["text/event-stream"]
            else:
                assert content["application/json"]["schema"], (path, status)
    for path, method in (
        ("/api/games", "post"),
        ("/api/games/{game_id}/actions", "post"),
        ("/api/games/{game_id}/events", "get"),
    ):
        retry_after = paths[path][method]["responses"]["429"]["headers"]["Retry-After"]
        assert retry_after["required"] is True
