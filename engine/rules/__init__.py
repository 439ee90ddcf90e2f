"""The rules of Space Hulk (RULES.md): game state, actions, dice, LOS, movement, combat, blips, phases."""
