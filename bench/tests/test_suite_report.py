"""bench/suite_report.py's tables against the ones bench/suite.py wrote before the split
(fixtures/golden/suite-tables.md, made with that code from fixtures/suite-summary.json)."""
import json
import os
import subprocess
import sys

import suite_report
from conftest import BENCH, FIXTURES


def test_tables_match_the_suite_before_the_split():
    with open(os.path.join(FIXTURES, "suite-summary.json")) as f:
        graphs = json.load(f)["graphs"]
    md = suite_report.summary_table(graphs) + "\n" + suite_report.table(graphs, 50.0) + \
        suite_report.direction_section(graphs) + suite_report.multi_gpu_section(graphs)
    with open(os.path.join(FIXTURES, "golden", "suite-tables.md")) as f:
        assert md == f.read()


def test_suite_help_runs():
    out = subprocess.run([sys.executable, os.path.join(BENCH, "suite.py"), "--help"], capture_output=True,
                         text=True, check=True).stdout
    assert "--from-json" in out
