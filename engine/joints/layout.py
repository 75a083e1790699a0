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
KIND_NAMES = ("revolute", "prismatic", "distance", "weld", "wheel", "motor", "mouse", "angular",
              "gear", "ratchet", "filter")

# -- settings ----------------------------------------------------------------------------
J_AX = 0  # anchor on A, in A's frame relative to A's origin (motor joint: linear offset)
J_AY = 1
J_BX = 2  # anchor on B, in B's frame relative to B's origin
J_BY = 3
J_UX = 4  # unit axis in A's frame (prismatic, wheel)
J_UY = 5
J_REF = 6  # reference angle: angle_b - angle_a at creation
J_HZ = 7  # spring frequency (Hz; 0 = no spring); weld: linear; mouse: its spring
J_ZETA = 8  # spring damping ratio
J_HZ2 = 9  # weld: angular frequency
J_ZETA2 = 10  # weld: angular damping ratio
J_LOWER = 11  # limits (rad or m; distance: min and max length)
J_UPPER = 12
J_LIMIT = 13  # 1 when the limits act
J_MSPEED = 14  # motor speed (rad/s or m/s)
J_MMAX = 15  # motor's maximum torque or force (0: no motor)
J_LENGTH = 16  # distance: rest length
J_MAXF = 17  # motor and mouse joints: maximum force (N)
J_MAXT = 18  # motor joint: maximum torque (N m)
J_CORR = 19  # motor joint: position correction factor, 0 to 1
J_TX = 20  # mouse: target point (world)
J_TY = 21
J_AOFF = 22  # motor joint: angular offset; gear and ratchet: phase (rad)
J_RIGID = 23  # distance: 1 for a rigid rod (no spring, no limits)
# -- accumulated impulses (N s per substep; warm started) -------------------------------
J_PX = 24  # point constraint, x (prismatic and wheel: across the axis)
J_PY = 25  # point constraint, y (prismatic: angular)
J_PA = 26  # angular constraint (weld, motor joint)
J_PSPRING = 27
J_PMOTOR = 28
J_PLOWER = 29
J_PUPPER = 30
# -- prepared at the start of each step --------------------------------------------------
J_FAX = 31  # anchor on A relative to A's centre of mass, world frame
J_FAY = 32
J_FBX = 33  # anchor on B relative to B's centre of mass, world frame
J_FBY = 34
J_DCX = 35  # centre of B minus centre of A (mouse: centre of B minus the target)
J_DCY = 36
J_RATIO = 37  # gear: ratio; ratchet: the tooth angle (its sign: the free direction)
J_WUX = 38  # the axis in world frame
J_WUY = 39
J_S1B = 40  # the joint's own spring: bias rate, mass scale, impulse scale
J_S1M = 41
J_S1I = 42
J_S2B = 43  # weld's angular spring
J_S2M = 44
J_S2I = 45
J_INVH = 46  # 1 / substep of the last step (impulse -> force)
J_ACTIVE = 47  # 1 when solved this step (at least one body dynamic)
JOINT_SIZE = 48
