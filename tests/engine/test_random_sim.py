"""Random-simulation test, in the spirit of OpenSpiel's RandomSimTest (DESIGN.md § Testing).

Random games over map sizes 8-16 and 2-4 players (plus a few 5-16 player games on
larger maps and the shipped levels), with and without fog, are played to the end.
At every step of a checked game:

* ``check_invariants()`` passes (cached counters and back-references);
* ``legal_actions()`` is int32, strictly ascending (so unique), inside
  ``[0, action_space_size)``, with End Turn (id 0) first exactly when it is legal,
  and never End Turn alone while ``auto_end_turn`` is on;
* every legal id ``is_legal``; a sample of illegal ids (and out-of-range ids) is
  rejected by ``step`` with ``ValueError``, leaving the bytes and ``state_id`` unchanged;
* ``clone()`` + the same action gives the same state (bytes and ``==``), and so
  does a ``from_bytes`` copy (no state lives outside the bytes); copies do not
  alias the original;
* ``from_bytes(to_bytes())`` round trips (bytes, ``==``, legal list), as do pickle
  and ``copy.deepcopy``.

Determinism: the same seed and the same seeded policy give the same action
sequence, the same legal lists and the same final bytes; native playouts with the
same seed give the same final bytes.

The default run is quick. ``-m soak`` runs a larger mix whose size is read from
the environment variable ``POLYENV_SOAK_GAMES`` (default 8; ``POLYENV_SOAK_SEED``
varies it), so CI can run a bounded form.
"""
import copy
import hashlib
import os
import pickle
import random
from pathlib import Path

import numpy as np
import pytest

import polyenv
from polyenv import GameEnv

LEVELS = sorted((Path(polyenv.__file__).parent / "levels").glob("*.csv"))
NUM_TRIBES = len(polyenv.TRIBES)


# ---------------------------------------------------------------------------------------------- helpers

def random_tribes(rng, players):
    """Tribe keys for `players` players, drawn with repetition (the same tribe may appear twice)."""
    return tuple(rng.randrange(NUM_TRIBES) for _ in range(players))


def check_legal_list(env, legal, auto_end_turn=True):
    """The structural contract of legal_actions() in a running game."""
    size = env.action_space_size
    assert isinstance(legal, np.ndarray) and legal.dtype == np.int32 and legal.ndim == 1
    assert len(legal) > 0, "a running game has no legal action"
    assert np.all(np.diff(legal) > 0), "legal ids are not strictly ascending"
    assert 0 <= legal[0] and legal[-1] < size, "legal id outside [0, action_space_size)"
    assert env.is_legal(0) == (legal[0] == 0), "End Turn legality disagrees with the list"
    if auto_end_turn:
        assert not (len(legal) == 1 and legal[0] == 0), "End Turn alone while auto_end_turn is on"


def check_rejected(env, rng, legal, n_illegal):
    """Out-of-range ids and a sample of in-range illegal ids raise ValueError and change nothing."""
    size = env.action_space_size
    before, state_id = env.to_bytes(), env.state_id
    legal_set = set(legal.tolist())
    candidates = [-1, size, size + 12345, -(2 ** 31)]
    while len(candidates) < 4 + n_illegal:
        a = rng.randrange(size)
        if a not in legal_set:
            candidates.append(a)
    for a in candidates:
        if 0 <= a < size:
            assert not env.is_legal(a), f"id {a} is not in the legal list but is_legal says yes"
        with pytest.raises(ValueError):
            env.step(a)
    assert env.to_bytes() == before, "a rejected step changed the state"
    assert env.state_id == state_id, "a rejected step changed state_id"


def check_round_trips(env, data, legal, with_pickle):
    """from_bytes / pickle / deepcopy reproduce the game exactly."""
    restored = GameEnv.from_bytes(data)
    assert restored == env and restored.to_bytes() == data
    assert np.array_equal(restored.legal_actions(), legal)
    copies = [copy.deepcopy(env)]
    if with_pickle:
        copies.append(pickle.loads(pickle.dumps(env)))
    for other in copies:
        assert other == env and other.to_bytes() == data
    return restored


def check_game_end(env):
    """A finished game: one winner with result "win", no legal actions, step refused."""
    assert env.game_over
    env.check_invariants()
    p = env.num_players
    assert 0 <= env.winner < p
    results = [env.player(i)["result"] for i in range(p)]
    assert results[env.winner] == "win" and results.count("win") == 1, results
    assert env.ranking()[0] == env.winner
    assert env.turn <= env.turn_limit + 1
    assert len(env.legal_actions()) == 0
    assert not env.is_legal(0)
    before = env.to_bytes()
    with pytest.raises(ValueError):
        env.step(0)
    assert env.to_bytes() == before


