"""``polyenv replay FILE --html out.html``: one self-contained page that plays a saved game.

The page needs no server and no network: the game is embedded as JSON (the
ground-truth tiles of the first position, then per action only the tiles that
changed, with the turn, the player to move, the scores and a description of
the action), and a small script draws every position on a canvas in the colours
of :mod:`polyenv.render`. Controls: a slider over the positions (one per
action; ``#frame=K`` in the address opens position K, ``#play`` starts
playing, ``#speed=S`` plays S positions a second), play / pause, speed,
and the event log (the action played from each position; the current one is
highlighted).
"""

from __future__ import annotations

import json

import numpy as np

from ._names import BUILDINGS, UNIT_TYPES
from .description import game_description
from .game_env import GameEnv
from .render import _BUILDING_LETTER, _RESOURCE_STYLE, _UNIT_CHAR, PLAYER_COLORS, TERRAIN_COLORS, _absolute
from .replay_media import replay_positions

__all__ = ["replay_html", "TILE_COLUMNS"]

#: Per-tile values embedded in the page (owners absolute, -1 none).
TILE_COLUMNS = ("terrain", "resource", "building", "road", "territory", "city_owner", "city_level", "city_flags",
                "unit_owner", "unit_type", "unit_hp", "unit_max_hp", "unit_flags")
# Their map-token columns (the engine's layout, polyenv.GameDescription.map_token_columns).
_LAYOUT = game_description()
_COL = _LAYOUT.map_token_columns
_OWNER_COLUMNS = {"territory": _COL["territory_owner"], "city_owner": _COL["city_owner"],
                  "unit_owner": _COL["unit_owner"]}
_TOKEN_COLUMNS = {name: _COL[name] for name in TILE_COLUMNS if name not in _OWNER_COLUMNS}


def _tiles(game: GameEnv) -> np.ndarray:
    """int32 [tiles, len(TILE_COLUMNS)] of the ground truth, owners absolute."""
    tokens = game.full_map_numpy()
    out = np.empty((tokens.shape[0], len(TILE_COLUMNS)), np.int32)
    for j, name in enumerate(TILE_COLUMNS):
        if name in _OWNER_COLUMNS:
            out[:, j] = _absolute(tokens[:, _OWNER_COLUMNS[name]], game.current_player, game.num_players)
        else:
            out[:, j] = tokens[:, _TOKEN_COLUMNS[name]]
    return out


def _status(game: GameEnv) -> str:
    if game.game_over:
        return "draw" if game.winner < 0 else f"winner p{game.winner}"
    return f"p{game.current_player} to move"


def replay_html(game: GameEnv, actions, title: str = "polyenv replay", tile_px: int = 32, names=None) -> str:
    """Re-plays ``actions`` on ``game`` and returns the page (a str of HTML).

    ``names``: per-player labels (default the tribes). Raises
    :class:`polyenv.replay_media.ReplayError` for an action that cannot be played.
    """
    if isinstance(tile_px, bool) or not isinstance(tile_px, (int, np.integer)) or tile_px < 16:
        raise ValueError(f"tile_px must be an integer >= 16, got {tile_px!r}")
    players = game.num_players
    names = names or [game.player(p)["tribe"] for p in range(players)]
    first = _tiles(game)
    previous = first
    frames = []
    for _, action in replay_positions(game, actions):
        tiles = _tiles(game)
        changed = np.flatnonzero((tiles != previous).any(axis=1))
        delta = np.concatenate([changed[:, None], tiles[changed]], axis=1).ravel().tolist()
        previous = tiles
        event = "" if action is None else f"t{game.turn_number} p{game.current_player}: {game.describe_action(action)}"
        frames.append({"t": game.turn_number, "p": game.current_player, "s": game.scores(), "d": delta,
                       "e": event, "st": _status(game)})
    data = {
        "n": game.map_size, "turn_limit": game.turn_limit, "px": int(tile_px), "players": players, "names": names, "columns": TILE_COLUMNS,
        "initial": first.ravel().tolist(), "frames": frames,
        "terrain_colors": TERRAIN_COLORS.tolist(), "player_colors": PLAYER_COLORS.tolist(),
        "unit_letters": _UNIT_CHAR, "unit_names": list(UNIT_TYPES), "building_names": list(BUILDINGS),
        "building_letters": _BUILDING_LETTER,
        "resources": {str(k): [list(c), shape] for k, (c, shape) in _RESOURCE_STYLE.items()},
        "city_flags": _LAYOUT.city_flags, "unit_flags": _LAYOUT.unit_flags,
    }
    payload = json.dumps(data, separators=(",", ":")).replace("</", "<\\/")
    return _PAGE.replace("__TITLE__", _escape(title)).replace("__DATA__", payload)


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


