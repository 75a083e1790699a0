"""Every tunable of the engine, with its unit, its typical value and why.

Lengths are in meters, times in seconds, angles in radians (SI units, y up).
The values follow Box2D v3 (``include/box2d/constants.h``), which documents them
as tuned for objects between 0.1 m and 10 m.
"""

# A length that is numerically significant but visually insignificant: the
# collision and constraint tolerance. In meters. Box2D uses 0.005 (5 mm).
LINEAR_SLOP = 0.005

# Contacts are created for shapes up to this far apart, so that a pair closing
# within one step is caught by the solver (speculative contacts). In meters;
# 4 x slop, as Box2D. A larger margin creates more contacts and "ghost" bumps.
SPECULATIVE_DISTANCE = 4.0 * LINEAR_SLOP

# A pair's manifold is refreshed from its cache instead of recomputed while neither
# body's points have moved more than this, in meters, relative to the other since it
# was computed (``contacts/manifold_cache.py``). A tenth of the slop: the refreshed
# separations are exact for the cached points, and a point the cache lacks is off by
# at most this. 0 recomputes every manifold every step, as Box2D does.
MANIFOLD_REUSE_TOLERANCE = 0.1 * LINEAR_SLOP

# Reference-face hysteresis of the narrowphase, in meters: a pair keeps last step's
# reference face unless another face separates the pieces by more than this (no flicker
# between two nearly equal faces of a resting box). A tenth of the slop.
FACE_FLIP_TOLERANCE = 0.1 * LINEAR_SLOP

# Fat AABB margin for moving proxies: at most this, in meters, and at most
# AABB_MARGIN_FRACTION of the shape's extent. A bigger margin reinserts fewer
# proxies per step but produces more candidate pairs.
AABB_MARGIN = 0.05
AABB_MARGIN_FRACTION = 0.125

# A step moves "many" proxies (a falling pile) when more than 1 / MANY_MOVED_DIVISOR of
# the moving tree's leaves, and more than MANY_MOVED_MIN leaves, left their fat boxes
# (counts, no unit). The broadphase then rebuilds the tree top-down once instead of
# reinserting each leaf (``broadphase/proxies.py``) and finds pairs by one descent of the
# tree against itself instead of a query per leaf (``broadphase/find_pairs.py``); Box2D
# rebuilds enlarged subtrees every step for the same reason.
MANY_MOVED_DIVISOR = 4
MANY_MOVED_MIN = 32
# Updating the tree alone pays sooner: past 1 / REFIT_DIVISOR of the leaves moved (and
# MANY_MOVED_MIN), their boxes change in place and the tree is refit (about 6 ns a node)
# rather than each leaf reinserted (about 0.6 us a leaf): the 1024-world batch, where a
# quarter of the leaves leave their fat boxes by a hair every step, spent 3 ms a step
# reinserting them. The pair search keeps MANY_MOVED_DIVISOR.
REFIT_DIVISOR = 16

# After many leaves moved, the moving tree is refit in place and rebuilt top-down only
# when that left its area ratio (Box2D's b2DynamicTree_GetAreaRatio: the internal boxes'
# summed perimeter over the root's) more than REBUILD_GROWTH times the ratio it had when
# last rebuilt (no unit). A pile whose bodies keep their neighbours keeps its tree; one
# that mixes (a tumbler) is rebuilt as often as its tree degrades.
REBUILD_GROWTH = 1.2

