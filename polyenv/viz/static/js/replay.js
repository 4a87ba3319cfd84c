// The standalone replay page (`polyenv replay --html`): the embedded record's positions shown by the
// web app's own viewer. Position k is the game after k actions; its caption, highlighted log entry and
// board arrow are the action that produced it.
import { Viewer } from "polyenv/viewer.js";

const $ = id => document.getElementById(id);
const D = JSON.parse($("data").textContent);
const F = D.first.fields.length, T = D.first.map_size * D.first.map_size, last = D.frames.length - 1;
const viewer = new Viewer(D.style, { finalButtons: false, tilePx: D.tile_px });
viewer.tab("log");

// Tiles of position k: the first position plus the changed tiles of each frame; every 64th is cached.
const cache = new Map([[0, Int32Array.from(D.first.tiles)]]);
function tilesAt(k) {
  let base = 0;
  for (const key of cache.keys()) if (key <= k && key > base) base = key;
  const tiles = Int32Array.from(cache.get(base));
  for (let j = base + 1; j <= k; j++) {
    const d = D.frames[j].d;
    for (let i = 0; i < d.length; i += F + 1) tiles.set(d.slice(i + 1, i + 1 + F), d[i] * F);
    if (j % 64 === 0 && !cache.has(j)) cache.set(j, Int32Array.from(tiles));
  }
  return tiles;
}

let current = -1, epoch = 0, timer = null;
const slider = $("slider");
slider.max = String(last);

function show(k) {
  k = Math.max(0, Math.min(last, k | 0));
  if (k < current || k > current + 1) epoch++;  // a jump: the log starts again from this position
  const f = D.frames[k], produced = k > 0 ? D.log.slice(D.frames[k - 1].e, f.e) : [];
  const view = { ...D.first, turn: f.turn, current_player: f.current_player, game_over: f.game_over,
    winner: f.winner, players: f.players, result: f.result, tiles: tilesAt(k), events: D.log.slice(Math.max(0, f.e - 300), f.e),
    id: "replay", epoch, kind: "replay", actions: [], human: null, delay: 1 / +$("speed").value };
  viewer.show(view);
  current = k;
  slider.value = String(k);
  $("pos").textContent = `position ${k} / ${last}`;
  $("caption").textContent = k === 0 ? "the start of the game" : `after action ${k}: ${produced.map(e => e.text).join("; ") || "(no visible change)"}`;
}

function stop() { clearInterval(timer); timer = null; $("play").textContent = "Play"; }
slider.addEventListener("input", () => show(+slider.value));
$("play").addEventListener("click", () => {
  if (timer) { stop(); return; }
  if (current >= last) show(0);
  $("play").textContent = "Pause";
  timer = setInterval(() => { if (current >= last) stop(); else show(current + 1); }, 1000 / +$("speed").value);
});
// #frame=K opens position K; #speed=S plays S positions a second; #play starts playing.
const start = /frame=(\d+)/.exec(location.hash), speed = /speed=(\d+)/.exec(location.hash);
if (speed) {
  const option = document.createElement("option");
  option.value = option.textContent = speed[1];
  $("speed").append(option); $("speed").value = speed[1];
}
show(start ? +start[1] : 0);
if (/play/.test(location.hash)) $("play").click();
