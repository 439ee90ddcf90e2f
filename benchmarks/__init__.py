"""Benchmarks of the mission reader, the rules, the players, the simulator and the editor (`python -m benchmarks.X`).

They live beside the packages, not in them: a benchmark drives every layer it times, and no package imports a layer
above its own (the import-linter contracts in pyproject.toml).
"""
