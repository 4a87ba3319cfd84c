package core.game;

import core.Types;
import core.actions.Action;
import core.actions.cityactions.*;
import core.actions.tribeactions.*;
import core.actions.unitactions.*;
import core.actors.City;
import core.actors.Tribe;
import core.actors.units.Unit;
import utils.Vector2d;

import java.io.*;
import java.nio.charset.StandardCharsets;
import java.util.*;

/**
 * Lockstep driver for polyenv (polyenv.evaluation.java: the differential test and Java agents as players).
 *
 * Lives in package core.game only to reach GameState's package-private init/initTurn/incTick/copy(int) methods
 * (the same entry points the framework's Game loop and AnchorBench use). One JVM serves many games.
 * Protocol: one command per stdin line, one JSON reply per stdout line.
 *   load PATH MODE SEED   - load a level CSV (MODE = CAPITALS | SCORE; SEED seeds the game's Random)
 *   step I                - play action I of the last reported legal-action list
 *   replay PATH MODE SEED I1 I2 ...
 *                         - load, then play those action indices in turn without reporting in between (to take an
 *                           action back: the game's Random is seeded, so the same indices give the same game)
 *   truemoves             - {"moves": [[source, destination], ...]}: the active tribe's moves found by an exact
 *                           shortest-path search over the same StepMove costs (Tribes' own Pathfinder lowers a
 *                           visited node's cost without re-expanding it, so its reach depends on visiting order)
 *   agent P SEED NAME [key=value ...]
 *                         - tribe P of the loaded game is played by the Tribes agent NAME (TribesAgents)
 *                           -> {"agent": NAME, "settings": {...}} (every setting in effect)
 *   act                   - the active tribe's agent chooses from its own copy of the state (GameState.copy(P),
 *                           as the framework's Game gives it) -> {"index": I, "cpu_ms": T}: I indexes the last
 *                           reported list, T is the thread CPU time of the decision; I = -1 (and "refused": the
 *                           action) when the agent chose an action the state does not allow, which Tribes' Game
 *                           applies as nothing before it asks again
 *   warmup PATH N NAME [key=value ...]
 *                         - N decisions of that agent for every tribe of a throwaway game on level PATH (JIT
 *                           warm-up); the loaded game is kept -> {"cpu_ms": total}
 *   quit
 * Every state reply is the full state plus the legal actions, each as [kind, source tile, target tile, arg,
 * amount] with tiles as x * N + y (-1 when not applicable), and the random draws of the last step (DiffHooks:
 * meetings and explorer steps; "draws" is true in the fog build, which records them). With fog (a build with PLAY_WITH_FULL_OBS false)
 * each tribe also lists the tribes it met and its explored tiles. The tick is incremented just before the End
 * Turn that closes a round (the forward-model convention of the framework's own AnchorBench harness).
 */
public class DiffDriver {
    static GameState gs;
    static ArrayList<Action> acts = new ArrayList<>();
    static int N;
    static final boolean FOG = !core.Constants.PLAY_WITH_FULL_OBS;
    static players.Agent[] agents = new players.Agent[0];
    static long[] budgets = new long[0];

