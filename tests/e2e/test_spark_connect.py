"""The Spark Connect path (``sc://host:port``, what Databricks and Spark 4 servers expose), against a local Spark
Connect server started from the pyspark wheel's own scripts (``sbin/start-connect-server.sh``). sqlanon runs as
the CLI in its own process, a client of that server, as it would be of a remote one: the same generalization,
published and verified there, the run recorded in the server's catalog."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.e2e.test_faults import _env
from tests.e2e.test_interrupt import config_data
from tests.helpers import REPO, write_config

pytestmark = pytest.mark.spark

#: A client's work on the server (argv[1]: the URL; argv[2]: setup or inspect).
CHILD = """
import json, sys
from pyspark.sql import SparkSession

spark = SparkSession.builder.remote(sys.argv[1]).getOrCreate()
if sys.argv[2] == "setup":
    rows = [(i, None if i % 9 == 0 else 18 + (i * 7) % 60, "FM"[i % 2], f"{10000 + (i * 37) % 500:05d}", f"n{i}")
            for i in range(300)]
    spark.createDataFrame(rows, "id INT, age INT, sex STRING, zip STRING, name STRING").write.saveAsTable("src")
else:
    print(json.dumps({"tables": sorted(t.name for t in spark.catalog.listTables() if not t.isTemporary),
                      "rows": spark.table("src_k4").count(),
                      "smallest": spark.sql("SELECT min(n) FROM (SELECT count(*) AS n FROM src_k4 "
                                            "GROUP BY age, sex, zip)").collect()[0][0]}))
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def listening(port: int, limit: float = 120, failed: Callable[[], bool] = lambda: False) -> bool:
    """Whether a server on this machine listens on ``port`` within ``limit`` seconds (a Spark daemon's JVM
    takes seconds to start); False as soon as ``failed`` says it will not."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline and not failed():
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return True
        time.sleep(0.5)
    return False


#: A free port can be taken by another process before the server binds it (seen once in CI: a BindException);
#: the server is then started again on another port, this many times in all.
START_ATTEMPTS = 3


@pytest.fixture(scope="module")
def connect_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A Spark Connect server on a free port, for this module (started and stopped by Spark's own scripts)."""
    import pyspark

    home = Path(pyspark.__file__).parent
    for _ in range(START_ATTEMPTS):
        logs = tmp_path_factory.mktemp("spark-connect")
        port = free_port()
        env = {**os.environ, "SPARK_HOME": str(home), "SPARK_LOG_DIR": str(logs), "SPARK_PID_DIR": str(logs),
               "SPARK_IDENT_STRING": f"sqlanon-{port}"}
        subprocess.run(["bash", str(home / "sbin" / "start-connect-server.sh"), "--master", "local[2]",
                        "--conf", f"spark.connect.grpc.binding.port={port}",
                        "--conf", f"spark.sql.warehouse.dir={logs / 'warehouse'}",
                        "--conf", "spark.sql.shuffle.partitions=2"], env=env, check=True, capture_output=True)
        try:
            if listening(port, failed=lambda where=logs: bind_failed(where)):
                yield f"sc://127.0.0.1:{port}"
                return
            if not bind_failed(logs):
                pytest.fail("the Spark Connect server did not start:\n" + server_log(logs)[-3000:])
        finally:
            subprocess.run(["bash", str(home / "sbin" / "stop-connect-server.sh")], env=env, capture_output=True)
    pytest.fail(f"the Spark Connect server found no free port in {START_ATTEMPTS} attempts:\n"
                + server_log(logs)[-3000:])


def server_log(logs: Path) -> str:
    return "\n".join(p.read_text() for p in logs.glob("*.out"))


def bind_failed(logs: Path) -> bool:
    """Whether the server's log says its port was taken."""
    return "java.net.BindException" in server_log(logs)


def client(url: str, action: str) -> str:
    done = subprocess.run([sys.executable, "-c", CHILD, url, action], cwd=REPO, env=_env(), capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def test_a_run_through_spark_connect(connect_server: str, tmp_path: Path) -> None:
    client(connect_server, "setup")
    path = write_config(tmp_path / "c.yaml", config_data(connect_server))
    done = subprocess.run([sys.executable, "-m", "sqlanon.cli", "anonymize", str(path), "--json"], cwd=REPO,
                          env=_env(), capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout)
    assert result["verified"] is True and result["run_id"]
    seen = json.loads(client(connect_server, "inspect"))
    # The output and nothing else beside the source (scratch tables were the session's temporary views).
    assert seen["tables"] == ["src", "src_k4"]
    assert seen["rows"] == result["output_rows"] and seen["smallest"] >= 4
    listed = subprocess.run([sys.executable, "-m", "sqlanon.cli", "runs", "list", "--db", connect_server, "--json"],
                            cwd=REPO, env=_env(), capture_output=True, text=True, timeout=300)
    assert listed.returncode == 0, listed.stderr[-3000:]
    assert result["run_id"] in listed.stdout and "succeeded" in listed.stdout


def test_an_unreachable_server_is_an_engine_error(tmp_path: Path) -> None:
    path = write_config(tmp_path / "c.yaml", config_data(f"sc://127.0.0.1:{free_port()}"))
    done = subprocess.run([sys.executable, "-m", "sqlanon.cli", "anonymize", str(path)], cwd=REPO, env=_env(),
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 1, done.stderr[-3000:]
    assert done.stderr.startswith("sqlanon: error: ") and "Traceback" not in done.stderr
