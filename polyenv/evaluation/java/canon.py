"""Neutral forms of actions and states, shared by both engines (no Java needed).

An action is a tuple ``(kind, source, target, arg, amount)`` in polyenv's vocabulary (kind names of
``polyenv.ACTION_KINDS``); tiles are ``x * N + y``; ``arg`` is a tech / unit type / building / reward
name or an absolute player index. Actions are matched between the engines by this tuple, never by id.
A state is a flat dict ``field -> value`` whose keys name the first differing field in a report.
"""

from __future__ import annotations

from polyenv import BUILDINGS, LEVEL_UP_REWARDS, RESOURCES, TECHS, TERRAINS, UNIT_STATUSES, UNIT_TYPES

# Java Types.ACTION name -> polyenv kind.
JAVA_KINDS = {
    "BUILD": "build", "BURN_FOREST": "burn_forest", "CLEAR_FOREST": "clear_forest", "DESTROY": "destroy",
    "GROW_FOREST": "grow_forest", "LEVEL_UP": "level_up", "RESOURCE_GATHERING": "gather", "SPAWN": "spawn",
    "BUILD_ROAD": "build_road", "END_TURN": "end_turn", "RESEARCH_TECH": "research", "DECLARE_WAR": "declare_war",
    "SEND_STARS": "send_stars", "ATTACK": "attack", "CAPTURE": "capture", "CONVERT": "convert", "DISBAND": "disband",
    "EXAMINE": "examine", "HEAL_OTHERS": "heal_others", "MAKE_VETERAN": "make_veteran", "MOVE": "move",
    "RECOVER": "recover", "UPGRADE_BOAT": "upgrade", "UPGRADE_SHIP": "upgrade",
}
_TILE_ACTIONS = ("gather", "clear_forest", "burn_forest", "grow_forest", "destroy")
_UNIT_SELF = ("capture", "recover", "disband", "examine", "heal_others", "make_veteran", "upgrade")
# Java enums that share polyenv's order: TECHNOLOGY, UNIT, TURN_STATUS, CITY_LEVEL_UP, TERRAIN; RESOURCE by key.
_JAVA_BUILDING = {b.upper(): b for b in BUILDINGS}
_JAVA_BUILDING["GRAND_BAZAR"] = "grand_bazaar"


def building_from_java(name: str) -> str | None:
    """polyenv building name of a Java ``Types.BUILDING`` name ('' = none)."""
    return _JAVA_BUILDING[name] if name else None


def java_action(a: list) -> tuple:
    """Neutral form of one action as the Java driver lists it: [KIND, source, target, arg, amount]."""
    kind, src, tgt, arg, amount = a
    k = JAVA_KINDS[kind]
    if k == "research":
        return (k, -1, -1, TECHS[arg], 0)
    if k in ("declare_war", "send_stars"):
        return (k, -1, -1, arg, amount)
    if k == "level_up":
        return (k, src, -1, LEVEL_UP_REWARDS[arg], 0)
    if k == "spawn":
        return (k, src, -1, UNIT_TYPES[arg], 0)
    if k == "build":  # the city is implied by the tile's territory
        return (k, -1, tgt, building_from_java(arg), 0)
    if k in _TILE_ACTIONS:
        return (k, -1, tgt, None, 0)
    if k == "build_road":
        return (k, -1, tgt, None, 0)
    if k in ("attack", "convert", "move"):
        return (k, src, tgt, None, 0)
    if k in _UNIT_SELF:
        return (k, src, -1, None, 0)
    return (k, -1, -1, None, 0)  # end_turn


def polyenv_action(decoded: dict, kind: str, current: int, players: int, pending: tuple | None) -> tuple:
    """Neutral form of a polyenv action id, from ``decode_action`` and the kind word of ``describe_action``.

    ``pending`` is ``GameEnv.pending_level_up`` (city tile, reward A, reward B) when a level-up is pending.
    """
    block, src, tgt, arg, amount = (decoded[k] for k in ("block", "source", "target", "arg", "amount"))
    if block == 0:
        return ("end_turn", -1, -1, None, 0)
    if block == 1:
        return ("research", -1, -1, TECHS[arg], 0)
    if block == 2:
        return ("level_up", pending[0], -1, pending[1 + arg], 0)
    if block in (3, 4):
        return (kind, -1, -1, (current + arg) % players, amount)
    if block == 5:
        return ("build_road", -1, tgt, None, 0)
    if block == 6:
        return ("spawn", src, -1, UNIT_TYPES[arg], 0)
    if block == 7:
        return ("build", -1, tgt, BUILDINGS[arg], 0)
    if block == 8:
        return (_TILE_ACTIONS[arg], -1, tgt, None, 0)
    if block == 9:
        return (_UNIT_SELF[arg], src, -1, None, 0)
    if block == 10:
        return (kind, src, tgt, None, 0)
    return ("move", src, tgt, None, 0)


def polyenv_actions(env) -> dict:
    """Neutral form -> action id for every legal action of a polyenv ``GameEnv``."""
    cur, players = env.current_player, env.num_players
    pending = env.pending_level_up
    game = env._game  # the ids come from legal_actions(): no argument checks needed
    out = {}
    for i in env.legal_actions().tolist():
        block, source, target, arg, amount = game.decode_action(i)
        decoded = dict(block=block, source=source, target=target, arg=arg, amount=amount)
        kind = game.describe_action(i).split(" ", 1)[0] if block in (3, 4, 10) else None
        out[polyenv_action(decoded, kind, cur, players, pending)] = i
    return out


def _techs(mask: int) -> tuple:
    return tuple(t for i, t in enumerate(TECHS) if (mask >> i) & 1)


