"""Classification of a difference: a documented polyenv choice, a documented Java artefact, a random event
the two engines draw differently (the game is stopped there and counted), or unexplained.

Every rule here is narrow: it looks at the action that caused the difference, the Java state before it and
the differing field, so an unrelated bug that happens to touch the same field in another way stays
unexplained.
"""

from __future__ import annotations

from ..._names import TECHS

TEMPLES = {"TEMPLE", "WATER_TEMPLE", "FOREST_TEMPLE", "MOUNTAIN_TEMPLE"}
MONUMENTS = {"ALTAR_OF_PEACE", "EMPERORS_TOMB", "EYE_OF_GOD", "GATE_OF_POWER", "GRAND_BAZAR", "PARK_OF_FORTUNE",
             "TOWER_OF_WISDOM"}
WATER = (1, 2)  # Types.TERRAIN ordinals of shallow and deep water
CITY = 5

# Category -> README wording (docs/differential.md lists them with counts).
DELIBERATE_TEMPLE_DESTROY = "deliberate: destroying a temple removes its points"
DELIBERATE_CAPTURE_POINTS = "deliberate: a captured temple or monument moves no extra points"
DELIBERATE_RUINS_WATER = "deliberate: ruins Battleship on water (10/10 HP, boats never stack)"
DELIBERATE_ELIMINATED_RANK = "deliberate: an eliminated tribe ranks below every surviving one"
JAVA_PATHFINDER = "java artefact: pathfinder reach depends on visiting order"
RANDOM_REHOME = "random event: re-homing after a capture (Java's draw imposed)"
JAVA_CONVERT_DIPLOMACY = "java artefact: Convert updates diplomacy after the unit changed sides"
JAVA_CAPTURE_BONUS = "java artefact: capture re-applies adjacency bonuses of the captured city"
JAVA_STICKY_BONUS = "java artefact: adjacency bonus paid to an earlier neighbour's city"
JAVA_ONE_SIDED_MEETING = "java artefact: a tribe coming into view is not met back (fog)"
JAVA_SELF_ALLEGIANCE = "java artefact: a tribe's allegiance with itself (left by Convert) joins the knock-on"
MATCHING = {"PORT": "CUSTOMS_HOUSE", "FARM": "WINDMILL", "MINE": "FORGE", "LUMBER_HUT": "SAWMILL",
            "CUSTOMS_HOUSE": "PORT", "WINDMILL": "FARM", "FORGE": "MINE", "SAWMILL": "LUMBER_HUT"}
_JAVA_NAME = {"grand_bazaar": "GRAND_BAZAR"}


def _sticky_bonus(before: dict, act: tuple) -> bool:
    """Tribes' City.applyBonus keeps `cityToAddTo` across neighbours: once a matching building of another
    city of the tribe is met (neighbours in x-major order), every later matching building's bonus, the
    builder city's own included, is paid to that other city. A Destroy takes the bonuses back the same way
    (City.removeBuilding runs applyBonus with the multiplier -1)."""
    n = int(len(before["terrain"]) ** 0.5)
    tile = act[2]
    built = before["building"][tile] if act[0] == "destroy" else _JAVA_NAME.get(act[3], act[3].upper())
    match = MATCHING.get(built)
    if match is None:
        return False
    home = before["territory"][tile]
    owner = {c[0]: c[1] for c in before["cities"]}
    me = owner.get(home)
    x0, y0 = divmod(tile, n)
    sticky = False
    for x in range(x0 - 1, x0 + 2):
        for y in range(y0 - 1, y0 + 2):
            if (x, y) == (x0, y0) or not (0 <= x < n and 0 <= y < n) or before["building"][x * n + y] != match:
                continue
            city = before["territory"][x * n + y]
            if city == home:
                if sticky:
                    return True
            elif owner.get(city) == me:
                sticky = True
            else:
                return False  # Tribes stops at another tribe's building, as polyenv does
    return False


