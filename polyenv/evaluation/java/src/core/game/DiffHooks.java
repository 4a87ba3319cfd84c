package core.game;

import java.util.ArrayList;

/**
 * Records the random draws of the Java engine that polyenv must be given to stay in lockstep
 * (polyenv.evaluation.java.build inserts the two calls into the fog build's Tribe.meetTribe and Board.launchExplorer;
 * they only record, the engine's behaviour is unchanged).
 *
 * Recording is on only while DiffDriver applies an action to the real game, so the agents' forward-model
 * searches, which run the same code on copies, leave nothing here.
 */
public final class DiffHooks {
    static boolean enabled = false;
    /** [tribe, met tribe, tech ordinal drawn] per meeting with something to draw, in order. */
    static final ArrayList<int[]> meetings = new ArrayList<>();
    /** [tribe, x, y] per explorer step taken, in order. */
    static final ArrayList<int[]> explorer = new ArrayList<>();

    private DiffHooks() {}

    /** Tribe.meetTribe drew `tech` for `tribe` from the techs of `met` (before doResearch accepts or refuses it). */
    public static void meeting(int tribe, int met, core.Types.TECHNOLOGY tech) {
        if (enabled) meetings.add(new int[]{tribe, met, tech.ordinal()});
    }

    /** Board.launchExplorer moved the explorer of `tribe` to (x, y). */
    public static void explorerStep(int tribe, int x, int y) {
        if (enabled) explorer.add(new int[]{tribe, x, y});
    }

    static void clear() {
        meetings.clear();
        explorer.clear();
    }
}
