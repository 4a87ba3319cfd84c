// The board of one view on a canvas: tiles, coordinates on the edges, highlights, the last action,
// a moving unit; and the tooltip text of a tile. Everything drawn comes from the view (a viewer's own
// fog-safe board) and the style table (polyenv/viz/style.py), so every page draws the same way.

const rgb = (c, a = 1) => `rgba(${c[0]},${c[1]},${c[2]},${a})`;
export const inkFor = c => (0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2]) > 140 ? "#000" : "#fff";

// Reads field `name` of tile `t` of a view.
export function field(view, t, name) {
  return view.tiles[t * view.fields.length + view.fields.indexOf(name)];
}

// Per-tile accessor objects of a view, built once per view.
export function tilesOf(view) {
  const F = view.fields.length, idx = {};
  view.fields.forEach((name, j) => { idx[name] = j; });
  const out = [];
  for (let t = 0; t < view.map_size * view.map_size; t++) {
    const o = {};
    for (const name in idx) o[name] = view.tiles[t * F + idx[name]];
    out.push(o);
  }
  return out;
}

export const tileName = (t, n) => t < 0 ? "(?)" : `(${Math.floor(t / n)},${t % n})`;
const playerColor = (style, p) => style.players[p % style.players.length];

// Draws one tile's contents at (X, Y) with side px; `tiles` are the view's accessors, `n` the side.
export function drawTile(ctx, style, tiles, n, t, X, Y, px, opts = {}) {
  const s = tiles[t], x = Math.floor(t / n), y = t % n;
  if (!s.explored) {
    ctx.fillStyle = rgb(style.fog); ctx.fillRect(X, Y, px, px);
    ctx.fillStyle = "rgba(255,255,255,0.08)"; ctx.fillRect(X + px / 2 - 1, Y + px / 2 - 1, 2, 2);
    return;
  }
  const terrain = (style.terrains[s.terrain] || { color: [255, 0, 255] }).color;
  let ground = terrain;
  if (s.territory >= 0) { const c = playerColor(style, s.territory); ground = terrain.map((v, j) => Math.floor(0.78 * v + 0.22 * c[j])); }
  ctx.fillStyle = rgb(ground); ctx.fillRect(X, Y, px, px);
  if (s.territory >= 0) {  // a border where the neighbouring territory differs
    const b = Math.max(2, Math.floor(px / 12)), owner = s.territory;
    const other = (a, c) => a < 0 || a >= n || c < 0 || c >= n || !tiles[a * n + c].explored || tiles[a * n + c].territory !== owner;
    ctx.fillStyle = rgb(playerColor(style, owner));
    if (other(x - 1, y)) ctx.fillRect(X, Y, px, b);
    if (other(x + 1, y)) ctx.fillRect(X, Y + px - b, px, b);
    if (other(x, y - 1)) ctx.fillRect(X, Y, b, px);
    if (other(x, y + 1)) ctx.fillRect(X + px - b, Y, b, px);
  }
  const isRoad = (a, c) => a >= 0 && a < n && c >= 0 && c < n && tiles[a * n + c].explored && (tiles[a * n + c].road > 0 || tiles[a * n + c].city_level >= 1);
  if (s.road > 0 || s.city_level >= 1) {
    ctx.strokeStyle = rgb(style.road); ctx.lineWidth = Math.max(2, px / 9); ctx.lineCap = "round";
    let linked = false;
    for (let dx = -1; dx <= 1; dx++) for (let dy = -1; dy <= 1; dy++) {
      if ((dx || dy) && isRoad(x + dx, y + dy) && (s.road > 0 || tiles[(x + dx) * n + y + dy].road > 0)) {
        linked = true;
        ctx.beginPath(); ctx.moveTo(X + px / 2, Y + px / 2); ctx.lineTo(X + px / 2 + dy * px / 2, Y + px / 2 + dx * px / 2); ctx.stroke();
      }
    }
    if (s.road > 0 && !linked) { ctx.fillStyle = rgb(style.road); ctx.fillRect(X + px * 0.4, Y + px * 0.4, px * 0.2, px * 0.2); }
  }
  if (style.terrains[s.terrain] && style.terrains[s.terrain].name === "Village" && s.city_level < 1) {
    ctx.fillStyle = rgb(style.village[1]); ctx.fillRect(X + px / 3, Y + px / 3, px / 3, px / 3);
    ctx.fillStyle = rgb(style.village[0]); ctx.fillRect(X + px / 3 + 1, Y + px / 3 + 1, px / 3 - 2, px / 3 - 2);
  }
  const res = s.resource >= 0 ? style.resources[s.resource] : null;
  if (res) drawResource(ctx, res, X + px - 3 - Math.max(2, px / 9), Y + 3 + Math.max(2, px / 9), Math.max(2, px / 9));
  if (s.building >= 0 && style.buildings[s.building]) drawBuilding(ctx, style.buildings[s.building], X + 1, Y + px * 0.6 - 2, px * 0.3, px * 0.4);
  if (s.city_level >= 1) drawCity(ctx, style, s, X, Y, px, false);
  if (s.unit_type >= 0 && !(opts.hideUnit === t)) drawUnit(ctx, style, s, X, Y, px);
  if (s.city_level >= 1) drawCity(ctx, style, s, X, Y, px, true);
}

