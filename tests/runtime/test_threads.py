"""One GameEnv shared by several threads: the native bindings serialise per
instance (several release the GIL while they work), so concurrent playouts,
observations, bot moves, steps and clones never corrupt the game (issue 10)."""
import threading

import numpy as np

from polyenv import GameEnv
from polyenv.bots import play_turn


def hammer(env, worker, rounds, errors):
    rng = np.random.default_rng(worker)
    try:
        for i in range(rounds):
            try:
                act(env, (worker + i) % 6, rng)
            except ValueError as e:
                # Another thread may end the game (or move it on) between a check and the call:
                # the clear error is the serialised outcome, anything else is a failure.
                if "game is over" not in str(e):
                    raise
    except Exception as e:  # noqa: BLE001 - reported by the main thread
        errors.append(repr(e))


def act(env, k, rng):
    """One call of kind k on the shared game."""
    if env.game_over:
        env.reset(int(rng.integers(1 << 30)))
    elif k == 0:
        env.playout(max_actions=int(rng.integers(1, 40)), seed=int(rng.integers(1 << 30)))
    elif k == 1:
        env.observe(int(rng.integers(env.num_players)), include_combat_preview=True)
    elif k == 2:
        play_turn(env, "greedy", seed=int(rng.integers(1 << 30)))
    elif k == 3:
        legal = env.legal_actions()
        try:
            env.step(int(legal[rng.integers(len(legal))]))
        except ValueError:
            pass  # another thread moved the game on between the two calls
    elif k == 4:
        env.visible_events_numpy(0, player=int(rng.integers(env.num_players)))
    else:
        env.clone().check_invariants()


def test_threads_hammering_one_game_env():
    env = GameEnv(seed=3, map_size=11)
    errors = []
    threads = [threading.Thread(target=hammer, args=(env, w, 400, errors)) for w in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    env.check_invariants()
