#!/bin/sh
# ctest's launcher of the Python suite: run_pytest.sh PYTHON PYTEST_ARGS...
# PYTHON is the interpreter the module was built for; when that path does not
# exist (a build folder carried to another machine), python3 is used instead.
py="$1"
shift
[ -x "$py" ] || py=python3
exec "$py" -m pytest "$@"
