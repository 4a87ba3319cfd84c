"""The fog-safe event journal (issue 3): field-by-field scenario checks and a
random-simulation check that no journal reveals what the observer's own
observation could not show."""

import numpy as np
import pytest

import polyenv
from polyenv import GameEnv

F = {name: i for i, name in enumerate(polyenv.VISIBLE_EVENT_FEATURE_NAMES)}
A = {name: i for i, name in enumerate(polyenv.VISIBLE_EVENT_AFFECTED_FEATURE_NAMES)}
KIND = {name: i for i, name in enumerate(polyenv.ACTION_KINDS)}


def last_event(game, player):
    events, _ = game.visible_events_numpy(0, player)
    assert len(events["features"]) > 0, f"player {player} saw no event"
    return {k: v[-1] for k, v in events.items()}


def event_count(game, player):
    return game.visible_events_numpy(0, player)[1]


def duel(revealed=True):
    game = GameEnv.blank(8, ("Bardur", "Imperius"), revealed=revealed)
    game.place_city(0, (0, 0), capital=True)
    game.place_city(1, (7, 7), capital=True)
    return game


def test_feature_names_exported():
    assert len(polyenv.VISIBLE_EVENT_FEATURE_NAMES) == 26
    assert polyenv.VISIBLE_EVENT_FEATURE_NAMES[0] == "round"
    assert polyenv.VISIBLE_EVENT_FEATURE_NAMES[-1] == "source_unit_destroyed"
    assert polyenv.VISIBLE_EVENT_AFFECTED_FEATURE_NAMES == (
        "observed_unit_id", "tile_index", "unit_type", "damage", "hp_before", "hp_after", "destroyed", "splash")


def test_attack_seen_by_both_players():
    # RULES §14 #1: Warrior attacks Warrior: 10 -> 5 both ways.
    game = duel()
    game.place_unit(0, "warrior", (3, 3))
    game.place_unit(1, "warrior", (3, 4))
    game.step(game.action_id("attack", source=(3, 3), target=(3, 4)))
    mine, theirs = last_event(game, 0), last_event(game, 1)
    for e in (mine, theirs):
        f = e["features"]
        assert f[F["type_id"]] == KIND["attack"]
        assert f[F["source_index"]] == 3 * 8 + 3 and f[F["target_index"]] == 3 * 8 + 4
        assert (f[F["damage"]], f[F["hp_before"]], f[F["hp_after"]]) == (5, 10, 5)
        assert (f[F["source_unit_hp_before"]], f[F["source_unit_hp_after"]]) == (10, 5)
        assert (f[F["target_unit_hp_before"]], f[F["target_unit_hp_after"]]) == (10, 5)
        assert f[F["source_unit_type"]] == 0 and f[F["target_unit_type"]] == 0
        assert f[F["unit_destroyed"]] == 0 and f[F["source_unit_destroyed"]] == 0
        assert e["affected_mask"].tolist() == [1] + [0] * 8
        assert e["affected"][0][A["damage"]] == 5
    # The ownership code of the map tokens: 1 the observer itself, 2 the next player.
    assert mine["features"][F["actor_player"]] == 1
    assert theirs["features"][F["actor_player"]] == 2
    assert mine["action_sequence"] == theirs["action_sequence"]
    # Observed ids are per-observer aliases (numbered at first sight) and match observe().
    for e, p in ((mine, 0), (theirs, 1)):
        assert e["features"][F["source_observed_unit_id"]] == game.observe(p)["map_tokens"][3 * 8 + 3][21]
    tokens = game.observe(1)["map_tokens"]
    assert theirs["features"][F["target_observed_unit_id"]] == tokens[3 * 8 + 4][21]


def test_attack_from_fog_is_seen_by_the_victim_only_partially():
    # An Archer (range 2) shoots from a tile the victim has never explored.
    game = duel(revealed=False)
    game.reveal(0)
    game.reveal(1, [(3, 4), (3, 5), (2, 5), (4, 5)])
    game.place_unit(0, "archer", (3, 3))
    game.place_unit(1, "warrior", (3, 5))
    game.step(game.action_id("attack", source=(3, 3), target=(3, 5)))
    f = last_event(game, 1)["features"]
    assert f[F["type_id"]] == KIND["attack"]
    assert f[F["target_index"]] == 3 * 8 + 5 and f[F["damage"]] == 5
    for hidden in ("source_index", "source_unit_type", "source_observed_unit_id", "source_unit_hp_before",
                   "source_unit_hp_after", "actor_player", "actor_tribe"):
        assert f[F[hidden]] == -1, hidden
    full = last_event(game, 0)["features"]
    assert full[F["source_index"]] == 3 * 8 + 3 and full[F["actor_player"]] == 1


def test_hidden_action_is_not_in_the_journal():
    game = duel(revealed=False)
    game.reveal(0)
    game.place_unit(0, "warrior", (3, 3))
    before = event_count(game, 1)
    game.step(game.action_id("move", source=(3, 3), target=(3, 4)))
    assert event_count(game, 1) == before          # player 1 explored neither tile
    assert event_count(game, 0) == 1


