"""The native search bots from Python: bots by name, decisions with statistics, and the
background search a user interface polls and stops (the GIL released while it runs)."""

from __future__ import annotations

import threading
import time

import pytest

import kassen


def position(gid: str, seed: int = 3):
    """A state of `gid` after a few random moves, at a decision with two or more choices."""
    state = kassen.load_game(gid).new_initial_state(seed)
    bot = kassen.RandomBot(seed)
    for i in range(200):
        if state.is_terminal():
            break
        if i >= 15 and len(state.legal_actions()) >= 2:
            return state
        state.apply_action(bot.choose(state))
    return state


def test_bot_specs_name_every_bot():
    specs = kassen.bot_specs()
    names = [s["spec"] for s in specs]
    assert names[:2] == ["random", "monte_carlo"]
    assert {"ismcts:easy", "ismcts:normal", "ismcts:hard"} <= set(names)
    for s in specs:
        assert s["name"] and s["description"]
        assert kassen.Bot(s["spec"], seed=1).spec == s["spec"]


@pytest.mark.parametrize("gid", sorted(kassen.games()))
def test_a_search_bot_is_deterministic_and_explains_itself(gid):
    state = position(gid)
    before = state.to_json()
    a, b = kassen.Bot("ismcts:60", seed=5), kassen.Bot("ismcts:60", seed=5)
    assert a.last_decision() is None
    choice = a.choose(state)
    assert choice == b.choose(state)
    assert choice in state.legal_actions()
    assert state.to_json() == before
    d = a.last_decision()
    assert d["action"] == choice and d["seat"] == state.current_player()
    assert [c["action"] for c in d["candidates"]] == state.legal_actions()
    assert sum(c["visits"] for c in d["candidates"]) == d["iterations"] == 60
    info = kassen.load_game(gid).info()["utility"]
    assert all(c["value"] is None or info["min"] <= c["value"] <= info["max"] for c in d["candidates"])


@pytest.mark.parametrize("spec", ["ismcts:300/turn", "ismcts:300/turn+reuse"])
def test_a_bot_searching_in_the_background_decides_as_it_does_blocking(spec):
    # The turn's budget, and for "+reuse" the tree kept between the turn's decisions, carry
    # over from one background search to the next as they do between blocking decisions.
    game = kassen.load_game("sekigahara")
    a, b = game.new_initial_state(4), game.new_initial_state(4)
    blocking, background = kassen.Bot(spec, seed=3), kassen.Bot(spec, seed=3)
    searched = 0
    for _ in range(150):
        if a.is_terminal():
            break
        if a.current_player() < 0:
            x = a.legal_actions()[0]
        else:
            x = blocking.choose(a)
            search = background.start_search(b)
            background.record(b, search)
            assert background.last_decision()["action"] == x, f"decision {searched}"
            searched += 1
        a.apply_action(x)
        b.apply_action(x)
    assert searched >= 30


def test_analyze_takes_levels_and_budgets():
    state = position("samurai")
    d = kassen.analyze(state, {"iterations": 50, "time_ms": None, "threads": 2}, seed=1)
    assert d["iterations"] == 50
    assert d == kassen.analyze(state, {"iterations": 50, "time_ms": None, "threads": 2}, seed=1) | {"elapsed_ms": d["elapsed_ms"]}
    for bad in [{"level": "extreme"}, {"iterations": 0}, {"threads": 0}, {"colour": "red"}, {"exploration": "x"}]:
        with pytest.raises(kassen.SetupError) as e:
            kassen.analyze(state, bad)
        assert e.value.code == 101
    with pytest.raises(kassen.SetupError):
        kassen.Bot("ismcts:extreme")


def test_analyze_explains_every_candidate_from_the_seats_view():
    # Issue 34 item 4: a reason in words per candidate, the same for the real state and for a
    # determinized twin of it (the reason uses only what the seat may know).
    state = position("sekigahara")
    seat = state.current_player()
    params = {"iterations": 200, "time_ms": None}
    d = kassen.analyze(state, params, seed=3)
    assert all(isinstance(c["reason"], str) and c["reason"] for c in d["candidates"])
    assert all(isinstance(c["line"], list) for c in d["candidates"])
    twin = kassen.analyze(state.determinize(seat, 17), params, seed=3)
    told = [(c["action"], c["line"], c["reason"]) for c in d["candidates"]]
    assert told == [(c["action"], c["line"], c["reason"]) for c in twin["candidates"]]
    quiet = kassen.analyze(state, params | {"explain": False}, seed=3)
    assert all(c["reason"] is None and c["line"] == [] for c in quiet["candidates"])


def test_background_search_polls_stops_and_releases_the_gil():
    state = position("sekigahara")
    search = kassen.Search(state, {"iterations": None, "time_ms": 60_000}, seed=2)
    ticks = []
    worker = threading.Thread(target=lambda: [ticks.append(time.sleep(0.005)) for _ in range(10)])
    worker.start()
    worker.join(timeout=30)
    assert len(ticks) == 10, "Python threads ran while the search worked"
    p = search.progress()
    assert set(p) == {"iterations", "best", "done", "elapsed_ms"}
    assert p["done"] is False
    search.stop()
    d = search.result()
    assert d["action"] in state.legal_actions()
    assert search.done and search.progress()["best"] == d["action"]
    assert search.finish() == d


def test_a_search_survives_its_state_and_is_stopped_when_dropped():
    state = position("three_kingdoms_redux")
    search = kassen.Search(state, {"level": "hard"}, seed=3)
    state.apply_action(state.legal_actions()[0])
    del state
    assert not search.done
    del search  # stops it and waits for its threads


def test_batch_plays_against_the_search_bot():
    b = kassen.Batch(kassen.load_game("samurai"), 2, seed=1, opponent="ismcts:easy")
    b.reset()
    for _ in range(3):
        b.step(b.legal_ids[:, 0].copy())
