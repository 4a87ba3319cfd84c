"""Training loops and the models they use (PyTorch: ``pip install "polyenv[train]"``).

* :mod:`polyenv.train.az_net` — the ``"az"`` policy/value network in PyTorch and its export
  to the native weight file the ``"az"`` bot plays with;
* :mod:`polyenv.train.alphazero` — AlphaZero-style training on the search pools
  (``polyenv train az``).
"""
