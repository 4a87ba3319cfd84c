// The live app of `polyenv serve`: the new-game form, the game over a WebSocket, the person's moves,
// the watch controls, records. The drawing and the panels are the viewer's (viewer.js).
import { Viewer } from "polyenv/viewer.js";
import { el } from "polyenv/panels.js";

const $ = id => document.getElementById(id);
const DEFAULT_TRIBES = ["Bardur", "Imperius", "Xin-Xi", "Oumaji", "Kickoo", "Hoodrick", "Luxidoor", "Vengir",
  "Zebasi", "Ai-Mo", "Quetzali", "Yadakk"];
let setup = null, viewer = null, current = null, socket = null, latest = null, level = null;

async function api(path, body, raw = false) {
  const init = body === undefined ? {} : { method: "POST", headers: { "Content-Type": "application/json" },
    body: raw ? body : JSON.stringify(body) };
  const response = await fetch(path, init);
  const data = await response.json().catch(() => ({ error: `HTTP ${response.status}` }));
  if (!response.ok) throw new Error(data.error || `HTTP ${response.status}`);
  return data;
}

function showError(text) { $("error").textContent = text || ""; }

// ------------------------------------------------------------------ the game connection
function connect(id, view) {
  if (socket) { socket.onclose = null; socket.close(); }
  current = { id, view };
  location.hash = `game=${id}&view=${view}`;
  const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/api/games/${id}/ws?view=${view}`;
  socket = new WebSocket(url);
  let last = null;
  socket.onmessage = message => {
    if (message.data === last) return;  // the same view again (two changes close together): nothing to redraw
    last = message.data;
    latest = JSON.parse(message.data); viewer.show(latest); controls(latest);
  };
  socket.onclose = event => {
    if (event.code >= 4000) { showError(event.reason); return; }
    setTimeout(() => { if (current && current.id === id) connect(id, current.view); }, 1000);  // the server restarted or the link dropped
  };
}

async function act(action) {
  if (!latest || !current) return;
  try {
    showError("");
    await api(`/api/games/${current.id}/action`, { action: action.id, token: latest.token });
  } catch (e) { showError(e.message); }
}

async function command(name, value) {
  if (!current) return;
  try { await api(`/api/games/${current.id}/control`, { command: name, value }); } catch (e) { showError(e.message); }
}

function controls(view) {
  document.body.dataset.token = view.token || "";  // the position token, for tests and tools
  const watching = view.human === null || view.human === undefined;
  $("watch-controls").hidden = !watching;
  $("pause").textContent = view.paused ? "Play" : "Pause";
  const seek = $("seek");
  seek.hidden = view.kind !== "replay";
  if (view.kind === "replay") { seek.max = String(view.positions); if (document.activeElement !== seek) seek.value = String(view.position); }
  const select = $("view-select");
  const wanted = ["full", ...view.tribes.map((_, p) => String(p))];
  if (select.options.length !== wanted.length) {
    select.replaceChildren(...wanted.map(v => el("option", { value: v, text: v === "full" ? "full view" : `${view.tribes[+v]} (p${v})` })));
  }
  select.value = view.viewer === null ? "full" : String(view.viewer);
  const speed = $("speed");
  if (document.activeElement !== speed && [...speed.options].some(o => +o.value === view.delay)) speed.value = [...speed.options].find(o => +o.value === view.delay).value;
  $("save").disabled = false;
}

// ------------------------------------------------------------------ the new-game form
function seatRow(k, previous) {
  const tribe = el("select", { class: "f-tribe", "data-seat": String(k) }, ...setup.tribes.map(t => el("option", { value: t, text: t })));
  tribe.value = previous ? previous.tribe : DEFAULT_TRIBES[k % DEFAULT_TRIBES.length];
  const player = el("select", { class: "f-player", "data-seat": String(k) }, el("option", { value: setup.human, text: "You" }),
    ...setup.bots.map(b => el("option", { value: b, text: `bot: ${b}` })));
  player.value = previous ? previous.player : k === 0 ? setup.human : setup.bots.includes("greedy") ? "greedy" : setup.bots[0];
  const budget = el("input", { class: "f-budget", type: "number", min: "1", placeholder: "default", "data-seat": String(k) });
  if (previous) budget.value = previous.budget;
  const sync = () => { budget.hidden = !setup.budget_bots.includes(player.value); };
  player.addEventListener("change", () => {
    if (player.value === setup.human) for (const other of document.querySelectorAll(".f-player")) if (other !== player && other.value === setup.human) other.value = setup.bots[0];
    sync();
  });
  sync();
  return el("tr", {}, el("td", { text: `p${k}` }), el("td", {}, tribe), el("td", {}, player), el("td", {}, budget));
}

function seatValues() {
  return [...document.querySelectorAll("#f-seats tbody tr")].map(row => ({
    tribe: row.querySelector(".f-tribe").value, player: row.querySelector(".f-player").value,
    budget: row.querySelector(".f-budget").value }));
}

function buildSeats(count, tribes = null) {
  const old = seatValues();
  const rows = [];
  for (let k = 0; k < count; k++) {
    const previous = old[k] ? { ...old[k] } : null;
    if (tribes && previous) previous.tribe = tribes[k];
    rows.push(seatRow(k, previous || (tribes ? { tribe: tribes[k], player: k === 0 ? setup.human : "greedy", budget: "" } : null)));
  }
  $("f-seats").querySelector("tbody").replaceChildren(...rows);
}

async function chooseLevel(request, name) {
  try {
    const info = await api("/api/levels", request);
    level = { ...request, info };
    $("f-level-name").textContent = `${name}: ${info.map_size}×${info.map_size}, ${info.players} players`;
    $("f-players").value = String(info.players); $("f-players").disabled = true; $("f-size").disabled = true;
    buildSeats(info.players, info.tribes);
    $("f-error").textContent = "";
  } catch (e) { $("f-error").textContent = e.message; }
}

function clearLevel() {
  level = null; $("f-level-name").textContent = ""; $("f-players").disabled = false; $("f-size").disabled = false;
}

function initForm() {
  $("f-mode").replaceChildren(...setup.modes.map(m => el("option", { value: m, text: m })));
  $("f-level").append(...setup.levels.map(l => el("option", { value: l, text: l })));
  $("f-players").min = String(setup.min_players); $("f-players").max = String(setup.max_players);
  $("f-players").addEventListener("input", () => {
    const n = +$("f-players").value;
    if (n >= setup.min_players && n <= setup.max_players) { buildSeats(n); $("f-size").placeholder = `auto (${setup.default_map_sizes[n]})`; }
  });
  $("f-level").addEventListener("change", () => {
    const name = $("f-level").value;
    if (name) chooseLevel({ name }, name); else clearLevel();
  });
  $("f-level-file").addEventListener("change", async () => {
    const file = $("f-level-file").files[0];
    if (file) { $("f-level").value = ""; await chooseLevel({ csv: await file.text() }, file.name); }
  });
  $("f-cancel").addEventListener("click", () => $("setup").close());
  $("setup-form").addEventListener("submit", async event => {
    event.preventDefault();
    const number = id => ($(id).value === "" ? null : Number($(id).value));
    const seats = seatValues().map(s => ({ tribe: s.tribe,
      player: setup.budget_bots.includes(s.player) && s.budget ? `${s.player}:${s.budget}` : s.player }));
    const body = { seats, mode: $("f-mode").value, max_turns: number("f-turns"), fog: $("f-fog").checked, seed: number("f-seed") };
    if (level && level.name) body.level_name = level.name; else if (level) body.level = level.csv;
    else body.map_size = number("f-size");
    try {
      const created = await api("/api/games", body);
      $("setup").close(); showError("");
      const human = seats.findIndex(s => s.player === setup.human);
      connect(created.id, human >= 0 ? String(human) : "full");
    } catch (e) { $("f-error").textContent = e.message; }
  });
  buildSeats(2);
  $("f-size").placeholder = `auto (${setup.default_map_sizes[2]})`;
}

// ------------------------------------------------------------------ start
async function main() {
  setup = await api("/api/setup");
  viewer = new Viewer(setup.style, { onAction: act });
  initForm();
  const newGame = () => { $("final").hidden = true; $("setup").showModal(); };
  $("new-game").addEventListener("click", newGame);
  $("final-new").addEventListener("click", newGame);
  $("final-download").addEventListener("click", () => { if (current) location.href = `/api/games/${current.id}/record`; });
  $("pause").addEventListener("click", () => command(latest && latest.paused ? "resume" : "pause"));
  $("step").addEventListener("click", () => command("step"));
  $("speed").addEventListener("change", () => command("delay", Number($("speed").value)));
  $("seek").addEventListener("change", () => command("seek", Number($("seek").value)));
  $("view-select").addEventListener("change", () => { if (current) connect(current.id, $("view-select").value); });
  $("save").addEventListener("click", async () => {
    if (!current) return;
    try { const r = await api(`/api/games/${current.id}/save`, {}); showError(`saved ${r.actions} actions to ${r.path}`); }
    catch (e) { showError(e.message); }
  });
  $("open-record").addEventListener("change", async () => {
    const file = $("open-record").files[0];
    if (!file) return;
    try { const r = await api("/api/replays", await file.text(), true); showError(""); connect(r.id, "full"); }
    catch (e) { showError(`${file.name}: ${e.message}`); }
    $("open-record").value = "";
  });
  if (!setup.saving) $("save").hidden = true;
  const hash = /game=([\w-]+)&view=(\w+)/.exec(location.hash);
  if (hash) connect(hash[1], hash[2]); else newGame();
}

main().catch(e => showError(e.message));
