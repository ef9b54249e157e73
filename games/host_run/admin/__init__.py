from . import resolution  # noqa: F401
