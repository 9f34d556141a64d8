"""``kubb3d.workers.map_jobs``, the one runner of calibrate's and sensitivity's trials: the same
results in job order on one process or a pool, and one progress tick per job."""

from __future__ import annotations

import math

from kubb3d.workers import map_jobs


def test_a_pool_gives_what_one_process_gives_in_job_order():
    jobs = list(range(11))
    ticks: list[int] = []
    alone = map_jobs(math.factorial, jobs, 1, ticks.append)
    pooled = map_jobs(math.factorial, jobs, 2, ticks.append, chunksize=3)
    assert alone == pooled == [math.factorial(n) for n in jobs]
    assert ticks == [1] * (2 * len(jobs))