_PAGE = r"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>__TITLE__</title>
<style>
body { margin: 0; background: #1c1e24; color: #e6e6e6; font: 14px monospace; }
#board { position: absolute; left: 0; top: 0; }
#side { position: absolute; top: 0; padding: 8px; }
#status { margin-bottom: 6px; white-space: pre; }
#log { height: 420px; overflow-y: auto; border: 1px solid #444; padding: 4px; width: 420px; }
#log div.cur { background: #46507a; }
.chip { display: inline-block; width: 10px; height: 10px; margin-right: 4px; }
input[type=range] { width: 420px; }
</style></head>
<body>
<canvas id="board"></canvas>
<div id="side">
  <div id="title">__TITLE__</div>
  <div id="status"></div>
  <div id="scores"></div>
  <div><button id="play">play</button>
    speed <select id="speed"><option value="2">2/s</option><option value="8" selected>8/s</option>
    <option value="30">30/s</option></select>
    position <span id="pos"></span></div>
  <input id="slider" type="range" min="0" value="0" step="1">
  <div id="log"></div>
</div>
<script id="data" type="application/json">__DATA__</script>
<script>
"use strict";
const D = JSON.parse(document.getElementById("data").textContent);
const N = D.n, PX = D.px, C = D.columns.length, T = N * N;
const col = {}; D.columns.forEach((name, j) => col[name] = j);
const canvas = document.getElementById("board"), ctx = canvas.getContext("2d");
canvas.width = N * PX; canvas.height = N * PX;
document.getElementById("side").style.left = (N * PX + 12) + "px";
const slider = document.getElementById("slider");
slider.max = D.frames.length - 1;
const rgb = c => `rgb(${c[0]},${c[1]},${c[2]})`;
const pcolor = p => D.player_colors[p % D.player_colors.length];
const ink = c => (0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2]) > 140 ? "#000" : "#fff";

// Positions: the initial tiles, then each frame's changed tiles; every 64th state is cached.
const cache = new Map([[-1, Int32Array.from(D.initial)]]);
function apply(state, k) {
  const d = D.frames[k].d;
  for (let i = 0; i < d.length; i += C + 1) state.set(d.slice(i + 1, i + 1 + C), d[i] * C);
}
function stateAt(k) {
  let base = -1;
  for (const key of cache.keys()) if (key <= k && key > base) base = key;
  const state = Int32Array.from(cache.get(base));
  for (let j = base + 1; j <= k; j++) { apply(state, j); if (j % 64 === 0 && !cache.has(j)) cache.set(j, Int32Array.from(state)); }
  return state;
}

