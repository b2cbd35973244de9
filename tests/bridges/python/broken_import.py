"""A module whose own import fails (a dependency it lacks): Troupe must show
the reason and where it happened."""
import troupe_test_missing_dependency  # noqa: F401


def make():
    pass
