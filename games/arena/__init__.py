"""Arena tournaments: timed events per ruleset in which players who finish a match are
paired again at once, scored by place (`scoring`), paired by score (`pairing`), run by
the periodic sweep (`service.tick`). The rules are on the arena page and the rules index."""
