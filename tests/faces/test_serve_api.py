"""``polyenv serve``: the web app's API through a real client against a real uvicorn server.

Every endpoint, every refused request (unknown game, stale position, illegal action, malformed JSON,
wrong fields: a 4xx with a one-line reason, nothing changed, the server still serving), the WebSocket
pushes, the watch controls, records saved and played back, and 20 games played concurrently to the
end through the API with every action where it belongs.
"""
import json
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import httpx
import numpy as np
import pytest
from serve_helpers import running_server, seats, wait_for
from websockets.sync.client import connect as ws_connect

import polyenv
from polyenv.viz.record import check_record, game_from_config


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    return tmp_path_factory.mktemp("records")


@pytest.fixture(scope="module")
def base(saved):
    with running_server(saved) as url:
        yield url


@pytest.fixture()
def client(base):
    with httpx.Client(base_url=base, timeout=60) as c:
        yield c


def new_game(client, *players, status=201, **fields):
    body = {"seats": seats(*players), "map_size": 8, "max_turns": 4, "seed": 3, **fields}
    r = client.post("/api/games", json=body)
    assert r.status_code == status, r.text
    return r.json()


def fast(client, game_id):
    assert client.post(f"/api/games/{game_id}/control", json={"command": "delay", "value": 0}).status_code == 200


def my_turn(view):
    return view["game_over"] or (view["current_player"] == view["human"] and view["actions"])


def play_to_the_end(client, game_id, rng, end_turn_share=0.3):
    """Plays the human seat with random legal actions (End Turn often); returns the actions sent."""
    sent = []
    while True:
        view = wait_for(client, f"/api/games/{game_id}", my_turn, timeout=120)
        if view["game_over"]:
            return view, sent
        ids = [a["id"] for a in view["actions"]]
        action = 0 if 0 in ids and rng.random() < end_turn_share else ids[rng.integers(len(ids))]
        r = client.post(f"/api/games/{game_id}/action", json={"action": action, "token": view["token"]})
        assert r.status_code == 200, r.text
        sent.append(action)


def replay_record(record):
    game = game_from_config(record["seed"], record["config"])
    seats_of_actions = []
    for a in record["actions"]:
        seats_of_actions.append(game.current_player)
        game.step(a)
    return game, seats_of_actions


def test_page_static_files_and_setup(client):
    page = client.get("/")
    assert page.status_code == 200 and '<canvas id="board">' in page.text and "importmap" in page.text
    for path in ("/static/js/app.js", "/static/js/viewer.js", "/static/js/board.js", "/static/js/panels.js",
                 "/static/style.css"):
        assert client.get(path).status_code == 200, path
    setup = client.get("/api/setup").json()
    assert setup["bots"] == list(polyenv.bots.BOTS)  # names come from the bot registry
    assert setup["budget_bots"] == [b for b in polyenv.bots.BOTS if polyenv._botspec.is_bot(f"{b}:1")]
    assert setup["tribes"] == list(polyenv.TRIBES) and "duel_11" in setup["levels"]
    assert {s["title"] for s in setup["style"]["legend"]} == {"Terrain", "Resources", "Buildings", "Units", "Marks"}
    info = client.post("/api/levels", json={"name": "duel_11"}).json()
    assert info == {"players": 2, "map_size": 11, "tribes": info["tribes"]} and len(info["tribes"]) == 2


def test_a_person_plays_a_game_to_the_end_and_it_is_saved(client, saved):
    created = new_game(client, "human", "random")
    game_id, view = created["id"], created["view"]
    assert len(game_id) >= 24 and view["viewer"] == 0 and view["token"] == "0.0"
    labels = {a["label"] for a in view["actions"]}
    assert "End turn" in labels and any(label.startswith("Research") for label in labels)
    fast(client, game_id)
    final, sent = play_to_the_end(client, game_id, np.random.default_rng(1))
    assert final["result"]["winner"] == final["winner"] >= 0
    record = check_record(client.get(f"/api/games/{game_id}/record").json())
    game, by_seat = replay_record(record)
    assert game.game_over and game.winner == final["winner"] and game.scores() == final["result"]["scores"]
    assert [a for a, p in zip(record["actions"], by_seat) if p == 0] == sent
    assert record["bots"] == ["human", "random"]
    view = wait_for(client, f"/api/games/{game_id}", lambda v: v["saved"])  # saved when the game ended
    assert json.loads(open(view["saved"]).read()) == record and str(saved) in view["saved"]


