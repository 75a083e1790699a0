"""Broadphase: the dynamic AABB tree (kernels and owner), proxies with fat boxes, and the
search for new candidate pairs."""
