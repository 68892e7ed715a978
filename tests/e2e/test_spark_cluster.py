"""The standalone-cluster URL (``spark://host:7077``) against a real standalone master and worker on this
machine, started by the pyspark wheel's own daemon script (``sbin/spark-daemon.sh``; the wheel has no
start-master.sh). The CLI is the driver, in its own process; the executor runs in the worker. The source is
parquet files every process of the cluster reads where they lie (``source.table: parquet:...``); the output goes
to a warehouse folder."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e.test_faults import _env
from tests.e2e.test_interrupt import config_data
from tests.e2e.test_spark_connect import free_port, listening
from tests.helpers import REPO, write_config

pytestmark = pytest.mark.spark


@pytest.fixture(scope="module")
def standalone_master(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A master and one worker (1 core, 1 GB) on free ports, for this module."""
    import pyspark

    home = Path(pyspark.__file__).parent
    logs = tmp_path_factory.mktemp("spark-standalone")
    port, web, worker_web = free_port(), free_port(), free_port()
    env = {**os.environ, "SPARK_HOME": str(home), "SPARK_LOG_DIR": str(logs), "SPARK_PID_DIR": str(logs),
           "SPARK_IDENT_STRING": f"sqlanon-{port}", "SPARK_MASTER_HOST": "127.0.0.1",
           "SPARK_MASTER_PORT": str(port), "SPARK_MASTER_WEBUI_PORT": str(web),
           "SPARK_WORKER_WEBUI_PORT": str(worker_web), "SPARK_LOCAL_IP": "127.0.0.1",
           "SPARK_WORKER_DIR": str(logs / "work")}
    master = f"spark://127.0.0.1:{port}"
    daemon = ["bash", str(home / "sbin" / "spark-daemon.sh")]
    master_class, worker_class = "org.apache.spark.deploy.master.Master", "org.apache.spark.deploy.worker.Worker"
    subprocess.run([*daemon, "start", master_class, "1", "--host", "127.0.0.1", "--port", str(port),
                    "--webui-port", str(web)], env=env, check=True, capture_output=True)
    try:
        if not listening(port):
            pytest.fail("the standalone master did not start")
        subprocess.run([*daemon, "start", worker_class, "1", "--webui-port", str(worker_web), "--cores", "1",
                        "--memory", "1g", master], env=env, check=True, capture_output=True)
        yield master
    finally:
        subprocess.run([*daemon, "stop", worker_class, "1"], env=env, capture_output=True)
        subprocess.run([*daemon, "stop", master_class, "1"], env=env, capture_output=True)


def test_a_run_on_a_standalone_cluster(standalone_master: str, tmp_path: Path) -> None:
    import duckdb

    files = tmp_path / "src.parquet"
    rows = [(i, None if i % 9 == 0 else 18 + (i * 7) % 60, "FM"[i % 2], f"{10000 + (i * 37) % 500:05d}", f"n{i}")
            for i in range(300)]
    with duckdb.connect() as con:
        con.execute("CREATE TABLE src (id INTEGER, age INTEGER, sex VARCHAR, zip VARCHAR, name VARCHAR)")
        con.executemany("INSERT INTO src VALUES (?, ?, ?, ?, ?)", rows)
        con.execute(f"COPY src TO '{files}' (FORMAT parquet)")
    host = standalone_master.removeprefix("spark://")
    url = (f"spark://{host}/?warehouse={tmp_path / 'wh'}&spark.executor.memory=512m"
           f"&spark.driver.host=127.0.0.1&spark.sql.shuffle.partitions=2")
    data = config_data(url)
    data["source"]["table"] = f"parquet:{files}"
    path = write_config(tmp_path / "c.yaml", data)
    done = subprocess.run([sys.executable, "-m", "sqlanon.cli", "anonymize", str(path), "--json"], cwd=REPO,
                          env=_env(), capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout)
    assert result["verified"] is True and result["rows"] == 300
    written = list((tmp_path / "wh" / "src_k4").glob("*.parquet"))
    assert written, "no parquet files of the output in the warehouse"
    output = f"read_parquet('{tmp_path / 'wh' / 'src_k4'}/*.parquet')"
    with duckdb.connect() as con:
        count, smallest = con.execute(
            f"SELECT sum(n), min(n) FROM (SELECT count(*) AS n FROM {output} GROUP BY age, sex, zip)").fetchone()
    assert count == result["output_rows"] and smallest >= 4
