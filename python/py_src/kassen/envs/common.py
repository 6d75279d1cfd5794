"""What every kassen env shares: the mask dtype, the illegal-action policy, observation bounds
and chance sampling."""

from __future__ import annotations

import functools
from typing import Dict, Optional, Tuple

import numpy as np

from kassen._kassen import Game, State

#: The dtype of every action mask the envs return (``info["action_mask"]``,
#: ``action_masks()``, the AEC ``"action_mask"`` observation, the vector env's masks):
#: int8 0/1, as sb3-contrib's MaskablePPO and PettingZoo's examples expect.
MASK_DTYPE = np.int8

#: What an env does with an action id that is not legal for the seat to act:
#: ``"raise"``: ``IllegalActionError`` (code 200; 201 for an id out of range), the env unchanged;
#: ``"penalize"``: the episode ends (``terminated=True``) with the penalty reward for the
#: offending seat and 0 for the others; the game state is left as it was.
ILLEGAL_ACTION_POLICIES = ("raise", "penalize")

#: The default policy: ``"penalize"``, so that the checkers of Gymnasium, Stable-Baselines3
#: and PettingZoo, which step with unmasked random actions, run the env as shipped.
DEFAULT_ILLEGAL_ACTION = "penalize"

__all__ = [
    "MASK_DTYPE",
    "ILLEGAL_ACTION_POLICIES",
    "DEFAULT_ILLEGAL_ACTION",
    "check_illegal_action",
    "utility_range",
    "illegal_action_penalty",
    "FALLBACK_PENALTY",
    "observation_bounds",
    "sample_chance",
    "sample_legal_actions",
    "sample_legal_ids",
]


def check_illegal_action(policy: str) -> str:
    if policy not in ILLEGAL_ACTION_POLICIES:
        raise ValueError(f"illegal_action must be one of {ILLEGAL_ACTION_POLICIES}, not {policy!r}")
    return policy


#: The illegal-action penalty of a game that declares no utility range.
FALLBACK_PENALTY = -1.0


def utility_range(game: Game) -> Optional[Tuple[float, float]]:
    """(min, max) of a seat's return, from the game's declared utility (None: not declared)."""
    utility = game.info().get("utility")
    if utility is None:
        return None
    return float(utility["min"]), float(utility["max"])


def illegal_action_penalty(game: Game, penalty: Optional[float]) -> float:
    """``penalty``, or by default the worst return a seat can get in the game
    (:data:`FALLBACK_PENALTY` if the game declares no utility)."""
    if penalty is not None:
        return float(penalty)
    declared = utility_range(game)
    return FALLBACK_PENALTY if declared is None else declared[0]


def observation_bounds(game: Game) -> Tuple[np.ndarray, np.ndarray]:
    """Per-element (low, high) of ``observation_tensor``, float32 arrays of its shape, from the
    game's declared observation layout (named feature ranges that cover the tensor); unbounded
    for a game that declares none."""
    shape = tuple(game.observation_shape())
    layout = game.info().get("observation_layout")
    if layout is None:
        return np.full(shape, -np.inf, dtype=np.float32), np.full(shape, np.inf, dtype=np.float32)
    size = int(np.prod(shape))
    low = np.full(size, np.nan, dtype=np.float32)
    high = np.full(size, np.nan, dtype=np.float32)
    for feature in layout:
        start, stop = int(feature["offset"]), int(feature["offset"]) + int(feature["length"])
        low[start:stop] = feature["low"]
        high[start:stop] = feature["high"]
    if np.isnan(low).any() or np.isnan(high).any():
        raise ValueError(f"{game.id}: the observation layout does not cover the tensor")
    return low.reshape(shape), high.reshape(shape)


#: The observations an environment can give: ``"compact"`` (the default) or ``"tensor"``.
OBSERVATIONS = ("compact", "tensor")


def check_observation(observation: str) -> str:
    if observation not in OBSERVATIONS:
        raise ValueError(f"observation must be one of {OBSERVATIONS}, not {observation!r}")
    return observation


def compact_bounds(game: Game) -> Tuple[np.ndarray, np.ndarray]:
    """Per-byte (low, high) of ``compact_observation``, uint8 arrays of ``compact_len()``
    bytes, from the game's compact layout: a byte field's declared maximum, the used bits
    of a bit field's last byte, the high byte of a uint16 field's maximum; 255 elsewhere."""
    size = game.compact_len()
    low = np.zeros(size, dtype=np.uint8)
    high = np.full(size, 255, dtype=np.uint8)
    for f in game.compact_layout():
        start, count = int(f["offset"]), int(np.prod(f["shape"]))
        if f["dtype"] == "uint8":
            high[start:start + count] = min(int(f["high"]), 255)
        elif f["dtype"] == "bits" and count % 8:
            high[start + int(f["bytes"]) - 1] = (1 << (count % 8)) - 1
        elif f["dtype"] == "uint16":
            high[start + 1:start + 2 * count:2] = min(int(f["high"]) >> 8, 255)
    return low, high


