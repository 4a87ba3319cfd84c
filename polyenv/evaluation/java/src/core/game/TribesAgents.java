package core.game;

import core.actions.Action;
import players.Agent;
import players.RandomAgent;
import players.SimpleAgent;
import players.emcts.EMCTSAgent;
import players.emcts.EMCTSParams;
import players.heuristics.AlgParams;
import players.heuristics.PrunePortfolioHeuristic;
import players.mc.MCParams;
import players.mc.MonteCarloAgent;
import players.mcts.MCTSParams;
import players.mcts.MCTSPlayer;
import players.oep.OEPAgent;
import players.oep.OEPParams;
import players.osla.OSLAParams;
import players.osla.OneStepLookAheadAgent;
import players.portfolio.Portfolio;
import players.portfolio.SimplePortfolio;
import players.portfolioMCTS.PortfolioMCTSParams;
import players.portfolioMCTS.PortfolioMCTSPlayer;
import players.rhea.RHEAAgent;
import players.rhea.RHEAParams;
import utils.ElapsedCpuTimer;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Map;
import java.util.TreeMap;

/**
 * The agents that ship with Tribes, built as the framework's own Run.getAgent builds them, with the settings of
 * its play.json / tournament.json ("Search Depth" 20, "Force End" false, "Rollouts" false, "Population Size" 1,
 * "Pruning" and "Progressive Bias" true, "K init mult" 0.5, "T mult" 2.0, "A mult" 1.5, "B" 1.3) and the
 * budget of AlgParams (2000 forward-model calls per decision) unless the caller overrides them:
 *   fm=N     forward-model calls per decision (STOP_FMCALLS)
 *   ms=N     thread CPU milliseconds per decision (STOP_TIME: the timer passed to act() expires after N ms)
 *   iters=N  iterations per decision (STOP_ITERATIONS)
 *   depth=N  search depth (ROLLOUT_LENGTH / INDIVIDUAL_LENGTH / NODE_SIZE / depth, as Run sets "Search Depth")
 *   pop=N    population size (RHEA, OEP)
 */
final class TribesAgents {
    static final ThreadMXBean BEAN = ManagementFactory.getThreadMXBean();
    static final int SEARCH_DEPTH = 20;

    private TribesAgents() {}

    /** A Tribes agent by name; `settings` is consumed (what is left was not understood). */
    static Agent create(String name, long seed, Map<String, String> settings, Map<String, Object> resolved) {
        switch (name) {
            case "Random": return new RandomAgent(seed);
            case "SimpleAgent": return new SimpleAgent(seed);
            case "OSLA": {
                OSLAParams p = new OSLAParams();
                p.stop_type = p.STOP_FMCALLS;  // an upper bound: OSLA tries every action once
                p.heuristic_method = p.DIFF_HEURISTIC;
                budget(p, settings, resolved, false);
                return new OneStepLookAheadAgent(seed, p);
            }
            case "MC": {
                MCParams p = new MCParams();
                p.stop_type = p.STOP_FMCALLS;
                p.heuristic_method = p.DIFF_HEURISTIC;
                p.PRIORITIZE_ROOT = true;
                p.ROLLOUT_LENGTH = depth(settings, resolved);
                p.FORCE_TURN_END = p.ROLLOUT_LENGTH + 1;  // "Force End" false
                budget(p, settings, resolved, false);
                return new MonteCarloAgent(seed, p);
            }
            case "MCTS": {
                MCTSParams p = new MCTSParams();
                p.stop_type = p.STOP_FMCALLS;
                p.heuristic_method = p.DIFF_HEURISTIC;
                p.PRIORITIZE_ROOT = true;
                p.ROLLOUT_LENGTH = depth(settings, resolved);
                p.FORCE_TURN_END = p.ROLLOUT_LENGTH + 1;
                p.ROLOUTS_ENABLED = false;  // "Rollouts" false
                budget(p, settings, resolved, true);
                return new MCTSPlayer(seed, p);
            }
            case "PMCTS": {
                PortfolioMCTSParams p = new PortfolioMCTSParams();
                p.stop_type = p.STOP_FMCALLS;
                p.heuristic_method = p.DIFF_HEURISTIC;
                p.PRIORITIZE_ROOT = false;
                p.ROLLOUT_LENGTH = depth(settings, resolved);
                p.PRUNING = true;
                p.PROGBIAS = true;
                p.K_init_mult = 0.5;
                p.A_mult = 1.5;
                p.B = 1.3;
                p.T_mult = 2.0;
                Portfolio portfolio = new SimplePortfolio(seed);
                p.setPortfolio(portfolio);
                p.pruneHeuristic = new PrunePortfolioHeuristic(portfolio);
                budget(p, settings, resolved, true);
                return new PortfolioMCTSPlayer(seed, p);
            }
            case "OEP": {
                OEPParams p = new OEPParams();
                p.stop_type = p.STOP_FMCALLS;
                p.heuristic_method = p.DIFF_HEURISTIC;
                if (settings.containsKey("pop")) p.POP_SIZE = positive(settings.remove("pop"), "pop");
                resolved.put("pop", p.POP_SIZE);
                budget(p, settings, resolved, true);
                return new OEPAgent(seed, p);
            }
            case "EMCTS": {
                EMCTSParams p = new EMCTSParams();
                p.stop_type = p.STOP_FMCALLS;
                p.heuristic_method = p.DIFF_HEURISTIC;
                budget(p, settings, resolved, true);
                return new EMCTSAgent(seed, p);
            }
            case "RHEA": {
                RHEAParams p = new RHEAParams();
                p.stop_type = p.STOP_FMCALLS;
                p.heuristic_method = p.DIFF_HEURISTIC;
                p.INDIVIDUAL_LENGTH = depth(settings, resolved);
                p.FORCE_TURN_END = p.INDIVIDUAL_LENGTH + 1;
                p.POP_SIZE = settings.containsKey("pop") ? positive(settings.remove("pop"), "pop") : 1;
                resolved.put("pop", p.POP_SIZE);
                budget(p, settings, resolved, false);
                return new RHEAAgent(seed, p);
            }
            default: throw new IllegalArgumentException("unknown Tribes agent " + name);
        }
    }

