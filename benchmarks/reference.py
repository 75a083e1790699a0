"""This tree's engine against an older commit of itself, scene by scene.

Issue #13 asks that the architecture work leave the speed unchanged within noise, measured
before and after. This runs each scene in a fresh process per tree, the two trees taking
turns, and prints the mean ms per step of each and their ratio per round::

    python -m benchmarks.reference                      # against e4fad04, #13's reference
    python -m benchmarks.reference --ref bc2cf9b --scenes rain2000,idle2000 --rounds 5

The older commit is checked out into a temporary git worktree (removed afterwards) and
imported from there: each process is given its tree on ``PYTHONPATH`` and started outside
both trees, and prints the file it imported ``engine`` from, which is checked. A tree
compiles its kernels into its own cache on its first run, so each scene runs once in each
tree untimed (as long as a timed run) before the rounds. Sleeping is off (the reference had none). Timed: the mean
of ``--steps`` steps after 20 (idle2000: ten times as many, its steps are short).
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REFERENCE = "e4fad04"  # the last commit before issue #13's architecture work

SCENES = {
    "pyramid20": "scenes.pyramid(20)",
    "pyramid40": "scenes.pyramid(40)",
    "rain2000": "scenes.rain(2000, 1000)",
    "idle2000": "scenes.idle(2000)",
    "large_pyramid": "scenes.pyramid(100)",
    "concave_drop": "scenes.concave_drop()",
    "tumbler": "scenes.tumbler()",
    "box2d_tumbler": "scenes.box2d_tumbler()",  # Box2D's benchmarks (issue #17)
    "smash": "scenes.smash()",
}

_PROBE = r"""
import sys, time
import engine
from engine import scenes
world, _ = {scene}.build()
if hasattr(world, "sleeping"):
    world.sleeping = False
for _ in range(20):
    world.step(1 / 60)
steps = {steps}
t0 = time.perf_counter()
for _ in range(steps):
    world.step(1 / 60)
print((time.perf_counter() - t0) / steps * 1e3, engine.__file__)
"""


def run(tree, scene, steps):
    """Mean ms per step of ``scene`` (a key of SCENES) in a fresh process importing the
    engine of ``tree``."""
    code = _PROBE.format(scene=SCENES[scene], steps=steps)
    env = dict(os.environ, PYTHONPATH=tree)
    out = subprocess.run([sys.executable, "-c", code], env=env, cwd=tempfile.gettempdir(),
                         capture_output=True, text=True, check=True).stdout.split()
    ms, imported = float(out[-2]), out[-1]
    if not os.path.abspath(imported).startswith(os.path.abspath(tree) + os.sep):
        raise RuntimeError(f"{tree}: imported the engine from {imported}, not from the tree")
    return ms


def compare(ref_tree, scenes, rounds, steps):
    """``{scene: [(ref ms, ours ms), ...]}``, the trees taking turns in each round."""
    results = {}
    for scene in scenes:
        n = steps * 10 if scene == "idle2000" else steps
        # Once untimed in each tree, as long as a timed run: a tree's first run compiles
        # what the scene uses, some of it only when bodies first land or move fast.
        run(ref_tree, scene, n)
        run(ROOT, scene, n)
        results[scene] = []
        for _ in range(rounds):
            results[scene].append((run(ref_tree, scene, n), run(ROOT, scene, n)))
            ref, ours = results[scene][-1]
            print(f"  {scene}: {ref:.4f} -> {ours:.4f} ms ({ours / ref:.3f})", flush=True)
    return results


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--ref", default=REFERENCE, help="the commit to compare with")
    p.add_argument("--scenes", default=",".join(SCENES), help="comma-separated, of: " + ", ".join(SCENES))
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--steps", type=int, default=150)
    args = p.parse_args(argv)
    scenes = [s for s in args.scenes.split(",") if s]
    unknown = sorted(set(scenes) - set(SCENES))
    if unknown:
        p.error(f"unknown scenes {unknown}; known: {sorted(SCENES)}")
    with tempfile.TemporaryDirectory() as tmp:
        ref_tree = os.path.join(tmp, "ref")
        subprocess.run(["git", "-C", ROOT, "worktree", "add", "--detach", ref_tree, args.ref],
                       check=True, capture_output=True)
        try:
            print(f"{args.ref} against this tree, {args.rounds} rounds, fresh processes taking turns")
            results = compare(ref_tree, scenes, args.rounds, args.steps)
        finally:
            subprocess.run(["git", "-C", ROOT, "worktree", "remove", "--force", ref_tree],
                           capture_output=True)
    print(f"\n| scene | {args.ref} ms | this tree ms | ratio per round | median |")
    print("| --- | --- | --- | --- | --- |")
    for scene, pairs in results.items():
        ratios = [ours / ref for ref, ours in pairs]
        refs, ours = [r for r, _ in pairs], [o for _, o in pairs]
        print(f"| {scene} | {min(refs):.3f}-{max(refs):.3f} | {min(ours):.3f}-{max(ours):.3f} | "
              f"{', '.join(f'{r:.2f}' for r in ratios)} | {statistics.median(ratios):.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