def test_kill_event():
    # RULES §14 #4: Catapult at distance 3 kills a Warrior (12 dealt).
    game = duel()
    game.grant_tech(0, "mathematics")
    game.place_unit(0, "catapult", (2, 2))
    game.place_unit(1, "warrior", (2, 5))
    game.step(game.action_id("attack", source=(2, 2), target=(2, 5)))
    for p in (0, 1):
        e = last_event(game, p)
        f = e["features"]
        assert f[F["unit_destroyed"]] == 1 and f[F["hp_after"]] == 0 and f[F["damage"]] == 10
        assert f[F["flags"]] & 1                    # kill flag
        assert e["affected"][0][A["destroyed"]] == 1


def test_capture_event_respects_fog():
    game = duel(revealed=False)
    game.reveal(0)
    game.set_terrain((4, 4), "village")
    game.place_unit(0, "warrior", (4, 4))
    game.step(game.action_id("capture", source=(4, 4)))
    f = last_event(game, 0)["features"]
    assert f[F["type_id"]] == KIND["capture"] and f[F["source_index"]] == 4 * 8 + 4
    assert f[F["flags"]] & 8
    assert event_count(game, 1) == 0                # never explored the village


def test_city_upgrade_event():
    game = duel()
    game.place_city(0, (3, 3), level=1, population=1)
    game.set_resource((3, 4), "fruit")
    game.grant_tech(0, "organization")
    game.set_stars(0, 5)
    game.step(game.action_id("gather", target=(3, 4)))
    assert game.pending_level_up[0] == 3 * 8 + 3
    game.step(game.action_id("level_up", arg=0))
    for p in (0, 1):
        f = last_event(game, p)["features"]
        assert f[F["type_id"]] == KIND["level_up"]
        assert f[F["target_index"]] == 3 * 8 + 3
        assert f[F["flags"]] & 16


def test_cursor_and_sequences():
    game = duel()
    game.place_unit(0, "warrior", (3, 3))
    game.step(game.action_id("move", source=(3, 3), target=(3, 4)))
    game.step(0)
    events, cursor = game.visible_events_numpy(0, 0)
    assert cursor == len(events["features"]) == 2
    assert events["sequence"].tolist() == [1, 2]
    rest, again = game.visible_events_numpy(cursor, 0)
    assert len(rest["features"]) == 0 and again == cursor
    with pytest.raises(IndexError):
        game.visible_events_numpy(cursor + 1, 0)


@pytest.mark.parametrize("seed,players", [(1, 2), (2, 3), (3, 4)])
def test_journal_never_shows_unexplored_tiles(seed, players):
    tribes = [polyenv.Bardur, polyenv.Imperius, polyenv.Oumaji, polyenv.Kickoo][:players]
    game = GameEnv(seed=seed, map_size=12, players=tribes)
    rng = np.random.default_rng(seed)
    cursors = [0] * players
    for _ in range(600):
        if game.game_over:
            break
        legal = game.legal_actions()
        # The view BEFORE the action: a tile the action itself reveals must not pass.
        before = [game.observe(p, max_actions=1)["map_tokens"][:, 0] for p in range(players)]
        game.step(int(legal[rng.integers(len(legal))]))
        for p in range(players):
            events, cursors[p] = game.visible_events_numpy(cursors[p], p)
            explored = before[p]
            for f, aff, mask in zip(events["features"], events["affected"], events["affected_mask"]):
                if f[F["type_id"]] in (KIND["declare_war"], KIND["send_stars"]):  # public, no tile
                    assert f[F["source_index"]] == -1 and 1 <= f[F["target_index"]] <= players
                    continue
                for col in ("source_index", "target_index"):
                    tile = f[F[col]]
                    assert tile == -1 or explored[tile] == 1, (p, col, tile)
                if f[F["source_index"]] == -1:
                    assert f[F["source_observed_unit_id"]] == -1 and f[F["source_unit_type"]] == -1
                if f[F["target_index"]] == -1:
                    assert f[F["target_observed_unit_id"]] == -1 and f[F["damage"]] == -1
                for row in aff[mask == 1]:
                    assert explored[row[A["tile_index"]]] == 1


def test_destroyed_unit_keeps_its_observed_id_in_the_event():
    # Observed ids are per observer and given at first sight; a unit the action destroys keeps the
    # id each observer knew it by.
    game = duel()
    game.place_unit(1, "rider", (3, 5))
    game.place_unit(0, "catapult", (3, 3))
    game.place_unit(1, "warrior", (3, 4), hp=1)
    known = [game.observe(p)["map_tokens"][3 * 8 + 4][21] for p in (0, 1)]
    assert known == [3, 3]   # both saw the rider (1), the catapult (2), then the warrior (3)
    game.step(game.action_id("attack", source=(3, 3), target=(3, 4)))
    for p in (0, 1):
        f = last_event(game, p)["features"]
        assert f[F["unit_destroyed"]] == 1
        assert f[F["target_observed_unit_id"]] == known[p]
