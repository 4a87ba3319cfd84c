"""Watching and playing games: the ``polyenv serve`` web app and what it shares with the replays.

* :mod:`polyenv.viz.style`   — colours, glyphs and the legend, one table for every drawing (the web
  viewer, the HTML replay, the GIF / MP4 frames).
* :mod:`polyenv.viz.labels`  — a readable name for every legal action and every visible event, and the
  unit / city / tech / other grouping (the web app and the terminal player).
* :mod:`polyenv.viz.view`    — the JSON view of a game for one viewer, built only from that viewer's
  fog-safe channels (map tokens, state, action rows, event journal).
* :mod:`polyenv.viz.record`  — the game-record file (``polyenv play --save``, ``replay``, the web
  app's downloads): its format, loading and checking, and the game a record's configuration makes.
* :mod:`polyenv.viz.session` — a live game: seats (a person or a bot), the bot runner, the position
  token, records.
* :mod:`polyenv.viz.server`  — the Starlette app and ``polyenv serve``.

The browser side is plain JavaScript modules under ``static/`` (no build step).
"""
