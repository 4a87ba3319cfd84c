"""The game record of ``polyenv play --save``: its format, its checks, and the game and result it describes.

A record is a JSON object: ``format`` (:data:`RECORD_FORMAT`), ``version`` (:data:`RECORD_VERSION`), ``seed``,
``config`` (the :class:`~polyenv.GameEnv` settings), ``actions`` (action ids, in order), and optionally
``bots``, ``action_space_fingerprint`` and ``result``. ``polyenv replay`` re-plays one exactly; the web app
(:mod:`polyenv.viz.session`) writes and opens them too.
"""

from __future__ import annotations

import json

__all__ = ["RECORD_FORMAT", "RECORD_VERSION", "HUMAN", "game_record", "load_record", "check_record",
           "game_from_config", "game_result"]

#: The ``format`` field of a game record (``polyenv play --save``).
RECORD_FORMAT = "polyenv-game"
#: The ``--bots`` name of a seat played by a person at the terminal.
HUMAN = "human"
#: The record version this package writes and reads.
RECORD_VERSION = 1


def game_from_config(seed: int, config: dict):
    """The :class:`~polyenv.GameEnv` a record's ``seed`` and ``config`` describe, before its first action."""
    from ..game_env import GameEnv
    kwargs = dict(seed=seed, mode=config.get("mode", "capitals"), max_turns=config.get("max_turns"),
                  full_observability=config.get("full_observability", False))
    if config.get("level") is not None:
        return GameEnv(level=config["level"], players=config.get("players"), **kwargs)
    return GameEnv(map_size=config["map_size"], players=config.get("players"), **kwargs)


def game_record(seed: int, config: dict, bots: list, game, actions: list) -> dict:
    """The record of ``game`` (a :class:`~polyenv.GameEnv`), started from ``seed`` and ``config`` and played with
    ``actions`` (action ids, in order) by the seats ``bots``: what ``polyenv play --save`` and the web app write."""
    return dict(format=RECORD_FORMAT, version=RECORD_VERSION, seed=seed, config=config, bots=bots,
                action_space_fingerprint=int(game.action_space_fingerprint), actions=list(actions),
                result=game_result(game))


def game_result(game, legacy: bool = False) -> dict:
    """The end of a game as a record keeps it (``replay`` checks it): ``turn`` is the turn in which the game
    ended (``GameEnv.turn_number``). ``legacy``: as records of earlier versions kept it, ``turns`` = ``GameEnv.turn``."""
    result = dict(game_over=game.game_over, winner=game.winner, scores=game.scores())
    if legacy:
        return dict(result, turns=game.turn)
    return dict(result, turn=game.turn_number)


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_record(record: dict, path) -> None:
    """Every field of a record has its type (JSON numbers that are floats or bools are not ids)."""
    def bad(what):
        raise ValueError(f"{path}: {what}")
    seed = record["seed"]
    if not _is_int(seed) or not 0 <= seed < 2**64:
        bad(f"seed must be an integer in [0, 2**64), got {seed!r}")
    config = record["config"]
    if not isinstance(config, dict) or not set(config) <= _CONFIG_KEYS:
        bad(f"config must be an object with keys among {sorted(_CONFIG_KEYS)}")
    if config.get("level") is None and not _is_int(config.get("map_size")):
        bad(f"config.map_size must be an integer, got {config.get('map_size')!r}")
    if config.get("players") is not None and not isinstance(config["players"], list):
        bad("config.players must be a list of tribes")
    if not isinstance(config.get("full_observability", False), bool):
        bad("config.full_observability must be true or false")
    actions = record["actions"]
    if not isinstance(actions, list) or not all(_is_int(a) for a in actions):
        wrong = next((a for a in actions if not _is_int(a)), None) if isinstance(actions, list) else actions
        bad(f"actions must be a list of integer action ids, got {wrong!r}")
    bots = record.get("bots")
    if bots is not None and (not isinstance(bots, list) or not all(isinstance(b, str) for b in bots)):
        bad("bots must be a list of bot names")
    fingerprint = record.get("action_space_fingerprint")
    if fingerprint is not None and not _is_int(fingerprint):
        bad(f"action_space_fingerprint must be an integer, got {fingerprint!r}")
    if record.get("result") is not None and not isinstance(record["result"], dict):
        bad("result must be an object")


_CONFIG_KEYS = {"map_size", "players", "mode", "max_turns", "level", "full_observability"}


def load_record(path) -> dict:
    """Reads a game record written by ``polyenv play --save``; raises ValueError when it is
    malformed (not JSON, another format or version, a missing field or a field of the wrong type)."""
    try:
        with open(path, encoding="utf-8") as f:
            record = json.load(f)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ValueError(f"cannot read game record {path}: {e}") from None
    return check_record(record, path)


def check_record(record, source="record") -> dict:
    """Checks a game record already read from JSON (format, version, every field's type) and returns it;
    raises ValueError naming ``source`` when it is not a valid ``polyenv play --save`` record."""
    if not isinstance(record, dict) or record.get("format") != RECORD_FORMAT:
        raise ValueError(f"{source} is not a polyenv game record")
    if record.get("version") != RECORD_VERSION:
        raise ValueError(f"{source}: unsupported record version {record.get('version')!r}")
    for key in ("seed", "config", "actions"):
        if key not in record:
            raise ValueError(f"{source}: record has no {key!r}")
    _check_record(record, source)
    return record
