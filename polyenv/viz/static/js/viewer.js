// The viewer: one view on the board and the panels, selection by clicks, highlights of the legal
// targets, the tooltip, the last action, a moving unit, the level-up choice and the final screen.
// The live app (app.js) and the standalone replay page (replay.js) both drive it with views.
import { Board, tileInfo, tileName } from "polyenv/board.js";
import { actionButton, el, playerLabel, renderActions, renderLegend, renderLog, renderPlayers, renderTechs } from "polyenv/panels.js";

const $ = id => document.getElementById(id);
const TARGETED = new Set(["move", "attack", "convert"]);

export class Viewer {
  // style: the style table; onAction(action): called when the person picks a legal action.
  // tilePx: a fixed tile size (default: the board is scaled to the window).
  constructor(style, { onAction = null, finalButtons = true, tilePx = null } = {}) {
    this.style = style; this.onAction = onAction; this.finalButtons = finalButtons;
    this.board = new Board($("board"), style);
    this.board.fixedPx = tilePx;
    this.view = null; this.selected = -1; this.hover = -1; this.hoverAction = null; this.busy = false;
    this.log = new Map(); this.logKey = null; this.lastSeq = 0; this.dismissed = null; this.followTo = -1;
    renderLegend($("panel-legend"), style);
    for (const b of document.querySelectorAll("#tabs button")) b.addEventListener("click", () => this.tab(b.dataset.tab));
    const canvas = $("board");
    canvas.addEventListener("click", e => this.click(this.board.tileAt(e)));
    canvas.addEventListener("mousemove", e => this.tooltip(e));
    canvas.addEventListener("mouseleave", () => { $("tooltip").hidden = true; this.hover = -1; this.redraw(); });
    $("end-turn").addEventListener("click", () => { const a = this.find(x => x.kind === "end_turn"); if (a) this.pick(a); });
    $("final-close").addEventListener("click", () => { $("final").hidden = true; this.dismissed = this.finalKey(); });
    window.addEventListener("resize", () => this.fit());
  }

  tab(name) {
    for (const b of document.querySelectorAll("#tabs button")) b.classList.toggle("on", b.dataset.tab === name);
    for (const p of ["actions", "techs", "log", "legend"]) $("panel-" + p).hidden = p !== name;
    if (name === "log") $("panel-log").scrollTop = $("panel-log").scrollHeight;  // the newest entries
  }

  find(test) { return this.view ? this.view.actions.find(test) : undefined; }
  canAct() { return !!this.onAction && !this.busy && this.view && this.view.actions.length > 0; }

  pick(action) {
    if (!this.canAct()) return;
    this.busy = true;
    this.followTo = action.kind === "move" ? action.target : action.kind === "attack" ? action.source : -1;
    this.refreshButtons();
    Promise.resolve(this.onAction(action)).catch(() => {}).finally(() => { this.busy = false; this.refreshButtons(); });
  }

  // Shows a new view (from the server or a replay frame).
  show(view) {
    const previous = this.view;
    this.view = view;
    this.board.setView(view);
    if (!previous || previous.map_size !== view.map_size) this.fit();
    const key = `${view.id}/${view.viewer}/${view.epoch}`;
    if (key !== this.logKey) { this.log = new Map(); this.logKey = key; this.lastSeq = 0; this.selected = -1; }
    const fresh = view.events.filter(e => e.seq > this.lastSeq);
    for (const e of view.events) this.log.set(e.seq, e);
    if (this.log.size > 1500) for (const k of [...this.log.keys()].slice(0, this.log.size - 1500)) this.log.delete(k);
    this.animate(fresh, view);
    if (fresh.length || !previous) renderLog($("panel-log"), [...this.log.values()]);
    this.lastSeq = Math.max(this.lastSeq, ...view.events.map(e => e.seq), 0);
    if (this.followTo >= 0 && view.actions.some(a => a.source === this.followTo)) this.selected = this.followTo;
    else if (this.selected >= 0 && !view.actions.some(a => a.source === this.selected || a.target === this.selected)) this.selected = -1;
    this.followTo = -1;
    renderPlayers($("players"), view, this.style);
    renderActions($("panel-actions"), view, a => this.pick(a), a => { this.hoverAction = a; this.redraw(); });
    renderTechs($("panel-techs"), view, a => this.pick(a));
    this.status();
    this.selection();
    this.levelUp();
    this.final();
    this.refreshButtons();
    this.redraw();
  }

  fit() {
    const wrap = $("board-wrap");
    this.board.fit(wrap.clientWidth - 12, wrap.clientHeight - 12);
    this.redraw();
  }

  status() {
    const v = this.view, who = p => playerLabel(v, p);
    let text = `Turn ${v.turn}/${v.turn_limit}`;
    if (v.game_over) text += ` — game over: ${v.winner >= 0 ? who(v.winner) + " wins" : "a draw"}`;
    else if (v.human !== null && v.human !== undefined && v.current_player === v.human) text += " — your turn";
    else text += ` — ${who(v.current_player)} to move`;
    if (v.viewer === null) text += " — full view"; else if (v.human !== v.viewer) text += ` — view of ${who(v.viewer)}`;
    if (v.paused) text += " — paused";
    $("status").textContent = text;
  }

  refreshButtons() {
    const ok = this.canAct();
    $("end-turn").disabled = !(ok && this.find(a => a.kind === "end_turn"));
    for (const b of document.querySelectorAll("button[data-action]")) b.disabled = !ok;
  }

  // The actions that start from or happen on tile t.
  actionsAt(t) {
    if (!this.view || t < 0) return [];
    return this.view.actions.filter(a => a.source === t || (a.target === t && (a.source < 0 || a.source === t)));
  }

