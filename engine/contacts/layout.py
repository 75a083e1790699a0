"""Contact rows and pair histories: the columns the narrowphase writes and the solver reads.

Both stages import this module and nothing of each other.

Contacts are rows of one float64 array (n, CONTACT_SIZE): one row per pair of pieces
whose fat AABBs overlap, in pair-key order, rewritten by the narrowphase every step. A
row holds the manifold and nothing the solver only needs inside a step (effective
masses, impact speeds: those live in the solver's own rows, ``contact_solver.py``), so
writing all rows stays cheap: 34 floats (44 before; on rain2000 the rows are 2.3 MB,
more than the core's L2). Anchors are the contact point relative to
each body's centre of mass, in world axes, fixed for the step (Box2D v3 does not rotate
contact anchors between substeps).
"""


C_NX = 0  # normal, world frame, from piece A to piece B
C_NY = 1
C_COUNT = 2  # points in the manifold (0: pair tracked but not within the margin)
C_FRICTION = 3  # mixed friction coefficient
C_RESTITUTION = 4  # mixed restitution
C_TOUCHING = 5  # 1.0 when the row has points, 2.0 when one is within TOUCHING_DISTANCE (events)
C_SURFACE = 6  # relative surface speed friction drives towards, m/s (conveyors)
C_ROLLING = 7  # rolling resistance torque arm: coefficient times the larger radius, m
C_POINTS = 8  # first point's columns start here

# Per point, at C_POINTS + p * P_STRIDE:
P_RAX = 0  # anchor on A relative to A's centre of mass
P_RAY = 1
P_RBX = 2  # anchor on B relative to B's centre of mass
P_RBY = 3
P_SEP = 4  # separation when the manifold was computed (< 0: overlap)
P_ADJ = 5  # separation minus dot(qB - qA, n): lets substeps predict the separation
P_NI = 6  # accumulated normal impulse (warm start in, this step's result out)
P_TI = 7  # accumulated tangent impulse
P_ID = 8  # feature id (matches points across steps)
# Core points behind the contact on A and B, relative to each centre of mass: the
# material points whose motion predicts the separation within the step. For a polygon
# corner this is the anchor itself; for a circle it is its centre (a rolling circle's
# contact stays at the bottom while the body turns; Box2D rotates the anchor instead,
# which makes rolling circles slip).
P_QAX = 9
P_QAY = 10
P_QBX = 11
P_QBY = 12
P_STRIDE = 13

MAX_POINTS = 2
CONTACT_SIZE = C_POINTS + MAX_POINTS * P_STRIDE

# Pair history: what a pair carries from one step to the next, one row of HIST_SIZE
# float64 per tracked pair: the feature ids of its points and their accumulated
# impulses (warm starting), and its cached manifold. The pair set merges and compacts
# these rows; the contact rows above are rewritten by the narrowphase every step and
# never move (moving the 44-float rows of the time cost rain2000 0.4 ms a step).
H_COUNT = 0  # points last step
H_POINTS = 1  # per point, at H_POINTS + p * H_STRIDE:
H_ID = 0  # feature id
H_NI = 1  # accumulated normal impulse
H_TI = 2  # accumulated tangent impulse
H_STRIDE = 3
# The manifold cache (see ``manifold_cache.py``): the manifold in the bodies' own frames
# and the relative pose it was computed at. While the pose has barely changed, the
# narrowphase refreshes this manifold instead of running the collision routine.
# Values of H_CACHE, which relative pose is cached: that of the body with the smaller
# extent (whose points a turn moves least) in the other's frame.
CACHE_NONE = 0.0  # no manifold cached (a new pair, or the cache is off)
CACHE_B_IN_A = 1.0  # pose of B's centre of mass in A's frame
CACHE_A_IN_B = 2.0  # pose of A's centre of mass in B's frame
H_CACHE = H_POINTS + MAX_POINTS * H_STRIDE  # a CACHE_* value
H_RX = H_CACHE + 1  # that relative pose: centre-of-mass offset and angle
H_RY = H_CACHE + 2
H_RA = H_CACHE + 3
H_REACH = H_CACHE + 4  # how far the bodies could approach within the step, then
H_LNX = H_CACHE + 5  # normal in A's frame
H_LNY = H_CACHE + 6
H_LP = H_CACHE + 7  # per point, at H_LP + p * H_LP_STRIDE: the point on A's surface in
H_LP_STRIDE = 4  # A's frame (relative to A's origin), then the point on B's in B's
HIST_SIZE = H_LP + MAX_POINTS * H_LP_STRIDE

# What the solver reports per point of each pair for the step (``PairSet.results``, one
# row of MAX_POINTS * R_STRIDE per pair, aligned with the contact rows; zero for pairs
# the solver did not solve): impulses summed over the substeps, and the approach speed
# at which the point first pushed (hit events).
R_NORMAL = 0  # normal impulse of the step, N s
R_TANGENT = 1  # friction impulse of the step, N s, along (ny, -nx)
R_APPROACH = 2  # approach speed when it first pushed, m/s (0: it never pushed)
R_GAP = 3  # the gap that speed extrapolates over to the instant of contact, m (Q_GAP)
R_STRIDE = 4
RESULT_SIZE = MAX_POINTS * R_STRIDE