    public static void main(String[] args) throws IOException {
        PrintStream realOut = new PrintStream(new FileOutputStream(FileDescriptor.out), false, "UTF-8");
        System.setOut(new PrintStream(OutputStream.nullOutputStream()));  // Tribes prints diagnostics
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            String[] p = line.trim().split(" ");
            String reply;
            try {
                switch (p[0]) {
                    case "load": reply = load(p[1], p[2], Long.parseLong(p[3])); break;
                    case "step": reply = step(Integer.parseInt(p[1])); break;
                    case "replay": reply = replay(p); break;
                    case "truemoves": reply = trueMoves(); break;
                    case "agent": reply = agent(p); break;
                    case "act": reply = act(); break;
                    case "warmup": reply = warmup(p); break;
                    case "quit": return;
                    default: reply = "{\"error\":\"unknown command\"}";
                }
            } catch (Exception e) {
                StringWriter sw = new StringWriter();
                e.printStackTrace(new PrintWriter(sw));
                reply = "{\"error\":" + quote(sw.toString()) + "}";
            }
            realOut.println(reply);
            realOut.flush();
        }
    }

    static String load(String path, String mode, long seed) {
        DiffHooks.clear();
        DiffHooks.enabled = true;
        try {
            gs = new GameState(new Random(seed), Types.GAME_MODE.valueOf(mode));
            gs.init(path);
            N = gs.getBoard().getSize();
            Tribe first = gs.getTribes()[0];
            gs.initTurn(first);
            gs.computePlayerActions(first);
        } finally {
            DiffHooks.enabled = false;
        }
        agents = new players.Agent[gs.getTribes().length];
        budgets = new long[agents.length];
        return report();
    }

    static String replay(String[] p) throws ReflectiveOperationException {
        load(p[1], p[2], Long.parseLong(p[3]));
        for (int k = 4; k < p.length; k++) {
            stepQuietly(Integer.parseInt(p[k]));
            acts = gs.isGameOver() ? new ArrayList<>() : gs.getAllAvailableActions();
        }
        DiffHooks.clear();
        return report();
    }

    static String agent(String[] p) {
        int player = Integer.parseInt(p[1]);
        if (gs == null || player < 0 || player >= agents.length) throw new IllegalArgumentException("no tribe " + player);
        HashMap<String, String> settings = settings(p, 4);
        HashMap<String, Object> resolved = new HashMap<>();
        players.Agent a = TribesAgents.create(p[3], Long.parseLong(p[2]), settings, resolved);
        if (!settings.isEmpty()) throw new IllegalArgumentException("agent " + p[3] + " takes no setting " + settings.keySet());
        ArrayList<Integer> ids = new ArrayList<>();
        for (int i = 0; i < agents.length; i++) ids.add(i);
        a.setPlayerIDs(player, ids);
        agents[player] = a;
        budgets[player] = TribesAgents.timeBudget(resolved);
        StringBuilder b = new StringBuilder("{\"agent\":").append(quote(p[3])).append(",\"settings\":{");
        for (Map.Entry<String, Object> e : TribesAgents.sorted(resolved).entrySet())
            b.append(quote(e.getKey())).append(':').append(e.getValue()).append(',');
        if (!resolved.isEmpty()) b.setLength(b.length() - 1);
        return b.append("}}").toString();
    }

    static HashMap<String, String> settings(String[] p, int from) {
        HashMap<String, String> settings = new HashMap<>();
        for (int i = from; i < p.length; i++) {
            String[] kv = p[i].split("=", 2);
            if (kv.length != 2 || settings.put(kv[0], kv[1]) != null) throw new IllegalArgumentException("bad setting " + p[i]);
        }
        return settings;
    }

    static String act() {
        int player = gs.getActiveTribeID();
        players.Agent a = player < agents.length ? agents[player] : null;
        if (a == null) throw new IllegalStateException("tribe " + player + " has no agent");
        if (gs.isGameOver()) throw new IllegalStateException("the game is over");
        Object[] chosen = TribesAgents.act(a, gs.copy(player), budgets[player]);
        Action action = (Action) chosen[0];
        int index = find(action);
        if (index >= 0) return "{\"index\":" + index + ",\"cpu_ms\":" + chosen[1] + "}";
        // Tribes' Game applies an action the state does not allow as nothing (its command refuses it) and
        // asks the agent again: so does the caller, told so here.
        StringBuilder b = new StringBuilder();
        if (action != null) describe(b, action);
        return "{\"index\":-1,\"cpu_ms\":" + chosen[1] + ",\"refused\":" + quote(b.toString()) + "}";
    }

    /** Index of `chosen` (an action of a copy) in the real game's list, matched by description; -1 if absent. */
    static int find(Action chosen) {
        if (chosen == null) return -1;
        StringBuilder want = new StringBuilder();
        describe(want, chosen);
        for (int i = 0; i < acts.size(); i++) {
            StringBuilder b = new StringBuilder();
            describe(b, acts.get(i));
            if (b.toString().equals(want.toString())) return i;
        }
        return -1;
    }


    static String warmup(String[] p) throws ReflectiveOperationException {
        GameState saved = gs;
        ArrayList<Action> savedActs = acts;
        players.Agent[] savedAgents = agents;
        long[] savedBudgets = budgets;
        int savedN = N;
        double total = 0;
        try {
            gs = new GameState(new Random(1), Types.GAME_MODE.CAPITALS);
            gs.init(p[1]);
            N = gs.getBoard().getSize();
            gs.initTurn(gs.getTribes()[0]);
            gs.computePlayerActions(gs.getTribes()[0]);
            acts = gs.getAllAvailableActions();
            int n = Integer.parseInt(p[2]);
            players.Agent[] mine = new players.Agent[gs.getTribes().length];
            long budget = 0;
            ArrayList<Integer> ids = new ArrayList<>();
            for (int i = 0; i < mine.length; i++) ids.add(i);
            for (int i = 0; i < mine.length; i++) {
                HashMap<String, Object> resolved = new HashMap<>();
                mine[i] = TribesAgents.create(p[3], i + 1, settings(p, 4), resolved);
                mine[i].setPlayerIDs(i, ids);
                budget = TribesAgents.timeBudget(resolved);
            }
            for (int k = 0; k < n && !gs.isGameOver(); k++) {
                int player = gs.getActiveTribeID();
                Object[] chosen = TribesAgents.act(mine[player], gs.copy(player), budget);
                total += (Double) chosen[1];
                int index = find((Action) chosen[0]);
                if (index >= 0) stepQuietly(index);  // a refused action changes nothing (see act)
                acts = gs.isGameOver() ? new ArrayList<>() : gs.getAllAvailableActions();
            }
        } finally {
            gs = saved;
            acts = savedActs;
            agents = savedAgents;
            budgets = savedBudgets;
            N = savedN;
        }
        return "{\"cpu_ms\":" + total + "}";
    }

    static boolean endTurnWraps() {
        int cur = gs.getActiveTribeID();
        int n = gs.getTribes().length;
        int j = cur;
        do { j = (j + 1) % n; } while (j != cur && gs.getTribe(j).getWinner() == Types.RESULT.LOSS);
        return j <= cur;
    }

    static String step(int i) throws ReflectiveOperationException {
        DiffHooks.clear();
        DiffHooks.enabled = true;
        try {
            stepQuietly(i);
        } finally {
            DiffHooks.enabled = false;
        }
        return report();
    }

    static void stepQuietly(int i) throws ReflectiveOperationException {
        Action a = acts.get(i);
        boolean wrapped = a.getActionType() == Types.ACTION.END_TURN && endTurnWraps();
        int alive = 0;
        for (Tribe t : gs.getTribes()) if (t.getWinner() != Types.RESULT.LOSS) alive++;
        if (wrapped) gs.incTick();
        gs.advance(a, true);
        // The framework's Game loop checks for the end of the game before it increments the tick: a game that
        // ends at this End Turn for another reason than the turn limit ends in the round it was played in.
        if (wrapped && gs.isGameOver() && (alive <= 1 || someoneHoldsEveryCapital())) {
            java.lang.reflect.Field f = GameState.class.getDeclaredField("tick");
            f.setAccessible(true);
            f.setInt(gs, gs.getTick() - 1);
        }
    }

    static String trueMoves() {
        Board board = gs.getBoard();
        StringBuilder b = new StringBuilder("{\"moves\":[");
        boolean any = false;
        for (int unitId : gs.getUnitActions().keySet()) {
            Unit u = (Unit) gs.getActor(unitId);
            if (u == null || !u.canMove()) continue;
            core.actions.unitactions.StepMove sm = new core.actions.unitactions.StepMove(gs, u);
            int start = tile(u.getPosition());
            HashMap<Integer, Double> best = new HashMap<>();
            PriorityQueue<double[]> open = new PriorityQueue<>((p1, p2) -> Double.compare(p1[0], p2[0]));
            best.put(start, 0.0);
            open.add(new double[]{0.0, start});
            while (!open.isEmpty()) {
                double[] top = open.poll();
                int t = (int) top[1];
                if (top[0] > best.get(t)) continue;
                for (utils.graph.PathNode nb : sm.getNeighbours(new Vector2d(t / N, t % N), top[0])) {
                    int nt = nb.getX() * N + nb.getY();
                    double c = top[0] + nb.getTotalCost();
                    if (c < best.getOrDefault(nt, Double.MAX_VALUE)) { best.put(nt, c); open.add(new double[]{c, nt}); }
                }
            }
            for (int t : best.keySet()) {
                if (t == start || board.getUnitAt(t / N, t % N) != null) continue;
                b.append('[').append(start).append(',').append(t).append(',').append(best.get(t)).append("],");
                any = true;
            }
        }
        if (any) b.setLength(b.length() - 1);
        return b.append("]}").toString();
    }

    static boolean someoneHoldsEveryCapital() {
        if (gs.getGameMode() != Types.GAME_MODE.CAPITALS) return false;
        for (Tribe t : gs.getTribes()) {
            boolean all = true;
            for (int cap : gs.getBoard().getCapitalIDs()) all &= t.getCitiesID().contains(cap);
            if (all) return true;
        }
        return false;
    }

    static int tile(Vector2d v) { return v == null ? -1 : v.x * N + v.y; }
    static int actorTile(int id) {
        if (id < 0) return -1;
        core.actors.Actor ac = gs.getActor(id);
        return ac == null ? -1 : tile(ac.getPosition());
    }

    static String quote(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') b.append('\\').append(c);
            else if (c == '\n') b.append("\\n");
            else if (c < 32) b.append(' ');
            else b.append(c);
        }
        return b.append('"').toString();
    }

    static void act(StringBuilder b, String kind, int src, int tgt, Object arg, int amount) {
        b.append("[\"").append(kind).append("\",").append(src).append(',').append(tgt).append(',');
        if (arg instanceof String) b.append('"').append(arg).append('"'); else b.append(arg);
        b.append(',').append(amount).append("],");
    }

    static String report() {
        Board board = gs.getBoard();
        StringBuilder b = new StringBuilder(8192);
        b.append("{\"tick\":").append(gs.getTick()).append(",\"active\":").append(gs.getActiveTribeID())
         .append(",\"over\":").append(gs.isGameOver());
        int winner = -1;
        Tribe[] tribes = gs.getTribes();
        for (Tribe t : tribes) if (gs.isGameOver() && t.getWinner() == Types.RESULT.WIN) winner = t.getTribeId();
        b.append(",\"winner\":").append(winner).append(",\"tribes\":[");
        for (Tribe t : tribes) {
            long techs = 0;
            for (Types.TECHNOLOGY tech : Types.TECHNOLOGY.values())
                if (t.getTechTree().isResearched(tech)) techs |= 1L << tech.ordinal();
            b.append("{\"stars\":").append(t.getStars()).append(",\"score\":").append(t.getScore())
             .append(",\"techs\":").append(techs).append(",\"kills\":").append(t.getnKills())
             .append(",\"cities\":").append(t.getNumCities()).append(",\"result\":\"").append(t.getWinner())
             .append("\",\"wars\":").append(t.getnWarsDeclared()).append(",\"sent\":").append(t.getnStarsSent())
             .append(",\"capital\":").append(actorTile(t.getCapitalID()))
             .append(",\"allegiance\":").append(Arrays.toString(board.getDiplomacy().getAllegianceStatus()[t.getTribeId()]).replace(" ", ""))
             .append(",\"monuments\":[");
            ArrayList<String> avail = new ArrayList<>();
            for (Map.Entry<Types.BUILDING, Types.BUILDING.MONUMENT_STATUS> e : t.getMonuments().entrySet())
                if (e.getValue() == Types.BUILDING.MONUMENT_STATUS.AVAILABLE) avail.add('"' + e.getKey().name() + '"');
            Collections.sort(avail);
            b.append(String.join(",", avail)).append(']');
            if (FOG) {
                b.append(",\"met\":").append(t.getTribesMet().toString().replace(" ", "")).append(",\"explored\":\"");
                for (int x = 0; x < N; x++) for (int y = 0; y < N; y++) b.append(t.isVisible(x, y) ? '1' : '0');
                b.append('"');
            }
            b.append("},");
        }
        b.setLength(b.length() - 1);
        b.append("],\"units\":[");
        int[][] units = board.getUnits();
        boolean any = false;
        for (int x = 0; x < N; x++) for (int y = 0; y < N; y++) {
            if (units[x][y] <= 0) continue;
            Unit u = (Unit) gs.getActor(units[x][y]);
            if (u == null) continue;
            Types.UNIT carried = null;
            Types.UNIT ty = u.getType();
            if (ty == Types.UNIT.BOAT || ty == Types.UNIT.SHIP || ty == Types.UNIT.BATTLESHIP) carried = board.getBaseLandUnit(u);
            b.append("[").append(x * N + y).append(',').append(u.getTribeId()).append(',').append(ty.ordinal())
             .append(',').append(u.getCurrentHP()).append(',').append(u.getMaxHP()).append(',').append(u.getStatus().ordinal())
             .append(',').append(u.getKills()).append(',').append(u.isVeteran() ? 1 : 0)
             .append(',').append(actorTile(u.getCityId())).append(',').append(carried == null ? -1 : carried.ordinal()).append("],");
            any = true;
        }
        if (any) b.setLength(b.length() - 1);
        b.append("],\"cities\":[");
        any = false;
        for (Tribe t : tribes) for (int cid : t.getCitiesID()) {
            City c = (City) gs.getActor(cid);
            b.append("[").append(tile(c.getPosition())).append(',').append(c.getTribeId()).append(',').append(c.getLevel())
             .append(',').append(c.getPopulation()).append(',').append(c.getProduction()).append(',').append(c.isCapital() ? 1 : 0)
             .append(',').append(c.hasWalls() ? 1 : 0).append(',').append(c.getBound()).append(',').append(c.getPointsWorth())
             .append(',').append(c.getUnitsID().size()).append("],");
            any = true;
        }
        if (any) b.setLength(b.length() - 1);
        // Tiles: terrain ordinal, resource key (-1 none), building name, road, territory city tile.
        b.append("],\"terrain\":[");
        for (int x = 0; x < N; x++) for (int y = 0; y < N; y++) b.append(board.getTerrainAt(x, y).ordinal()).append(',');
        b.setLength(b.length() - 1);
        b.append("],\"resource\":[");
        for (int x = 0; x < N; x++) for (int y = 0; y < N; y++) {
            Types.RESOURCE r = board.getResourceAt(x, y);
            b.append(r == null ? -1 : r.getKey()).append(',');
        }
        b.setLength(b.length() - 1);
        b.append("],\"building\":[");
        for (int x = 0; x < N; x++) for (int y = 0; y < N; y++) {
            Types.BUILDING bu = board.getBuildingAt(x, y);
            b.append(bu == null ? "\"\"" : "\"" + bu.name() + "\"").append(',');
        }
        b.setLength(b.length() - 1);
        b.append("],\"road\":[");
        for (int x = 0; x < N; x++) for (int y = 0; y < N; y++) b.append(board.isRoad(x, y) ? 1 : 0).append(',');
        b.setLength(b.length() - 1);
        b.append("],\"territory\":[");
        for (int x = 0; x < N; x++) for (int y = 0; y < N; y++) b.append(actorTile(board.getCityIdAt(x, y))).append(',');
        b.setLength(b.length() - 1);
        b.append("],\"fog\":").append(FOG).append(",\"draws\":").append(FOG).append(",\"meetings\":[");
        for (int[] m : DiffHooks.meetings) b.append('[').append(m[0]).append(',').append(m[1]).append(',').append(m[2]).append("],");
        if (!DiffHooks.meetings.isEmpty()) b.setLength(b.length() - 1);
        b.append("],\"explorer\":[");
        for (int[] e : DiffHooks.explorer) b.append('[').append(e[0]).append(',').append(e[1] * N + e[2]).append("],");
        if (!DiffHooks.explorer.isEmpty()) b.setLength(b.length() - 1);
        b.append("],\"actions\":[");
        acts = gs.isGameOver() ? new ArrayList<>() : gs.getAllAvailableActions();
        for (Action a : acts) describe(b, a);
        if (!acts.isEmpty()) b.setLength(b.length() - 1);
        b.append("]}");
        return b.toString();
    }

    static void describe(StringBuilder b, Action a) {
        Types.ACTION k = a.getActionType();
        String kind = k.name();
        if (a instanceof UnitAction) {
            int src = actorTile(((UnitAction) a).getUnitId());
            if (a instanceof Attack) act(b, kind, src, actorTile(((Attack) a).getTargetId()), -1, 0);
            else if (a instanceof Convert) act(b, kind, src, actorTile(((Convert) a).getTargetId()), -1, 0);
            else if (a instanceof Move) act(b, kind, src, tile(((Move) a).getDestination()), -1, 0);
            else act(b, kind, src, -1, -1, 0);
        } else if (a instanceof CityAction) {
            CityAction ca = (CityAction) a;
            int src = actorTile(ca.getCityId());
            int tgt = tile(ca.getTargetPos());
            if (a instanceof Build) act(b, kind, src, tgt, ((Build) a).getBuildingType().name(), 0);
            else if (a instanceof Spawn) act(b, kind, src, -1, ((Spawn) a).getUnitType().ordinal(), 0);
            else if (a instanceof LevelUp) act(b, kind, src, -1, ((LevelUp) a).getBonus().ordinal(), 0);
            else if (a instanceof ResourceGathering) act(b, kind, src, tgt, ((ResourceGathering) a).getResource().getKey(), 0);
            else act(b, kind, src, tgt, -1, 0);
        } else {
            if (a instanceof ResearchTech) act(b, kind, -1, -1, ((ResearchTech) a).getTech().ordinal(), 0);
            else if (a instanceof DeclareWar) act(b, kind, -1, -1, ((DeclareWar) a).getTargetID(), 0);
            else if (a instanceof SendStars) act(b, kind, -1, -1, ((SendStars) a).getTargetID(), ((SendStars) a).getNumStars());
            else if (a instanceof BuildRoad) act(b, kind, -1, tile(((BuildRoad) a).getPosition()), -1, 0);
            else act(b, kind, -1, -1, -1, 0);
        }
    }
}
