"""Time the concave-polygon decompositions on random star-shaped polygons.

Run from the repository root: ``python benchmarks/decompose.py``. For 10, 100 and 1000 vertices it
prints, per method, the number of convex pieces and the milliseconds per call (median of several
calls, validation included), plus validation and interior-edge flagging on their own.
"""
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.geometry.decompose import decompose, interior_edges, validate_polygon  # noqa: E402


def star(n, seed=0):
    """Star-shaped polygon: sorted random angles, radii uniform in [0.2, 1] (about half reflex)."""
    rng = np.random.default_rng(seed)
    gaps = rng.uniform(0.5, 1.0, n)
    angles = np.cumsum(gaps) / gaps.sum() * 2.0 * np.pi
    radii = rng.uniform(0.2, 1.0, n)
    return np.c_[radii * np.cos(angles), radii * np.sin(angles)]


def median_ms(fn, repeats):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return 1e3 * float(np.median(times))


def main():
    print(f"{'vertices':>8}  {'reflex':>6}  {'method':<16}  {'pieces':>6}  {'ms/call':>9}")
    for n in (10, 100, 1000):
        polygon = star(n)
        clean = validate_polygon(polygon)
        e1, e2 = clean - np.roll(clean, 1, axis=0), np.roll(clean, -1, axis=0) - clean
        reflex = int(np.sum(e1[:, 0] * e2[:, 1] - e1[:, 1] * e2[:, 0] < 0))
        repeats = {10: 50, 100: 10, 1000: 3}[n]
        rows = [("validate_polygon", "-", median_ms(lambda: validate_polygon(polygon), repeats))]
        for method in ("split", "earclip", "auto"):
            pieces = decompose(polygon, method=method)
            ms = median_ms(lambda: decompose(polygon, method=method), repeats)
            rows.append((method, len(pieces), ms))
        pieces = decompose(polygon)
        rows.append(("interior_edges", "-", median_ms(lambda: interior_edges(pieces, polygon), repeats)))
        for name, count, ms in rows:
            print(f"{n:>8}  {reflex:>6}  {name:<16}  {count!s:>6}  {ms:>9.2f}")


if __name__ == "__main__":
    main()