def _score_field(field: str) -> bool:
    return field.endswith(".score") or field.endswith(".worth")


def _rehome_is_random(before: dict, act: tuple) -> bool:
    """Whether Java's Board.capture drew from its Random (Collections.shuffle) for this capture."""
    tile = act[1]
    me = before["active"]
    cities = {c[0]: c for c in before["cities"]}

    def holds_capital_with(tribe: int, pred) -> bool:
        cap = before["tribes"][tribe]["capital"]
        return cap in cities and cities[cap][1] == tribe and pred(cities[cap])

    if not holds_capital_with(me, lambda c: c[9] > 0):
        return True  # the captor's donor city is drawn at random
    if before["terrain"][tile] == CITY and tile in cities:
        captured = cities[tile]
        loser, n = captured[1], captured[9]
        # the loser's units go to its capital while it has room, the rest to shuffled cities
        return n > 0 and not holds_capital_with(loser, lambda c: c[2] + 1 - c[9] >= n and c[0] != tile)
    return False


def _has_matching_pair(before: dict, city: int) -> bool:
    """Whether the territory of `city` holds a building next to its matching one (Farm-Windmill, ...).

    Tribes' Tribe.capturedCity re-applies the bonuses of every building of the captured city (both the base
    and the bonus side of each pair), while lostCity takes back only the base side: each pair adds population
    on a capture. RULES §8.4 only says building effects are recomputed for both tribes."""
    n = int(len(before["terrain"]) ** 0.5)
    for t, (b, owner) in enumerate(zip(before["building"], before["territory"])):
        if owner != city or b not in MATCHING:
            continue
        x0, y0 = divmod(t, n)
        for x in range(max(x0 - 1, 0), min(x0 + 2, n)):
            for y in range(max(y0 - 1, 0), min(y0 + 2, n)):
                if (x, y) != (x0, y0) and before["building"][x * n + y] == MATCHING[b]:
                    return True
    return False


def _eliminated_ranked_first(d: dict, before: dict, act: tuple) -> bool:
    """The End Turn that ends a game by the ranking (§12.2), where Tribes' winner is a tribe eliminated earlier
    and polyenv's the surviving tribe Tribes would rank first among the survivors.

    Tribes' TribeResult.compareTo ranks WIN first and then by score, so an eliminated tribe (LOSS) ties with
    the surviving ones (INCOMPLETE) and can win on score; polyenv ranks it below every surviving tribe."""
    if act[0] != "end_turn" or d["field"] != "winner":
        return False
    jw, pw = d["java"], d["polyenv"]
    tribes = before["tribes"]
    if not (isinstance(jw, int) and isinstance(pw, int) and 0 <= jw < len(tribes) and 0 <= pw < len(tribes)):
        return False
    surviving = [t for t in tribes if t["cities"] > 0]
    return tribes[jw]["cities"] == 0 and tribes[pw]["cities"] > 0 \
        and tribes[jw]["score"] >= max(t["score"] for t in tribes) \
        and tribes[pw]["score"] >= max(t["score"] for t in surviving)


def _one_sided_meeting(d: dict, before: dict, after: dict | None) -> bool:
    """Tribes' Tribe.clearView means a tribe whose unit comes into another tribe's view to be met by it too
    ("other tribe meets this tribe if moving into visible area"), but calls meetTribe on the moving tribe
    itself with its own id, which does nothing: only the moving tribe meets. polyenv's other tribe meets it
    (RULES §6: the first time a tribe sees another tribe's unit or city) and draws a tech from it. The rule
    matches only a tribe q other than the acting tribe A that had not met A: its met list gaining exactly A,
    or its techs gaining exactly one tech that A has (before the action, or after it in Java: A may itself
    have drawn it from a third tribe met by the same move)."""
    field = d["field"]
    if not field.startswith("player[") or not before.get("fog"):
        return False
    q, mover = int(field[7:field.index("]")]), before["active"]
    if q == mover or mover in before["tribes"][q]["met"]:
        return False
    jv, pv = set(d["java"]), set(d["polyenv"])
    if field.endswith(".met"):
        return pv == jv | {mover} and mover not in jv
    if field.endswith(".techs"):
        extra = pv - jv
        if not (jv < pv and len(extra) == 1):
            return False
        techs = before["tribes"][mover]["techs"] | (after["tribes"][mover]["techs"] if after else 0)
        return (techs >> TECHS.index(extra.pop())) & 1 == 1
    return False