def snapshot(client, game_id):
    return client.get(f"/api/games/{game_id}").json()


REFUSALS = [
    # (method, path, body or raw bytes, status)
    ("post", "/action", {"action": 0, "token": "bad"}, 409),          # stale position
    ("post", "/action", {"action": 10**7, "token": None}, 400),       # token of the wrong type
    ("post", "/action", {"action": "0", "token": "0.0"}, 400),        # action of the wrong type
    ("post", "/action", {"action": True, "token": "0.0"}, 400),
    ("post", "/action", {"action": 0}, 400),                          # a missing field
    ("post", "/action", {"action": 0, "token": "0.0", "x": 1}, 400),  # an unknown field
    ("post", "/action", b"{not json", 400),                           # malformed JSON
    ("post", "/action", b"\xff\xfe", 400),
    ("post", "/action", [1, 2], 400),
    ("post", "/control", {"command": "fly"}, 400),
    ("post", "/control", {"command": "delay", "value": -1}, 400),
    ("post", "/control", {"command": "delay", "value": "fast"}, 400),
    ("post", "/control", {"command": "seek", "value": 3}, 409),       # only records can be rewound
    ("get", "?view=1", None, 403),                                    # another seat's view of a person's game
    ("get", "?view=full", None, 403),
    ("get", "?view=seven", None, 400),
    ("get", "/record", None, 409),                                    # the record of a game in progress
]


def test_refused_requests_say_why_and_change_nothing(client):
    game_id = new_game(client, "human", "random", map_size=6)["id"]
    before = snapshot(client, game_id)
    illegal = next(a for a in range(1, 20000) if a not in {x["id"] for x in before["actions"]})
    cases = REFUSALS + [("post", "/action", {"action": illegal, "token": before["token"]}, 422),
                        ("post", "/action", {"action": -5, "token": before["token"]}, 422)]
    for method, suffix, body, status in cases:
        url = f"/api/games/{game_id}{suffix}"
        if method == "get":
            r = client.get(url)
        elif isinstance(body, bytes):
            r = client.post(url, content=body, headers={"Content-Type": "application/json"})
        else:
            r = client.post(url, json=body)
        assert r.status_code == status, (suffix, body, r.text)
        reason = r.json()["error"]
        assert reason and "\n" not in reason, (suffix, body)
        assert snapshot(client, game_id) == before, (suffix, body)
    # Unknown games: every endpoint.
    for method, suffix in (("get", ""), ("post", "/action"), ("post", "/control"), ("post", "/save"),
                           ("get", "/record")):
        r = getattr(client, method)(f"/api/games/no-such-game{suffix}", **({"json": {}} if method == "post" else {}))
        assert r.status_code == 404 and r.json() == {"error": "unknown game"}
    with ws_connect(f"{client.base_url}/api/games/no-such-game/ws".replace("http", "ws")) as ws:
        with pytest.raises(Exception) as closed:
            ws.recv(timeout=10)
        assert getattr(closed.value, "rcvd", None) is not None and closed.value.rcvd.code == 4404
    # A huge body is refused before it is read as JSON.
    r = client.post(f"/api/games/{game_id}/action", content=b" " * (5 * 2**20))
    assert r.status_code == 413
    assert snapshot(client, game_id) == before
    # Not the person's turn: the bot is to move in a game where the person sits second.
    second = new_game(client, "random", "human", map_size=6, paused=True)["id"]
    view = snapshot(client, second)
    assert view["current_player"] == 0 and view["actions"] == []
    r = client.post(f"/api/games/{second}/action", json={"action": 0, "token": view["token"]})
    assert r.status_code == 409 and "not your turn" in r.json()["error"]
    assert snapshot(client, second) == view
    assert new_game(client, "random", "human", paused="yes", status=400)["error"].startswith("paused")


