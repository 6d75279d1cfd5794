"""The stub file kassen/_kassen.pyi matches the native module (mypy stubtest)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest


def test_stubtest(tmp_path):
    pytest.importorskip("mypy")
    proc = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "kassen._kassen"],
        cwd=tmp_path, capture_output=True, text=True,
        env={**os.environ, "MYPY_CACHE_DIR": str(tmp_path / "mypy_cache")},
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_package_is_typed():
    import importlib.resources

    files = importlib.resources.files("kassen")
    assert files.joinpath("py.typed").is_file()
    assert files.joinpath("_kassen.pyi").is_file()
