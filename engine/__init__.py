"""hulkforge engine: missions, rules, AI players, simulation and statistics. Never imports a GUI toolkit."""

__version__ = "0.1.0"
