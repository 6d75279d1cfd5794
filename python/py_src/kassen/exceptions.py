"""The exceptions raised by kassen.

Every exception is a :class:`KassenError` carrying ``.code``, the stable number of the core's
``ErrorCode`` table (the same number the C ABI returns as its status)::

    KassenError
    ├── PanicError                      4   a bug in the engine (please report it)
    ├── InvalidArgumentError, ValueError 5   a bad argument at the Python boundary
    │   └── ArgumentTypeError, TypeError 5   an argument of the wrong type (a bool as an id)
    ├── OutOfMemoryError, MemoryError    7   memory for the request could not be allocated
    ├── ThreadsUnavailableError,         8   the system refused to start a thread
    │   RuntimeError
    ├── SetupError, ValueError               a game cannot be created from id + config
    │   ├── UnknownGameError           100
    │   ├── InvalidConfigError         101
    │   ├── ConfigOutOfRangeError      102
    │   ├── UnknownConfigKeyError      103
    │   └── InvalidDataError           305   (also a LoadError: component data)
    ├── RuleError, ValueError                an action or query was rejected; state unchanged
    │   ├── IllegalActionError         200
    │   │   └── ActionOutOfRangeError  201
    │   ├── NotYourTurnError           202
    │   ├── GameOverError              203
    │   ├── NotChanceNodeError         204
    │   ├── InvalidPlayerError         205
    │   ├── UnreadableMoveError        206   a text move names no legal move, or several
    │   └── PositionNotSupportedError  307   needs the history a constructed position lacks
    └── LoadError, ValueError                a saved state or position cannot be loaded
        ├── WrongGameError               6
        ├── MalformedJsonError         300
        ├── UnsupportedFormatError     301
        ├── LoadUnknownGameError       302
        ├── RulesVersionMismatchError  303
        ├── InvalidStateError          304
        ├── InvalidPositionError       306   a position breaks the schema or a rule
        └── DocumentTooLargeError      308   longer than the game's documents can be
"""

from __future__ import annotations

from typing import ClassVar, Dict, Optional, Type

__all__ = [
    "KassenError",
    "PanicError",
    "InvalidArgumentError",
    "ArgumentTypeError",
    "BufferTooSmallError",
    "OutOfMemoryError",
    "ThreadsUnavailableError",
    "SetupError",
    "UnknownGameError",
    "InvalidConfigError",
    "ConfigOutOfRangeError",
    "UnknownConfigKeyError",
    "InvalidDataError",
    "RuleError",
    "IllegalActionError",
    "ActionOutOfRangeError",
    "NotYourTurnError",
    "GameOverError",
    "NotChanceNodeError",
    "InvalidPlayerError",
    "UnreadableMoveError",
    "LoadError",
    "WrongGameError",
    "MalformedJsonError",
    "UnsupportedFormatError",
    "LoadUnknownGameError",
    "RulesVersionMismatchError",
    "InvalidStateError",
    "InvalidPositionError",
    "PositionNotSupportedError",
    "ERROR_CLASSES",
]


class KassenError(Exception):
    """Base class of every kassen error. ``code`` is the core's stable error number."""

    #: The default code of the class (0: none of its own).
    default_code: ClassVar[int] = 0

    code: int

    def __init__(self, message: str = "", code: Optional[int] = None) -> None:
        super().__init__(message)
        self.code = self.default_code if code is None else int(code)

    @property
    def message(self) -> str:
        return str(self.args[0]) if self.args else ""

    def __reduce__(self):  # keep .code through pickling (multiprocessing)
        return (type(self), (self.message, self.code))


# --- boundary (1-99) ---


class PanicError(KassenError):
    """The engine hit an internal error (a bug). The state was left as before the call."""

    default_code = 4


class InvalidArgumentError(KassenError, ValueError):
    """An argument cannot be used (wrong type of config value, wrong buffer, ...)."""

    default_code = 5


class ArgumentTypeError(InvalidArgumentError, TypeError):
    """An argument has a type kassen does not take: a ``bool``, float or str where an action id,
    player or seed (an int) is expected, or a config value with no JSON counterpart (an object,
    a dict key that is not a str). Code 5 like its base class; also a ``TypeError``, so code
    that catches either keeps working."""

    default_code = 5


