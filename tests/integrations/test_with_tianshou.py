"""Tianshou 2.x: tribes_aec_v0 through ``tianshou.env.PettingZooEnv`` and a masked random collector."""

import pytest

pytest.importorskip("tianshou", reason="tianshou is not installed (pip install polyenv[integrations])")

from tianshou.algorithm.multiagent.marl import MultiAgentPolicy  # noqa: E402
from tianshou.algorithm.random import MARLRandomDiscreteMaskedOffPolicyAlgorithm  # noqa: E402
from tianshou.data import Collector, VectorReplayBuffer  # noqa: E402
from tianshou.env import DummyVectorEnv, PettingZooEnv  # noqa: E402

from polyenv.envs import tribes_aec_v0  # noqa: E402


def collect(steps, **kw):
    make = lambda: PettingZooEnv(tribes_aec_v0.env(players=2, map_size=8, max_turns=6, **kw))  # noqa: E731
    env = make()
    policy = MultiAgentPolicy({a: MARLRandomDiscreteMaskedOffPolicyAlgorithm.Policy(env.action_space)
                               for a in env.agents})
    buffer = VectorReplayBuffer(steps + 50, 2)
    collector = Collector(policy, DummyVectorEnv([make, make]), buffer)
    collector.reset()
    result = collector.collect(n_step=steps)
    return result, buffer


@pytest.mark.parametrize("kw", [dict(), dict(action_mode="rows", max_actions=48, observation_format="flat")],
                         ids=["global-dict", "rows-flat"])
def test_masked_random_collect(kw):
    result, buffer = collect(300, **kw)
    assert result.n_collected_steps >= 300 and len(buffer) >= 300
    data = buffer.sample(0)[0]
    assert data.obs.mask[range(len(data)), data.act].all(), "every stored action must be legal under its mask"