  click(t) {
    if (t < 0 || !this.view) return;
    const s = this.selected;
    if (s >= 0 && t !== s) {
      const hits = this.view.actions.filter(a => a.source === s && a.target === t && TARGETED.has(a.kind));
      if (hits.length === 1 && this.canAct()) { this.pick(hits[0]); return; }
      if (hits.length > 1) { this.selection(hits); return; }
    }
    this.selected = t === s ? -1 : t;
    this.selection();
    this.redraw();
  }

  // The selection panel: the tile, and buttons for what can be done there.
  selection(choices = null) {
    const root = $("selection"), t = this.selected;
    document.body.dataset.selected = String(t);  // the selected tile, for tests and tools
    root.replaceChildren();
    if (t < 0 || !this.view) {
      root.append(el("div", { class: "hint", text: this.view && this.view.actions.length
        ? "Select a unit or a city (outlined): its targets light up; click one to act." : "" }));
      return;
    }
    root.append(el("div", { text: tileInfo(this.view, this.board.tiles, this.style, t).join(" · ") }));
    const here = choices || this.actionsAt(t).filter(a => !TARGETED.has(a.kind));
    const targeted = this.view.actions.filter(a => a.source === t && TARGETED.has(a.kind));
    const list = el("div", { class: "actions" });
    for (const a of here) list.append(actionButton(a, x => this.pick(x), x => { this.hoverAction = x; this.redraw(); }));
    root.append(list);
    if (targeted.length && !choices) root.append(el("div", { class: "hint", text: `${targeted.length} targets on the board: blue dots move, red frames attack.` }));
  }

  levelUp() {
    const dialog = $("levelup"), v = this.view, options = v.actions.filter(a => a.kind === "level_up");
    if (v.pending && options.length && this.onAction) {
      $("levelup-city").textContent = `Your city at ${tileName(v.pending.city, v.map_size)} grew: choose its reward.`;
      $("levelup-options").replaceChildren(...options.map(a => actionButton(a, x => { dialog.close(); this.pick(x); })));
      if (!dialog.open) dialog.showModal();
    } else if (dialog.open) dialog.close();
  }

  finalKey() { return this.view ? `${this.view.id}/${this.view.epoch}` : null; }

  final() {
    const v = this.view, box = $("final");
    if (!v.game_over || !v.result || this.dismissed === this.finalKey()) { box.hidden = true; return; }
    const w = v.result.winner;
    let title = w >= 0 ? `${playerLabel(v, w)} wins` : "A draw";
    if (v.human !== null && v.human !== undefined) title = (w === v.human ? "You win! " : "You lose. ") + title;
    $("final-title").textContent = title;
    const rows = v.result.ranking.map((p, k) => el("tr", {}, el("td", { text: `${k + 1}.` }),
      el("td", { text: playerLabel(v, p) + (v.seats ? ` — ${v.seats[p] === "human" ? "you" : v.seats[p]}` : "") }),
      el("td", { text: `score ${v.result.scores[p]}` })));
    $("final-scores").replaceChildren(...rows);
    $("final-saved").textContent = v.saved ? `Record saved to ${v.saved}` : "";
    for (const id of ["final-download", "final-new"]) $(id).hidden = !this.finalButtons;
    box.hidden = false;
  }

  // A unit slides along the newest visible move; the speed follows the delay between actions.
  animate(fresh, view) {
    const move = [...fresh].reverse().find(e => e.kind === "move" && e.source >= 0 && e.target >= 0);
    const duration = Math.min(350, (view.delay || 0) * 800);
    if (!move || duration < 30) { this.board.motion = null; return; }
    const start = performance.now();
    this.board.motion = { from: move.source, to: move.target, progress: 0 };
    const frame = now => {
      if (!this.board.motion || this.board.motion.to !== move.target) return;
      this.board.motion.progress = Math.min(1, (now - start) / duration);
      if (this.board.motion.progress >= 1) this.board.motion = null;
      this.redraw();
      if (this.board.motion) requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  }

  overlays() {
    const v = this.view, o = { selected: this.selected, hover: this.hover, moves: [], attacks: [], actions: [] };
    const last = [...v.events].reverse().find(e => e.source >= 0 || e.target >= 0);
    if (last) o.last = last;
    const s = this.selected;
    if (s >= 0) {
      for (const a of v.actions) {
        if (a.source !== s || a.target === s) continue;
        if (a.kind === "move") o.moves.push(a.target);
        else if (a.kind === "attack") o.attacks.push({ tile: a.target, text: a.dealt >= 0 ? `-${a.dealt}` : "" });
        else if (a.kind === "convert") o.attacks.push({ tile: a.target, text: "convert" });
      }
    } else if (v.actions.length) {
      const marked = new Set();
      for (const a of v.actions) {
        if (a.group === "unit" || a.kind === "spawn") marked.add(a.source);
        else if (a.target >= 0 && a.source < 0) marked.add(a.target);
      }
      o.actions = [...marked].filter(t => t >= 0);
    }
    const h = this.hoverAction;
    if (h) { if (h.source >= 0) o.actions.push(h.source); if (h.target >= 0) o.actions.push(h.target); }
    return o;
  }

  redraw() {
    if (!this.view) return;
    this.board.overlays = this.overlays();
    this.board.draw();
  }

  tooltip(e) {
    const t = this.board.tileAt(e), tip = $("tooltip");
    if (t !== this.hover) { this.hover = t; this.redraw(); }
    if (t < 0 || !this.view) { tip.hidden = true; return; }
    tip.textContent = tileInfo(this.view, this.board.tiles, this.style, t).join("\n");
    tip.style.left = (e.clientX + 14) + "px"; tip.style.top = (e.clientY + 12) + "px";
    tip.hidden = false;
  }
}
