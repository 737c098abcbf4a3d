"""Shared pytest setup of the flashssd Python suite.

The suite imports the package from PYTHONPATH (ctest sets <build>/python; a
`pip install .` works too). Modules skip with their reason when flashssd, torch
or a GPU is missing. Accuracy tests record their relative errors through the
`error_report` fixture; the terminal summary prints the max per (suite, dtype),
and FLASHSSD_PYTEST_REPORT=<file.json> also writes every record.
FLASHSSD_PYTEST_ALL_SKIPPED_EXIT=<code> makes a run in which every test skipped
exit with that code (ctest then reports the test as skipped, not passed).
"""

from __future__ import annotations

import json
import os
from collections import Counter, defaultdict
from typing import Any, Callable

import pytest

_RECORDS: list[dict[str, Any]] = []
_OUTCOMES: Counter = Counter()


def pytest_runtest_logreport(report: Any) -> None:
    if report.failed:
        _OUTCOMES["failed"] += 1
    elif report.skipped:
        _OUTCOMES["skipped"] += 1
    elif report.when == "call":
        _OUTCOMES["passed"] += 1


def pytest_sessionfinish(session: Any, exitstatus: int) -> None:
    code = os.environ.get("FLASHSSD_PYTEST_ALL_SKIPPED_EXIT")
    # exitstatus 5 (nothing collected) is what a module-level skip (importorskip of
    # torch, no CUDA device) gives: that is a skipped file too, not a failure.
    all_skipped = _OUTCOMES["skipped"] and not (_OUTCOMES["passed"] or _OUTCOMES["failed"])
    module_skipped = exitstatus == 5 and session.testscollected == 0 and not _OUTCOMES["failed"]
    if code and ((exitstatus == 0 and all_skipped) or module_skipped):
        session.exitstatus = int(code)


@pytest.fixture
def error_report() -> Callable[..., None]:
    """record(suite, dtype, case, **errors): remember relative errors of one case."""

    def record(suite: str, dtype: str, case: str, **errors: float) -> None:
        _RECORDS.append({"suite": suite, "dtype": dtype, "case": case, **errors})

    return record


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if not _RECORDS:
        return
    groups: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for r in _RECORDS:
        groups[(r["suite"], r["dtype"])].append(r)
    tr = terminalreporter
    tr.section("flashssd accuracy (max relative norm error over the cases)")
    for (suite, dtype), rows in sorted(groups.items()):
        keys = sorted({k for r in rows for k in r if k not in ("suite", "dtype", "case")})
        parts = []
        for k in keys:
            vals = [r[k] for r in rows if k in r and r[k] is not None]
            if vals:
                worst = max(rows, key=lambda r: r.get(k) if r.get(k) is not None else -1.0)
                parts.append(f"{k}={max(vals):.3e} ({worst['case']})")
        tr.write_line(f"{suite:<16} {dtype:<9} cases={len(rows):<4} " + "  ".join(parts))
    path = os.environ.get("FLASHSSD_PYTEST_REPORT")
    if path:
        with open(path, "w") as f:
            json.dump(_RECORDS, f, indent=1)
        tr.write_line(f"records written to {path}")