class BufferTooSmallError(InvalidArgumentError):
    default_code = 3


class OutOfMemoryError(KassenError, MemoryError):
    """Memory for the request could not be allocated; nothing changed."""

    default_code = 7


class ThreadsUnavailableError(KassenError, RuntimeError):
    """The system refused to start a thread the request needs (its limit of threads, or of
    memory for their stacks); nothing changed. A resource error, not a bug in the engine."""

    default_code = 8


# --- setup (100s) ---


class SetupError(KassenError, ValueError):
    """A game cannot be created from this id and config."""


class UnknownGameError(SetupError):
    default_code = 100


class InvalidConfigError(SetupError):
    default_code = 101


class ConfigOutOfRangeError(SetupError):
    default_code = 102


class UnknownConfigKeyError(SetupError):
    default_code = 103


# --- rules (200s) ---


class RuleError(KassenError, ValueError):
    """An action or query was rejected. The state is unchanged."""


class IllegalActionError(RuleError):
    default_code = 200


class ActionOutOfRangeError(IllegalActionError):
    default_code = 201


class NotYourTurnError(RuleError):
    default_code = 202


class GameOverError(RuleError):
    default_code = 203


class NotChanceNodeError(RuleError):
    default_code = 204


class InvalidPlayerError(RuleError):
    default_code = 205


class UnreadableMoveError(RuleError):
    """A move given as text (``State.parse_move``) names no legal move, or more than one;
    the message names the problem and the legal moves."""

    default_code = 206


class PositionNotSupportedError(RuleError):
    """The state started at a constructed position and the call needs what the position leaves
    out: a determinization (and so a search bot's move) in a game that cannot sample the
    position's hidden parts. Its code lies with the other position code in the 300s."""

    default_code = 307


# --- load (300s) ---


class LoadError(KassenError, ValueError):
    """A saved state cannot be loaded."""


class WrongGameError(LoadError):
    default_code = 6


class MalformedJsonError(LoadError):
    default_code = 300


class UnsupportedFormatError(LoadError):
    default_code = 301


class LoadUnknownGameError(LoadError):
    default_code = 302


class RulesVersionMismatchError(LoadError):
    default_code = 303


class InvalidStateError(LoadError):
    default_code = 304


class InvalidPositionError(LoadError):
    """A position document does not match its game's schema, or its position breaks a bound
    or an invariant of the rules (the message names the field and the rule)."""

    default_code = 306


class DocumentTooLargeError(LoadError):
    """A saved state or position document is longer than 16 MiB, or holds a longer array or
    more values than a document of its game can hold; refused before it is parsed."""

    default_code = 308


class InvalidDataError(SetupError, LoadError):
    """Component data is invalid (raised while setting a game up)."""

    default_code = 305


#: The class raised for each code. Codes without a class of their own raise KassenError.
#: (``ArgumentTypeError`` shares code 5 with ``InvalidArgumentError``, the class listed here.)
ERROR_CLASSES: Dict[int, Type[KassenError]] = {
    cls.default_code: cls
    for cls in (
        PanicError,
        InvalidArgumentError,
        BufferTooSmallError,
        OutOfMemoryError,
        ThreadsUnavailableError,
        UnknownGameError,
        InvalidConfigError,
        ConfigOutOfRangeError,
        UnknownConfigKeyError,
        IllegalActionError,
        ActionOutOfRangeError,
        NotYourTurnError,
        GameOverError,
        NotChanceNodeError,
        InvalidPlayerError,
        UnreadableMoveError,
        WrongGameError,
        MalformedJsonError,
        UnsupportedFormatError,
        LoadUnknownGameError,
        RulesVersionMismatchError,
        InvalidStateError,
        InvalidDataError,
        InvalidPositionError,
        PositionNotSupportedError,
        DocumentTooLargeError,
    )
}


def _error_from_code(code: int, message: str, wrong_type: bool = False) -> KassenError:
    """Called by the native module to build the exception it raises (``wrong_type``: an
    argument of the wrong type, raised as ``ArgumentTypeError``)."""
    cls = ArgumentTypeError if wrong_type else ERROR_CLASSES.get(code, KassenError)
    return cls(message, code)
