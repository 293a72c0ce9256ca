"""The Dask rows of Benchmarks/batch/run.sh: poise.batch.run_batch on a LocalCluster of 1 and of
N worker processes (one thread each) over the same folder; cluster start-up is not timed."""

import statistics
import sys
import time

from distributed import Client, LocalCluster

from poise.batch import run_batch


def main():
    inputs, out, jobs, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    seconds = {}
    for workers in (1, jobs):
        with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
                Client(cluster) as client:
            client.wait_for_workers(workers)
            times = []
            for _ in range(rounds):
                start = time.perf_counter()
                table = run_batch("fuse", [inputs], out, include=["*.csv"], force=True, client=client)
                times.append(time.perf_counter() - start)
                assert (table.status == "ok").all(), table[table.status != "ok"]
            seconds[workers] = statistics.median(times)
            rows = int(table.rows.sum())
            print(f"  Dask LocalCluster {workers} worker(s)          {seconds[workers]:8.2f} s  {rows / seconds[workers]:8.0f} rows/s"
                  f"   (rounds: {' '.join(f'{t:.2f}' for t in times)})")
    print(f"  speed-up Dask {jobs} workers / 1 worker        {seconds[1] / seconds[jobs]:6.2f}× (target ≥ 1.6)")


if __name__ == "__main__":  # the worker processes import this file again
    main()
