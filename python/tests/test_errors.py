"""Exceptions: classes, hierarchy, codes equal to the core's ErrorCode table."""

from __future__ import annotations

import pickle
import re

import pytest

import kassen
from kassen import _kassen
from kassen import exceptions as ex

# Python class -> core ErrorCode variant name (the table in core/src/error.rs).
CLASS_TO_CORE = {
    ex.PanicError: "Panic",
    ex.InvalidArgumentError: "InvalidArgument",
    ex.BufferTooSmallError: "BufferTooSmall",
    ex.OutOfMemoryError: "OutOfMemory",
    ex.ThreadsUnavailableError: "ThreadsUnavailable",
    ex.WrongGameError: "WrongGame",
    ex.UnknownGameError: "UnknownGame",
    ex.InvalidConfigError: "InvalidConfig",
    ex.ConfigOutOfRangeError: "ConfigOutOfRange",
    ex.UnknownConfigKeyError: "UnknownConfigKey",
    ex.IllegalActionError: "IllegalAction",
    ex.ActionOutOfRangeError: "ActionOutOfRange",
    ex.NotYourTurnError: "NotYourTurn",
    ex.GameOverError: "GameOver",
    ex.NotChanceNodeError: "NotChanceNode",
    ex.InvalidPlayerError: "InvalidPlayer",
    ex.UnreadableMoveError: "UnreadableMove",
    ex.MalformedJsonError: "MalformedJson",
    ex.UnsupportedFormatError: "UnsupportedFormat",
    ex.LoadUnknownGameError: "LoadUnknownGame",
    ex.RulesVersionMismatchError: "RulesVersionMismatch",
    ex.InvalidStateError: "InvalidState",
    ex.InvalidDataError: "InvalidData",
    ex.InvalidPositionError: "InvalidPosition",
    ex.PositionNotSupportedError: "PositionNotSupported",
    ex.DocumentTooLargeError: "DocumentTooLarge",
}


def test_codes_match_core_table():
    core = _kassen._error_codes()
    assert core["Ok"] == 0
    for cls, name in CLASS_TO_CORE.items():
        assert cls.default_code == core[name], cls
    assert set(ex.ERROR_CLASSES) <= set(core.values())
    assert ex.ERROR_CLASSES == {cls.default_code: cls for cls in CLASS_TO_CORE}


def test_hierarchy():
    for base in (ex.SetupError, ex.RuleError, ex.LoadError, ex.InvalidArgumentError):
        assert issubclass(base, ex.KassenError) and issubclass(base, ValueError)
    assert issubclass(ex.ArgumentTypeError, ex.InvalidArgumentError)
    assert issubclass(ex.ArgumentTypeError, TypeError)
    assert ex.ArgumentTypeError.default_code == ex.InvalidArgumentError.default_code == 5
    assert issubclass(ex.IllegalActionError, ex.RuleError)
    assert issubclass(ex.ActionOutOfRangeError, ex.IllegalActionError)
    assert issubclass(ex.NotYourTurnError, ex.RuleError)
    assert issubclass(ex.UnknownGameError, ex.SetupError)
    assert issubclass(ex.MalformedJsonError, ex.LoadError)
    assert not issubclass(ex.PanicError, ValueError)
    assert kassen.KassenError is ex.KassenError


def raises(cls, code):
    class Ctx:
        def __enter__(self):
            self.cm = pytest.raises(cls)
            self.info = self.cm.__enter__()
            return self.info

        def __exit__(self, *exc):
            r = self.cm.__exit__(*exc)
            assert type(self.info.value) is cls, type(self.info.value)
            assert self.info.value.code == code
            msg = str(self.info.value)
            assert msg and msg == msg.strip() and not msg.endswith("."), msg
            return r

    return Ctx()


def test_setup_errors():
    with raises(ex.UnknownGameError, 100):
        kassen.load_game("no_such_game")
    with raises(ex.UnknownConfigKeyError, 103):
        kassen.load_game("samurai", colour="red")
    with raises(ex.ArgumentTypeError, 5):
        kassen.load_game("samurai", players=object())
    with raises(ex.ArgumentTypeError, 5):
        kassen.load_game("samurai", {1: 2})
    with raises(ex.InvalidConfigError, 101):
        kassen.load_game("samurai", explicit_chance="yes")
    # Sekigahara has no "players" key (always two seats); its only key is "data".
    with raises(ex.UnknownConfigKeyError, 103):
        kassen.load_game("sekigahara", players=2)
    with raises(ex.InvalidConfigError, 101):
        kassen.load_game("sekigahara", explicit_chance=1)


@pytest.mark.parametrize("gid", sorted(kassen.games()))
def test_invalid_component_data(gid):
    with raises(ex.InvalidDataError, 305):
        kassen.load_game(gid, data=5)
    with raises(ex.InvalidDataError, 305):
        kassen.load_game(gid, data={})