export function drawResource(ctx, res, cx, cy, r) {
  ctx.fillStyle = "#141414"; ctx.beginPath();
  if (res.shape === "square") ctx.rect(cx - r - 1, cy - r - 1, 2 * r + 2, 2 * r + 2); else ctx.arc(cx, cy, r + 1, 0, 7);
  ctx.fill();
  ctx.fillStyle = rgb(res.color); ctx.beginPath();
  if (res.shape === "square") ctx.rect(cx - r, cy - r, 2 * r, 2 * r); else ctx.arc(cx, cy, r, 0, 7);
  ctx.fill();
}

export function drawBuilding(ctx, b, left, top, w, h) {
  ctx.fillStyle = "#141414"; ctx.fillRect(left, top, w, h);
  ctx.fillStyle = rgb(b.color); ctx.fillRect(left + 1, top + 1, w - 2, h - 2);
  ctx.fillStyle = "#141414"; ctx.font = `bold ${Math.max(7, Math.floor(h * 0.75))}px sans-serif`;
  ctx.textAlign = "center"; ctx.textBaseline = "middle"; ctx.fillText(b.letter, left + w / 2, top + h / 2 + 1);
}

// A city square (rim: capital gold, walls grey); with `badge` only its level badge, drawn over a unit.
export function drawCity(ctx, style, s, X, Y, px, badge) {
  const c = s.city_owner >= 0 ? playerColor(style, s.city_owner) : [200, 200, 200], m = Math.floor(px / 8);
  const flags = s.city_flags >= 0 ? s.city_flags : 0;
  if (!badge) {
    ctx.fillStyle = (flags & style.city_flags.capital) ? rgb(style.capital_rim)
      : (flags & style.city_flags.walls) ? rgb(style.walls_rim) : "rgb(30,30,30)";
    ctx.fillRect(X + m, Y + m, px - 2 * m, px - 2 * m);
    ctx.fillStyle = rgb(c); ctx.fillRect(X + m + 2, Y + m + 2, px - 2 * m - 4, px - 2 * m - 4);
    return;
  }
  const w = Math.max(8, px * 0.3), h = Math.max(10, px * 0.36);
  ctx.fillStyle = rgb(c); ctx.fillRect(X + m, Y + m, w, h);
  ctx.fillStyle = inkFor(c); ctx.font = `bold ${Math.floor(h * 0.85)}px sans-serif`; ctx.textAlign = "center"; ctx.textBaseline = "middle";
  ctx.fillText(String(Math.min(s.city_level, 99)), X + m + w / 2, Y + m + h / 2 + 1);
}

export function drawUnit(ctx, style, s, X, Y, px) {
  const c = playerColor(style, s.unit_owner), cx = X + px * 0.5, cy = Y + px * 0.55, r = px * 0.28;
  ctx.fillStyle = (s.unit_flags > 0 && (s.unit_flags & style.unit_flags.veteran)) ? rgb(style.veteran_ring) : "#000";
  ctx.beginPath(); ctx.arc(cx, cy, r + Math.max(1.5, px / 24), 0, 7); ctx.fill();
  ctx.fillStyle = rgb(c); ctx.beginPath(); ctx.arc(cx, cy, r, 0, 7); ctx.fill();
  const u = style.units[s.unit_type];
  ctx.fillStyle = inkFor(c); ctx.font = `bold ${Math.floor(px * 0.34)}px sans-serif`; ctx.textAlign = "center"; ctx.textBaseline = "middle";
  ctx.fillText(u ? u.letter : "?", cx, cy + 1);
  if (s.unit_hp >= 0 && s.unit_max_hp > 0) {
    const w = px - 6, hp = Math.max(0, Math.min(s.unit_hp, s.unit_max_hp));
    ctx.fillStyle = "rgb(200,30,30)"; ctx.fillRect(X + 3, Y + px - 4, w, 3);
    ctx.fillStyle = "rgb(40,210,60)"; ctx.fillRect(X + 3, Y + px - 4, Math.round(w * hp / s.unit_max_hp), 3);
    if (px >= 30) {
      ctx.font = `bold ${Math.floor(px * 0.24)}px sans-serif`; ctx.textAlign = "right"; ctx.textBaseline = "bottom";
      ctx.lineWidth = 3; ctx.strokeStyle = "#000"; ctx.strokeText(String(s.unit_hp), X + px - 2, Y + px - 4);
      ctx.fillStyle = "#fff"; ctx.fillText(String(s.unit_hp), X + px - 2, Y + px - 4);
    }
  }
}

