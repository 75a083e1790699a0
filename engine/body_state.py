"""The soft step's per-body solver state: one row of 8 float64 (one cache line) per body."""

# The solver's body state, one row of 8 float64 (one cache line) per body: velocity,
# angular velocity, and the displacement and rotation since the step began.
S_VX = 0
S_VY = 1
S_W = 2
S_DPX = 3
S_DPY = 4
S_QC = 5
S_QS = 6
STATE_SIZE = 8