def compact_fields(game: Game, obs: np.ndarray) -> Dict[str, np.ndarray]:
    """The fields of compact observations ``obs`` (uint8, last axis ``compact_len()``, any
    leading axes: one observation or a batch) as arrays of their shapes: bits unpacked to
    0/1 uint8, uint16 and int16 fields as those types, records as their raw bytes."""
    obs = np.asarray(obs, dtype=np.uint8)
    lead = obs.shape[:-1]
    out: Dict[str, np.ndarray] = {}
    for f in game.compact_layout():
        raw = obs[..., int(f["offset"]):int(f["offset"]) + int(f["bytes"])]
        shape = tuple(int(x) for x in f["shape"])
        count = int(np.prod(shape))
        if f["dtype"] == "bits":
            out[f["name"]] = np.unpackbits(raw, axis=-1, count=count, bitorder="little").reshape(lead + shape)
        elif f["dtype"] in ("uint16", "int16"):
            dtype = "<u2" if f["dtype"] == "uint16" else "<i2"
            out[f["name"]] = np.ascontiguousarray(raw).view(dtype).reshape(lead + shape)
        else:
            out[f["name"]] = raw.reshape(lead + shape)
    return out


def sample_legal_actions(masks: np.ndarray, rng: np.random.Generator, *,
                         empty: Optional[int] = None) -> np.ndarray:
    """One uniformly random legal action per row of ``masks`` (0/1 of any 1-byte dtype: bool,
    int8 or uint8), in numpy. Masks are sparse: the nonzero bytes are found 8 at a time (as
    uint64 words).

    A row without a legal action (the mask of an episode that just ended, as Gymnasium's
    ``SyncVectorEnv`` hands out until its next-step autoreset, which ignores that env's
    action) raises ``ValueError`` naming the rows, unless ``empty`` gives the action id to
    put there (any id: e.g. ``empty=0`` under next-step autoreset)."""
    masks = np.asarray(masks)
    if masks.ndim != 2 or masks.dtype.itemsize != 1:
        raise ValueError(f"masks must be a 2-d array of 1-byte 0/1 values, not {masks.dtype} of shape {masks.shape}")
    n, num_actions = masks.shape
    flat = np.ascontiguousarray(masks).reshape(-1).view(np.uint8)
    if flat.size % 8 == 0:
        words = np.flatnonzero(flat.view(np.uint64))
        candidates = (words[:, None] * 8 + np.arange(8)).reshape(-1)
        hits = candidates[flat[candidates] != 0]
    else:
        hits = np.flatnonzero(flat)
    rows, cols = np.divmod(hits, num_actions)
    counts = np.bincount(rows, minlength=n)
    starts = np.cumsum(counts) - counts
    picks = (rng.random(n) * counts).astype(np.int64)
    none = counts == 0
    if not none.any():
        return cols[starts + picks]
    if empty is None:
        rows_without = np.flatnonzero(none)
        shown = ", ".join(str(r) for r in rows_without[:10]) + (", ..." if rows_without.size > 10 else "")
        raise ValueError(
            f"{rows_without.size} of {n} mask rows have no legal action (rows {shown}): an episode that "
            "just ended (Gymnasium's SyncVectorEnv resets it at the next step and ignores its action); "
            "pass empty=<action id> to fill those rows")
    out = np.full(n, int(empty), dtype=np.int64)
    some = ~none
    out[some] = cols[starts[some] + picks[some]]
    return out


def sample_legal_ids(counts: np.ndarray, ids: np.ndarray, rng: np.random.Generator,
                     masks: Optional[np.ndarray] = None) -> np.ndarray:
    """One uniformly random legal action per env from the batch's legal-id lists
    (``Batch.legal_count``, ``Batch.legal_ids``): O(num_envs), whatever the number of distinct
    actions. A row whose list was cut short (``counts[i] > ids.shape[1]``, not expected: the
    width is the game's ``max_legal_actions``) is sampled from ``masks`` instead."""
    n, width = ids.shape
    counts = np.asarray(counts)
    picks = (rng.random(n) * counts).astype(np.int64)
    flat = ids.reshape(-1)
    if n == 0 or counts.max() <= width:
        return flat[_row_starts(n, width) + picks].astype(np.int64)
    over = counts > width
    out = flat[_row_starts(n, width) + np.minimum(picks, width - 1)].astype(np.int64)
    if masks is None:
        raise ValueError("a legal-id list was cut short: pass the masks")
    out[over] = sample_legal_actions(np.asarray(masks)[over], rng)
    return out


@functools.lru_cache(maxsize=16)
def _row_starts(n: int, width: int) -> np.ndarray:
    """The flat index of the first id of each row of an ``(n, width)`` array (read-only)."""
    starts = np.arange(n, dtype=np.int64) * width
    starts.flags.writeable = False
    return starts


def sample_chance(state: State, rng: np.random.Generator) -> int:
    """A chance outcome of ``state`` drawn by its probability."""
    outcomes = state.chance_outcomes()
    probs = np.array([p for _, p in outcomes], dtype=np.float64)
    return outcomes[int(rng.choice(len(outcomes), p=probs / probs.sum()))][0]