@pytest.mark.parametrize("fields,needle", [
    ({"seats": seats("human")}, "seats must be a list"),
    ({"seats": seats(*["random"] * 17)}, "seats must be a list"),
    ({"seats": seats("human", "human")}, "at most one seat"),
    ({"seats": seats("human", "wizard")}, "player must be"),
    ({"seats": [{"tribe": "Atlantis", "player": "random"}, {"tribe": "Bardur", "player": "random"}]}, "seat 0"),
    ({"seats": [{"tribe": None, "player": "random"}, {"tribe": "Bardur", "player": "random"}]}, "every seat"),
    ({"seats": [{"player": "random", "colour": 1}, {"player": "random"}]}, "unknown field"),
    ({"map_size": 3}, "map_size"), ({"map_size": 8.5}, "map_size"), ({"map_size": True}, "map_size"),
    ({"mode": "chess"}, "mode"), ({"fog": "yes"}, "fog"), ({"seed": -1}, "seed"), ({"max_turns": 0}, "max_turns"),
    ({"level": "no level here"}, "level"), ({"level_name": "moon"}, "unknown level_name"),
    ({"level_name": "duel_11", "level": "a,b\n"}, "not both"),
    ({"level_name": "duel_11", "seats": seats("random", "random", "random")}, "capitals"),
    ({"players": 2}, "unknown field"),
])
def test_bad_new_game_requests(client, fields, needle):
    body = {"seats": seats("human", "random"), "map_size": 8, **fields}
    if "level_name" in fields or "level" in fields:
        body.pop("map_size")
    count = len(client.get("/api/setup").json()["bots"])
    r = client.post("/api/games", json=body)
    assert 400 <= r.status_code < 500, r.text
    assert needle in r.json()["error"] and "\n" not in r.json()["error"]
    assert len(client.get("/api/setup").json()["bots"]) == count  # still serving


def test_levels_and_mcts_budgets(client):
    created = new_game(client, "human", "mcts:20", level_name="duel_11", map_size=None, max_turns=2)
    view = created["view"]
    assert view["map_size"] == 11 and view["seats"] == ["human", "mcts:20"]
    fast(client, created["id"])
    final, _ = play_to_the_end(client, created["id"], np.random.default_rng(2))  # a whole game against mcts
    assert final["game_over"] and final["result"]["winner"] in (0, 1)
    keep = client.post("/api/games", json={"seats": [{"tribe": None, "player": "random"}] * 2,
                                           "level_name": "duel_11", "max_turns": 2}).json()
    assert keep["view"]["tribes"] == client.post("/api/levels", json={"name": "duel_11"}).json()["tribes"]
    text = (polyenv.viz.server.LEVELS / "duel_11.csv").read_text()
    assert client.post("/api/games", json={"seats": seats("random", "human"), "level": text}).status_code == 201


def test_watch_live_over_the_websocket_with_controls(client):
    created = new_game(client, "greedy", "random", max_turns=3)
    game_id = created["id"]
    assert created["view"]["viewer"] is None and "token" not in created["view"]
    url = f"{client.base_url}/api/games/{game_id}/ws?view=full".replace("http", "ws")
    control = lambda **body: client.post(f"/api/games/{game_id}/control", json=body).json()  # noqa: E731
    assert control(command="pause")["paused"]
    with ws_connect(url) as ws:
        first = json.loads(ws.recv(timeout=30))
        position = first["position"]
        assert first["paused"] and first["viewer"] is None
        control(command="step")
        while True:  # the step moves exactly one action
            view = json.loads(ws.recv(timeout=30))
            if view["position"] != position:
                break
        assert view["position"] == position + 1 and view["paused"]
        time.sleep(0.3)
        assert snapshot_full(client, game_id)["position"] == position + 1  # paused: nothing more
        control(command="delay", value=0.01)
        control(command="resume")
        positions = []
        while True:
            view = json.loads(ws.recv(timeout=60))
            positions.append(view["position"])
            if view["game_over"]:
                break
    assert positions == sorted(positions) and view["result"]["winner"] == view["winner"]
    for viewer in ("0", "1"):  # a bot game serves every player's view too
        seat_view = client.get(f"/api/games/{game_id}", params={"view": viewer}).json()
        assert seat_view["viewer"] == int(viewer) and seat_view["actions"] == []
    full = snapshot_full(client, game_id)
    assert all(e["text"].startswith(("Bardur", "Imperius")) for e in full["events"])


def snapshot_full(client, game_id):
    return client.get(f"/api/games/{game_id}", params={"view": "full"}).json()


