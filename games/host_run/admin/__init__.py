from . import design  # noqa: F401
