"""R8/R9: the ante and raise under the optimal strategy, computed offline.

Produced by ``python -m bench.ante_raise_edge`` on 2026-12-01 in 11.2 s (a C helper,
bench/ante_raise_edge.c, compiled with gcc -O2). Method: exact enumeration: every spot hand (all
C(52,7) = 133,784,560, enumerated once per suit pattern and weighted by its suit relabellings)
against every dealer hand of the other 45 cards (C(45,7) = 45,379,620, counted per suit, not
dealt), the best play taken hand by hand; run offline by python -m bench.ante_raise_edge, kept
in engine/ante_raise_edge.py.

Do not edit: rerun the script, which rewrites this module and bench/ante_raise_edge.json
(a test checks that the two agree).
"""

HOUSE_EDGE = "0.026645"
HOUSE_EDGE_NUMERATOR = 1348050875653
HOUSE_EDGE_DENOMINATOR = 50592437455560
VARIANCE = "2.659736"
VARIANCE_NUMERATOR = 1361569311202626711814169923
VARIANCE_DENOMINATOR = 511918945538950081394982720
STRATEGY = (
    "optimal play of each hand: the best of fold, raise 1× and raise the R8 cap, by its exact"
    " expectation given all 7 of its cards. 7, 6 or 5-card flush: raise the R8 cap (3×, 3×, "
    "2×); 4-card flush: raise 1×; 3-card flush: raise 1× with J-3-2 or better, fold with "
    "9-8-7 or worse; from T-3-2 to T-9-8 raise or fold as the other four cards make it worth "
    "(card removal: each hand decided on its own exact expectation); 2-card flush: fold. A "
    "spot raises 67.8631% of hands."
)
METHOD = (
    "exact enumeration: every spot hand (all C(52,7) = 133,784,560, enumerated once per suit "
    "pattern and weighted by its suit relabellings) against every dealer hand of the other 45"
    " cards (C(45,7) = 45,379,620, counted per suit, not dealt), the best play taken hand by "
    "hand; run offline by python -m bench.ante_raise_edge, kept in "
    "engine/ante_raise_edge.py"
)
RUN_ON = "2026-12-01"