def play_checked(env, policy_seed, n_illegal=3, max_steps=20000, pickle_every=1, observe_every=50,
                 auto_end_turn=True):
    """Plays `env` to the end with a seeded uniform policy, checking everything at every step.

    Returns (actions, digest of every legal list), for determinism checks.
    """
    rng = random.Random(policy_seed)
    actions, digest = [], hashlib.sha256()
    turn = env.turn
    while not env.game_over:
        assert len(actions) < max_steps, "game did not end"
        env.check_invariants()
        assert 0 <= env.current_player < env.num_players and env.player(env.current_player)["alive"]
        assert env.turn >= turn
        turn = env.turn
        legal = env.legal_actions()
        check_legal_list(env, legal, auto_end_turn)
        digest.update(legal.tobytes())
        for a in legal:
            assert env.is_legal(a)
        check_rejected(env, rng, legal, n_illegal)
        data = env.to_bytes()
        restored = check_round_trips(env, data, legal, with_pickle=len(actions) % pickle_every == 0)
        if len(actions) % observe_every == 0:
            obs = env.observe()
            assert np.array_equal(obs["action_id"], legal), "observe() rows disagree with legal_actions()"
        action = int(legal[rng.randrange(len(legal))])
        twin = env.clone()
        state_id = env.state_id
        env.step(action)
        twin.step(action)
        assert twin.to_bytes() == env.to_bytes() and twin == env, f"clone diverged after {action}"
        assert env.state_id != state_id, "state_id did not change after an accepted action"
        assert restored.to_bytes() == data, "a restored copy aliases the original"
        restored.step(action)
        assert restored.to_bytes() == env.to_bytes(), f"from_bytes copy diverged after {action}"
        actions.append(action)
    check_game_end(env)
    return actions, digest.hexdigest()


def play_chunked(env, seed, max_chunk=64, max_actions=100000):
    """Plays to the end with native playouts in random chunks, checking between chunks:
    invariants, the legal list, bytes round trip, and that a clone given the same chunk
    ends in the same state."""
    rng = random.Random(seed)
    total = 0
    while not env.game_over:
        assert total < max_actions, "game did not end"
        env.check_invariants()
        legal = env.legal_actions()
        check_legal_list(env, legal)
        check_rejected(env, rng, legal, 2)
        restored = check_round_trips(env, env.to_bytes(), legal, with_pickle=True)
        chunk, chunk_seed = rng.randint(1, max_chunk), rng.randrange(2 ** 32)
        twin = env.clone()
        n = env.playout(max_actions=chunk, seed=chunk_seed)
        assert twin.playout(max_actions=chunk, seed=chunk_seed) == n
        assert restored.playout(max_actions=chunk, seed=chunk_seed) == n
        assert 1 <= n <= chunk
        assert twin.to_bytes() == env.to_bytes(), "clone diverged under the same native playout"
        assert restored.to_bytes() == env.to_bytes(), "from_bytes copy diverged under the same native playout"
        total += n
    check_game_end(env)
    return total


# ---------------------------------------------------------------------------------------------- configurations

def _generated_configs():
    """Map sizes 8..16, once with and once without fog; player counts cycle through 2..4 so
    every (players, fog) pair appears; every fourth map is played in Score mode."""
    configs = []
    for fog in (False, True):
        for n in range(8, 17):
            players = 2 + (n + fog) % 3
            mode = "score" if n % 4 == 0 else "capitals"
            configs.append(pytest.param(n, players, fog, mode, id=f"{n}x{n}-{players}p-{'fog' if fog else 'full'}-{mode}"))
    return configs


@pytest.mark.parametrize("map_size,players,fog,mode", _generated_configs())
def test_random_game_checked_every_step(map_size, players, fog, mode):
    seed = 1000 * map_size + 10 * players + fog
    rng = random.Random(seed)
    env = GameEnv(seed=seed, map_size=map_size, players=random_tribes(rng, players), mode=mode,
                  full_observability=not fog)
    assert env.full_observability == (not fog)
    play_checked(env, policy_seed=seed)


@pytest.mark.parametrize("level", LEVELS, ids=[p.stem for p in LEVELS])
@pytest.mark.parametrize("fog", [False, True], ids=["full", "fog"])
def test_shipped_level_checked_every_step(level, fog):
    assert LEVELS, "no shipped levels found"
    env = GameEnv(seed=7, level=str(level), players=None, full_observability=not fog)
    play_checked(env, policy_seed=len(level.stem) + fog)


