// The side panels of a view: players and their stats, the legal actions by group, the tech tree,
// the event log, the legend. Plain DOM, no framework; each function redraws one element.
import { drawBuilding, drawCity, drawResource, drawUnit, tileName } from "polyenv/board.js";

const rgb = c => `rgb(${c[0]},${c[1]},${c[2]})`;
const el = (tag, attrs = {}, ...children) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") e.className = v; else if (k === "text") e.textContent = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v); else e.setAttribute(k, v);
  }
  for (const c of children) if (c != null) e.append(c);
  return e;
};
export { el };
export const chip = (style, p) => el("span", { class: "chip", style: `background:${rgb(style.players[p % style.players.length])}` });
export const playerLabel = (view, p) => `${view.tribes[p]} (p${p})`;
const unknown = v => (v === undefined || v === null ? "?" : String(v));

// Seats: tribe and colour, who plays it, stars, income, score, cities (what the viewer may know).
export function renderPlayers(root, view, style) {
  const head = el("tr", {}, ...["", "player", "seat", "★", "+/turn", "score", "cities"].map(h => el("th", { text: h })));
  const table = el("table", {}, head);
  for (const s of view.players) {
    const seat = view.seats ? (view.seats[s.player] === "human" ? "you" : view.seats[s.player]) : "";
    const cities = s.cities !== undefined ? s.cities : `${s.cities_seen} seen`;
    const row = el("tr", { class: s.player === view.current_player && !view.game_over ? "to-move" : "" },
      el("td", { text: s.player === view.current_player && !view.game_over ? "▶" : "" }),
      el("td", {}, chip(style, s.player), playerLabel(view, s.player)),
      el("td", { text: seat }), el("td", { text: unknown(s.stars) }), el("td", { text: unknown(s.income) }),
      el("td", { text: unknown(s.score) }), el("td", { text: String(cities) }));
    if (s.techs) row.title = "techs: " + (s.techs.join(", ") || "none");
    table.append(row);
  }
  root.replaceChildren(table);
}

const GROUP_TITLES = { unit: "Units", city: "Cities", tech: "Research", other: "Other" };

// Every legal action, grouped by unit (its tile), city, tech and other, as buttons.
export function renderActions(root, view, onPick, onHover) {
  root.replaceChildren();
  if (!view.actions.length) {
    root.append(el("p", { text: view.game_over ? "The game is over." : "Waiting for the other players…" }));
    return;
  }
  const n = view.map_size, groups = { unit: new Map(), city: new Map(), tech: new Map(), other: new Map() };
  for (const a of view.actions) {
    const key = a.group === "unit" ? a.source : a.group === "city" ? (a.city >= 0 ? a.city : a.source) : 0;
    const g = groups[a.group];
    if (!g.has(key)) g.set(key, []);
    g.get(key).push(a);
  }
  for (const name of ["unit", "city", "tech", "other"]) {
    if (!groups[name].size) continue;
    root.append(el("h4", { text: GROUP_TITLES[name] }));
    for (const [key, actions] of groups[name]) {
      if (name === "unit" || name === "city") root.append(el("div", { class: "log-round", text: `${name === "unit" ? "unit" : "city"} at ${tileName(key, n)}` }));
      for (const a of actions) root.append(actionButton(a, onPick, onHover));
    }
  }
}

export function actionButton(a, onPick, onHover) {
  return el("button", {
    type: "button", class: "act", "data-action": String(a.id), "data-kind": a.kind, "data-source": String(a.source),
    "data-target": String(a.target), text: a.label,
    onclick: () => onPick(a), onmouseenter: () => onHover && onHover(a), onmouseleave: () => onHover && onHover(null),
  });
}

