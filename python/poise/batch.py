"""`poise batch` on a Dask cluster: the same per-file work, spread over Dask workers on any
number of hosts, with the same summary table.

The plan (which inputs, which outputs, what a rerun skips) comes from `poise batch --plan`, so the
walk over folders, the globs, the output names and the resume rule are the CLI's own. The
pending inputs are then Dask tasks of a few inputs each (sharing an output folder), each running
`poise batch COMMAND OPTIONS INPUT… --out DIR --jobs 1 --force --summary -` on a worker: one
`poise` process per file, whose summary rows are the task's result. A worker that dies is replaced by Dask and its tasks run again (outputs are
written to a temporary name and renamed, so a rerun never meets a half-written file).

Every worker needs the `poise` executable (`cli`, else the environment variable POISE_CLI, else
`poise` on PATH) and must see the inputs and the output folder under the same paths as the
client: a shared file system (NFS, Lustre, a mounted bucket). See docs/scaling.md.

    from dask.distributed import Client
    from poise.batch import run_batch

    client = Client("scheduler:8786")                # or LocalCluster(n_workers=8)
    table = run_batch("fuse", ["/data/study"], "/data/fused", options=["--mode", "6d"], client=client)
    table[table.status == "failed"][["input", "error"]]

Columns of the table (pandas DataFrame, one row per input, in the CLI's order): input, output,
status (ok, failed, skipped, interrupted), error, seconds, rows, then the command's headline
numbers (fuse: sample_rate_hz; evaluate: scored_samples, total_rmse_deg, heading_rmse_deg,
inclination_rmse_deg; info: duration_s, sample_rate_hz, sensors; spectrum: sample_rate_hz).
"""

import json
import math
import os
import shutil
import subprocess


def _cli(cli=None):
    path = cli or os.environ.get("POISE_CLI") or shutil.which("poise")
    if not path:
        raise FileNotFoundError("the poise executable was not found: pass cli=, set POISE_CLI or put poise on PATH")
    return path


def _selection(include=(), exclude=(), force=False):
    arguments = []
    for glob in include:
        arguments += ["--include", glob]
    for glob in exclude:
        arguments += ["--exclude", glob]
    return arguments + (["--force"] if force else [])


def plan(command, inputs, out, options=(), include=(), exclude=(), force=False, summary=None, cli=None):
    """The rows `poise batch` would produce, with status "pending" for the inputs it would run
    (a list of dicts, keys in the summary's column order)."""
    arguments = [_cli(cli), "batch", command, *options, "--out", out, "--plan", *_selection(include, exclude, force)]
    if summary:
        arguments += ["--summary", summary]
    done = subprocess.run(arguments + ["--", *inputs], capture_output=True, text=True)
    if done.returncode != 0:
        raise ValueError(f"poise batch --plan failed (status {done.returncode}): {done.stderr.strip()}")
    return json.loads(done.stdout)


def run_files(command, inputs, out_dir, options=(), cli=None):
    """Runs inputs whose outputs share the folder `out_dir` as `poise batch` does (one `poise`
    process each, one after the other) and returns their summary rows in the same order. What a
    Dask task calls; usable on its own."""
    arguments = [_cli(cli), "batch", command, *options, "--out", out_dir or ".",
                 "--jobs", "1", "--force", "--summary", "-", "--", *inputs]
    done = subprocess.run(arguments, capture_output=True, text=True)
    try:
        rows = json.loads(done.stdout)
    except ValueError:
        raise RuntimeError(f"poise batch gave no summary for {inputs[0]}… (status {done.returncode}): {done.stderr.strip()}")
    if [row["input"] for row in rows] != list(inputs):
        raise RuntimeError(f"poise batch gave rows for other inputs than {inputs[0]}…")
    return rows


def _chunks(rows, pending, workers, largest):
    """The pending rows grouped by output folder into tasks whose size shrinks as the work left
    shrinks ("guided" sizes): each task takes the work left divided by twice the workers,
    between 1 and `largest` inputs. Large tasks first share the per-task cost of Dask and of the
    task's `poise batch` process; small ones last let every worker finish at about the same time
    (equal tasks of 16 inputs left one worker up to 16 files behind the other)."""
    folders = {}
    for i in pending:
        folders.setdefault(os.path.dirname(rows[i]["output"]), []).append(i)
    left = len(pending)
    groups = []
    for folder, members in folders.items():
        k = 0
        while k < len(members):
            size = max(1, min(largest, -(-left // (2 * workers)), len(members) - k))
            groups.append((folder, members[k:k + size]))
            k += size
            left -= size
    return groups


def run_batch(command, inputs, out, options=(), client=None, include=(), exclude=(), force=False, summary=None,
              cli=None, retries=2, chunk=None):
    """`poise batch COMMAND OPTIONS INPUTS --out OUT` with Dask tasks for the pending inputs.

    client: a `dask.distributed.Client` (default: the current one, `distributed.get_client()`).
    chunk: the most inputs one task takes (default 16). Tasks take the inputs left divided by
    twice the workers, between 1 and `chunk`, so the per-task cost of Dask and of the
    task's `poise batch` process is shared by several files while the last tasks are small
    enough for the workers to finish together; inputs of one task share their output folder.
    retries: extra attempts for a task that raised (a worker that died is retried by Dask
    itself, up to its `distributed.scheduler.allowed-failures`).
    summary: prefix of the summary files written at the end (default OUT/batch-summary; False:
    none), the same CSV and JSON `poise batch` writes, so a later run (CLI or Dask) resumes.

    Returns the summary table as a pandas DataFrame.
    """
    import pandas
    if client is None:
        from distributed import get_client
        client = get_client()
    inputs = [inputs] if isinstance(inputs, str) else list(inputs)
    prefix = os.path.join(out, "batch-summary") if summary is None else summary
    rows = plan(command, inputs, out, options, include, exclude, force, prefix or None, cli)
    pending = [i for i, row in enumerate(rows) if row["status"] == "pending"]
    workers = max(1, len(client.scheduler_info().get("workers", {})))
    groups = _chunks(rows, pending, workers, chunk or 16)
    futures = client.map(run_files, [command] * len(groups), [[rows[i]["input"] for i in members] for _, members in groups],
                         [folder for folder, _ in groups], options=list(options), cli=_cli(cli), pure=False, retries=retries)
    for (_, members), results in zip(groups, client.gather(futures)):
        for i, row in zip(members, results):
            rows[i] = row
    if prefix:
        write_summary(rows, prefix)
    return pandas.DataFrame(rows, columns=list(rows[0]) if rows else None)


def write_summary(rows, prefix):
    """Writes PREFIX.csv and PREFIX.json as `poise batch` does (each to a temporary name, then renamed)."""
    import csv
    import io
    columns = list(rows[0]) if rows else ["input", "output", "status", "error", "seconds", "rows"]

    def cell(value):
        if value is None or (isinstance(value, float) and not math.isfinite(value)):
            return ""
        return repr(value) if isinstance(value, float) else str(value)

    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow(columns)
    for row in rows:
        writer.writerow([cell(row.get(c)) for c in columns])
    for path, content in [(prefix + ".csv", text.getvalue()), (prefix + ".json", json.dumps(rows, indent=2) + "\n")]:
        temporary = f"{path}.partial-{os.getpid()}"
        with open(temporary, "w", encoding="utf-8") as f:
            f.write(content)
        os.replace(temporary, path)
