"""Bounded conversion of user input (issue 7, part 1).

A config is converted from Python objects to JSON with at most 128 levels of nesting,
1,000,000 elements and 16 MiB of strings; JSON text (a saved state, a config) is at most
16 MiB. Past a bound the call fails with the code of what was being loaded: 101
(InvalidConfigError) for a config, 300 (MalformedJsonError) for a saved state nested too
deeply, 308 (DocumentTooLargeError) for one too long (test_large_documents.py). Never a
crash, never RecursionError.

The inputs that used to crash the interpreter (a stack overflow in the native conversion) run
in a child process, so a regression fails this test instead of killing the test run.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

import kassen
from kassen import exceptions as ex

MAX_DEPTH = 128
MAX_NODES = 1_000_000
MAX_JSON_TEXT_BYTES = 16 << 20

GAMES = sorted(kassen.games())


def run_child(code: str) -> subprocess.CompletedProcess:
    """Runs `code` in a fresh interpreter; a crash shows as a negative return code."""
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=300)


def nested_list(depth: int):
    v: list = []
    for _ in range(depth - 1):
        v = [v]
    return v


def nested_dict(depth: int):
    v: dict = {}
    for _ in range(depth - 1):
        v = {"k": v}
    return v


@pytest.mark.parametrize("case", ["self_list", "self_dict", "deep_list", "deep_dict", "deep_tuple"])
def test_no_crash_on_unbounded_config_in_child_process(case):
    # The exact reproductions of the issue, each in its own process.
    proc = run_child(f"""
        import kassen
        from kassen.exceptions import InvalidConfigError
        case = {case!r}
        if case == "self_list":
            v = []; v.append(v)
        elif case == "self_dict":
            v = {{}}; v["again"] = v
        else:
            v = [] if case == "deep_list" else {{}} if case == "deep_dict" else ()
            for _ in range(20_000):
                v = [v] if case == "deep_list" else {{"k": v}} if case == "deep_dict" else (v,)
        for gid in sorted(kassen.games()):
            try:
                kassen.load_game(gid, {{"x": v}})
            except InvalidConfigError as e:
                assert e.code == 101, e.code
                assert "nested too deeply" in str(e), str(e)
            else:
                raise SystemExit("accepted")
        print("ok")
    """)
    assert proc.returncode == 0 and proc.stdout.strip() == "ok", (proc.returncode, proc.stdout, proc.stderr[-2000:])


@pytest.mark.parametrize("gid", GAMES)
def test_self_reference_is_invalid_config(gid):
    loop: list = []
    loop.append(loop)
    with pytest.raises(ex.InvalidConfigError) as e:
        kassen.load_game(gid, {"x": loop})
    assert e.value.code == 101
    d: dict = {}
    d["d"] = d
    with pytest.raises(ex.InvalidConfigError):
        kassen.load_game(gid, data=d)
    with pytest.raises(ex.InvalidConfigError):
        kassen.load_game(gid, d)


@pytest.mark.parametrize("gid", GAMES)
def test_depth_bound(gid):
    # The config dict is level 1, so its values may hold MAX_DEPTH - 1 levels.
    with pytest.raises(ex.InvalidConfigError) as e:
        kassen.load_game(gid, {"x": nested_list(20_000)})
    assert e.value.code == 101
    with pytest.raises(ex.InvalidConfigError):
        kassen.load_game(gid, {"x": nested_dict(MAX_DEPTH)})
    # Just inside the bound the conversion succeeds and the game rejects the unknown key.
    with pytest.raises(ex.UnknownConfigKeyError):
        kassen.load_game(gid, {"x": nested_list(MAX_DEPTH - 1)})
    with pytest.raises(ex.UnknownConfigKeyError):
        kassen.load_game(gid, {"x": nested_dict(MAX_DEPTH - 1)})


@pytest.mark.parametrize("gid", GAMES)
def test_size_bounds(gid):
    with pytest.raises(ex.InvalidConfigError) as e:
        kassen.load_game(gid, {"x": [0] * (MAX_NODES + 1)})
    assert e.value.code == 101 and "too large" in str(e.value)
    with pytest.raises(ex.InvalidConfigError):
        kassen.load_game(gid, {"x": [[0] * 1000 for _ in range(1001)]})
    with pytest.raises(ex.InvalidConfigError):
        kassen.load_game(gid, {"x": {str(i): i for i in range(MAX_NODES + 1)}})
    with pytest.raises(ex.InvalidConfigError):
        kassen.load_game(gid, {"x": ["y" * (1 << 20)] * 17})
    # A large value inside the bounds converts (and is then an unknown key); past the core's
    # bounds on a config (4,096 elements in one array, issue 37.3) it is too large.
    with pytest.raises(ex.UnknownConfigKeyError):
        kassen.load_game(gid, {"x": [0] * 4_000})
    with pytest.raises(ex.InvalidConfigError) as e:
        kassen.load_game(gid, {"x": [0] * 100_000})
    assert "too large" in str(e.value)


def test_values_json_cannot_hold_are_invalid_config():
    for bad in (2**64, -(2**63) - 1, 10**5000, float("nan"), float("inf"), "\ud800"):
        with pytest.raises(ex.InvalidConfigError) as e:
            kassen.load_game("samurai", players=bad)
        assert e.value.code == 101, bad
    # 64-bit ints are fine (and then out of range for the game).
    with pytest.raises(ex.SetupError):
        kassen.load_game("samurai", players=2**64 - 1)


def test_objects_with_no_json_counterpart_are_type_errors():
    for bad in ({1: 2}, {"x": object()}, {"x": {1, 2}}, {"x": b"bytes"}):
        with pytest.raises(ex.ArgumentTypeError) as e:
            kassen.load_game("samurai", bad)
        assert e.value.code == 5 and isinstance(e.value, TypeError)
    with pytest.raises(ex.ArgumentTypeError):
        kassen.load_game("samurai", [("players", 2)])  # type: ignore[arg-type]


def test_list_and_dict_subclasses_are_read_as_data():
    class Sneaky(list):
        def __iter__(self):  # never called: the conversion reads the list itself
            raise AssertionError("__iter__ called")

    game = kassen.load_game("samurai", {"players": 3, "explicit_chance": False})
    assert game.num_players() == 3
    with pytest.raises(ex.UnknownConfigKeyError):
        kassen.load_game("samurai", {"x": Sneaky([1, 2])})


def test_saved_state_text_bounds():
    deep = "[" * 20_000 + "]" * 20_000
    with pytest.raises(ex.MalformedJsonError) as e:
        kassen.State.from_json(deep)
    assert e.value.code == 300
    game = kassen.load_game("samurai")
    with pytest.raises(ex.MalformedJsonError):
        game.state_from_json(deep)
    # Past 16 MiB: refused before it is parsed (issue 37.3: DocumentTooLargeError, 308).
    huge = json.dumps({"format": kassen.STATE_FORMAT, "pad": "x" * MAX_JSON_TEXT_BYTES})
    with pytest.raises(ex.DocumentTooLargeError) as e:
        kassen.State.from_json(huge)
    assert "too large" in str(e.value) and e.value.code == 308
    with pytest.raises(ex.DocumentTooLargeError):
        game.state_from_json(huge)
    with pytest.raises(ex.InvalidConfigError):
        kassen._kassen._load_game_json("samurai", "[" * 20_000)
    with pytest.raises(ex.InvalidConfigError):
        kassen._kassen._load_game_json("samurai", " " * (MAX_JSON_TEXT_BYTES + 1))


def test_saved_state_with_a_huge_flat_history():
    s = kassen.load_game("samurai").new_initial_state(1)
    d = json.loads(s.to_json())
    d["history"] = [0] * 2_000_000
    with pytest.raises(ex.LoadError) as e:
        kassen.State.from_json(json.dumps(d))
    assert 300 <= e.value.code < 400


@pytest.mark.parametrize("n", [10**12, 2**62, 2**64 - 1])
def test_a_hostile_rollout_count_is_a_coded_error_not_an_abort(n):
    # The result array is allocated fallibly before any game is played (issue 24.1).
    state = kassen.load_game("samurai").new_initial_state(1)
    with pytest.raises(kassen.KassenError) as e:
        state.random_rollouts(0, n)
    assert e.value.code in (5, 7)
    assert state.random_rollouts(0, 2).shape == (2, state.game().num_players())
