"""Declaring war and sending stars are public events (RULES §10; Tribes gives every player the whole
diplomacy table and every tribe's war and star-sending counts): every player's journal records them,
with the target player (``target_index``: its ownership code from the observer, as ``actor_player``)
and, for send_stars, the number of stars (``damage``). They reach the target — whose stars otherwise
change silently —, the sender and every third party; the vector env's event window and SelfPlayPool's
visible history carry them too, and they are fog-safe: worlds that differ only in what a player
cannot see give it identical events."""
import numpy as np
import pytest

import polyenv
from polyenv import Bardur, GameEnv, Imperius, Oumaji, SelfPlayPool, VectorGameEnv

from fog_pairs import assert_same_view, channels

F = {name: i for i, name in enumerate(polyenv.VISIBLE_EVENT_FEATURE_NAMES)}
H = {name: i for i, name in enumerate(polyenv.VISIBLE_ACTION_HISTORY_FEATURE_NAMES)}
KIND = {name: i for i, name in enumerate(polyenv.ACTION_KINDS)}
DIPLOMACY = (KIND["declare_war"], KIND["send_stars"])


def code(observer, player, players=3):
    """The ownership code of ``player`` seen from ``observer``: 1 itself, 2.. the others in turn order."""
    return (player - observer) % players + 1


def three(revealed=False):
    """A blank 11x11 board, three capitals far apart; nobody sees anyone else's corner."""
    env = GameEnv.blank(11, (Bardur, Imperius, Oumaji), revealed=revealed)
    for p, t in enumerate((1 * 11 + 1, 9 * 11 + 9, 1 * 11 + 9)):
        env.place_city(p, t, capital=True)
        if not revealed:
            env.reveal(p, [t])
        env.set_stars(p, 40)
    return env


def events_of(env, player):
    return env.visible_events_numpy(0, player=player)[0]


def last(env, player):
    events = events_of(env, player)
    assert len(events["features"]), f"player {player} saw no event"
    return events["features"][-1]


def expected_row(kind, actor, target, observer, amount=None, round_=1, turn=0):
    row = np.full(26, -1, np.int32)
    row[F["round"]], row[F["turn"]], row[F["type_id"]], row[F["flags"]] = round_, turn, KIND[kind], 0
    row[F["actor_player"]], row[F["target_index"]] = code(observer, actor), code(observer, target)
    row[F["actor_tribe"]] = (Bardur, Imperius, Oumaji)[actor]
    if amount is not None:
        row[F["damage"]] = amount
    return row


@pytest.mark.parametrize("observer", [0, 1, 2])
def test_a_war_declaration_reaches_the_sender_the_target_and_third_parties(observer):
    env = three()
    before = [env.visible_events_numpy(0, player=p)[1] for p in range(3)]
    env.step(env.action_id("declare_war", target=1))  # player 0 on player 1
    assert env.visible_events_numpy(0, player=observer)[1] == before[observer] + 1
    got = last(env, observer)
    want = expected_row("declare_war", 0, 1, observer, round_=got[F["round"]], turn=got[F["turn"]])
    assert got.tolist() == want.tolist()
    affected = events_of(env, observer)["affected_mask"][-1]
    assert not affected.any()


@pytest.mark.parametrize("observer", [0, 1, 2])
def test_stars_sent_reach_every_player_with_the_amount(observer):
    env = three()
    stars_before = env.stars(2)
    env.step(env.action_id("send_stars", target=2, arg=6))  # player 0 sends 6 stars to player 2
    assert env.stars(2) == stars_before + 6
    got = last(env, observer)
    want = expected_row("send_stars", 0, 2, observer, amount=6, round_=got[F["round"]], turn=got[F["turn"]])
    assert got.tolist() == want.tolist()


def test_the_target_sees_what_changed_its_stars_in_its_own_sequence():
    env = three()
    env.step(env.action_id("send_stars", target=1, arg=3))
    env.step(env.action_id("send_stars", target=1, arg=2))
    events = events_of(env, 1)
    sent = events["features"][events["features"][:, F["type_id"]] == KIND["send_stars"]]
    assert sent[:, F["damage"]].tolist() == [3, 2]
    assert (sent[:, F["target_index"]] == 1).all() and (sent[:, F["actor_player"]] == code(1, 0)).all()
    assert events["sequence"].tolist() == list(range(1, len(events["sequence"]) + 1))