@pytest.mark.parametrize("map_size,players,fog", [(14, 5, True), (18, 6, False), (20, 8, True), (24, 16, False),
                                                  (24, 16, True)])
def test_many_players_native_chunks(map_size, players, fog):
    seed = 31 * map_size + players
    rng = random.Random(seed)
    env = GameEnv(seed=seed, map_size=map_size, players=random_tribes(rng, players), full_observability=not fog)
    assert env.num_players == players
    play_chunked(env, seed, max_chunk=400 if players > 8 else 128)


def test_manual_end_turn_checked_every_step():
    # auto_end_turn=False: End Turn may be the only legal action, and must be chosen to go on.
    env = GameEnv(seed=12, map_size=9, players=(6, 7), auto_end_turn=False, max_turns=12)
    play_checked(env, policy_seed=12, auto_end_turn=False)
    assert env.turn == 13


def test_many_players_checked_every_step():
    # One 5-player game with the per-step Python checks, on a larger map.
    rng = random.Random(5)
    env = GameEnv(seed=5, map_size=18, players=random_tribes(rng, 5), mode="score")
    play_checked(env, policy_seed=5, n_illegal=2, pickle_every=5)


@pytest.mark.parametrize("map_size,players", [(8, 2), (11, 3), (16, 4)])
@pytest.mark.parametrize("fog", [False, True], ids=["full", "fog"])
def test_native_playouts_to_the_end(map_size, players, fog):
    # Many whole games through the native playout; invariants and a bytes round trip at the end.
    for seed in range(6):
        env = GameEnv(seed=seed, map_size=map_size, players=random_tribes(random.Random(seed), players),
                      full_observability=not fog)
        n = env.playout(seed=seed)
        assert n > 0 and n == env.actions_applied
        check_game_end(env)
        assert GameEnv.from_bytes(env.to_bytes()) == env
        # A finished game stays finished and the playout applies nothing more.
        assert env.playout(seed=seed) == 0


# ---------------------------------------------------------------------------------------------- determinism

@pytest.mark.parametrize("map_size,players,fog", [(9, 2, True), (12, 3, False), (16, 4, True)])
def test_same_seed_same_game(map_size, players, fog):
    tribes = random_tribes(random.Random(map_size), players)

    def run():
        env = GameEnv(seed=42 + map_size, map_size=map_size, players=tribes, full_observability=not fog)
        start = env.to_bytes()
        actions, legal_digest = play_checked(env, policy_seed=99, n_illegal=1, pickle_every=50)
        return start, actions, legal_digest, env.to_bytes(), env.scores(), env.winner

    first, second = run(), run()
    assert first[0] == second[0], "same seed, different initial state"
    assert first[1] == second[1], "same seed and policy, different action sequence"
    assert first[2] == second[2], "same seed and policy, different legal lists"
    assert first[3:] == second[3:], "same seed and policy, different final state"


def test_different_seeds_differ():
    a = GameEnv(seed=1, map_size=11).to_bytes()
    b = GameEnv(seed=2, map_size=11).to_bytes()
    assert a != b


@pytest.mark.parametrize("fog", [False, True], ids=["full", "fog"])
def test_native_playout_deterministic(fog):
    def run(seed):
        env = GameEnv(seed=seed, map_size=13, players=(0, 5, 9), full_observability=not fog)
        n = env.playout(seed=1234)
        return n, env.to_bytes()

    assert run(3) == run(3)
    assert run(3) != run(4)


def test_reset_reproduces_a_fresh_game():
    env = GameEnv(seed=10, map_size=12, players=(1, 2, 3))
    fresh = GameEnv(seed=10, map_size=12, players=(1, 2, 3)).to_bytes()
    env.playout(seed=5)
    env.reset(seed=10)
    assert env.to_bytes() == fresh
    # reset() without a seed continues with seed + 1.
    env.reset()
    assert env.to_bytes() == GameEnv(seed=11, map_size=12, players=(1, 2, 3)).to_bytes()


def test_replay_from_restored_bytes():
    # Restoring mid-game and replaying the recorded actions reaches the same final state.
    env = GameEnv(seed=8, map_size=10, players=(4, 6))
    rng = random.Random(8)
    for _ in range(150):
        legal = env.legal_actions()
        env.step(int(legal[rng.randrange(len(legal))]))
    saved = env.to_bytes()
    tail = []
    while not env.game_over:
        legal = env.legal_actions()
        tail.append(int(legal[rng.randrange(len(legal))]))
        env.step(tail[-1])
    replay = GameEnv.from_bytes(saved)
    for a in tail:
        replay.step(a)
    assert replay.to_bytes() == env.to_bytes()


