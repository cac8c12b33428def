"""``physframe diff``: the cross-check alone, expected tree against a bag or the live monitor."""
