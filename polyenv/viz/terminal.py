"""A person's turn in the terminal (``polyenv play --bots human,greedy``).

On each decision the person sees, from their own fog-of-war view only: what they saw happen since
their last move (their event journal), the map with a legend, their stars / income / score, and
every legal action with a readable name, grouped by unit, city, tech and other and numbered. They
answer with a number, ``end`` (End Turn), ``q`` (save and quit) or ``h`` (help).
"""

from __future__ import annotations

from .._names import TERRAINS, UNIT_TYPES
from .render import _TERRAIN_CHAR, _UNIT_CHAR
from .board import tile_name
from .labels import GROUPS
from .style import pretty
from .view import EventLog, build_view

__all__ = ["TerminalPlayer", "QUIT", "HELP", "ansi_legend"]

#: What :meth:`TerminalPlayer.choose` returns when the person quits.
QUIT = None
#: The terminal player's one-line help.
HELP = "type a number to play that action · end: end the turn · q: save and quit · h: this help"
_GROUP_TITLES = {"unit": "Units", "city": "Cities", "tech": "Research", "other": "Other"}


def ansi_legend() -> str:
    """The legend of the coloured terminal map (``render("ansi")``; the text map carries its own)."""
    terrain = "  ".join(f"{_TERRAIN_CHAR[i]} {pretty(t).lower()}" for i, t in enumerate(TERRAINS))
    units = "  ".join(f"{_UNIT_CHAR[i]} {pretty(u).lower()}" for i, u in enumerate(UNIT_TYPES))
    return (f"legend: {terrain}\n"
            f"        units: {units}\n"
            f"        each tile: terrain glyph (or a city's level on its owner's colour), then a unit's letter and HP "
            f"on its owner's colour; dark ' .. ': unexplored\n"
            f"        row k of the map is x = k, column k is y = k (tiles are named (x,y))")


class TerminalPlayer:
    """Plays one seat from a terminal.

    Args:
        player: the seat.
        out / inp: the streams to write to and read lines from.
        ansi: coloured maps (``render("ansi")``) instead of plain text.
    """

    def __init__(self, player: int, out, inp, ansi: bool = False):
        self.player, self.out, self.inp, self.ansi = int(player), out, inp, bool(ansi)
        self.log = EventLog(self.player)
        self.shown_help = False

    def _print(self, *lines) -> None:
        print(*lines, sep="\n", file=self.out, flush=True)

    def show(self, game) -> list[dict]:
        """Prints the news, the map, the stats and the numbered actions; returns the actions in their numbering."""
        news = self.log.update(game)
        if news:
            self._print("since your last move:", *(f"  {e['text']}" for e in news[-30:]))
        view = build_view(game, self.player, self.log.entries)
        self._print(game.render("ansi" if self.ansi else "text", player=self.player))
        if self.ansi:
            self._print(ansi_legend())
        me = view["players"][self.player]
        techs = ", ".join(me["techs"]) or "none"
        self._print(f"you are {me['tribe']} (p{self.player}): {me['stars']} stars, +{me['income']} a turn, "
                    f"score {me['score']}, {me['cities']} cities; techs: {techs}")
        numbered = []
        for group in GROUPS:
            rows = [a for a in view["actions"] if a["group"] == group]
            if not rows:
                continue
            self._print(f"{_GROUP_TITLES[group]}:")
            key = None
            for a in rows:
                owner = a["source"] if group == "unit" else a["city"] if group == "city" else None
                if owner is not None and owner != key:
                    key = owner
                    self._print(f"  {'unit' if group == 'unit' else 'city'} at {tile_name(owner, game.map_size)}")
                numbered.append(a)
                self._print(f"    {len(numbered):>3}  {a['label']}")
        return numbered

    def choose(self, game) -> int | None:
        """Asks for one action of the current position; returns its id, or :data:`QUIT`."""
        numbered = self.show(game)
        if not self.shown_help:
            self._print(HELP)
            self.shown_help = True
        end_turn = next((a["id"] for a in numbered if a["kind"] == "end_turn"), None)
        while True:
            print(f"your move (1-{len(numbered)}, end, q, h)> ", end="", file=self.out, flush=True)
            line = self.inp.readline()
            if not line:  # end of input: as q
                self._print("")
                return QUIT
            answer = line.strip().lower()
            if answer in ("q", "quit"):
                return QUIT
            if answer in ("h", "help", "?"):
                self._print(HELP)
            elif answer in ("end", "e"):
                if end_turn is not None:
                    return end_turn
                self._print("End Turn is not possible now (choose a level-up reward first)")
            elif answer.isdigit() and 1 <= int(answer) <= len(numbered):
                return numbered[int(answer) - 1]["id"]
            elif answer:
                self._print(f"not a choice: {answer!r}; {HELP}")