# Solver: substeps per step and the soft-contact stiffness (Box2D v3 "soft step").
# CONTACT_HERTZ is the contact spring frequency in Hz, clamped to a quarter of the
# substep rate (static contacts get twice it, under the same clamp);
# CONTACT_DAMPING_RATIO is its damping ratio (10 = heavily damped, no bounce from the
# position correction). A soft contact sags in proportion to the load it carries over
# h * (2 pi hertz)^2, so tall piles want many substeps and a high hertz, until
# sequential impulses overshoot (measured: h * omega = 1.6 oscillates). Measured here
# (15-box stack drift in 10 s; 40-base pyramid: top's move, largest sideways move of
# any box, which happens while the pile first settles):
#   4 substeps, 30 Hz (Box2D's defaults): 1.6 mm; 15 cm, 14 cm
#   6 substeps, 70 Hz: 0.01 mm; 2.4 cm, 7.9 mm (a spinning stick sinks 2 cm into the ground)
#   7 substeps, 80 Hz: 0.06 mm; 1.8 cm, 6.0 mm
#   8 substeps, 80 Hz: 0.00 mm; 1.8 cm, 5.8 mm
# (These four rows predate the fixes below.) 7 at 80 Hz kept 8's quality for 7/8 of its
# solver work; the bar is 1 cm.
# Since contact points keep their warm start across reference-face flips (2026-11-25,
# benchmarks/pyramid_quality.py, sideways as the largest move over the run): 4 x 30 Hz
# 11.6 cm, 4.4 cm (Box2D v3.1: 11.8 cm, 1.7 cm); 7 x 80 Hz 1.8 cm, 1.04 cm (0.6 cm at the
# end). With the colouring visited in a scrambled order (session 27, dynamics/coloring.py):
# 4 x 30 Hz 11.7 cm, 3.4 cm; 7 x 80 Hz 1.8 cm, 0.75 cm; and with friction first in the
# biased pass too (contact_solver.py): 4 x 30 Hz 11.75 cm, 2.24 cm; 7 x 80 Hz 1.75 cm,
# 0.25 cm; 6 x 90 Hz 1.47 cm, 0.32 cm, shipped in sessions 28-29 (a seventh less solver
# work: pyramid40's step 0.89 of 7 x 80 Hz's, in-process A/B; docs/performance.md).
# At 90 Hz, h * omega = pi / 2 (the quarter clamp): the pile then bobs up and down as a
# whole, slowly decaying (its top boxes at 0.1-0.27 m/s until step 126), and pyramid40
# fell asleep at step 156 (Box2D: 76). Settling (6 substeps, sleeping on; top, sideways,
# step asleep): 90 Hz 1.47 cm, 0.32 cm, 156; 85 Hz 1.62, 0.32, 110; 80 Hz 1.81, 0.33,
# 87; 75 Hz 2.03, 0.33, 75; 60 Hz 3.04, 0.38, 53 (the damping ratio, 5 to 20, changes
# none of it). 85 Hz is shipped since session 30: within issue #17's 1.8 cm.
SUBSTEPS = 6

# Contacts per solve block: islands are packed into blocks of about this many contacts,
# and each block runs all its substeps before the next one, so that its contacts' solver
# data (about 400 bytes each) stays in the processor's cache (dynamics/solve_blocks.py;
# results do not depend on it). 0: one block.
SOLVE_BLOCK_CONTACTS = 2048
# Steps a world solves as one block, without looking for its islands, after the search
# found that blocks would not pay (one island holds nearly every contact).
SOLVE_BLOCK_RETRY = 16
CONTACT_HERTZ = 85.0
CONTACT_DAMPING_RATIO = 10.0

# The contact hertz is clamped to this fraction of the substep rate 1/h (Box2D v3.0's
# ``0.25f * context.inv_h`` in ``b2World_Step``; later versions use 0.125): stiffer
# springs overshoot within a substep. Box2D 3.1.1 as pyb2d3 bundles it clamps at an
# eighth: measured, its pyramid40 is the same at 31, 60 and 120 Hz with 4 substeps
# (30 Hz) and at 52.5, 60 and 200 Hz with 7 (52.5 Hz), and differs below. Contacts with a static or kinematic body use
# STATIC_HERTZ_FACTOR times the hertz (Box2D's ``staticSoftness``), under the same
# clamp, where Box2D doubles the clamped value (``dynamics/soft_step.py``).
MAX_HERTZ_FRACTION = 0.25
STATIC_HERTZ_FACTOR = 2.0

# Joints: the stiffness of their position correction (``World.joint_hertz``,
# ``World.joint_damping_ratio``) and the passes over them per solver pass
# (``World.joint_iterations``). A soft joint stretches under a load F by
# F / (m_eff (2 pi hertz)^2), so the higher the stiffer, until the Gauss-Seidel passes
# no longer converge and the joints fling the bodies apart. Box2D v3 uses 60 Hz at
# damping ratio 2 and one pass; 120 Hz with one pass costs the same and stretches a
# 100 kg chain 4 times less (7.6 cm against 30), sags a 40-plank bridge 1.0 % beyond
# its catenary instead of 3.8 %. See docs/joints.md for the measurements.
#
# The hertz is clamped to JOINT_MAX_HERTZ_FRACTION * sqrt(joint_iterations) of the
# substep rate: the stiffest a 30 x 30 joint grid (Box2D's joint_grid, each ball held by
# four joints, the hardest case measured) holds at 2, 4 and 7 substeps. Measured, the
# grid's mean speed over 3 s stays under 3 m/s up to 0.3 of the rate with one pass
# (0.35: 12 m/s at 7 substeps, 0.4: 93-266 m/s), 0.5 with two, 0.7 with four, 1.0 with
# eight. Unclamped, 120 Hz at Box2D's 4 substeps (half the rate) blew the grid apart
# at 290 m/s. At the default 6 substeps and one pass 108 Hz is allowed, so the default
# 120 Hz is solved as 108 (7 substeps allowed 126); the stiff setting of docs/joints.md
# (300 Hz, 8 passes: 305 allowed) is not clamped.
JOINT_HERTZ = 120.0
JOINT_DAMPING_RATIO = 2.0
JOINT_MAX_HERTZ_FRACTION = 0.3
JOINT_ITERATIONS = 1

