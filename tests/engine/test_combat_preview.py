"""The combat preview (``GameEnv.combat_preview`` and the ``damage_dealt`` /
``damage_received`` action features) against the real attack: over many random
positions, every legal attack is previewed, then applied on a clone, and the
hp of both units afterwards must be exactly what the preview said (issue 10)."""
import numpy as np
import pytest

import polyenv
from polyenv import GameEnv

ATTACK = polyenv.ACTION_KINDS.index("attack")
F = {name: i for i, name in enumerate(polyenv.ACTION_FEATURE_NAMES)}


def check_attack(env, row):
    src, tgt = int(row[F["source_index"]]), int(row[F["target_index"]])
    preview = env.combat_preview(src, tgt)
    assert (row[F["damage_dealt"]], row[F["damage_received"]]) == (preview["dealt"], preview["retaliation"])
    attacker, defender = env.unit_at(src), env.unit_at(tgt)
    after = env.clone()
    after.step(env.action_id("attack", source=src, target=tgt))
    if preview["kills"]:
        assert defender["hp"] - preview["dealt"] <= 0
        moved_in = after.unit_at(tgt)
        assert moved_in is None or moved_in["owner"] == attacker["owner"]
        survivor = moved_in if moved_in is not None else after.unit_at(src)
        assert survivor["hp"] == attacker["hp"]  # no retaliation from a dead unit
        return
    assert after.unit_at(tgt)["hp"] == defender["hp"] - preview["dealt"]
    left = after.unit_at(src)
    if not preview["counter"]:
        assert left["hp"] == attacker["hp"]
    elif attacker["hp"] - preview["retaliation"] <= 0:
        assert left is None
    else:
        assert left["hp"] == attacker["hp"] - preview["retaliation"]


@pytest.mark.parametrize("seed,size,players", [(1, 8, 2), (2, 10, 3), (3, 11, 4), (4, 12, 2)])
def test_preview_matches_the_real_attack(seed, size, players):
    rng = np.random.default_rng(seed)
    env = GameEnv(seed=seed, map_size=size, players=polyenv.TRIBES[:players], full_observability=seed % 2 == 0)
    checked = 0
    for _ in range(20000):
        if env.game_over:
            env.reset(seed=int(rng.integers(1 << 30)))
        o = env.observe(include_combat_preview=True)
        rows = o["action_features"][: o["legal_action_count"]]
        attacks = rows[rows[:, F["type_id"]] == ATTACK]
        for row in attacks:
            check_attack(env, row)
        checked += len(attacks)
        ids = o["action_id"][: o["legal_action_count"]]
        # Prefer fights: an attack half of the time when one is legal.
        attack_ids = ids[rows[:, F["type_id"]] == ATTACK]
        pick = attack_ids if len(attack_ids) and rng.random() < 0.5 else ids
        env.step(int(pick[rng.integers(len(pick))]))
        if checked >= 150:
            break
    assert checked >= 50
