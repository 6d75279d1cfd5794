"""No hidden information leaks through views, tensors, events or repr.

Samurai hides the tokens behind each screen ("hand") and the own stack. Sekigahara hides the
face-down blocks (which block stands where), the cards in hand, the bid and the blocks in
each side's bag. A seat's view must hold its own secrets and never another seat's; two states
that differ only in the other seats' secrets (a determinization for the observer) must give
the observer the same view and tensor.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import kassen
from kassen import SPECTATOR


#: States sampled along a game: every 7th, fewer in long games.
EVERY = {"sekigahara": 23}


def states_along_a_game(game, seed, every=None):
    every = every or EVERY.get(game.id, 7)
    r = random.Random(seed)
    s = game.new_initial_state(seed)
    i = 0
    while not s.is_terminal():
        if i % every == 0:
            yield s.clone()
        s.apply_action(r.choice(s.legal_actions()))
        i += 1


@pytest.mark.parametrize("seed", [1, 2])
def test_views_hold_no_other_hand(samurai, seed):
    game = samurai
    n = game.num_players()
    for s in states_along_a_game(game, seed):
        for p in [SPECTATOR, *range(n)]:
            v = s.view(p)["body"]
            for q, seat in enumerate(v["players"]):
                if q != p:
                    assert seat["hand"] is None, f"seat {p} sees the hand of seat {q}"
                    assert seat["stack"] is None, f"seat {p} sees the stack of seat {q}"
                else:
                    assert seat["hand"] is not None


SEKIGAHARA_SIDES = ["tokugawa", "ishida"]
SEKIGAHARA_SECRETS = ("hand", "own_bag", "own_bid", "own_reinforcement_discards")


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_sekigahara_views_hold_no_other_secret(seed):
    game = kassen.load_game("sekigahara")
    hidden_seen = 0
    for s in states_along_a_game(game, seed, every=5):
        envelope = s.view(SPECTATOR)
        assert envelope["observer"] is None
        spectator = envelope["body"]
        assert not set(SEKIGAHARA_SECRETS) & spectator.keys(), "the spectator sees a side's secrets"
        public = {b["id"]: b for b in spectator["blocks"]}
        for p, me in enumerate(SEKIGAHARA_SIDES):
            envelope = s.view(p)
            assert envelope["observer"] == p and envelope["seats"][p]["name"] == me
            v = envelope["body"]
            # Its own secrets, complete.
            assert sum(c["count"] for c in v["hand"]) == v["hand_size"][me]
            assert len(v["own_bag"]) == v["bag"][me]
            # Of the other side's blocks it sees exactly the face-up ones, as the spectator does.
            theirs = {b["id"]: b for b in v["blocks"] if b["side"] != me}
            assert theirs == {i: b for i, b in public.items() if b["side"] != me}, f"{me} sees a face-down block"
            # Every own block that is not in the bag is listed.
            mine = [b for b in v["blocks"] if b["side"] == me]
            on_map = sum(loc["blocks"][me] for loc in v["locations"])
            assert sum(1 for b in mine if b["at"] not in ("recruitment_box", "mori_box", "eliminated")) == on_map
        # The test has teeth: some blocks on the map are hidden from the spectator.
        on_map_all = sum(loc["blocks"][side] for loc in spectator["locations"] for side in SEKIGAHARA_SIDES)
        shown_on_map = sum(1 for b in public.values() if b["at"] not in ("recruitment_box", "mori_box", "eliminated"))
        hidden_seen += on_map_all - shown_on_map
    assert hidden_seen > 0


@pytest.mark.parametrize("seed", [1, 2])
def test_view_and_tensor_independent_of_other_secrets(game, seed):
    n = game.num_players()
    exercised = 0
    for s in states_along_a_game(game, seed):
        for p in [SPECTATOR, *range(n)]:
            v, t = s.view(p), s.observation_tensor(p)
            for k in range(3):
                d = s.determinize(p, seed=1000 * seed + k)
                assert d.view(p) == v, f"seat {p}: view depends on hidden information"
                np.testing.assert_array_equal(d.observation_tensor(p), t,
                                              err_msg=f"seat {p}: tensor depends on hidden information")
                # Make sure the test has teeth: some other seat's secrets really changed.
                if any(d.view(q) != s.view(q) for q in range(n) if q != p):
                    exercised += 1
    # 関ヶ原大作戦 hides nothing but the future deck order: its determinizations change no view.
    # A game whose past hides nothing (info()["hidden_information"] false) keeps its history.
    assert (exercised > 0) == game.info()["hidden_information"], "determinizations and declared hidden information disagree"


def test_sekigahara_battle_views_independent_of_hidden_blocks():
    # While a battle is being resolved (losses, retreat into the castle, retreat), its
    # deployed blocks stay face up: a spectator determinization keeps the view.
    game = kassen.load_game("sekigahara")
    checked = 0
    for seed in range(6):
        r = random.Random(seed)
        s = game.new_initial_state(seed)
        while not s.is_terminal() and checked < 40:
            v = s.view(SPECTATOR)
            if v["body"]["battle"] is not None and v["to_act"]["decision"]["kind"] in ("casualty", "retreat_into_castle", "retreat"):
                for k in range(2):
                    assert s.determinize(SPECTATOR, seed=k).view(SPECTATOR) == v
                checked += 1
            s.apply_action(r.choice(s.legal_actions()))
    assert checked > 0, "no battle aftermath was reached"


def test_tensor_reveals_own_hand(game2):
    # The own hand is in the tensor: resampling the OTHER seats' view changes their tensor.
    s = next(x for i, x in enumerate(states_along_a_game(game2, 3)) if i == 3)
    d = s.determinize(0, seed=5)
    changed = not np.array_equal(d.observation_tensor(1), s.observation_tensor(1))
    assert changed or d.view(1) == s.view(1)


def test_events_are_filtered_by_audience(game):
    s = next(iter(states_along_a_game(game, 4, every=60)))
    r = random.Random(0)
    for _ in range(60):
        if s.is_terminal():
            break
        s.apply_action(r.choice(s.legal_actions()))
    for p in [SPECTATOR, *range(game.num_players())]:
        for e in s.events(p):
            aud = e["audience"]
            assert aud == "all" or (p >= 0 and p in aud), (p, e)


def test_repr_is_the_same_for_every_deal(game2):
    # repr must not depend on hidden information (nor show the seed, which fixes every draw).
    reprs = {repr(game2.new_initial_state(seed)) for seed in range(5)}
    assert len(reprs) == 1
