"""Spaces: Gymnasium's when it is installed, else minimal stand-ins with the same attributes
(``Discrete.n``, ``Box.shape/dtype/low/high``, ``Dict.spaces``, ``sample``, ``contains``)."""

from __future__ import annotations

from typing import Any, Dict as TDict, Optional, Sequence

import numpy as np

try:  # only if installed
    import gymnasium as _gym
except ImportError:  # pragma: no cover - exercised in a subprocess test
    _gym = None  # type: ignore[assignment]

HAVE_GYMNASIUM = _gym is not None

__all__ = ["HAVE_GYMNASIUM", "Discrete", "Box", "Dict"]


class _Space:
    def __init__(self, seed: Optional[int] = None) -> None:
        self.np_random = np.random.default_rng(seed)

    def seed(self, seed: Optional[int] = None) -> None:
        self.np_random = np.random.default_rng(seed)


class _Discrete(_Space):
    def __init__(self, n: int, seed: Optional[int] = None) -> None:
        super().__init__(seed)
        self.n = int(n)
        self.shape = ()
        self.dtype = np.dtype(np.int64)

    def sample(self, mask: Optional[np.ndarray] = None) -> int:
        if mask is not None:
            legal = np.flatnonzero(mask)
            if len(legal) == 0:
                raise ValueError("the mask allows no action")
            return int(self.np_random.choice(legal))
        return int(self.np_random.integers(self.n))

    def contains(self, x: Any) -> bool:
        try:
            return 0 <= int(x) < self.n and int(x) == x
        except (TypeError, ValueError):
            return False

    def __repr__(self) -> str:
        return f"Discrete({self.n})"


class _Box(_Space):
    def __init__(self, low: Any, high: Any, shape: Optional[Sequence[int]] = None,
                 dtype: Any = np.float32, seed: Optional[int] = None) -> None:
        super().__init__(seed)
        if shape is None:  # the shape of the bound arrays, as in Gymnasium
            shape = np.shape(low)
        self.shape = tuple(int(d) for d in shape)
        self.dtype = np.dtype(dtype)
        self.low = np.full(self.shape, low, dtype=self.dtype)
        self.high = np.full(self.shape, high, dtype=self.dtype)

    def sample(self) -> np.ndarray:
        if np.issubdtype(self.dtype, np.integer):
            return self.np_random.integers(self.low, self.high, endpoint=True).astype(self.dtype)
        lo = np.where(np.isfinite(self.low), self.low, -1.0)
        hi = np.where(np.isfinite(self.high), self.high, 1.0)
        return self.np_random.uniform(lo, hi).astype(self.dtype)

    def contains(self, x: Any) -> bool:
        x = np.asarray(x)
        return bool(x.shape == self.shape and x.dtype == self.dtype
                    and np.all(x >= self.low) and np.all(x <= self.high))

    def __repr__(self) -> str:
        return f"Box({self.shape}, {self.dtype})"


class _DictSpace(_Space):
    def __init__(self, spaces: TDict[str, Any], seed: Optional[int] = None) -> None:
        super().__init__(seed)
        self.spaces = dict(spaces)

    def __getitem__(self, key: str) -> Any:
        return self.spaces[key]

    def sample(self) -> TDict[str, Any]:
        return {k: s.sample() for k, s in self.spaces.items()}

    def contains(self, x: Any) -> bool:
        return isinstance(x, dict) and x.keys() == self.spaces.keys() and all(
            s.contains(x[k]) for k, s in self.spaces.items())

    def __repr__(self) -> str:
        return f"Dict({self.spaces!r})"


if _gym is not None:
    Discrete: Any = _gym.spaces.Discrete
    Box: Any = _gym.spaces.Box
    Dict: Any = _gym.spaces.Dict
else:
    Discrete = _Discrete
    Box = _Box
    Dict = _DictSpace
