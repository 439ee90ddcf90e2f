"""Balance you can act on: tune mission parameters to a target win rate, train the AI players' weights,
and check whether a verdict depends on who plays. Numbers only; the editor and the CLI show them."""
