"""``physframe view``: a TF tree (from a bag, an expected tree or the live monitor) drawn with its findings."""