_RESULTS = {"INCOMPLETE": "playing", "WIN": "win", "LOSS": "loss"}


def java_state(j: dict) -> dict:
    """Flat state from one Java driver report."""
    s = {"turn": j["tick"], "current_player": j["active"], "game_over": j["over"], "winner": j["winner"]}
    for p, t in enumerate(j["tribes"]):
        pre = f"player[{p}]."
        s[pre + "stars"] = t["stars"]
        s[pre + "score"] = t["score"]
        s[pre + "techs"] = _techs(t["techs"])
        s[pre + "kills"] = t["kills"]
        s[pre + "num_cities"] = t["cities"]
        s[pre + "result"] = _RESULTS[t["result"]]
        s[pre + "wars_declared"] = t["wars"]
        s[pre + "stars_sent"] = t["sent"]
        s[pre + "monuments_available"] = tuple(sorted(building_from_java(m) for m in t["monuments"]))
        s[pre + "allegiance"] = tuple(a for q, a in enumerate(t["allegiance"]) if q != p)  # not with itself
        if j["fog"]:  # Tribes lists a tribe as met by itself when its own unit is in view: not a meeting
            s[pre + "met"] = tuple(sorted(q for q in set(t["met"]) if q != p))
    for tile, owner, ty, hp, mhp, status, kills, vet, home, carried in j["units"]:
        pre = f"unit@{tile}."
        s[pre + "owner"] = owner
        s[pre + "type"] = UNIT_TYPES[ty]
        s[pre + "hp"] = hp
        s[pre + "max_hp"] = mhp
        s[pre + "status"] = UNIT_STATUSES[status]
        s[pre + "kills"] = kills
        s[pre + "veteran"] = bool(vet)
        s[pre + "home_city"] = home
        s[pre + "carried"] = UNIT_TYPES[carried] if carried >= 0 else None
    for tile, owner, level, pop, prod, cap, walls, bound, worth, supported in j["cities"]:
        pre = f"city@{tile}."
        s[pre + "owner"] = owner
        s[pre + "level"] = level
        s[pre + "population"] = pop
        s[pre + "production"] = prod
        s[pre + "capital"] = bool(cap)
        s[pre + "walls"] = bool(walls)
        s[pre + "bound"] = bound
        s[pre + "worth"] = worth
        s[pre + "supported"] = supported
    for t in range(len(j["terrain"])):
        pre = f"tile@{t}."
        s[pre + "terrain"] = TERRAINS[j["terrain"][t]]
        r = j["resource"][t]
        s[pre + "resource"] = RESOURCES[r] if r >= 0 else None
        s[pre + "building"] = building_from_java(j["building"][t])
        s[pre + "road"] = bool(j["road"][t])
        s[pre + "territory"] = j["territory"][t]
        if j["fog"]:
            s[pre + "explored"] = tuple(p for p, tr in enumerate(j["tribes"]) if tr["explored"][t] == "1")
    return s


def polyenv_state(env) -> dict:
    """The same flat state read from a polyenv ``GameEnv``."""
    s = {"turn": env.turn, "current_player": env.current_player, "game_over": env.game_over,
         "winner": env.winner if env.game_over else -1}
    fog = not env.full_observability
    for p in range(env.num_players):
        d = env.player(p)
        pre = f"player[{p}]."
        for k in ("stars", "score", "kills", "num_cities", "result", "wars_declared", "stars_sent"):
            s[pre + k] = d[k]
        s[pre + "techs"] = tuple(t for t in TECHS if t in d["techs"])
        s[pre + "monuments_available"] = tuple(sorted(d["monuments_available"]))
        s[pre + "allegiance"] = tuple(a for q, a in enumerate(d["allegiance"]) if q != p)
        if fog:
            s[pre + "met"] = tuple(sorted(d["met"]))
    units, cities = [], []
    game = env._game  # every tile index is in range: no argument checks needed
    for t in range(env.map_size * env.map_size):
        d = game.tile(t)
        pre = f"tile@{t}."
        s[pre + "terrain"] = d["terrain"]
        s[pre + "resource"] = d["resource"]
        s[pre + "building"] = d["building"]
        # RULES §6: "A 'road' is a network tile that is neither water nor a city" (Tribes' Board.isRoad);
        # polyenv keeps the flag of a road built on a village that later became a city.
        s[pre + "road"] = d["road"] and d["terrain"] not in ("city", "shallow_water", "deep_water")
        s[pre + "territory"] = -1 if d["city"] is None or d["city"] < 0 else d["city"]
        if fog:
            s[pre + "explored"] = tuple(p for p, seen in enumerate(d["explored"]) if seen)
        u = game.unit_at(t)
        if u is not None:
            units.append((t, u))
        if d["terrain"] == "city":
            c = game.city_at(t)
            if c is not None:
                cities.append((t, c))
    for t, u in units:
        pre = f"unit@{t}."
        for k in ("owner", "type", "hp", "max_hp", "status", "kills", "veteran", "carried"):
            s[pre + k] = u[k]
        s[pre + "home_city"] = -1 if u["home_city"] is None else u["home_city"]
    for t, c in cities:
        pre = f"city@{t}."
        for k in ("owner", "level", "population", "production", "capital", "walls", "bound", "worth", "supported"):
            s[pre + k] = c[k]
    return s


def first_difference(a: dict, b: dict) -> tuple | None:
    """(field, java value, polyenv value) of the first differing field, in Java's key order, or None."""
    if a == b:
        return None
    for k, v in a.items():
        if b.get(k, "<absent>") != v:
            return (k, v, b.get(k, "<absent>"))
    for k, v in b.items():
        if k not in a:
            return (k, "<absent>", v)
    return None
