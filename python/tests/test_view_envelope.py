"""The view envelope: every game's view validates against schema/view.schema.json (with the
``jsonschema`` package, independently of the Rust validator) at every step of a random game of
every covered config, and its fields agree with the state."""

from __future__ import annotations

import json
import random

import jsonschema
import pytest

import kassen
from kassen import SPECTATOR

from conftest import REPO

SCHEMA = json.loads((REPO / "schema" / "view.schema.json").read_text())
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)

#: Steps per game (Sekigahara games run to thousands of actions; the Rust conformance suite
#: checks every step of whole games).
MAX_STEPS = 400


def check(s: kassen.State, p: int) -> dict:
    v = s.view(p)
    assert json.loads(s.view_json(p)) == v
    VALIDATOR.validate(v)
    assert v["observer"] == (None if p == SPECTATOR else p)
    assert v["terminal"] == s.is_terminal()
    cp = s.current_player()
    assert v["to_act"]["seat"] == (cp if cp >= 0 else None)
    if s.is_terminal():
        assert v["returns"] == s.returns() and v["to_act"]["decision"] is None
    return v


def test_schema_is_valid_draft_2020_12():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    with pytest.raises(jsonschema.ValidationError):
        VALIDATOR.validate({"schema": "kassen.view/2"})


def test_every_view_matches_the_schema(game):
    r = random.Random(3)
    s = game.new_initial_state(3)
    seats = [SPECTATOR, *range(game.num_players())]
    for _ in range(MAX_STEPS):
        for p in seats:
            check(s, p)
        if s.is_terminal():
            break
        s.apply_action(r.choice(s.legal_actions()))
    names = [x["name"] for x in s.view(SPECTATOR)["seats"]]
    assert len(names) == game.num_players() and len(set(names)) == len(names)


def test_a_finished_game_names_its_winners(game2):
    r = random.Random(1)
    s = game2.new_initial_state(1)
    while not s.is_terminal():
        s.apply_action(r.choice(s.legal_actions()))
    v = check(s, SPECTATOR)
    best = max(s.returns())
    expected = [] if min(s.returns()) == best else [i for i, x in enumerate(s.returns()) if x == best]
    assert v["winners"] == expected and v["to_act"]["kind"] == "terminal"


def test_last_action_shows_own_moves_and_hides_secret_ones():
    # Samurai: the tokens kept for the hand (4.2) are secret; placing a figure is public.
    s = kassen.load_game("samurai", players=2).new_initial_state(4)
    assert s.view(0)["last_action"] is None
    seat = s.current_player()
    a = s.legal_actions()[0]
    text = s.action_to_string(a)
    step = len(s.history())
    s.apply_action(a)

    def told(p: int) -> list[str]:
        # The sentences of the move's events the seat was shown: how the view tells the move.
        return [e["text"] for e in s.events_with_text(p, 0) if e["step"] == step]

    assert s.view(seat)["last_action"] == {"seat": seat, "id": a, "text": text, "sentences": told(seat)}
    assert s.view(1 - seat)["last_action"] == {"seat": seat, "hidden": True, "sentences": told(1 - seat)}
    assert s.view(SPECTATOR)["last_action"] == {"seat": seat, "hidden": True, "sentences": told(SPECTATOR)}
    # The seat is told that a token was kept, not which one.
    assert told(1 - seat) and told(1 - seat) != told(seat)
    while s.view(SPECTATOR)["to_act"]["decision"]["kind"] != "place_figure":
        s.apply_action(s.legal_actions()[0])
    seat, a = s.current_player(), s.legal_actions()[0]
    text = s.action_to_string(a)
    step = len(s.history())
    s.apply_action(a)
    for p in (SPECTATOR, 0, 1):
        assert s.view(p)["last_action"] == {"seat": seat, "id": a, "text": text, "sentences": told(p)}
        assert told(p)
    # A loaded state describes its last action the same way.
    assert kassen.State.from_json(s.to_json()).view(SPECTATOR) == s.view(SPECTATOR)


def test_view_json_is_the_view_as_text_and_rejects_a_seat_that_does_not_exist(game):
    s = game.new_initial_state(5)
    text = s.view_json(SPECTATOR)
    assert isinstance(text, str) and json.loads(text) == s.view(SPECTATOR)
    for bad in (game.num_players(), -2):
        with pytest.raises(kassen.exceptions.InvalidPlayerError) as e:
            s.view_json(bad)
        assert e.value.code == 205
