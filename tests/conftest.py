"""Shared helpers for the rule tests (tests/engine/test_rules_*.py), and the ``installed_package`` fixture.

Every scenario is built on ``GameEnv.blank`` with the editing methods of
docs/gameenv_api.md, and every action goes through ``action_id`` + ``step``.
Tiles are passed as indices ``x * map_size + y`` (x = row).
"""
import sys
from pathlib import Path

import pytest

# The suite's helpers and reference oracles (tests/helpers/) import by module name from any layer's folder.
sys.path.insert(0, str(Path(__file__).resolve().parent / "helpers"))

import polyenv  # noqa: E402
from polyenv import Bardur, GameEnv, Imperius


def at(env, x, y):
    """Tile index of row x, column y."""
    return x * env.map_size + y


def duel(map_size=8, players=(Bardur, Imperius), p0_city=(0, 0), p1_city="corner",
         terrain="plain", mode="capitals", max_turns=None):
    """A blank 2-player board with one capital each (so nobody is eliminated,
    and nobody holds every capital, at End Turn). Player 0 is to move, tick 1,
    0 stars each. ``p1_city="corner"`` puts player 1's capital at (N-1, N-1);
    None leaves a player without a city."""
    env = GameEnv.blank(map_size, players, terrain=terrain, mode=mode, max_turns=max_turns)
    if p1_city == "corner":
        p1_city = (map_size - 1, map_size - 1)
    for player, pos in ((0, p0_city), (1, p1_city)):
        if pos is not None:
            env.place_city(player, at(env, *pos), capital=True)
    return env


def aid(env, kind, source=None, target=None, arg=None):
    return env.action_id(kind, source=source, target=target, arg=arg)


def is_legal(env, kind, source=None, target=None, arg=None):
    return aid(env, kind, source, target, arg) in set(env.legal_actions().tolist())


def act(env, kind, source=None, target=None, arg=None):
    """Asserts the action is legal, then applies it."""
    a = aid(env, kind, source, target, arg)
    assert a in set(env.legal_actions().tolist()), f"not legal: {kind} {source}->{target} arg={arg}"
    env.step(a)


def attack(env, source, target):
    act(env, "attack", source=source, target=target)


def move(env, source, target):
    act(env, "move", source=source, target=target)


def end_turn(env):
    act(env, "end_turn")


def end_round(env):
    """Ends the turn of every player once, back to the same player."""
    for _ in range(env.num_players):
        end_turn(env)


def move_targets(env, source):
    """Destination tiles of the legal Move actions of the unit on `source`."""
    legal = set(env.legal_actions().tolist())
    return {t for t in range(env.num_tiles)
            if t != source and aid(env, "move", source, t) in legal}


def has_tech(env, player, tech):
    return tech in env.player(player)["techs"]


def ensure_tech(env, player, *techs):
    """Grants each tech the player does not have yet."""
    for tech in techs:
        if not has_tech(env, player, tech):
            env.grant_tech(player, tech)


def hp(env, tile):
    u = env.unit_at(tile)
    return None if u is None else u["hp"]


def unit_type(env, tile):
    u = env.unit_at(tile)
    return None if u is None else u["type"]


def tribe_name(tribe):
    return polyenv.TRIBES[tribe]


def chebyshev(env, a, b):
    n = env.map_size
    return max(abs(a // n - b // n), abs(a % n - b % n))


def area(env, centre, radius):
    """The radius-r area around `centre` (Chebyshev), clipped to the board."""
    return {t for t in range(env.num_tiles) if chebyshev(env, t, centre) <= radius}


@pytest.fixture(scope="session")
def installed_package(tmp_path_factory):
    """(site folder, working folder): a copy of the package under test (compiled core included) in a
    folder of its own, as ``pip install`` leaves it (no benchmarks/, no source tree around it), and an
    empty folder to run from."""
    import shutil
    from pathlib import Path

    import polyenv
    site = tmp_path_factory.mktemp("site")
    shutil.copytree(Path(polyenv.__file__).parent, site / "polyenv", ignore=shutil.ignore_patterns("__pycache__"))
    return site, tmp_path_factory.mktemp("work")
