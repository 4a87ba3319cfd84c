"""TorchRL: ``PettingZooWrapper(use_mask=True)`` on tribes_aec_v0 and ``GymWrapper`` on TribesVectorEnv."""

import numpy as np
import pytest

pytest.importorskip("torchrl", reason="torchrl is not installed (pip install polyenv[integrations])")

from torchrl.envs import TransformedEnv  # noqa: E402
from torchrl.envs.libs.gym import GymWrapper  # noqa: E402
from torchrl.envs.libs.pettingzoo import PettingZooWrapper  # noqa: E402
from torchrl.envs.transforms import ActionMask  # noqa: E402
from torchrl.envs.utils import check_env_specs  # noqa: E402

from polyenv.envs import tribes_aec_v0  # noqa: E402
from polyenv.vector import TribesVectorEnv  # noqa: E402


@pytest.mark.parametrize("kw", [dict(), dict(action_mode="rows", max_actions=32, observation_format="flat")],
                         ids=["global-dict", "rows-flat"])
def test_pettingzoo_wrapper_with_mask(kw):
    aec = tribes_aec_v0.env(players=2, map_size=8, max_turns=5, **kw)
    env = PettingZooWrapper(env=aec, use_mask=True, categorical_actions=True, seed=0)
    check_env_specs(env)
    td = env.rollout(300, break_when_any_done=False)  # random actions drawn under the mask
    assert td.batch_size[0] == 300
    group = next(iter(env.group_map))
    action, mask = td[group, "action"], td[group, "action_mask"]
    acting = mask.any(-1)
    assert mask.gather(-1, action.unsqueeze(-1)).squeeze(-1)[acting].all()


def test_gym_wrapper_on_the_vector_env():
    # autoreset=False is AutoresetMode.DISABLED, TorchRL's preferred mode: TorchRL resets finished
    # environments itself through reset(options={"reset_mask": ...}).
    vec = TribesVectorEnv(num_envs=4, map_size=8, max_turns=4, action_mode="rows", max_actions=32,
                          observation_format="flat", autoreset=False, seed=0)
    env = TransformedEnv(GymWrapper(vec), ActionMask())
    check_env_specs(env)
    td = env.rollout(300, break_when_any_done=False)
    assert td.batch_size == (4, 300)
    assert td["next", "done"].any(), "some games must finish (and be reset) within 300 steps"
    taken = td["action"].argmax(-1).numpy()
    legal = np.take_along_axis(td["action_mask"].numpy(), taken[..., None], -1)
    assert legal.all()