# ---------------------------------------------------------------------------------------------- soak

def _soak_games():
    return int(os.environ.get("POLYENV_SOAK_GAMES", "8"))


@pytest.mark.soak
def test_random_soak():
    """A larger random mix: generated maps 8-16 with 2-4 players (per-step checks), larger
    maps with 5-16 players and the shipped levels (native chunks or per-step checks), random
    fog, mode and tribes. Size: POLYENV_SOAK_GAMES games; POLYENV_SOAK_SEED varies the mix."""
    games = _soak_games()
    master = random.Random(int(os.environ.get("POLYENV_SOAK_SEED", "0")))
    for g in range(games):
        seed = master.randrange(2 ** 32)
        rng = random.Random(seed)
        kind = rng.random()
        fog = rng.random() < 0.5
        mode = rng.choice(["capitals", "score"])
        if kind < 0.15:
            level = rng.choice(LEVELS)
            config = dict(level=str(level), players=None)
        elif kind < 0.3:
            players = rng.randint(5, 16)
            config = dict(map_size=rng.randint(max(12, players), 24), players=random_tribes(rng, players))
        else:
            config = dict(map_size=rng.randint(8, 16), players=random_tribes(rng, rng.randint(2, 4)))
        config.update(seed=seed, full_observability=not fog, mode=mode)
        try:
            env = GameEnv(**config)
            if env.num_players > 4:
                play_chunked(env, seed)
            else:
                play_checked(env, policy_seed=seed, n_illegal=2, pickle_every=10)
        except Exception as e:  # name the failing configuration
            raise AssertionError(f"soak game {g} failed: GameEnv(**{config!r}): {e!r}") from e


# ---------------------------------------------------------------------------------------------- thousands of games

def _min_map_size(players):
    """The smallest board the generator accepts for `players` (it raises "too small" below it)."""
    for n in range(4, 41):
        try:
            GameEnv(map_size=n, players=[0] * players)
            return n
        except ValueError:
            continue
    raise AssertionError(f"no board fits {players} players")


def _sim_grid():
    """Every player count 2..16 x fog / full x capitals / score on generated maps, and every
    shipped level x fog / full x capitals / score."""
    grid = [dict(players=p, full_observability=full, mode=mode)
            for p in range(2, 17) for full in (False, True) for mode in ("capitals", "score")]
    grid += [dict(level=str(level), players=None, full_observability=full, mode=mode)
             for level in LEVELS for full in (False, True) for mode in ("capitals", "score")]
    return grid


def _sim_games():
    return int(os.environ.get("POLYENV_SIM_GAMES", "150"))


@pytest.mark.soak
def test_thousands_of_native_games():
    """POLYENV_SIM_GAMES whole games (CI: thousands) through native playouts in random chunks,
    cycling through _sim_grid() with random sizes (from the smallest board a player count
    fits on to 12 tiles more) and tribes: invariants between chunks, the end-of-game contract,
    and a bytes round trip at the end. The engine plays hundreds of such games per second."""
    grid, games = _sim_grid(), _sim_games()
    assert games >= len(grid) or "POLYENV_SIM_GAMES" in os.environ
    smallest = {p: _min_map_size(p) for p in range(2, 17)}
    master = random.Random(int(os.environ.get("POLYENV_SOAK_SEED", "0")))
    covered = set()
    for g in range(games):
        config = dict(grid[g % len(grid)])
        seed = master.randrange(2 ** 32)
        rng = random.Random(seed)
        if config.get("level") is None:
            players = config["players"]
            config.update(map_size=rng.randint(smallest[players], min(40, smallest[players] + 12)),
                          players=random_tribes(rng, players))
        config.update(seed=seed)
        try:
            env = GameEnv(**config)
            while not env.game_over:
                env.playout(max_actions=rng.randint(20, 600), seed=rng.randrange(2 ** 32),
                            record_events=rng.random() < 0.5)
                env.check_invariants()
            check_game_end(env)
            assert GameEnv.from_bytes(env.to_bytes()) == env
        except Exception as e:  # name the failing configuration
            raise AssertionError(f"game {g} failed: GameEnv(**{config!r}): {e!r}") from e
        covered.add((env.num_players, env.full_observability, config["mode"], config.get("level")))
    if games >= len(grid):
        assert len(covered) == len(grid), "a configuration of the grid was not played"