def _self_allegiance_knock_on(d: dict, before: dict) -> bool:
    """Tribes' Diplomacy.checkConsequences passes the knock-on of an allegiance change to every tribe i with
    a negative allegiance towards the target, i != the initiator, without excluding the target itself; its
    allegiance with itself is 0 until Convert's artefact (JAVA_CONVERT_DIPLOMACY) lowers it, after which the
    target's allegiance with the initiator moves too. The rule matches an allegiance field whose differing
    pairs each involve a tribe with a negative allegiance with itself."""
    field = d["field"]
    if not (field.startswith("player[") and field.endswith(".allegiance")):
        return False
    tribes = before["tribes"]
    p = int(field[7:field.index("]")])
    selfish = {t for t, tr in enumerate(tribes) if tr["allegiance"][t] < 0}
    others = [q for q in range(len(tribes)) if q != p]
    pairs = [q for q, a, b in zip(others, d["java"], d["polyenv"]) if a != b]
    return bool(pairs) and all(p in selfish or q in selfish for q in pairs)


def classify(d: dict, before: dict, act: tuple | None, true_moves_match: bool, after: dict | None = None) -> str:
    """Category of difference ``d`` (field, java, polyenv) caused by action ``act`` played on Java state ``before``
    (``after``: Java's state after it, when known)."""
    field = d["field"]
    if field == "legal_actions" and true_moves_match:
        return JAVA_PATHFINDER
    if act is None:
        return "unexplained: initial state"
    kind, src, tgt = act[0], act[1], act[2]
    if _one_sided_meeting(d, before, after):
        return JAVA_ONE_SIDED_MEETING
    if _eliminated_ranked_first(d, before, act):
        return DELIBERATE_ELIMINATED_RANK
    if kind == "destroy" and before["building"][tgt] in TEMPLES and _score_field(field):
        return DELIBERATE_TEMPLE_DESTROY
    if kind == "capture" and before["terrain"][src] == CITY and _score_field(field):
        inside = [b for b, owner in zip(before["building"], before["territory"]) if owner == src]
        if any(b in TEMPLES or b in MONUMENTS for b in inside):
            return DELIBERATE_CAPTURE_POINTS
    if _self_allegiance_knock_on(d, before):
        return JAVA_SELF_ALLEGIANCE
    if kind == "convert" and field.endswith(".allegiance"):
        # ConvertCommand sets the target's tribe first, so updateAllegiance(-5) and its knock-on act on the
        # converter with itself: nothing changes between the two tribes (RULES §10 says convert -5).
        return JAVA_CONVERT_DIPLOMACY
    if kind in ("build", "destroy") and _sticky_bonus(before, act) \
            and (field.endswith(".population") or field.endswith(".production") or _score_field(field)):
        # population and score for Windmill, Sawmill, Forge; production for a Customs House's ports
        return JAVA_STICKY_BONUS
    if kind == "capture" and before["terrain"][src] == CITY and _has_matching_pair(before, src) \
            and (field.endswith(".population") or field.endswith(".production") or _score_field(field)):
        return JAVA_CAPTURE_BONUS
    if kind == "examine" and before["terrain"][src] in WATER:
        return DELIBERATE_RUINS_WATER
    if kind == "capture" and (field.endswith(".home_city") or field.endswith(".supported")) \
            and _rehome_is_random(before, act):
        return RANDOM_REHOME
    return "unexplained: " + (field.split("@")[0].split("[")[0] if "." in field else field)
