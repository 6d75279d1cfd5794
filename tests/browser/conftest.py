"""pytest hooks of the browser suites: under pytest-xdist each worker of ``test_play.py`` writes
the metrics of the games it played to ``browser-metrics.<worker>.json``; the controlling process
clears old parts before the run and merges the parts into ``browser-metrics.json`` after it."""

from __future__ import annotations

import json

import pytest

from paths import ARTIFACTS


def _controller(session: pytest.Session) -> bool:
    return not hasattr(session.config, "workerinput")


def pytest_sessionstart(session: pytest.Session) -> None:
    if _controller(session):
        for part in ARTIFACTS.glob("browser-metrics.*.json"):
            part.unlink()


def pytest_sessionfinish(session: pytest.Session) -> None:
    parts = sorted(ARTIFACTS.glob("browser-metrics.*.json"))
    if not _controller(session) or not parts:
        return
    merged: dict = {}
    for part in parts:
        merged.update(json.loads(part.read_text()))
        part.unlink()
    path = ARTIFACTS / "browser-metrics.json"
    path.write_text(json.dumps(merged, indent=1, sort_keys=True))
    print(f"\nmetrics of {len(merged)} games in {path}")