// The canvas board: fits its container, maps clicks to tiles, draws overlays and a moving unit.
export class Board {
  constructor(canvas, style) {
    this.canvas = canvas; this.ctx = canvas.getContext("2d"); this.style = style;
    this.view = null; this.tiles = null; this.px = 32; this.margin = 18; this.overlays = {}; this.motion = null;
    this.fixedPx = null;  // a fixed tile size; null: fit the box
  }
  setView(view) { this.view = view; this.tiles = tilesOf(view); }
  // Scales the board to fit a width x height box (CSS pixels).
  fit(width, height) {
    if (!this.view) return;
    const n = this.view.map_size;
    this.margin = Math.max(14, Math.min(22, Math.floor(Math.min(width, height) / (n + 1) * 0.5)));
    this.px = this.fixedPx || Math.max(12, Math.floor(Math.min((width - this.margin - 2) / n, (height - this.margin - 2) / n)));
    const side = this.margin + n * this.px + 2, dpr = window.devicePixelRatio || 1;
    this.canvas.style.width = side + "px"; this.canvas.style.height = side + "px";
    this.canvas.width = Math.round(side * dpr); this.canvas.height = Math.round(side * dpr);
    this.ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    Object.assign(this.canvas.dataset, { px: this.px, margin: this.margin, n });  // the geometry, for tests and tools
  }
  origin(t) {
    const n = this.view.map_size;
    return [this.margin + (t % n) * this.px, this.margin + Math.floor(t / n) * this.px];
  }
  // The tile under a mouse event, or -1.
  tileAt(event) {
    if (!this.view) return -1;
    const r = this.canvas.getBoundingClientRect(), n = this.view.map_size;
    const col = Math.floor((event.clientX - r.left - this.margin) / this.px);
    const row = Math.floor((event.clientY - r.top - this.margin) / this.px);
    return row >= 0 && row < n && col >= 0 && col < n ? row * n + col : -1;
  }
  // overlays: {selected, moves: [t], attacks: [{tile, text}], actions: [t], last: {source, target, kind}, hover}
  draw() {
    if (!this.view) return;
    const { ctx, style, px, margin } = this, n = this.view.map_size, o = this.overlays;
    ctx.fillStyle = "#1c1e24"; ctx.fillRect(0, 0, this.canvas.width, this.canvas.height);
    ctx.fillStyle = "#aab"; ctx.font = `${Math.max(9, Math.floor(margin * 0.6))}px sans-serif`; ctx.textBaseline = "middle"; ctx.textAlign = "center";
    for (let k = 0; k < n; k++) {
      ctx.fillText(String(k), margin + k * px + px / 2, margin / 2);          // columns (y) on the top edge
      ctx.fillText(String(k), margin / 2, margin + k * px + px / 2);          // rows (x) on the left edge
    }
    const motion = this.motion;
    for (let t = 0; t < n * n; t++) {
      const [X, Y] = this.origin(t);
      drawTile(ctx, style, this.tiles, n, t, X, Y, px, { hideUnit: motion ? motion.to : -1 });
    }
    ctx.strokeStyle = "rgba(0,0,0,0.18)"; ctx.lineWidth = 1;
    for (let k = 0; k <= n; k++) {
      ctx.beginPath(); ctx.moveTo(margin + k * px, margin); ctx.lineTo(margin + k * px, margin + n * px); ctx.stroke();
      ctx.beginPath(); ctx.moveTo(margin, margin + k * px); ctx.lineTo(margin + n * px, margin + k * px); ctx.stroke();
    }
    const hl = style.highlight;
    if (o.last) this.drawLast(o.last, hl.last);
    for (const t of o.actions || []) this.outline(t, hl.action, 3, [5, 3]);
    for (const t of o.moves || []) {
      const [X, Y] = this.origin(t);
      ctx.fillStyle = rgb(hl.move, 0.85); ctx.beginPath(); ctx.arc(X + px / 2, Y + px / 2, Math.max(3, px * 0.13), 0, 7); ctx.fill();
      ctx.strokeStyle = "#000"; ctx.lineWidth = 1; ctx.stroke();
    }
    for (const a of o.attacks || []) {
      this.outline(a.tile, hl.attack, 3);
      if (a.text) {
        const [X, Y] = this.origin(a.tile);
        ctx.font = `bold ${Math.max(10, Math.floor(px * 0.3))}px sans-serif`; ctx.textAlign = "center"; ctx.textBaseline = "top";
        ctx.lineWidth = 3; ctx.strokeStyle = "#000"; ctx.strokeText(a.text, X + px / 2, Y + 2);
        ctx.fillStyle = rgb(hl.attack); ctx.fillText(a.text, X + px / 2, Y + 2);
      }
    }
    if (o.hover >= 0 && o.hover !== undefined) this.outline(o.hover, [255, 255, 255], 1);
    if (o.selected >= 0 && o.selected !== undefined) this.outline(o.selected, hl.selected, 3);
    if (motion) {
      const s = this.tiles[motion.to];
      if (s && s.unit_type >= 0) {
        const [X0, Y0] = this.origin(motion.from), [X1, Y1] = this.origin(motion.to), f = motion.progress;
        drawUnit(ctx, style, s, X0 + (X1 - X0) * f, Y0 + (Y1 - Y0) * f, px);
      }
    }
  }
  outline(t, color, width, dash) {
    const [X, Y] = this.origin(t), ctx = this.ctx;
    ctx.save(); ctx.strokeStyle = rgb(color); ctx.lineWidth = width; if (dash) ctx.setLineDash(dash);
    ctx.strokeRect(X + width / 2, Y + width / 2, this.px - width, this.px - width); ctx.restore();
  }
  // The last action: its tiles outlined and an arrow from source to target.
  drawLast(last, color) {
    const { ctx, px } = this;
    if (last.source >= 0) this.outline(last.source, color, 2);
    if (last.target >= 0) this.outline(last.target, color, 3);
    if (last.source >= 0 && last.target >= 0 && last.source !== last.target) {
      const [X0, Y0] = this.origin(last.source), [X1, Y1] = this.origin(last.target);
      const ax = X0 + px / 2, ay = Y0 + px / 2, bx = X1 + px / 2, by = Y1 + px / 2, ang = Math.atan2(by - ay, bx - ax), h = Math.max(6, px / 4);
      ctx.save(); ctx.strokeStyle = rgb(color); ctx.fillStyle = rgb(color); ctx.lineWidth = Math.max(2, px / 14);
      ctx.beginPath(); ctx.moveTo(ax, ay); ctx.lineTo(bx - Math.cos(ang) * h * 0.8, by - Math.sin(ang) * h * 0.8); ctx.stroke();
      ctx.beginPath(); ctx.moveTo(bx, by); ctx.lineTo(bx - h * Math.cos(ang - 0.45), by - h * Math.sin(ang - 0.45));
      ctx.lineTo(bx - h * Math.cos(ang + 0.45), by - h * Math.sin(ang + 0.45)); ctx.closePath(); ctx.fill(); ctx.restore();
    }
  }
}