// The viewer's tech tree by tier: known, researchable now (a button when legal), locked; costs.
export function renderTechs(root, view, onPick) {
  root.replaceChildren();
  if (!view.techs) { root.append(el("p", { text: "Pick a player's view to see its techs." })); return; }
  const legal = new Map(view.actions.filter(a => a.kind === "research").map(a => [a.tech, a]));
  const grid = el("div", { class: "techs" });
  for (let tier = 1; tier <= 3; tier++) grid.append(el("h4", { text: `Tier ${tier}` }));
  const tiers = [[], [], []];
  for (const t of view.techs) tiers[t.tier - 1].push(t);
  const rows = Math.max(...tiers.map(t => t.length));
  for (let r = 0; r < rows; r++) for (let tier = 0; tier < 3; tier++) {
    const t = tiers[tier][r];
    if (!t) { grid.append(el("div")); continue; }
    const state = t.known ? "known" : t.unlocked ? "open" : "locked";
    const card = el("div", { class: `tech ${state}`, title: t.parent ? `needs ${t.parent.replace(/_/g, " ")}` : "no prerequisite" },
      el("div", { text: `${t.label}${t.known ? " ✓" : ""}` }), el("div", { text: t.known ? "researched" : `${t.cost}★` }));
    const action = legal.get(t.name);
    if (action) card.append(el("button", { type: "button", "data-action": String(action.id), text: "Research", onclick: () => onPick(action) }));
    grid.append(card);
  }
  root.append(grid);
}

// The event log (what the viewer saw), newest last; entries are kept by sequence number.
export function renderLog(root, entries) {
  root.replaceChildren();
  let turn = null;
  entries.forEach((e, k) => {
    if (e.turn !== turn) { turn = e.turn; root.append(el("div", { class: "log-round", text: `turn ${turn}` })); }
    root.append(el("div", { class: "log-entry" + (k === entries.length - 1 ? " latest" : ""), text: e.text }));
  });
  root.scrollTop = root.scrollHeight;
}

// The legend: every item drawn with the board's own drawing code.
export function renderLegend(root, style) {
  root.replaceChildren();
  const px = 26;
  for (const section of style.legend) {
    root.append(el("h4", { text: section.title }));
    for (const item of section.items) {
      const canvas = el("canvas", { width: String(px), height: String(px) }), ctx = canvas.getContext("2d");
      drawLegendSwatch(ctx, style, item, px);
      root.append(el("div", { class: "legend-item" }, canvas, el("span", { text: item.label })));
    }
  }
}

export function drawLegendSwatch(ctx, style, item, px) {
  const plain = style.terrains[0].color, tile = { city_level: 1, city_owner: 0, city_flags: 0, unit_type: 0, unit_owner: 0, unit_hp: 10, unit_max_hp: 10, unit_flags: 0 };
  ctx.fillStyle = rgb(plain); ctx.fillRect(0, 0, px, px);
  switch (item.kind) {
    case "terrain": ctx.fillStyle = rgb(style.terrains[item.code].color); ctx.fillRect(0, 0, px, px);
      if (style.terrains[item.code].name === "Village") { ctx.fillStyle = rgb(style.village[1]); ctx.fillRect(px / 3, px / 3, px / 3, px / 3); }
      break;
    case "resource": drawResource(ctx, style.resources[item.code], px / 2, px / 2, px / 4); break;
    case "building": drawBuilding(ctx, style.buildings[item.code], px * 0.2, px * 0.1, px * 0.6, px * 0.8); break;
    case "unit": tile.unit_type = item.code; drawUnit(ctx, style, tile, 0, 0, px); break;
    case "city": drawCity(ctx, style, tile, 0, 0, px, false); drawCity(ctx, style, tile, 0, 0, px, true); break;
    case "capital": tile.city_flags = style.city_flags.capital; drawCity(ctx, style, tile, 0, 0, px, false); break;
    case "walls": tile.city_flags = style.city_flags.walls; drawCity(ctx, style, tile, 0, 0, px, false); break;
    case "veteran": tile.unit_flags = style.unit_flags.veteran; drawUnit(ctx, style, tile, 0, 0, px); break;
    case "road": ctx.strokeStyle = rgb(style.road); ctx.lineWidth = 3; ctx.beginPath(); ctx.moveTo(0, px / 2); ctx.lineTo(px, px / 2); ctx.stroke(); break;
    case "territory": ctx.fillStyle = rgb(style.players[1]); ctx.fillRect(0, 0, px, 3); ctx.fillRect(0, 0, 3, px); break;
    case "fog": ctx.fillStyle = rgb(style.fog); ctx.fillRect(0, 0, px, px); break;
    default: break;
  }
}