def test_config_out_of_range():
    with pytest.raises(ex.SetupError) as e:
        kassen.load_game("samurai", players=7)
    assert e.value.code in (101, 102)


def test_rule_errors(mid_state):
    s = mid_state
    n = s.game().num_distinct_actions()
    illegal = next(a for a in range(n) if not s.is_legal(a))
    with raises(ex.IllegalActionError, 200):
        s.apply_action(illegal)
    with raises(ex.ActionOutOfRangeError, 201):
        s.apply_action(n)
    with raises(ex.ActionOutOfRangeError, 201):
        s.apply_action(-1)
    with raises(ex.ActionOutOfRangeError, 201):
        s.child(2**40)
    p = s.current_player()
    with raises(ex.NotYourTurnError, 202):
        s.apply_action_as(1 - p, s.legal_actions()[0])
    with raises(ex.InvalidPlayerError, 205):
        s.view(2)
    with raises(ex.InvalidPlayerError, 205):
        s.observation_tensor(-2)
    with raises(ex.InvalidPlayerError, 205):
        s.events(2**40)
    with raises(ex.ActionOutOfRangeError, 201):
        s.action_to_string(n)
    with pytest.raises(TypeError):
        s.apply_action("3")


def test_game_over_error(game2):
    from kassen.testing import random_playout

    end = random_playout(game2, 0)
    with raises(ex.GameOverError, 203):
        end.apply_action(0)
    with raises(ex.GameOverError, 203):
        end.apply_action_as(0, 0)


def test_load_errors(mid_state):
    with raises(ex.MalformedJsonError, 300):
        kassen.State.from_json("{not json")
    with raises(ex.UnsupportedFormatError, 301):
        kassen.State.from_json('{"format": "other/1"}')
    good = mid_state.to_json()
    import json

    d = json.loads(good)
    d["game"] = "no_such_game"
    with raises(ex.LoadUnknownGameError, 302):
        kassen.State.from_json(json.dumps(d))
    d = json.loads(good)
    d["rules_version"] = "0.0.0-bogus"
    with raises(ex.RulesVersionMismatchError, 303):
        kassen.State.from_json(json.dumps(d))
    d = json.loads(good)
    d["history"] = d["history"] + [10**6]
    with raises(ex.InvalidStateError, 304):
        kassen.State.from_json(json.dumps(d))
    game = mid_state.game()
    other = kassen.load_game(game.id, {**game.info()["config"], "explicit_chance": True})
    with raises(ex.InvalidStateError, 304):
        other.state_from_json(good)
    different = next(g for g in sorted(kassen.games()) if g != game.id)
    with raises(ex.WrongGameError, 6):
        kassen.load_game(different).state_from_json(good)
    # Any field the format does not have fails, at the top level or inside the snapshot.
    d = json.loads(good)
    d["comment"] = "x"
    with raises(ex.InvalidStateError, 304):
        kassen.State.from_json(json.dumps(d))
    d = json.loads(good)
    d["state"]["unknown_field"] = 1
    with raises(ex.InvalidStateError, 304):
        kassen.State.from_json(json.dumps(d))
    d = json.loads(good)
    if isinstance(d["state"].get("rng"), dict):  # the state's generator, where a game names it so
        d["state"]["rng"]["t"] = 1
        with raises(ex.InvalidStateError, 304):
            kassen.State.from_json(json.dumps(d))
    # A save whose config no longer sets up a game is an invalid save: a LoadError.
    d = json.loads(good)
    d["config"] = {**d["config"], "no_such_key": 1}
    with raises(ex.InvalidStateError, 304):
        kassen.State.from_json(json.dumps(d))


def test_chance_player_at_a_decision(mid_state):
    # apply_action_as(CHANCE, ...) where a seat is to act: not a chance node (204).
    before = mid_state.to_json()
    with raises(ex.NotChanceNodeError, 204):
        mid_state.apply_action_as(kassen.CHANCE, mid_state.legal_actions()[0])
    assert mid_state.to_json() == before


def test_state_unchanged_after_rejected_action(mid_state):
    s = mid_state
    before_json, before_hash, before = s.to_json(), hash(s), s.clone()
    n = s.game().num_distinct_actions()
    p = s.current_player()
    attempts = [lambda: s.apply_action(a) for a in range(n) if not s.is_legal(a)][:50]
    attempts += [lambda: s.apply_action(n), lambda: s.apply_action(-5),
                 lambda: s.apply_action_as(1 - p, s.legal_actions()[0])]
    for f in attempts:
        with pytest.raises(ex.RuleError):
            f()
        assert s == before and hash(s) == before_hash and s.to_json() == before_json
    assert s.legal_actions() == before.legal_actions()


def test_exceptions_pickle():
    e = ex.IllegalActionError("action 3 is not legal here", 200)
    e2 = pickle.loads(pickle.dumps(e))
    assert type(e2) is ex.IllegalActionError and e2.code == 200 and str(e2) == str(e)