function drawTile(s, x, y) {
  const i = (x * N + y) * C, X = y * PX, Y = x * PX, v = name => s[i + col[name]];
  const terr = D.terrain_colors[v("terrain")] || [255, 0, 255];
  let ground = terr;
  if (v("territory") >= 0) { const t = pcolor(v("territory")); ground = terr.map((c, j) => Math.floor(0.78 * c + 0.22 * t[j])); }
  ctx.fillStyle = rgb(ground); ctx.fillRect(X, Y, PX, PX);
  const owner = v("territory"), b = Math.max(2, Math.floor(PX / 10));
  if (owner >= 0) {
    ctx.fillStyle = rgb(pcolor(owner));
    const other = (a, c) => a < 0 || a >= N || c < 0 || c >= N || s[(a * N + c) * C + col.territory] !== owner;
    if (other(x - 1, y)) ctx.fillRect(X, Y, PX, b);
    if (other(x + 1, y)) ctx.fillRect(X, Y + PX - b, PX, b);
    if (other(x, y - 1)) ctx.fillRect(X, Y, b, PX);
    if (other(x, y + 1)) ctx.fillRect(X + PX - b, Y, b, PX);
  }
  const roadAt = (a, c) => a >= 0 && a < N && c >= 0 && c < N && (s[(a * N + c) * C + col.road] || s[(a * N + c) * C + col.city_level] >= 1);
  if (v("road") || v("city_level") >= 1) {
    if (roadAt(x, y)) {
      ctx.strokeStyle = "rgb(126,92,56)"; ctx.lineWidth = Math.max(2, PX / 8);
      for (let dx = -1; dx <= 1; dx++) for (let dy = -1; dy <= 1; dy++)
        if ((dx || dy) && roadAt(x + dx, y + dy)) { ctx.beginPath(); ctx.moveTo(X + PX / 2, Y + PX / 2); ctx.lineTo(X + PX / 2 + dy * PX / 2, Y + PX / 2 + dx * PX / 2); ctx.stroke(); }
    }
  }
  if (v("terrain") === 4 && v("city_level") < 1) {
    ctx.fillStyle = "rgb(90,60,30)"; ctx.fillRect(X + PX / 3, Y + PX / 3, PX / 3, PX / 3);
    ctx.fillStyle = "rgb(235,222,190)"; ctx.fillRect(X + PX / 3 + 1, Y + PX / 3 + 1, PX / 3 - 2, PX / 3 - 2);
  }
  const res = D.resources[String(v("resource"))];
  if (res) {
    const r = Math.max(2, Math.floor(PX / 9)), cx = X + PX - 3 - r, cy = Y + 2 + r;
    ctx.fillStyle = "#141414"; ctx.beginPath(); ctx.arc(cx, cy, r + 1, 0, 7); ctx.fill();
    ctx.fillStyle = rgb(res[0]); ctx.beginPath();
    if (res[1] === "square") ctx.rect(cx - r + 1, cy - r + 1, 2 * r - 2, 2 * r - 2); else ctx.arc(cx, cy, r, 0, 7);
    ctx.fill();
  }
  const bld = v("building");
  if (bld >= 0) {
    const h = Math.floor(PX * 0.36), w = Math.floor(PX * 0.3), top = Y + PX - h - 4, left = X + 1;
    ctx.fillStyle = "#141414"; ctx.fillRect(left, top, w, h);
    ctx.fillStyle = bld < 6 ? "rgb(236,206,120)" : bld < 8 ? "rgb(120,190,230)" : bld < 12 ? "rgb(235,235,245)" : "rgb(240,196,40)";
    ctx.fillRect(left + 1, top + 1, w - 2, h - 2);
    ctx.fillStyle = "#141414"; ctx.font = `bold ${Math.floor(h * 0.8)}px monospace`; ctx.textAlign = "center"; ctx.textBaseline = "middle";
    ctx.fillText(D.building_letters[bld], left + w / 2, top + h / 2 + 1);
  }
  if (v("city_level") >= 1) {
    const c = v("city_owner") >= 0 ? pcolor(v("city_owner")) : [200, 200, 200], m = Math.floor(PX / 8), f = v("city_flags");
    ctx.fillStyle = (f & D.city_flags.capital) ? "rgb(230,190,40)" : (f & D.city_flags.walls) ? "rgb(110,110,110)"
      : "rgb(30,30,30)";
    ctx.fillRect(X + m, Y + m, PX - 2 * m, PX - 2 * m);
    ctx.fillStyle = rgb(c); ctx.fillRect(X + m + 2, Y + m + 2, PX - 2 * m - 4, PX - 2 * m - 4);
  }
  if (v("unit_type") >= 0) {
    const c = pcolor(v("unit_owner")), cx = X + PX * 0.5, cy = Y + PX * 0.56, r = PX * 0.28;
    ctx.fillStyle = (v("unit_flags") & D.unit_flags.veteran) ? "rgb(230,190,40)" : "#000";
    ctx.beginPath(); ctx.arc(cx, cy, r + 1.5, 0, 7); ctx.fill();
    ctx.fillStyle = rgb(c); ctx.beginPath(); ctx.arc(cx, cy, r, 0, 7); ctx.fill();
    ctx.fillStyle = ink(c); ctx.font = `bold ${Math.floor(PX * 0.34)}px monospace`; ctx.textAlign = "center"; ctx.textBaseline = "middle";
    ctx.fillText(D.unit_letters[v("unit_type")], cx, cy + 1);
    const hp = Math.max(v("unit_hp"), 0), max = Math.max(v("unit_max_hp"), 1), w = PX - 4;
    ctx.fillStyle = "rgb(200,30,30)"; ctx.fillRect(X + 2, Y + PX - 3, w, 2);
    ctx.fillStyle = "rgb(40,210,60)"; ctx.fillRect(X + 2, Y + PX - 3, Math.round(w * Math.min(hp, max) / max), 2);
    ctx.fillStyle = "#fff"; ctx.font = `${Math.floor(PX * 0.28)}px monospace`; ctx.textAlign = "right"; ctx.textBaseline = "bottom";
    ctx.fillText(String(hp), X + PX - 2, Y + PX - 3);
  }
  if (v("city_level") >= 1) {
    const c = v("city_owner") >= 0 ? pcolor(v("city_owner")) : [200, 200, 200], m = Math.floor(PX / 8);
    ctx.fillStyle = rgb(c); ctx.fillRect(X + m, Y + m, PX * 0.3, PX * 0.38);
    ctx.fillStyle = ink(c); ctx.font = `bold ${Math.floor(PX * 0.34)}px monospace`; ctx.textAlign = "left"; ctx.textBaseline = "top";
    ctx.fillText(String(Math.min(v("city_level"), 9)), X + m + 1, Y + m + 1);
  }
}

