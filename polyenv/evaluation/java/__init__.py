"""The Java Tribes framework next to polyenv: lockstep games in both engines and Tribes' agents as players.

Needs a JDK (17 or later) and a copy of GAIGResearch/Tribes given by path; nothing of Tribes is part of
polyenv. The pieces:

* :mod:`~polyenv.evaluation.java.build` compiles Tribes (as it is, or its fog-of-war build) and the driver into a cache.
* :mod:`~polyenv.evaluation.java.driver` runs the driver JVM (one per worker, serving many games).
* :mod:`~polyenv.evaluation.java.canon` maps actions and states of both engines to one neutral form.
* :mod:`~polyenv.evaluation.java.known` explains the known differences between them.
* :mod:`~polyenv.evaluation.java.lockstep` plays one game in both engines, compared after every action.
* :mod:`~polyenv.evaluation.java.crossplay` plays games between Tribes' agents (``"java:MCTS"``, ...) and polyenv's
  players on top of the lockstep game (used by ``polyenv tournament --tribes PATH``).

``tools/differential`` (the differential test) is built on the same modules.
"""