def test_unknown_code_falls_back_to_base():
    e = ex._error_from_code(77, "x")
    assert type(e) is ex.KassenError and e.code == 77


def test_messages_are_lowercase_context():
    try:
        kassen.load_game("nope")
    except ex.KassenError as e:
        assert re.match(r"^[a-z]", str(e))


def test_panics_become_panic_error():
    with pytest.raises(ex.PanicError) as e:
        _kassen._test_panic("boom")
    assert e.value.code == 4 and "boom" in str(e.value)
    assert isinstance(e.value, ex.KassenError) and not isinstance(e.value, ValueError)


# --- ids, players and seeds at the Python boundary (issue 7, part 8) ---

HUGE = [2**31, 2**32, 2**63 - 1, 2**63, 2**64, 2**100, 10**5000, -1, -(2**63), -(2**63) - 1, -(2**100)]


def unchanged(s):
    """A snapshot to compare a state against after a rejected call."""
    return (s.to_json(), s.stable_hash(), s.clone())


def test_bool_is_not_an_action(mid_state):
    s = mid_state
    before = unchanged(s)
    for f in (s.apply_action, s.child, s.action_to_string, s.action_to_json, s.is_legal):
        for b in (True, False):
            with raises(ex.ArgumentTypeError, 5):
                f(b)
    p = s.current_player()
    with raises(ex.ArgumentTypeError, 5):
        s.apply_action_as(p, True)
    assert unchanged(s) == before
    # Still TypeErrors, as before the kassen class existed.
    with pytest.raises(TypeError):
        s.apply_action(1.0)
    with pytest.raises(TypeError):
        s.apply_action("3")
    with pytest.raises(TypeError):
        s.apply_action(None)


def int_id(n: int) -> str:
    return str(n) if n.bit_length() < 70 else f"{'-' if n < 0 else ''}2^{n.bit_length() - 1}"


@pytest.mark.parametrize("a", HUGE, ids=int_id)
def test_action_ids_out_of_any_range(mid_state, a):
    s = mid_state
    before = unchanged(s)
    p = s.current_player()
    for f in (s.apply_action, s.child, s.action_to_string, s.action_to_json, lambda a: s.apply_action_as(p, a)):
        with raises(ex.ActionOutOfRangeError, 201):
            f(a)
    # is_legal is a question: out of range is simply not legal.
    assert s.is_legal(a) is False
    assert unchanged(s) == before


def test_numpy_ints_are_ids(mid_state):
    np = pytest.importorskip("numpy")
    s = mid_state.clone()
    a = s.legal_actions()[0]
    assert s.is_legal(np.int64(a)) and s.action_to_string(np.int32(a)) == s.action_to_string(a)
    s.apply_action(np.uint16(a))
    assert s == mid_state.child(a)
    with raises(ex.ActionOutOfRangeError, 201):
        s.apply_action(np.uint64(2**64 - 1))
    with raises(ex.InvalidPlayerError, 205):
        s.view(np.int64(7))


@pytest.mark.parametrize("p", [2, 4, 5, -2, -4] + HUGE, ids=int_id)
def test_players_outside_the_seats(mid_state, p):
    s = mid_state
    if 0 <= p < s.game().num_players() or p == -1:
        return
    before = unchanged(s)
    a = s.legal_actions()[0]
    for f in (s.view, s.observation_tensor, s.events, s.determinize, lambda p: s.apply_action_as(p, a)):
        with raises(ex.InvalidPlayerError, 205):
            f(p)
    assert unchanged(s) == before


def test_bool_is_not_a_player(mid_state):
    s = mid_state
    for f in (s.view, s.observation_tensor, s.events, s.determinize, lambda p: s.apply_action_as(p, 0)):
        with raises(ex.ArgumentTypeError, 5):
            f(False)


@pytest.mark.parametrize("seed", [-1, -(2**63), 2**64, 2**100, 10**5000], ids=int_id)
def test_seeds_out_of_range(game2, seed):
    with raises(ex.InvalidArgumentError, 5):
        game2.new_initial_state(seed)
    with raises(ex.InvalidArgumentError, 5):
        game2.new_initial_state(seed=seed)
    s = game2.new_initial_state(1)
    with raises(ex.InvalidArgumentError, 5):
        s.determinize(0, seed)
    with raises(ex.InvalidArgumentError, 5):
        game2.conformance([1, seed])


def test_seed_types(game2):
    for bad in (True, 1.0, "1", None):
        with raises(ex.ArgumentTypeError, 5):
            game2.new_initial_state(bad)
    # The whole u64 range is valid.
    assert game2.new_initial_state(2**64 - 1) == game2.new_initial_state(2**64 - 1)
    assert game2.new_initial_state() == game2.new_initial_state(0)
