"""The only writer of stored games (ARCHITECTURE.md invariant 2).

`commit` is the one commit path (lock, version, move log, deadline, after-commit work);
`tables`, `turns`, `computer`, `presence` and `sanctions` are built on it, and `rounds`
holds the match flow they share. Consumers, views, tasks and admin actions call these
modules; nothing else changes a `Game`.

Kept free of imports, so that importing one module of the package loads only what
that module needs.
"""
