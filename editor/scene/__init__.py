"""Graphics items that draw the mission (they hold no rules) and LevelScene with its overlay API."""
