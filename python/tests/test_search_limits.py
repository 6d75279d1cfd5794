"""The bounds of a search from Python: the node budget, the caps of budgets shared with the bot
specs, strict parameters (no key twice, numpy integers read as ints, other types refused with a
code), a refused thread as its own error, and progress() while another thread waits."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import textwrap
import threading
import time

import numpy as np
import pytest

import kassen
from kassen import exceptions as ex


def position(seed: int = 3):
    """A two-player Samurai state at a decision with two or more choices."""
    state = kassen.load_game("samurai", {"players": 2}).new_initial_state(seed)
    bot = kassen.RandomBot(seed)
    while state.current_player() < 0 or len(state.legal_actions()) < 2:
        state.apply_action(bot.choose(state))
    return state


def test_a_tiny_node_budget_bounds_the_tree_and_the_decision_says_so():
    d = kassen.analyze(position(), {"iterations": 2000, "time_ms": None, "max_nodes": 30, "threads": 2}, 1)
    assert d["iterations"] == 2000
    assert d["tree_full"] is True and d["nodes"] <= 30
    roomy = kassen.analyze(position(), {"iterations": 50, "time_ms": None}, 1)
    assert roomy["tree_full"] is False and roomy["nodes"] > 1


def test_the_largest_budget_with_a_small_node_budget_stays_bounded():
    search = kassen.Search(position(), {"iterations": 1_000_000_000, "time_ms": None, "max_nodes": 100, "threads": 2}, 1)
    while search.progress()["iterations"] < 3000:
        time.sleep(0.002)
    d = search.finish()
    assert d["iterations"] >= 3000 and d["tree_full"] and d["nodes"] <= 100


@pytest.mark.parametrize(
    "params",
    [
        {"iterations": 10**15},
        {"iterations": 1_000_000_001},
        {"iterations": 10**30},
        {"time_ms": 86_400_001},
        {"max_nodes": 1_000_000_001},
        '{"time_ms": 1e300}',
    ],
)
def test_budgets_above_their_caps_are_config_out_of_range(params):
    with pytest.raises(ex.ConfigOutOfRangeError) as e:
        kassen.Search(position(), params, 1)
    assert e.value.code == 102


@pytest.mark.parametrize("spec", ["ismcts:4294967295", "ismcts:easy@4294967295ms", "monte_carlo@86400001ms"])
def test_bot_specs_share_the_caps(spec):
    with pytest.raises(ex.ConfigOutOfRangeError) as e:
        kassen.Bot(spec, 1)
    assert e.value.code == 102
    assert kassen.Bot("ismcts:1000000000", 1).name == "ismcts-1000000000"


def test_a_key_given_twice_is_refused():
    with pytest.raises(ex.InvalidConfigError) as e:
        kassen.analyze(position(), '{"iterations": 5, "iterations": 100000000}', 1)
    assert e.value.code == 101 and "twice" in str(e.value)
    d = kassen.analyze(position(), '{"iterations": 5, "time_ms": null}', 1)
    assert d["iterations"] == 5


def test_numpy_integers_are_ints_and_other_types_are_refused_with_a_code():
    d = kassen.analyze(position(), {"iterations": np.int64(40), "time_ms": None, "threads": np.uint8(1), "max_nodes": np.int32(500)}, 1)
    assert d["iterations"] == 40
    assert kassen.analyze(position(), {"iterations": 40, "time_ms": None}, 1)["action"] == d["action"]
    bad_params = (
        {"iterations": object()},
        {"iterations": [5]},
        {"iterations": np.array([5, 6])},
        {"iterations": np.float32(5.0)},
        {1: 5},
        [("iterations", 5)],
    )
    for bad in bad_params:
        with pytest.raises(ex.ArgumentTypeError) as e:
            kassen.analyze(position(), bad, 1)
        assert e.value.code == 5
    with pytest.raises(ex.InvalidConfigError):
        kassen.analyze(position(), {"iterations": 5.5}, 1)


def test_bot_none_is_a_kassen_error():
    with pytest.raises(ex.ArgumentTypeError) as e:
        kassen.Bot(None)  # type: ignore[arg-type]
    assert e.value.code == 5
    with pytest.raises(ex.ArgumentTypeError):
        kassen.Bot(b"random")  # type: ignore[arg-type]


def test_progress_while_another_thread_waits():
    search = kassen.Search(position(), {"iterations": None, "time_ms": 600_000, "threads": 2}, 1)
    results: list = []
    waiters = [threading.Thread(target=lambda: results.append(search.result())) for _ in range(2)]
    for w in waiters:
        w.start()
    seen = []
    while search.progress()["iterations"] < 300:
        seen.append(search.progress())
    search.stop()
    while True:
        p = search.progress()  # never an error while the others wait
        seen.append(p)
        if p["done"]:
            break
    for w in waiters:
        w.join()
    assert len(results) == 2 and results[0] == results[1]
    assert seen[-1]["best"] == results[0]["action"] and search.done


CHILD = textwrap.dedent(
    """
    import sys
    import kassen
    from kassen import exceptions as ex
    state = kassen.load_game("samurai", {"players": 2}).new_initial_state(3)
    bot = kassen.RandomBot(3)
    while state.current_player() < 0 or len(state.legal_actions()) < 2:
        state.apply_action(bot.choose(state))
    codes = []
    for make in (lambda: kassen.Search(state, {"iterations": 100, "time_ms": None}, 1).result(),
                 lambda: kassen.analyze(state, {"iterations": 100, "time_ms": None, "threads": 4}, 1)):
        try:
            make()
            codes.append(0)
        except ex.ThreadsUnavailableError as e:
            assert isinstance(e, RuntimeError)
            codes.append(e.code)
    # A search on the calling thread alone needs no thread; a batch whose workers are refused
    # runs on the calling thread (same results).
    codes.append(kassen.analyze(state, {"iterations": 100, "time_ms": None}, 1)["iterations"])
    batch = kassen.Batch(state.game(), 4, 1, threads=4)
    batch.reset()
    print(codes)
    """
)


def test_a_refused_thread_is_threads_unavailable_and_prints_nothing():
    # Every thread the library starts asks for a stack of 64 GiB (RUST_MIN_STACK) in a process
    # limited to 16 GiB of address space: the system refuses each start.
    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (16 << 30, 16 << 30))

    env = dict(os.environ, RUST_MIN_STACK=str(64 << 30), RUST_BACKTRACE="1")
    r = subprocess.run([sys.executable, "-c", CHILD], env=env, preexec_fn=limit, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "[8, 8, 100]", r.stdout
    assert r.stderr == ""
