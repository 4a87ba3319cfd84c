"""One game played in lockstep by polyenv and the Java Tribes engine, compared after every action.

Both engines load the same CSV level (polyenv with ``auto_end_turn=False``: End Turn is an explicit action in
both). :meth:`LockstepGame.check` compares the whole state (``canon``) and the two legal-action sets;
:meth:`LockstepGame.play` applies one action, in its neutral form ``(kind, source, target, arg, amount)``, to
both. The random draws are made by Java and imposed on polyenv through test-only hooks: a ruins outcome and
its tech (``polyenv._core._testing.force_ruins``), and with fog the tech each meeting drew and the explorer's steps
(``_testing.force_draws``).

A difference that ``known`` explains as a documented polyenv choice or Java artefact is *re-synchronised*
where the hooks allow it: polyenv is given Java's value of the fields the explanation covers
(``_testing.impose``: a score, techs or tribes met, a city's worth, population or production, a
unit's home city, an allegiance), or, for Java's pathfinder
artefact, the game goes on with the moves both engines have; an Examine on water whose Java draw is the
Giant can be taken back (see :meth:`LockstepGame.play`). It is counted in ``resynced`` and the game
continues. Anything else stops the game: ``check`` returns the difference.
"""

from __future__ import annotations

from collections import Counter

from ..._names import TECHS
from ...game_env import GameEnv
from . import canon, known
from ..._core import _testing

__all__ = ["LockstepGame", "RUINS", "ruins_outcome", "RESYNCED_FIELDS"]

#: The ruins outcomes by name, as the driver numbers them.
RUINS = {"giant": 0, "research": 1, "pop_growth": 2, "explorer": 3, "resources": 4}

# Category -> the field kinds (the part after the last '.') it may impose on polyenv.
_SCORE = {"score", "worth"}
#: Per known difference, the field kinds re-synchronisation may impose on polyenv (Java's value wins).
RESYNCED_FIELDS = {
    known.DELIBERATE_TEMPLE_DESTROY: _SCORE,
    known.DELIBERATE_CAPTURE_POINTS: _SCORE,
    known.JAVA_STICKY_BONUS: _SCORE | {"population", "production"},
    known.JAVA_CAPTURE_BONUS: _SCORE | {"population", "production"},
    known.JAVA_CONVERT_DIPLOMACY: {"allegiance"},
    known.JAVA_SELF_ALLEGIANCE: {"allegiance"},
    known.JAVA_ONE_SIDED_MEETING: {"met", "techs"},
    known.RANDOM_REHOME: {"home_city", "supported"},
}


def ruins_outcome(before: dict, after: dict, tile: int, player: int) -> tuple[str, int]:
    """The outcome Java drew for an Examine at ``tile``, read from its states before and after."""
    if after.get("explorer"):
        return "explorer", -1           # the fog build records the explorer's steps
    tb, ta = before["tribes"][player], after["tribes"][player]
    # A tech a meeting drew is not the ruins' (a Giant's push can reveal a tribe, and meeting it draws one).
    drawn = sum(1 << m[2] for m in after.get("meetings", ()) if m[0] == player and m[2] >= 0)
    new_techs = ta["techs"] & ~tb["techs"] & ~drawn
    if new_techs:
        return "research", (new_techs & -new_techs).bit_length() - 1
    if ta["stars"] == tb["stars"] + 10:
        return "resources", -1
    pop = {c[0]: c[3] for c in before["cities"]}
    if any(c[1] == player and c[3] == pop.get(c[0], 0) + 3 for c in after["cities"]):
        return "pop_growth", -1
    # A Giant appears on the tile and pushes the examiner (a Giant examiner too: compare counts, not types).
    mine = [sum(u[1] == player for u in s["units"]) for s in (before, after)]
    at = [next((u[1:5] + u[6:9] for u in s["units"] if u[0] == tile), None) for s in (before, after)]
    if mine[1] > mine[0] or at[1] != at[0]:
        return "giant", -1
    return "explorer", -1


def all_differences(a: dict, b: dict) -> list[tuple]:
    """(field, java value, polyenv value) of every differing field, in Java's key order."""
    out = [(k, v, b.get(k, "<absent>")) for k, v in a.items() if b.get(k, "<absent>") != v]
    return out + [(k, "<absent>", v) for k, v in b.items() if k not in a]