def hidden_pair():
    """Two worlds that differ only in what players 0 and 2 cannot see (player 1's hidden corner)."""
    a, b = three(), three()
    b.place_unit(1, "warrior", 8 * 11 + 8)
    b.set_terrain(7 * 11 + 9, "forest")
    b.set_stars(1, 33)
    return a, b


@pytest.mark.parametrize("observer", [0, 2])
def test_diplomacy_events_are_fog_safe(observer):
    a, b = hidden_pair()
    for env in (a, b):
        env.step(env.action_id("declare_war", target=1))   # 0 on 1
        env.step(env.action_id("send_stars", target=2, arg=4))  # 0 to 2
        env.step(env.action_id("end_turn"))
        env.step(env.action_id("send_stars", target=2, arg=5))  # 1 to 0 (relative 2 = player 0)
        env.step(env.action_id("declare_war", target=1))   # 1 on 2
    assert_same_view(a, b, player=observer)  # every channel: observation, events, renders
    ca, cb = channels(a, 1), channels(b, 1)    # the pair really differs (for the player who sees it)
    assert any(not np.array_equal(ca[k], cb[k]) for k in ca)
    ea = events_of(a, observer)
    kinds = ea["features"][:, F["type_id"]].tolist()
    assert sum(k in DIPLOMACY for k in kinds) == 4


def test_vector_env_windows_show_diplomacy_to_players_who_did_not_act():
    """Random 3-player self-play: the rows of players who neither sent nor declared show those events."""
    with VectorGameEnv(8, seed=2, map_size=8, players=(Bardur, Imperius, Oumaji), max_turns=3,
                       visible_event_history=32, max_actions=512) as env:
        batch = env.reset(seed=2)
        rng = np.random.default_rng(0)
        seen_by_others = 0
        for _ in range(150):
            counts = batch["legal_action_count"]
            rows = (rng.random(len(counts)) * counts).astype(np.int64)
            batch = env.step(batch["action_id"][np.arange(len(counts)), rows].astype(np.int32))
            f, m = batch["visible_event_features"], batch["visible_event_mask"].astype(bool)
            diplomacy = m & np.isin(f[..., F["type_id"]], DIPLOMACY)
            seen_by_others += int((diplomacy & (f[..., F["actor_player"]] != 1)).sum())
            assert (f[..., F["target_index"]][diplomacy] >= 1).all()
            assert (f[..., F["source_index"]][diplomacy] == -1).all()
        assert seen_by_others > 0


def test_selfplay_history_rows_of_diplomacy():
    with SelfPlayPool(1, seed=3, map_size=8, players=(Bardur, Imperius, Oumaji), max_actions=0,
                      visible_action_history=8) as pool:
        req = pool.reset(seed=3)
        actor = int(req["to_play"][0])
        env = GameEnv(seed=3, map_size=8, players=(Bardur, Imperius, Oumaji))
        for kind, kw in (("send_stars", dict(target=1, arg=2)), ("declare_war", dict(target=2))):
            a = env.action_id(kind, **kw)
            env.step(a)
            req = pool.step_checked(np.array([a], np.int32), req["state_id"])
        allp = pool.all_player_belief_requests()
        target_star, target_war = (actor + 1) % 3, (actor + 2) % 3
        for p in range(3):
            n = int(allp["visible_action_history_length"][0, p])
            rows = allp["visible_action_history"][0, p, 8 - n:]
            rows = rows[np.isin(rows[:, H["event_type"]], DIPLOMACY)]
            assert rows[:, H["event_type"]].tolist() == [KIND["send_stars"], KIND["declare_war"]], p
            assert (rows[:, H["actor_player"]] == code(p, actor)).all()
            assert rows[:, H["target_index"]].tolist() == [code(p, target_star), code(p, target_war)]
            assert rows[:, H["source_index"]].tolist() == [-1, -1]
            assert rows[0, H["detail_value"]] == 2 and rows[1, H["detail_value"]] == -1
            own = 1 if p == actor else 0
            assert (rows[:, H["visibility_flags"]] == own).all()
