// placeholder until the target's first type lands
