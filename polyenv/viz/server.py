"""``polyenv serve``: the web app (Starlette on uvicorn) to play and watch games in a browser.

Routes (every request body is JSON; every refusal is a 4xx with ``{"error": "<one line>"}`` and
changes nothing):

=====================================  ===================================================================
``GET  /``                             the page (``static/index.html``; plain JavaScript modules)
``GET  /api/setup``                    what the new-game form offers: the bot registry, tribes, modes,
                                       shipped levels, limits, and the style table (colours, legend)
``POST /api/levels``                   ``{"csv": text}`` or ``{"name": shipped}`` -> players, tribes, size
``POST /api/games``                    a new game (see :func:`game_request`) -> ``{"id", "view"}``
``GET  /api/games/{id}?view=V``        the view for ``V`` (a seat or ``full``; a game with a person
                                       serves only that person's seat)
``WS   /api/games/{id}/ws?view=V``     the same view, pushed after every change
``POST /api/games/{id}/action``        ``{"action": id, "token": t}``: the person's move
``POST /api/games/{id}/control``       ``{"command": "pause"|"resume"|"step"|"delay"|"seek", "value": x}``
``POST /api/games/{id}/save``          writes the record into the save folder -> ``{"path"}``
``GET  /api/games/{id}/record``        the record (a game with a person: once it is over)
``POST /api/replays``                  a saved record (``polyenv play --save``) -> a game that plays it back
=====================================  ===================================================================

Game ids come from :func:`secrets.token_urlsafe`; the server binds to 127.0.0.1 unless told otherwise.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import secrets
import socket
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from .. import bots as bot_registry
from .._botspec import is_bot
from .._levels import read_level
from .._names import MODES, TRIBES, tribe_code
from .record import check_record
from ..description import MAX_MAP_SIZE, MAX_PLAYERS, MAX_TURNS, MIN_MAP_SIZE, MIN_PLAYERS
from ..envs import default_map_size
from ..game_env import GameEnv
from .session import HUMAN, RECORD, GameSession, SessionError
from .style import style

__all__ = ["create_app", "serve", "listen", "server_for", "game_request", "DEFAULT_HOST", "DEFAULT_PORT"]

#: The address ``polyenv serve`` listens on by default (this machine only) and its port.
DEFAULT_HOST, DEFAULT_PORT = "127.0.0.1", 8765
STATIC = Path(__file__).resolve().parent / "static"
LEVELS = Path(__file__).resolve().parent.parent / "levels"
MAX_BODY = 4 * 2**20  # bytes: a long record or a large level fits easily
_GAME_KEYS = {"seats", "map_size", "mode", "max_turns", "fog", "seed", "level", "level_name", "paused"}


def _bad(reason: str, status: int = 400):
    raise SessionError(status, reason)


async def _json_body(request: Request):
    body = await request.body()
    if len(body) > MAX_BODY:
        _bad(f"request body over {MAX_BODY // 2**20} MiB", 413)
    try:
        return json.loads(body)
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        _bad(f"malformed JSON: {e}")


def _object(body, keys: set[str], what: str) -> dict:
    if not isinstance(body, dict):
        _bad(f"{what} must be a JSON object")
    unknown = sorted(set(body) - keys)
    if unknown:
        _bad(f"unknown field {unknown[0]!r} in {what}; expected some of: {', '.join(sorted(keys))}")
    return body


def _int(value, name: str, low: int, high: int, allow_none: bool = True):
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        _bad(f"{name} must be an integer in [{low}, {high}]{' or null' if allow_none else ''}, got {value!r}")
    return value


def _shipped_levels() -> dict[str, Path]:
    return {p.stem: p for p in sorted(LEVELS.glob("*.csv"))}


def _level_text(csv, name) -> str | None:
    if csv is not None and name is not None:
        _bad("give level (CSV text) or level_name, not both")
    if name is not None:
        levels = _shipped_levels()
        if name not in levels:
            _bad(f"unknown level_name {name!r}; expected one of: {', '.join(levels)}")
        return read_level(levels[name])
    if csv is not None:
        if not isinstance(csv, str) or "\n" not in csv.strip() and "," not in csv:
            _bad("level must be the CSV text of a Tribes level file")
        return csv
    return None


def _first_line(e: Exception) -> str:
    return (str(e).splitlines() or [type(e).__name__])[0]


def game_request(body) -> tuple[int, dict, list[str]]:
    """Checks a new-game request; returns ``(seed, record config, seats)`` or raises :class:`SessionError`.

    Fields: ``seats`` (2..16 objects ``{"tribe": name or null, "player": "human" or a bot name}``;
    at most one ``"human"``), ``map_size`` (4..40, default by player count), ``mode`` (``capitals`` or
    ``score``), ``max_turns`` (turn limit, default the mode's), ``fog`` (default true), ``seed``
    (default random), ``level`` (CSV text) or ``level_name`` (a shipped level; seats' tribes may be
    null to keep the level's). ``paused`` (default false) is not part of the game: the bots wait
    for a ``resume`` or ``step`` control; :func:`create_app` reads it.
    """
    body = _object(body, _GAME_KEYS, "the new-game request")
    seats = body.get("seats")
    if not isinstance(seats, list) or not MIN_PLAYERS <= len(seats) <= MAX_PLAYERS:
        _bad(f"seats must be a list of {MIN_PLAYERS} to {MAX_PLAYERS} seats")
    tribes, players = [], []
    for k, seat in enumerate(seats):
        seat = _object(seat, {"tribe", "player"}, f"seat {k}")
        player = seat.get("player")
        if player != HUMAN and not (isinstance(player, str) and is_bot(player)):
            _bad(f"seat {k}: player must be 'human' or a bot ({', '.join(bot_registry.BOTS)}), got {player!r}")
        players.append(player)
        tribe = seat.get("tribe")
        if tribe is not None:
            if not isinstance(tribe, str):
                _bad(f"seat {k}: tribe must be a tribe name or null, got {tribe!r}")
            try:
                tribe = TRIBES[tribe_code(tribe)]
            except ValueError as e:
                _bad(f"seat {k}: {_first_line(e)}")
        tribes.append(tribe)
    if players.count(HUMAN) > 1:
        _bad("at most one seat can be human")
    mode = body.get("mode", "capitals")
    if mode not in MODES:
        _bad(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
    fog = body.get("fog", True)
    if not isinstance(fog, bool):
        _bad(f"fog must be true or false, got {fog!r}")
    seed = _int(body.get("seed"), "seed", 0, 2**63 - 1)
    seed = secrets.randbits(32) if seed is None else seed
    max_turns = _int(body.get("max_turns"), "max_turns", 1, MAX_TURNS)
    level = _level_text(body.get("level"), body.get("level_name"))
    if level is None and None in tribes:
        _bad("every seat needs a tribe (only a level can supply them)")
    if level is not None and any(t is None for t in tribes) and any(t is not None for t in tribes):
        _bad("with a level, give every seat a tribe or none (null keeps the level's tribes)")
    map_size = _int(body.get("map_size"), "map_size", MIN_MAP_SIZE, MAX_MAP_SIZE)
    if level is not None and map_size is not None:
        _bad("map_size comes from the level; leave it out")
    config = dict(map_size=map_size if map_size is not None else default_map_size(len(seats)),
                  players=None if level is not None and tribes[0] is None else tribes, mode=mode,
                  max_turns=max_turns, level=level, full_observability=not fog)
    return seed, config, players


def _level_info(text: str) -> dict:
    try:
        game = GameEnv(level=text)
    except ValueError as e:
        _bad(f"bad level: {_first_line(e)}")
    return {"players": game.num_players, "map_size": game.map_size,
            "tribes": [game.player(p)["tribe"] for p in range(game.num_players)]}


def create_app(save_dir: str | os.PathLike | None = None, max_games: int = 256, bot_threads: int | None = None):
    """The Starlette app. ``save_dir``: folder of the records (None: records are only downloaded);
    ``max_games``: live games kept (the oldest finished ones make room); ``bot_threads``: the pool
    bots think in (default: the CPU count)."""
    games: dict[str, GameSession] = {}
    executor = ThreadPoolExecutor(max_workers=bot_threads or max(2, os.cpu_count() or 2),
                                  thread_name_prefix="polyenv-bot")
    save_path = Path(save_dir) if save_dir is not None else None

    def lookup(game_id: str) -> GameSession:
        session = games.get(game_id)
        if session is None:
            _bad("unknown game", 404)
        return session

    def viewer_of(session: GameSession, text) -> int | None:
        if text is None:
            return session.human
        if text == "full":
            return None
        if not text.isdigit() or not 0 <= int(text) < session.game.num_players:
            _bad(f"view must be 'full' or a seat 0..{session.game.num_players - 1}, got {text!r}")
        return int(text)

    def admit(session: GameSession) -> None:
        if len(games) >= max_games:
            done = sorted((s for s in games.values() if s.finished), key=lambda s: s.created)
            if not done:
                _bad(f"too many games in progress ({max_games})", 503)
            done[0].stop()
            del games[done[0].id]
        games[session.id] = session
        session.start()

    async def new_session(seed, config, seats, record=None, paused=False) -> GameSession:
        def build():
            try:
                session = GameSession(seed, config, seats, None if record is None else record["actions"],
                                      save_path, executor)
            except ValueError as e:
                _bad(_first_line(e))
            if record is not None:
                _check_playback(session, record)
            session.paused = session.paused or paused
            return session
        session = await asyncio.to_thread(build)
        admit(session)
        return session

    async def page(request: Request):
        return FileResponse(STATIC / "index.html")

    async def setup(request: Request):
        bots = list(bot_registry.BOTS)
        return JSONResponse({
            "bots": bots, "budget_bots": [b for b in bots if is_bot(f"{b}:1")], "human": HUMAN,
            "tribes": list(TRIBES), "modes": list(MODES), "levels": list(_shipped_levels()),
            "min_players": MIN_PLAYERS, "max_players": MAX_PLAYERS, "min_map_size": MIN_MAP_SIZE,
            "max_map_size": MAX_MAP_SIZE, "default_map_sizes": [default_map_size(p) for p in range(MAX_PLAYERS + 1)],
            "saving": save_path is not None, "style": style()})

    async def level_info(request: Request):
        body = _object(await _json_body(request), {"csv", "name"}, "the level request")
        text = _level_text(body.get("csv"), body.get("name"))
        if text is None:
            _bad("give csv or name")
        return JSONResponse(await asyncio.to_thread(_level_info, text))

    async def create_game(request: Request):
        body = await _json_body(request)
        seed, config, seats = game_request(body)
        paused = body.get("paused", False)
        if not isinstance(paused, bool):
            _bad(f"paused must be true or false, got {paused!r}")
        session = await new_session(seed, config, seats, paused=paused)
        view = await asyncio.to_thread(session.view, session.human)
        return JSONResponse({"id": session.id, "view": view}, status_code=201)

    async def create_replay(request: Request):
        body = await _json_body(request)
        try:
            record = check_record(body, "the uploaded file")
        except ValueError as e:
            _bad(_first_line(e))
        players = len(record["config"].get("players") or []) or None
        seats = [RECORD] * players if players else None
        if seats is None:  # a level game recorded with the level's tribes: count them
            seats = [RECORD] * (await asyncio.to_thread(_level_info, record["config"]["level"]))["players"]
        session = await new_session(record["seed"], record["config"], seats, record)
        bots = record.get("bots")
        if isinstance(bots, list) and len(bots) == len(seats):
            session.seats = [str(b) for b in bots]
        return JSONResponse({"id": session.id}, status_code=201)

    async def get_view(request: Request):
        session = lookup(request.path_params["game_id"])
        viewer = viewer_of(session, request.query_params.get("view"))
        return JSONResponse(await asyncio.to_thread(session.view, viewer))

    async def act(request: Request):
        session = lookup(request.path_params["game_id"])
        body = _object(await _json_body(request), {"action", "token"}, "the action request")
        if "action" not in body or "token" not in body:
            _bad("an action request needs action and token")
        await asyncio.to_thread(session.apply_human, body["action"], body["token"])
        session.wake()
        return JSONResponse({"ok": True, "token": session.token})

    async def control(request: Request):
        session = lookup(request.path_params["game_id"])
        body = _object(await _json_body(request), {"command", "value"}, "the control request")
        command = body.get("command")
        if command == "seek":
            await asyncio.to_thread(session.seek, body.get("value"))
            session.wake()
        else:
            session.control(command, body.get("value"))
        return JSONResponse({"ok": True, "paused": session.paused, "delay": session.delay})

    async def save(request: Request):
        session = lookup(request.path_params["game_id"])
        path = await asyncio.to_thread(session.save)
        session.wake()
        return JSONResponse({"path": path, "actions": len(session.actions)})

    async def record(request: Request):
        session = lookup(request.path_params["game_id"])
        if session.human is not None and not session.game.game_over:
            _bad("the record of a game with a human player is available when the game is over", 409)
        data = await asyncio.to_thread(session.record)
        return JSONResponse(data, headers={"Content-Disposition": f'attachment; filename="polyenv-{session.id[:8]}.json"'})

    async def socket(websocket: WebSocket):
        await websocket.accept()
        try:
            session = lookup(websocket.path_params["game_id"])
            viewer = viewer_of(session, websocket.query_params.get("view"))
            if viewer not in session.allowed_viewers():
                _bad("this game shows only the view of its human player", 403)
        except SessionError as e:
            await websocket.close(code=4000 + e.status, reason=e.reason)
            return
        listener = session.listen()
        reader = asyncio.create_task(_drain(websocket))
        try:
            while not reader.done():
                listener.clear()
                view = await asyncio.to_thread(session.view, viewer)
                await websocket.send_text(json.dumps(view))
                waiter = asyncio.create_task(listener.wait())
                await asyncio.wait({waiter, reader}, return_when=asyncio.FIRST_COMPLETED)
                waiter.cancel()
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            session.unlisten(listener)
            reader.cancel()

    async def refused(request: Request, exc: SessionError):
        return JSONResponse({"error": exc.reason}, status_code=exc.status)

    @contextlib.asynccontextmanager
    async def lifespan(app):
        yield
        for session in games.values():
            session.stop()
        executor.shutdown(wait=False, cancel_futures=True)

    routes = [
        Route("/", page), Route("/api/setup", setup), Route("/api/levels", level_info, methods=["POST"]),
        Route("/api/games", create_game, methods=["POST"]), Route("/api/replays", create_replay, methods=["POST"]),
        Route("/api/games/{game_id}", get_view), Route("/api/games/{game_id}/action", act, methods=["POST"]),
        Route("/api/games/{game_id}/control", control, methods=["POST"]),
        Route("/api/games/{game_id}/save", save, methods=["POST"]),
        Route("/api/games/{game_id}/record", record), WebSocketRoute("/api/games/{game_id}/ws", socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, exception_handlers={SessionError: refused}, lifespan=lifespan)
    app.state.games = games
    return app


def _check_playback(session: GameSession, record: dict) -> None:
    """A record plays back only if it was made with this action-id layout and every action is legal."""
    game = session.game.clone()
    fingerprint = record.get("action_space_fingerprint")
    if fingerprint is not None and fingerprint != int(game.action_space_fingerprint):
        _bad("the record's action-id layout differs from this version's")
    for k, action in enumerate(record["actions"]):
        if game.game_over or not game.is_legal(action):
            _bad(f"action {k} of the record ({action}) cannot be played")
        game.step(action)


async def _drain(websocket: WebSocket) -> None:
    """Reads (and ignores) what the page sends until it disconnects."""
    while True:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return


def listen(host: str = DEFAULT_HOST, port: int = DEFAULT_PORT) -> socket.socket:
    """A listening TCP socket on ``host:port`` (``port=0``: a free one); OSError when it cannot be bound."""
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    return sock


def server_for(app, sock: socket.socket):
    """A uvicorn server for ``app`` (WebSockets by wsproto); ``server.run(sockets=[sock])`` serves it."""
    import uvicorn
    config = uvicorn.Config(app, log_level="warning", ws="wsproto", lifespan="on")
    return uvicorn.Server(config)


def serve(host: str = DEFAULT_HOST, port: int = DEFAULT_PORT, save_dir: str | os.PathLike | None = "polyenv-games",
          out=None) -> None:
    """Runs the web app until interrupted (Ctrl+C); prints the address to open. OSError when the
    address cannot be bound."""
    import sys
    out = out or sys.stdout
    sock = listen(host, port)
    port = sock.getsockname()[1]
    app = create_app(save_dir)
    shown = f"[{host}]" if ":" in host else host
    where = f"records go to {os.path.abspath(save_dir)}" if save_dir is not None else "records are not saved"
    print(f"polyenv serve: open http://{shown}:{port}/ in a browser ({where}; Ctrl+C stops)", file=out, flush=True)
    server_for(app, sock).run(sockets=[sock])