    static int positive(String v, String key) {
        int n = Integer.parseInt(v);
        if (n < 1) throw new IllegalArgumentException(key + " must be at least 1, got " + v);
        return n;
    }

    static int depth(Map<String, String> settings, Map<String, Object> resolved) {
        int d = settings.containsKey("depth") ? positive(settings.remove("depth"), "depth") : SEARCH_DEPTH;
        resolved.put("depth", d);
        return d;
    }

    /** One budget of fm / ms / iters (default: AlgParams' num_fmcalls). `timed`: the agent reads the timer. */
    static void budget(AlgParams p, Map<String, String> settings, Map<String, Object> resolved, boolean timed) {
        if (settings.containsKey("fm")) {
            p.stop_type = p.STOP_FMCALLS;
            p.num_fmcalls = positive(settings.remove("fm"), "fm");
        } else if (settings.containsKey("ms")) {
            if (!timed) throw new IllegalArgumentException("this Tribes agent reads no time budget (use fm= or iters=)");
            p.stop_type = p.STOP_TIME;
            p.num_time = positive(settings.remove("ms"), "ms");
        } else if (settings.containsKey("iters")) {
            p.stop_type = p.STOP_ITERATIONS;
            p.num_iterations = positive(settings.remove("iters"), "iters");
        }
        if (p.stop_type == p.STOP_FMCALLS) resolved.put("fm", p.num_fmcalls);
        else if (p.stop_type == p.STOP_TIME) resolved.put("ms", p.num_time);
        else resolved.put("iters", p.num_iterations);
    }

    /** Time budget per decision in ms, or 0 (the agent's stop rule is not the timer). */
    static long timeBudget(Map<String, Object> resolved) {
        Object ms = resolved.get("ms");
        return ms == null ? 0 : ((Integer) ms).longValue();
    }

    /** The agent's action for `view` (its own partially observable copy) and the thread CPU time it took. */
    static Object[] act(Agent agent, GameState view, long budgetMs) {
        ElapsedCpuTimer ect = new ElapsedCpuTimer();
        // Tribes' Game passes a timer of TURN_TIME_MILLIS per turn; a timed budget is given per decision here.
        ect.setMaxTimeMillis(budgetMs > 0 ? budgetMs : core.Constants.TURN_TIME_MILLIS);
        long t0 = BEAN.getCurrentThreadCpuTime();
        Action a = agent.act(view, ect);
        long t1 = BEAN.getCurrentThreadCpuTime();
        return new Object[]{a, (t1 - t0) / 1e6};
    }

    static TreeMap<String, Object> sorted(Map<String, Object> m) { return new TreeMap<>(m); }
}
