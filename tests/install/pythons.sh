# Sourced by the install tests: finding CPython interpreters and running the
# version-independent part of the pytest suite against a kassen installed in a virtualenv.

# The first of pythonVERSION on PATH, pyenv's VERSION.*, or python3.
find_python() { # version
    local candidate
    for candidate in "python$1" "$HOME"/.pyenv/versions/"$1".*/bin/"python$1" python3; do
        if "$candidate" --version >/dev/null 2>&1; then echo "$candidate"; return; fi
    done
}

# API, errors, README examples and golden playthroughs, run from python/tests so that `import
# kassen` finds the installed package (checked to be the one in site-packages).
install_suite=(test_api.py test_errors.py test_readme.py test_golden.py)
run_installed_suite() { # root venv
    "$2/bin/python" -m pip install -q --disable-pip-version-check pytest
    "$2/bin/python" -c 'import kassen; assert "site-packages" in kassen.__file__, kassen.__file__'
    (cd "$1/python/tests" && "$2/bin/python" -m pytest -q -p no:cacheprovider "${install_suite[@]}")
}
