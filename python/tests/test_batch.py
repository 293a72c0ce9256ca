"""poise.batch on a Dask LocalCluster of worker processes against `poise batch` on the same
folder: the same summary table (statuses, errors, numbers) and the same output files, also when a
worker is killed while it runs a file."""

import io
import json
import os
import shutil
import signal
import subprocess
import threading
import time

import pytest

from conftest import DATA

distributed = pytest.importorskip(
    "distributed", reason="dask[distributed] is not installed in this environment: the Dask recipe is not tested")
pandas = pytest.importorskip("pandas", reason="pandas is not installed in this environment: the Dask recipe is not tested")

from poise.batch import _chunks, run_batch  # noqa: E402


@pytest.fixture
def folder(tmp_path):
    """Real recordings of data/ (one in a subfolder), an empty, a truncated and a non-recording
    file, and a file Poise does not read by its extension."""
    src = tmp_path / "in"
    (src / "sub").mkdir(parents=True)
    for name in ["walking.csv", "shake.csv"]:
        shutil.copy(os.path.join(DATA, name), src / name)
    shutil.copy(os.path.join(DATA, "tilt-steps.csv"), src / "sub" / "tilt-steps.csv")
    with open(os.path.join(DATA, "still.csv"), encoding="utf-8") as f:
        (src / "truncated.csv").write_text(f.read()[:3000], encoding="utf-8")
    (src / "empty.csv").write_text("", encoding="utf-8")
    (src / "notes.txt").write_text("minutes of the meeting, not a recording\n", encoding="utf-8")
    (src / "README.md").write_text("what is in this folder\n", encoding="utf-8")
    return src


def cli_batch(cli, command, inputs, out, *options):
    done = subprocess.run([cli, "batch", command, *options, *map(str, inputs), "--out", str(out)],
                          capture_output=True, text=True)
    with open(out / "batch-summary.json", encoding="utf-8") as f:
        return done.returncode, json.load(f)


def comparable(rows, out):
    """The rows without the wall time, with the output folder cut from the output paths."""
    return [{k: (v.replace(str(out), "OUT") if k == "output" else v) for k, v in row.items() if k != "seconds"}
            for row in rows]


def test_tasks_shrink_as_the_work_left_shrinks_and_cover_every_input_once():
    rows = [{"output": f"/out/{'ab'[i % 3 == 0]}/r{i:03d}.csv"} for i in range(200)]
    pending = [i for i in range(200) if i % 7]  # some inputs are done already
    for workers in (1, 2, 8):
        groups = _chunks(rows, pending, workers, 16)
        assert sorted(i for _, members in groups for i in members) == pending
        for folder, members in groups:
            assert 1 <= len(members) <= 16
            assert {os.path.dirname(rows[i]["output"]) for i in members} == {folder}
        sizes = [len(members) for _, members in groups]
        assert sizes[0] == min(16, -(-len(pending) // (2 * workers))) and sizes[-1] == 1
        # within a folder, no task is larger than the one before it
        for folder in {f for f, _ in groups}:
            own = [len(m) for f, m in groups if f == folder]
            assert own == sorted(own, reverse=True), (workers, folder, own)
    assert len(_chunks(rows, pending, 2, 4)) > len(_chunks(rows, pending, 2, 16))


@pytest.fixture
def client():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with distributed.Client(cluster) as client:
            yield client


def test_dask_gives_the_table_of_poise_batch(cli, folder, tmp_path, client):
    status, rows = cli_batch(cli, "fuse", [folder], tmp_path / "cli", "--mode", "6d")
    assert status == 1  # some inputs failed
    statuses = {os.path.basename(r["input"]): r["status"] for r in rows}
    assert statuses == {"README.md": "skipped", "empty.csv": "failed", "notes.txt": "failed", "shake.csv": "ok",
                        "tilt-steps.csv": "ok", "truncated.csv": "failed", "walking.csv": "ok"}

    frame = run_batch("fuse", [str(folder)], str(tmp_path / "dask"), options=["--mode", "6d"], client=client, cli=cli)
    with open(tmp_path / "dask" / "batch-summary.json", encoding="utf-8") as f:
        dask_rows = json.load(f)
    assert comparable(dask_rows, tmp_path / "dask") == comparable(rows, tmp_path / "cli")

    # The DataFrame is the table pandas reads from the CLI's CSV.
    theirs = pandas.read_csv(tmp_path / "cli" / "batch-summary.csv").drop(columns="seconds")
    ours = pandas.read_csv(io.StringIO(frame.to_csv(index=False))).drop(columns="seconds")
    ours["output"] = ours["output"].str.replace(str(tmp_path / "dask"), str(tmp_path / "cli"), regex=False)
    pandas.testing.assert_frame_equal(ours, theirs)
    assert list(theirs.columns) == ["input", "output", "status", "error", "rows", "sample_rate_hz"]

    for row in rows:
        if row["status"] == "ok":
            with open(row["output"], "rb") as a, open(row["output"].replace(str(tmp_path / "cli"), str(tmp_path / "dask")), "rb") as b:
                assert a.read() == b.read(), row["input"]


def test_a_killed_worker_is_replaced_and_the_table_is_complete(cli, tmp_path, client):
    src = tmp_path / "long"
    src.mkdir()
    for seed in range(8):
        subprocess.run([cli, "simulate", "--scenario", "walking", "--duration", "120", "--seed", str(seed),
                        "--out", str(src / f"r{seed}.csv")], check=True, capture_output=True)
    _, rows = cli_batch(cli, "fuse", [src], tmp_path / "cli")
    assert [r["status"] for r in rows] == ["ok"] * 8

    before = client.run(os.getpid)
    result = {}
    runner = threading.Thread(target=lambda: result.update(
        frame=run_batch("fuse", [str(src)], str(tmp_path / "dask"), client=client, cli=cli)))
    runner.start()
    killed = None
    deadline = time.monotonic() + 60
    while killed is None and time.monotonic() < deadline:
        busy = [address for address, tasks in client.processing().items() if tasks]
        if busy:
            time.sleep(0.3)  # inside its file
            killed = before[busy[0]]
            os.kill(killed, signal.SIGKILL)
        else:
            time.sleep(0.05)
    runner.join(timeout=300)
    assert killed is not None, "no worker was ever busy"
    assert not runner.is_alive()
    assert killed not in client.run(os.getpid).values()  # the nanny started a new worker process
    frame = result["frame"]
    assert list(frame["status"]) == ["ok"] * 8
    with open(tmp_path / "dask" / "batch-summary.json", encoding="utf-8") as f:
        assert comparable(json.load(f), tmp_path / "dask") == comparable(rows, tmp_path / "cli")