# Sleeping (``World.sleeping``): a body whose speed (plus its turn rate times its extent)
# stays below its ``sleep_threshold`` (m/s) for TIME_TO_SLEEP seconds may sleep, with
# the rest of its island (Box2D v3's b2_defaultSleepThreshold and b2_timeToSleep).
SLEEP_THRESHOLD = 0.05
TIME_TO_SLEEP = 0.5

# Penetration is pushed out at most this fast, in m/s. Caps the energy the position
# correction can add (Box2D's contactSpeed, 3 m/s).
MAX_PUSHOUT_SPEED = 3.0

# A touching point deeper than this, in m, is pushed out by position alone (a split
# impulse, as in Chipmunk): its push moves the bodies within the substep and is not kept
# as velocity. Shallower points push with velocity (Box2D's soft contact), which the
# relax pass takes back. In a crowd every body of which overlaps many others, one relax
# sweep could not take all of it back: 1,000 circles created at one point flew apart at
# 53 m/s in zero gravity (3 m/s with this), the faster the more of them.
SPLIT_PUSHOUT_DEPTH = 4.0 * LINEAR_SLOP

# Restitution is applied only to approach speeds above this, in m/s; below it
# contacts are treated as inelastic so resting bodies do not jitter.
RESTITUTION_THRESHOLD = 1.0

# Restitution iterates a two-point manifold's points (``dynamics/contact_solver.py``)
# until the summed change of their impulses in a sweep is at most RESTITUTION_TOLERANCE
# times (1 + the first point's normal impulse, in N s): a relative tolerance near the
# float64 resolution, since the converged answer is exact. At most RESTITUTION_SWEEPS
# sweeps (a few suffice).
RESTITUTION_TOLERANCE = 1e-12
RESTITUTION_SWEEPS = 16

# Bouncy bodies that touch, or meet within the step, collide before the substeps one
# pair at a time, earliest first (``dynamics/impacts.py``): at most IMPACTS_PER_CONTACT
# collisions a step per contact with restitution. Collisions slower than
# RESTITUTION_THRESHOLD are left to the soft solver, which ends a chain of ever slower
# ones long before (a cradle of n balls needs n - 1).
IMPACTS_PER_CONTACT = 8

# Only contacts with at least this restitution collide before the substeps. Without the
# phase a pile of very bouncy bodies blows up: 300 balls, boxes or both rained into a
# box (four seeds each), at restitution 0.9 or 1 the soft solver and restitution pass
# threw almost every body out (1190 of 1200 at 1.0), the phase none. Below it the
# collisions' order changes less (with e = 0 one at a time and all at once give the
# same speeds) and the soft solver holds a landing pile tighter: the same piles' deepest
# overlap, soft solver / phase, at restitution 0.6: balls 3.3 / 4.6 cm, mixed 10.4 /
# 15.2, boxes 10.0 / 11.5; concave_drop (400 steps) at 0.1: 2.2 / 4.3 cm, at 0.8: 2.1 /
# 0.95 cm. A Newton's cradle (restitution 1) needs the phase.
IMPACT_MIN_RESTITUTION = 0.8

# No body moves faster than this, in m/s (a guard against blow-ups).
MAX_LINEAR_SPEED = 400.0

# A body is treated as fast (continuous collision) when one step's motion exceeds
# this fraction of its smallest extent.
CCD_SAFETY_FACTOR = 0.5

# Time of impact (``dynamics/continuous.py``) accepts a core distance up to this
# fraction of the linear slop beyond its target: a clamped body's surfaces end between
# one and 1.25 slop apart, near enough for the next step's contact, and conservative
# advancement stops without converging to the exact target.
TOI_TOLERANCE_FRACTION = 0.25

# A piece that already touches the other at the step's start sweeps a circle at its
# centroid instead, of this fraction of its inner radius (Box2D's B2_CORE_FRACTION,
# solver.c): a box sliding on the ground is not stopped by the ground, but still by
# diving through it.
CCD_CORE_FRACTION = 0.25

# If even that circle starts within its target (a piece thinner than the slop), its
# centre may close this fraction of its distance to the other piece and no more, so
# the next contact pushes it back out on the side it came from.
CCD_THIN_ADVANCE = 0.5

# Defaults for materials, as Box2D and pymunk users expect.
DEFAULT_DENSITY = 1.0
DEFAULT_FRICTION = 0.6
DEFAULT_RESTITUTION = 0.0

