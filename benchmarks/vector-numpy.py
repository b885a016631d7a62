"""The reference of benchmarks/vector-numpy.ts: exact top-k with numpy, as a team would write it.

Reads records and queries (little-endian float32, row-major) written by the benchmark, times
`queries @ records.T` in float32 (OpenBLAS sgemm) plus `argpartition` for the top k, and, untimed,
the float64 top k (ids sorted by score desc, then id asc) for the benchmark to compare ids with.
Prints one JSON line: {"seconds": ..., "blas": ..., "ids": [[...], ...]}.
Usage: python3 vector-numpy.py <records.f32> <queries.f32> <n> <dims> <nq> <k>
"""
import json
import sys
import time

import numpy as np

rec_path, q_path, n, dims, nq, k = sys.argv[1], sys.argv[2], *map(int, sys.argv[3:7])
records = np.fromfile(rec_path, dtype="<f4").reshape(n, dims)
queries = np.fromfile(q_path, dtype="<f4").reshape(nq, dims)
# the vectors are unit length: cosine = dot, as the benchmark's records and queries are
t0 = time.perf_counter()
scores = queries @ records.T
top = np.argpartition(-scores, k, axis=1)[:, :k]
seconds = time.perf_counter() - t0
del scores, top

ids = []
r64 = records.astype(np.float64)
n64 = np.linalg.norm(r64, axis=1)
for start in range(0, nq, 100):
    q64 = queries[start : start + 100].astype(np.float64)
    cos = (q64 @ r64.T) / np.outer(np.linalg.norm(q64, axis=1), n64)
    for row in cos:
        part = np.argpartition(-row, k)[: k + 32]
        order = sorted(part.tolist(), key=lambda d: (-row[d], d))
        ids.append(order[:k])
cfg = np.show_config(mode="dicts") if hasattr(np, "show_config") else {}
blas = cfg.get("Build Dependencies", {}).get("blas", {}).get("name", "unknown") if isinstance(cfg, dict) else "unknown"
print(json.dumps({"seconds": seconds, "blas": blas, "numpy": np.__version__, "ids": ids}))