const log = document.getElementById("log");
D.frames.forEach((f, k) => { const e = document.createElement("div"); e.textContent = f.e || f.st; e.onclick = () => show(k); log.appendChild(e); });
let current = -1;
function show(k) {
  k = Math.max(0, Math.min(D.frames.length - 1, k | 0));
  const s = stateAt(k), f = D.frames[k];
  for (let x = 0; x < N; x++) for (let y = 0; y < N; y++) drawTile(s, x, y);
  slider.value = k; current = k;
  document.getElementById("pos").textContent = `${k} / ${D.frames.length - 1}`;
  document.getElementById("status").textContent = `turn ${f.t}/${D.turn_limit}, ${f.st}`;
  document.getElementById("scores").innerHTML = f.s.map((v, p) =>
    `<span class="chip" style="background:${rgb(pcolor(p))}"></span>p${p} ${D.names[p]}: ${v}`).join("<br>");
  log.querySelectorAll("div.cur").forEach(e => e.classList.remove("cur"));
  const e = log.children[k]; e.classList.add("cur"); log.scrollTop = e.offsetTop - log.offsetTop - 200;
}
slider.addEventListener("input", () => show(+slider.value));
let timer = null;
const playButton = document.getElementById("play");
function stop() { clearInterval(timer); timer = null; playButton.textContent = "play"; }
playButton.addEventListener("click", () => {
  if (timer) { stop(); return; }
  if (current >= D.frames.length - 1) show(0);
  playButton.textContent = "pause";
  timer = setInterval(() => { if (current >= D.frames.length - 1) stop(); else show(current + 1); },
                      1000 / +document.getElementById("speed").value);
});
// #frame=K opens position K (through the slider's own input event); #play starts playing, #speed=S sets the speed.
const start = /frame=(\d+)/.exec(location.hash), speed = /speed=(\d+)/.exec(location.hash);
if (speed) { const o = document.createElement("option"); o.value = o.textContent = speed[1]; document.getElementById("speed").appendChild(o); document.getElementById("speed").value = speed[1]; }
slider.value = start ? start[1] : 0;
slider.dispatchEvent(new Event("input"));
if (/play/.test(location.hash)) playButton.click();
</script>
</body></html>
"""
