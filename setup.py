"""Build of the optional C extension ``games.bots._rami_core`` (the rami solver's core).

Everything else about the project is in pyproject.toml.  The extension is
optional: without a C compiler ``pip install -e .`` still succeeds and
``games.bots.solver_rami`` runs its pure-Python search (bench/README.md).
An editable install builds the module in place, next to its source.
"""
from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "games.bots._rami_core",
            sources=["games/bots/_rami_core.c"],
            extra_compile_args=["-O2"],
            optional=True,
        )
    ],
)
