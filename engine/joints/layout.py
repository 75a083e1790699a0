"""Row layout of a joint: one row of ``JOINT_SIZE`` float64 per joint (``store.py``).

A row holds the joint's settings (set at creation, some settable later), the impulses
it accumulates (kept from step to step: warm starting) and what the solver prepares at
the start of each step. Anchors are kept in each body's frame relative to the body's
*origin*, so changing a body's shapes (its centre of mass) does not move them.
"""

# Joint kinds (the ``kind`` column); a free row has kind -1.
REVOLUTE = 0
PRISMATIC = 1
DISTANCE = 2
WELD = 3
WHEEL = 4
MOTOR = 5
MOUSE = 6
ANGULAR = 7  # the revolute joint's angular parts alone (no shared point)
GEAR = 8  # ratio * angle_b - angle_a held at a phase
RATCHET = 9  # an angular joint whose one-sided limit follows the teeth passed
FILTER = 10  # no constraint: only stops the two bodies colliding
KINDS = 11
# The solver lists joints in buckets by kind, plus one for revolute joints without a
# spring, motor or limits (their pass reads only the row's first cache line).
PLAIN_REVOLUTE = KINDS
BUCKETS = KINDS + 1
KIND_NAMES = ("revolute", "prismatic", "distance", "weld", "wheel", "motor", "mouse", "angular",
              "gear", "ratchet", "filter")

# The row is ordered for the solver's memory traffic: the first 8 columns are all that
# a plain revolute joint (no spring, motor or limits) reads and writes per substep, so
# a pass over a joint grid streams one or two cache lines per joint, not four.
# -- hot: prepared at the step's start, and the point impulse -------------------------
J_FAX = 0  # anchor on A relative to A's centre of mass, world frame
J_FAY = 1
J_FBX = 2  # anchor on B relative to B's centre of mass, world frame
J_FBY = 3
J_DCX = 4  # centre of B minus centre of A (mouse: centre of B minus the target)
J_DCY = 5
J_PX = 6  # point constraint, x (prismatic and wheel: across the axis)
J_PY = 7  # point constraint, y (prismatic: angular)
# -- settings ----------------------------------------------------------------------------
J_AX = 8  # anchor on A, in A's frame relative to A's origin (motor joint: linear offset)
J_AY = 9
J_BX = 10  # anchor on B, in B's frame relative to B's origin
J_BY = 11
J_UX = 12  # unit axis in A's frame (prismatic, wheel)
J_UY = 13
J_REF = 14  # reference angle: angle_b - angle_a at creation
J_HZ = 15  # spring frequency (Hz; 0 = no spring); weld: linear; mouse: its spring
J_ZETA = 16  # spring damping ratio
J_HZ2 = 17  # weld: angular frequency
J_ZETA2 = 18  # weld: angular damping ratio
J_LOWER = 19  # limits (rad or m; distance: min and max length)
J_UPPER = 20
J_LIMIT = 21  # 1 when the limits act
J_MSPEED = 22  # motor speed (rad/s or m/s)
J_MMAX = 23  # motor's maximum torque or force (0: no motor)
J_LENGTH = 24  # distance: rest length
J_MAXF = 25  # motor and mouse joints: maximum force (N)
J_MAXT = 26  # motor joint: maximum torque (N m)
J_CORR = 27  # motor joint: position correction factor, 0 to 1
J_TX = 28  # mouse: target point (world)
J_TY = 29
J_AOFF = 30  # motor joint: angular offset; gear and ratchet: phase (rad)
J_RIGID = 31  # distance: 1 for a rigid rod (no spring, no limits)
# -- accumulated impulses (N s per substep; warm started) -------------------------------
J_PA = 32  # angular constraint (weld, motor joint)
J_PSPRING = 33
J_PMOTOR = 34
J_PLOWER = 35
J_PUPPER = 36
# -- prepared at the start of each step --------------------------------------------------
J_WUX = 37  # the axis in world frame
J_WUY = 38
J_S1B = 39  # the joint's own spring: bias rate, mass scale, impulse scale
J_S1M = 40
J_S1I = 41
J_S2B = 42  # weld's angular spring
J_S2M = 43
J_S2I = 44
J_INVH = 45  # 1 / substep of the last step (impulse -> force)
J_ACTIVE = 46  # 1 when solved this step (at least one body dynamic)
J_RATIO = 47  # gear: ratio; ratchet: the tooth angle (its sign: the free direction)
JOINT_SIZE = 48
