"""Fog of war in the web app: a person's payloads are equal in two games that differ only in what that
person cannot see — the view builder, the session payload (with the position token) and what the
server sends over HTTP and the WebSocket.

The pairs are those of tests/encode/test_fog_pairs.py: hidden terrain and far enemy units edited in random
games, hidden opponent stars / population / kills / research, and a level whose hidden tiles differ.
"""
import json

import httpx
import numpy as np
from serve_helpers import running_server, seats
from fog_pairs import base, hidden_edit_pairs, level_pair, tile
from websockets.sync.client import connect as ws_connect

from polyenv import GameEnv
from polyenv.viz.session import GameSession
from polyenv.viz.view import EventLog, build_view

PERSON = 0


def _log(env):
    log = EventLog(PERSON)
    log.update(env)
    return log.entries


def payload(env):
    """What the server sends the person sitting at seat 0 of ``env`` (the session's view, token included)."""
    session = GameSession(0, dict(map_size=env.map_size, players=["Bardur"] * env.num_players, mode="capitals",
                                  max_turns=None, level=None), ["human"] + ["random"] * (env.num_players - 1))
    session.game = env
    view = session.view(PERSON)
    view.pop("id")
    return json.dumps(view, sort_keys=True)


def test_views_of_random_games_with_hidden_edits():
    pairs = acting = 0
    for seed in (3, 4):
        for a, b, edited in hidden_edit_pairs(seed):
            if edited == 0:
                continue
            assert a.full_map_numpy().tolist() != b.full_map_numpy().tolist()
            va, vb = build_view(a, PERSON, _log(a)), build_view(b, PERSON, _log(b))
            assert va == vb
            assert payload(a) == payload(b)
            pairs += 1
            acting += bool(va["actions"])
    assert pairs > 0 and acting > 0  # some pairs with the person to move (action rows included)


def test_hidden_stars_population_kills_and_research_stay_out_of_the_view():
    a, b = base(), base()
    a.place_city(1, tile(3, 4), population=1)
    b.place_city(1, tile(3, 4), population=0)
    a.place_unit(1, "warrior", tile(3, 3), kills=2)
    b.place_unit(1, "warrior", tile(3, 3), kills=0)
    a.grant_tech(1, "organization")
    a.set_stars(1, 7)
    assert a.player(1) != b.player(1)
    assert build_view(a, PERSON, _log(a)) == build_view(b, PERSON, _log(b))
    assert payload(a) == payload(b)
    # The full view (spectators of bot games) does show them.
    assert build_view(a, None)["players"][1] != build_view(b, None)["players"][1]


def test_the_server_sends_equal_payloads_for_a_level_pair():
    texts = level_pair()
    with running_server() as url, httpx.Client(base_url=url, timeout=60) as client:
        ids = []
        for text in texts:
            r = client.post("/api/games", json={"seats": seats("human", "random"), "level": text, "seed": 7,
                                                "paused": True})
            assert r.status_code == 201, r.text
            ids.append(r.json()["id"])

        def views():
            out = []
            for game_id in ids:
                view = client.get(f"/api/games/{game_id}").json()
                assert view.pop("id") == game_id
                out.append(view)
            return out

        def pushed():
            out = []
            for game_id in ids:
                with ws_connect(f"{url}/api/games/{game_id}/ws".replace("http", "ws")) as ws:
                    view = json.loads(ws.recv(timeout=30))
                view.pop("id")
                out.append(view)
            return out

        steps = 0
        for _ in range(4):
            va, vb = views()
            assert va == vb
            assert pushed() == [va, vb]
            own = [x["id"] for x in va["actions"] if x["kind"] != "end_turn"]  # the person's own moves only
            if not own:
                break
            for game_id in ids:
                r = client.post(f"/api/games/{game_id}/action", json={"action": own[-1], "token": va["token"]})
                assert r.status_code == 200, r.text
            steps += 1
        assert steps > 0
    # The hidden difference is real: the ground truth of the two levels differs.
    worlds = [GameEnv(level=text, seed=7).full_map_numpy() for text in texts]
    assert not np.array_equal(*worlds)