// The tooltip lines of tile t: only what the view holds (a player's view holds only what it may know).
export function tileInfo(view, tiles, style, t) {
  const n = view.map_size, s = tiles[t], who = p => p >= 0 ? `${view.tribes[p]} (p${p})` : "nobody";
  const lines = [`${tileName(t, n)}`];
  if (!s.explored) { lines.push("unexplored"); return lines; }
  lines[0] += " " + (style.terrains[s.terrain] ? style.terrains[s.terrain].name : "?");
  if (s.resource >= 0 && style.resources[s.resource]) lines.push(`resource: ${style.resources[s.resource].name}`);
  if (s.building >= 0 && style.buildings[s.building]) lines.push(`building: ${style.buildings[s.building].name}${s.building_level > 0 ? ", level " + s.building_level : ""}`);
  if (s.road > 0) lines.push("road");
  if (s.territory >= 0) lines.push(`territory of ${who(s.territory)}`);
  if (s.city_level >= 1) {
    const flags = s.city_flags >= 0 ? s.city_flags : 0, extra = [];
    if (flags & style.city_flags.capital) extra.push("capital");
    if (flags & style.city_flags.walls) extra.push("walls");
    let text = `city of ${who(s.city_owner)}, level ${s.city_level}`;
    if (s.city_population >= 0) text += `, population ${s.city_population}/${s.city_level + 1}`;
    if (extra.length) text += `, ${extra.join(", ")}`;
    lines.push(text);
  }
  if (s.unit_type >= 0) {
    const u = style.units[s.unit_type];
    let text = `${u ? u.name : "unit"} of ${who(s.unit_owner)}`;
    if (s.unit_hp >= 0) text += `, ${s.unit_hp}/${s.unit_max_hp} HP`;
    if (s.unit_flags > 0 && (s.unit_flags & style.unit_flags.veteran)) text += ", veteran";
    if (s.unit_kills > 0) text += `, ${s.unit_kills} kills`;
    if (s.unit_carried_type >= 0 && style.units[s.unit_carried_type]) text += `, carrying a ${style.units[s.unit_carried_type].name}`;
    lines.push(text);
  }
  return lines;
}
