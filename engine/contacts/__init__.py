"""Contacts: the tracked pair set, contact rows and pair histories, and the narrowphase
with its manifold cache."""
