"""Geometry: shapes, outline validation, convex decomposition, seam rows, mass properties,
and the kernels over one convex piece (closest points, exact distance, bounding box)."""
