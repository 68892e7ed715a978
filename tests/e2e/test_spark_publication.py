"""Publication on a real Spark, killed at its most fragile point: the CLI in its own process on a local Spark
whose tables and Hive metastore live in a warehouse folder (``spark:///?master=local[1]&warehouse=...``), as a
user runs it. Spark has no transactions: the output is published by the staged swap (``output/writer.py``),
and a run SIGKILLed between its two renames leaves the old table under its private name and the release under
its own, never a partial target; the next run refuses, naming both, until the user chose. Each step is a new
process with its own Spark (the Derby metastore takes one process at a time), so the test takes a minute.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sqlanon.output import writer
from tests.e2e.test_faults import _env, wait_for
from tests.e2e.test_interrupt import config_data, sleeping
from tests.helpers import REPO, write_config

pytestmark = pytest.mark.spark

#: A child process's work on the warehouse (argv[1]: the URL; argv[2]: setup or inspect), through sqlanon's
#: own adapter so that it opens the same catalog as the CLI.
CHILD = """
import json, sys
from sqlanon.engines import adapter_for_url

adapter = adapter_for_url(sys.argv[1])
adapter.connect()
try:
    if sys.argv[2] == "setup":
        adapter.execute("CREATE TABLE src (id INT, age INT, sex STRING, zip STRING, name STRING)")
        rows = [(i, None if i % 9 == 0 else 18 + (i * 7) % 60, "FM"[i % 2], f"{10000 + (i * 37) % 500:05d}", f"n{i}")
                for i in range(300)]
        adapter.execute("INSERT INTO src VALUES " + ", ".join(["(?, ?, ?, ?, ?)"] * len(rows)),
                        [v for r in rows for v in r])
        adapter.execute("CREATE TABLE src_k4 AS SELECT 'old' AS marker")
    elif sys.argv[2] == "rename":
        adapter.execute(f"ALTER TABLE {sys.argv[3]} RENAME TO src_k4")
    else:
        tables = [r[1] for r in adapter.execute("SHOW TABLES") if not r[2]]
        print(json.dumps({t: adapter.execute(f"SELECT count(*) FROM {t}")[0][0] for t in tables}))
        print(json.dumps({t: [list(r) for r in adapter.execute(f"SELECT * FROM {t} LIMIT 3")] for t in tables}))
finally:
    adapter.close()
"""


def child(url: str, *args: str) -> str:
    done = subprocess.run([sys.executable, "-c", CHILD, url, *args], cwd=REPO, env=_env(), capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def jvm_gone(warehouse: Path) -> None:
    """Wait until no Spark of this warehouse runs: a killed driver's JVM ends once its parent's pipe closes,
    and only then may the next process open the Derby metastore."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if subprocess.run(["pgrep", "-f", str(warehouse)], capture_output=True).returncode != 0:
            return
        time.sleep(0.2)
    pytest.fail("the killed run's Spark did not end")


def sqlanon(*args: str, pause: float | None = None) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "sqlanon.cli", *args], cwd=REPO,
                            env=_env({"SQLANON_FAULT_PAUSE_IN_WRITE": pause} if pause else None),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def warehouse_and_job(tmp_path: Path) -> tuple[Path, str, Path]:
    """A warehouse with the source and an old output ``src_k4``, its URL, and a config replacing that output."""
    warehouse = tmp_path / "wh"
    url = f"spark:///?master=local[1]&warehouse={warehouse}&spark.sql.shuffle.partitions=2"
    child(url, "setup")
    data = config_data(url)
    data["output"]["if_exists"] = "replace"
    return warehouse, url, write_config(tmp_path / "publish.yaml", data)


def test_a_run_killed_between_the_renames_leaves_the_old_table_and_the_next_run_says_so(tmp_path: Path) -> None:
    warehouse, url, path = warehouse_and_job(tmp_path)
    staged, old = (name[-1] for name in writer.staged_names(("spark_catalog", "default", "src_k4")))
    killed = sqlanon("anonymize", str(path), pause=120)
    # In the pause once the old table's folder has its private name (pyspark also sleeps while its JVM starts).
    wait_for(killed, lambda: (warehouse / old).is_dir() and sleeping(killed.pid), "the pause between the renames",
             limit=300)
    killed.send_signal(signal.SIGKILL)
    out, _ = killed.communicate(timeout=30)
    assert killed.returncode == -signal.SIGKILL and not out
    jvm_gone(warehouse)

    counts = json.loads(child(url, "inspect").splitlines()[0])
    # No target, never a partial one: the old contents under their private name, the whole release under its
    # own; no scratch table (they were the dead session's temporary views).
    assert counts.keys() == {"src", old, staged}
    assert counts[old] == 1 and counts[staged] > 0

    refused = sqlanon("anonymize", str(path))
    out, err = refused.communicate(timeout=300)
    assert refused.returncode == 2, err[-2000:]
    assert "is missing: a run replacing it was stopped between its renames" in err
    assert f"previous contents are in spark_catalog.default.{old} and its release in " \
           f"spark_catalog.default.{staged}" in err
    jvm_gone(warehouse)

    child(url, "rename", old)
    again = sqlanon("anonymize", str(path), "--json")
    out, err = again.communicate(timeout=300)
    assert again.returncode == 0, err[-2000:]
    assert json.loads(out)["verified"] is True
    jvm_gone(warehouse)
    counts = json.loads(child(url, "inspect").splitlines()[0])
    # The release the killed run left was dropped before the new one was built; the old table was replaced.
    assert counts.keys() == {"src", "src_k4"} and counts["src_k4"] > 1


def test_ctrl_c_between_the_renames_puts_the_old_table_back_and_exits_130(tmp_path: Path) -> None:
    """Ctrl-C where a kill leaves no target: the interrupted run takes its steps back (the old table renamed
    into place, the release dropped) before it exits 130."""
    warehouse, url, path = warehouse_and_job(tmp_path)
    staged, old = (name[-1] for name in writer.staged_names(("spark_catalog", "default", "src_k4")))
    interrupted = sqlanon("anonymize", str(path), pause=120)
    wait_for(interrupted, lambda: (warehouse / old).is_dir() and sleeping(interrupted.pid),
             "the pause between the renames", limit=300)
    interrupted.send_signal(signal.SIGINT)
    out, err = interrupted.communicate(timeout=120)
    assert interrupted.returncode == 130, err[-2000:]
    assert "interrupted" in err.lower() and not out
    jvm_gone(warehouse)

    counts = json.loads(child(url, "inspect").splitlines()[0])
    rows = json.loads(child(url, "inspect").splitlines()[1])
    assert counts.keys() == {"src", "src_k4"}, counts  # neither private name is left
    assert rows["src_k4"] == [["old"]]  # the old contents, as they were
    assert not (warehouse / old).exists() and not (warehouse / staged).exists()