def test_records_play_back_in_the_same_viewer(client):
    game_id = new_game(client, "greedy", "random", max_turns=3)["id"]
    fast(client, game_id)
    done = wait_for(client, f"/api/games/{game_id}", lambda v: v["game_over"], params={"view": "full"})
    record = client.get(f"/api/games/{game_id}/record").json()
    r = client.post("/api/replays", json=record)
    assert r.status_code == 201, r.text
    replay = r.json()["id"]
    view = snapshot_full(client, replay)
    assert view["kind"] == "replay" and view["paused"] and view["position"] == 0
    assert view["positions"] == len(record["actions"]) and view["seats"] == ["greedy", "random"]
    end = client.post(f"/api/games/{replay}/control", json={"command": "seek", "value": len(record["actions"])})
    assert end.status_code == 200
    view = snapshot_full(client, replay)
    assert view["game_over"] and view["result"] == done["result"] and view["tiles"] == done["tiles"]
    client.post(f"/api/games/{replay}/control", json={"command": "seek", "value": 5})
    assert snapshot_full(client, replay)["position"] == 5
    for bad in (-1, len(record["actions"]) + 1, "3", None):
        assert client.post(f"/api/games/{replay}/control", json={"command": "seek", "value": bad}).status_code == 400
    assert snapshot_full(client, replay)["position"] == 5
    # Bad records: not a record, a wrong field, an action that cannot be played.
    for body, needle in ((b"[]", "not a polyenv game record"), (json.dumps({**record, "seed": "x"}).encode(), "seed"),
                         (json.dumps({**record, "actions": record["actions"][:3] + [10**6]}).encode(),
                          "cannot be played")):
        r = client.post("/api/replays", content=body, headers={"Content-Type": "application/json"})
        assert r.status_code == 400 and needle in r.json()["error"], r.text


def test_save_on_request(client, saved):
    game_id = new_game(client, "human", "random")["id"]
    r = client.post(f"/api/games/{game_id}/save", json={})
    assert r.status_code == 200
    record = check_record(json.loads(open(r.json()["path"]).read()))
    assert record["actions"] == [] and record["seed"] == 3 and r.json()["path"].startswith(str(saved))


def test_twenty_concurrent_games_played_to_the_end(base):
    """20 games (a person against random or greedy), played at once through the API; each record holds
    exactly the actions sent to that game, at that game's human seat, and replays to its result."""
    games, lock = {}, threading.Lock()

    def one(k):
        with httpx.Client(base_url=base, timeout=120) as c:
            bot = ("random", "greedy")[k % 2]
            human = k % 3 % 2  # seat 0 or 1
            players = ["human", bot] if human == 0 else [bot, "human"]
            game_id = new_game(c, *players, map_size=6 + k % 3, max_turns=3, seed=100 + k)["id"]
            fast(c, game_id)
            final, sent = play_to_the_end(c, game_id, np.random.default_rng(k))
            record = c.get(f"/api/games/{game_id}/record").json()
            with lock:
                games[game_id] = (k, human, sent, final, record)

    with ThreadPoolExecutor(20) as pool:
        for f in [pool.submit(one, k) for k in range(20)]:
            f.result()
    assert len(games) == 20
    for game_id, (k, human, sent, final, record) in games.items():
        assert record["seed"] == 100 + k and record["config"]["map_size"] == 6 + k % 3
        game, by_seat = replay_record(record)
        assert [a for a, p in zip(record["actions"], by_seat) if p == human] == sent
        assert game.game_over and game.winner == final["winner"] and game.scores() == final["result"]["scores"]


def test_the_command_prints_the_address_and_serves(tmp_path):
    """``polyenv serve`` in a child process: the printed address serves the page; Ctrl+C stops it."""
    import os
    import signal
    import subprocess
    import sys
    from pathlib import Path

    from polyenv.viz.server import listen
    sock = listen("127.0.0.1", 0)
    port = sock.getsockname()[1]
    sock.close()
    env = dict(os.environ)
    if env.get("PYTHONPATH"):
        env["PYTHONPATH"] = os.pathsep.join(str(Path(p).resolve()) for p in env["PYTHONPATH"].split(os.pathsep) if p)
    proc = subprocess.Popen([sys.executable, "-m", "polyenv.cli", "serve", "--port", str(port), "--save-dir",
                             str(tmp_path / "records")], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=tmp_path, env=env)
    try:
        line = proc.stdout.readline()
        assert f"http://127.0.0.1:{port}/" in line and "records" in line
        assert httpx.get(f"http://127.0.0.1:{port}/", timeout=30).status_code == 200
        # The same port again: one line, exit status 1.
        busy = subprocess.run([sys.executable, "-m", "polyenv.cli", "serve", "--port", str(port)], capture_output=True,
                              text=True, cwd=tmp_path, env=env, timeout=120)
        assert busy.returncode == 1 and busy.stderr.count("\n") == 1 and "cannot listen" in busy.stderr
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=60)
    assert proc.returncode == 0