class LockstepGame:
    """A level loaded in a Java driver (``polyenv.evaluation.java.driver.Driver``) and in a polyenv ``GameEnv``.

    Args:
        driver: a driver serving this game (its build decides fog or full observability).
        csv: the level's CSV text; ``path``: the same level as a file the driver can read.
        mode: "capitals" or "score"; ``seed``: Java's game seed and polyenv's.
        fog: play with fog of war (the driver must be the fog build).
    """

    def __init__(self, driver, csv: str, path: str, mode: str, seed: int, fog: bool):
        self.driver = driver
        self.j = driver.load(path, mode, seed)
        if bool(self.j["fog"]) != bool(fog):
            raise ValueError(f"the Java driver is the {'fog' if self.j['fog'] else 'full'} build; this game needs "
                             f"the {'fog' if fog else 'full'} build")
        self.env = GameEnv(level=csv, players=None, mode=mode, full_observability=not fog, auto_end_turn=False,
                           seed=seed)
        self.mode, self.seed, self.fog, self.path = mode, seed, fog, path
        self.moves: list[tuple] = []
        self.java_indices: list[int] = []    # the Java action index of every move (to replay the game)
        self.before, self.last = self.j, None
        self.resynced: Counter = Counter()   # category -> re-synchronised differences
        self.jacts: dict = {}
        self.pacts: dict = {}
        self.legal: list[tuple] = []         # the actions both engines allow now, sorted

    @property
    def over(self) -> bool:
        """Whether the Java game has ended."""
        return bool(self.j["over"])

    def _difference(self, field, jv, pv, kind: str, category: str) -> dict:
        return {"mode": self.mode, "seed": self.seed, "fog": self.fog, "actions": list(self.moves), "field": field,
                "java": jv, "polyenv": pv, "kind": kind, "category": category}

    def _impose(self, field: str, value) -> bool:
        """Gives polyenv Java's ``value`` of ``field`` (a field of canon's flat state); False if no hook can."""
        game = self.env._game
        head, _, kind = field.rpartition(".")
        if kind == "score" and head.startswith("player["):
            _testing.impose(game, "score", int(head[7:-1]), int(value))
        elif kind in ("worth", "population", "production") and head.startswith("city@"):
            try:
                _testing.impose(game, kind, int(head[5:]), int(value))
            except ValueError:
                return False                             # a production no Workshop or Customs House pair count gives
        elif kind in ("met", "techs") and head.startswith("player["):
            bits = value if kind == "met" else [TECHS.index(t) for t in value]
            _testing.impose(game, kind, int(head[7:-1]), sum(1 << b for b in bits))
        elif kind == "home_city" and head.startswith("unit@"):
            _testing.impose(game, "home_city", int(head[5:]), int(value))
        elif kind == "supported" and head.startswith("city@"):
            pass                                         # follows the units' home cities (checked next pass)
        elif kind == "allegiance" and head.startswith("player["):
            p = int(head[7:-1])
            others = [q for q in range(self.env.num_players) if q != p]
            for q, v in zip(others, value):
                _testing.impose(game, "allegiance", p * self.env.num_players + q, int(v))
        else:
            return False
        return True

    def check(self, true_moves: bool = True) -> dict | None:
        """Compares both engines now; re-synchronises what ``known`` explains; returns the difference that
        stops the game, or None (then ``jacts``, ``pacts`` and ``legal`` describe the legal actions).

        ``true_moves``: ask the driver for its exact move search when the legal sets differ in moves only (to
        recognise Java's pathfinder artefact).
        """
        for _ in range(4):                               # imposing one field can move another (population)
            diffs = all_differences(canon.java_state(self.j), canon.polyenv_state(self.env))
            if not diffs:
                break
            if self.over and self.env.game_over:
                first = {"field": diffs[0][0], "java": diffs[0][1], "polyenv": diffs[0][2]}
                if known.classify(first, self.before, self.last, False, self.j) == known.DELIBERATE_ELIMINATED_RANK:
                    self.resynced[known.DELIBERATE_ELIMINATED_RANK] += 1  # the game is over in both: nothing follows
                    self.jacts = self.pacts = {}
                    self.legal = []
                    return None
            imposed = set()
            for field, jv, pv in diffs:
                cat = known.classify({"field": field, "java": jv, "polyenv": pv}, self.before, self.last, False,
                                     self.j)
                kind = field.rpartition(".")[2]
                if kind not in RESYNCED_FIELDS.get(cat, ()) or not self._impose(field, jv):
                    return self._difference(field, jv, pv, "state", cat)
                imposed.add(cat)
            for cat in imposed:
                self.resynced[cat] += 1
        else:
            field, jv, pv = diffs[0]
            return self._difference(field, jv, pv, "state", "unexplained: not re-synchronised by imposing it")
        self.jacts = {canon.java_action(a): i for i, a in enumerate(self.j["actions"])}
        self.pacts = canon.polyenv_actions(self.env) if not self.env.game_over else {}
        if self.jacts.keys() != self.pacts.keys():
            only_j = sorted(map(repr, self.jacts.keys() - self.pacts.keys()))
            only_p = sorted(map(repr, self.pacts.keys() - self.jacts.keys()))
            d = {"field": "legal_actions", "java": only_j[:5], "polyenv": only_p[:5]}
            cat = known.classify(d, self.before, self.last, true_moves and self._true_moves_match(), self.j)
            if cat != known.JAVA_PATHFINDER:
                return self._difference("legal_actions", only_j[:5], only_p[:5], "legal", cat)
            self.resynced[cat] += 1                      # go on with the moves both engines allow
        self.legal = sorted(self.jacts.keys() & self.pacts.keys())
        return None

    def _true_moves_match(self) -> bool:
        """True if the legal sets differ only in moves and polyenv's moves are exactly those of an exact
        shortest-path search over Java's own step costs (so the difference is Java's visiting-order artefact)."""
        diff = self.jacts.keys() ^ self.pacts.keys()
        if not diff or any(a[0] != "move" for a in diff):
            return False
        true = {("move", s, t, None, 0) for s, t in self.driver.true_moves()}
        return true == {a for a in self.pacts if a[0] == "move"}

    def play(self, act: tuple, take_back_water_giant: bool = False) -> bool:
        """Applies ``act`` (one of ``legal``) to both engines, Java first, imposing its random draws on polyenv.

        ``take_back_water_giant``: when Java's draw for an Examine on water is the Giant (Tribes' Battleship of
        −1 HP over the examiner's boat, which polyenv deliberately does not copy and cannot represent), the
        action is taken back instead (Java replays the game up to it; polyenv has not played it yet), counted
        in ``resynced``, and False is returned: the caller chooses another action. Otherwise True.
        """
        jidx, pid = self.jacts[act], self.pacts[act]
        before, last = self.before, self.last
        self.moves.append(act)
        self.java_indices.append(jidx)
        self.before, self.last = self.j, act
        self.j = self.driver.step(jidx)
        game = self.env._game
        explorer = None
        if act[0] == "examine":
            outcome, tech = ruins_outcome(self.before, self.j, act[1], self.before["active"])
            if take_back_water_giant and outcome == "giant" and self.before["terrain"][act[1]] in known.WATER:
                self.moves.pop()
                self.java_indices.pop()
                self.j = self.driver.replay(self.path, self.mode, self.seed, self.java_indices)
                self.before, self.last = before, last
                self.jacts = {canon.java_action(a): i for i, a in enumerate(self.j["actions"])}
                self.resynced[known.DELIBERATE_RUINS_WATER] += 1
                return False
            _testing.force_ruins(game, RUINS[outcome], tech)
            if outcome == "explorer":
                explorer = [t for _, t in self.j["explorer"]]
        elif act[0] == "level_up" and act[3] == "explorer":
            explorer = [t for _, t in self.j["explorer"]]
        meetings = [tuple(m) for m in self.j["meetings"]]
        if not self.j.get("draws"):
            explorer = None  # a driver that does not record the explorer's steps (a stand-in)
        forced = self.fog and (meetings or explorer is not None)
        if forced:
            _testing.force_draws(game, meetings, explorer)
        try:
            self.env.step(pid)
        finally:
            if forced:
                _testing.force_draws(game, [], None)
        return True