# No body turns more than this in one substep, in radians (Box2D's 0.25 pi): larger
# rotations make contact prediction and continuous collision unreliable.
MAX_ROTATION = 0.25 * 3.141592653589793

# Body types, as stored in the bodies' ``btype`` column and read by every kernel that
# treats static, kinematic and dynamic bodies differently (codes, not tunables).
STATIC = 0
KINEMATIC = 1
DYNAMIC = 2

# Values of a body's ``moved`` column (see ``world/state.py``): its pose changed in the
# last step, or was set by hand (a pose, a new shape, a new type) since.
MOVED_BY_STEP = 1
MOVED_BY_HAND = 2

# Two shapes touch (contact begin and end events) while some point of theirs is within
# this distance, in meters: Box2D's rule, speculative points up to 4 slop included.
TOUCHING_DISTANCE = SPECULATIVE_DISTANCE

# Contacts that start faster than this, in m/s, are reported as hit events (Box2D's
# default hitEventThreshold).
HIT_EVENT_THRESHOLD = 1.0

# Valid ranges: what the API accepts (``_checks.py`` refuses the rest with a ValueError
# naming the limit; docs/overview.md, "Valid ranges"). Chosen so that every product the
# kernels form (mass times speed squared, inertia inverted, boxes' areas, a step's
# motion) stays many orders of magnitude inside float64 (1e-308 .. 1e308), while
# leaving plenty of room around the 0.1 m .. 10 m the tunables are made for.
# Positions and shape coordinates, in meters: |x| <= MAX_COORDINATE (float64 still
# resolves 0.2 um there; squared it is 1e18).
MAX_COORDINATE = 1e9
# A WorldBatch's merged world puts lane k's leaves k * LANE_WIDTH to the right in the
# broadphase trees (only there), so the lanes' subtrees never overlap; the exact tests
# use the boxes where they are (``engine/batch``, ``broadphase/filter_rule.py``).
LANE_WIDTH = 2.0**32
# Rows (bodies plus pieces) a WorldBatch may hold in all: pair keys pack piece rows into
# 32 bits.
MAX_BATCH_ROWS = 2**31 - 1
# Radii, box sides and segment lengths, in meters: at least MIN_LENGTH (a radius of 0
# stays allowed where it means "not rounded"); a polygon's area at least MIN_LENGTH**2.
# Below, a shape's inertia ~ density * length**4 heads for underflow.
MIN_LENGTH = 1e-6
# Density in kg/m^2: MIN_DENSITY .. MAX_DENSITY. With the lengths above a shape's mass
# stays within about 1e-24 .. 1e31 kg and its inertia within 1e-37 .. 1e49 kg m^2.
MIN_DENSITY = 1e-12
MAX_DENSITY = 1e12
# A mass set by hand (``body.mass``), in kg, and an inertia set by hand (0 or within
# MIN_INERTIA .. MAX_INERTIA, kg m^2): their inverses stay finite and far from 0.
MIN_MASS = 1e-30
MAX_MASS = 1e40
MIN_INERTIA = 1e-50
MAX_INERTIA = 1e60
# Velocities set by hand or reached by an impulse: each component within
# MAX_INPUT_SPEED m/s, angular velocity within MAX_INPUT_ANGULAR_SPEED rad/s. Dynamic
# bodies are then capped at MAX_LINEAR_SPEED by the step; kinematic bodies are not
# capped (they move exactly as told), so this bound is also theirs.
MAX_INPUT_SPEED = 1e6
MAX_INPUT_ANGULAR_SPEED = 1e6
# Forces and torques accumulated for a step (each component, N and N m): with the
# smallest masses and inertias above, accelerations stay below 1e90.
MAX_FORCE = 1e30
MAX_TORQUE = 1e40
# Gravity components in m/s^2, and a body's gravity scale (a plain factor).
MAX_GRAVITY = 1e6
MAX_GRAVITY_SCALE = 1e6
# The time step, in seconds: 0 < dt <= MAX_DT (a kinematic body moves at most
# MAX_INPUT_SPEED * MAX_DT meters a step).
MAX_DT = 1.0
# Friction and rolling resistance coefficients (>= 0) at most this: the solver multiplies
# them by impulses, and two of them are multiplied together when mixed.
MAX_FRICTION = 1e6
# Tracked pairs (shape piece pairs whose fat boxes overlap) at most this many in one
# world (about 0.5 kB each: 1 GB): a step that would track more raises a RuntimeError
# before any body moves (``world/stages.py``), instead of exhausting memory (10,000
# boxes created at one point make 50 million).
MAX_PAIRS = 2_000_000
