/* R8/R9: the ante and raise under the optimal strategy, by exact enumeration.
 *
 * Compiled and driven by bench/ante_raise_edge.py (python -m bench.ante_raise_edge), which
 * passes QUALIFYING (the engine's QUALIFYING_FLUSH_KEY, R4) with -D and checks this helper
 * against the engine. A flush key is ``size << 13 | ranks`` (R2), as in engine/hands.py.
 *
 *   ./helper all         every spot hand up to suit relabelling: sums, and decisions by key
 *   ./helper count       hands (52-bit ints, one a line) in: "NQ LT LE" out, counted fast
 *   ./helper brute       the same three counts by dealing every one of the 45C7 dealer hands
 *
 * For a spot hand H: NQ = dealer hands that do not qualify (key < QUALIFYING), LT = dealer
 * hands whose flush is below H's, LE = at most H's; the dealer's cards are 7 of the 45 others.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef QUALIFYING
#error "compile with -DQUALIFYING=<the engine's QUALIFYING_FLUSH_KEY>"
#endif

typedef __int128 i128;
typedef int64_t i64;

static i64 C[16][16]; /* binomials; C[n][k] = 0 for k > n */
static int POP[8192];
static int BY_SIZE[8][1716];
static int N_BY_SIZE[8];
static const i64 DEALER_HANDS = 45379620; /* C(45, 7) */

static void init(void) {
    for (int n = 0; n < 16; n++) {
        C[n][0] = 1;
        for (int k = 1; k < 16; k++) C[n][k] = n ? C[n - 1][k - 1] + C[n - 1][k] : 0;
    }
    for (int m = 0; m < 8192; m++) {
        POP[m] = __builtin_popcount(m);
        if (POP[m] <= 7) BY_SIZE[POP[m]][N_BY_SIZE[POP[m]]++] = m;
    }
}

/* size-k subsets of the rank set `allowed` whose bitmask is below `limit` (any int) */
static i64 count_below(int allowed, int k, int limit) {
    if (limit >= 8192) return C[POP[allowed]][k];
    i64 below = 0;
    int taken = 0;
    for (int r = 12; r >= 0; r--) {
        if (limit >> r & 1) {
            below += C[POP[allowed & ((1 << r) - 1)]][k - taken];
            if (!(allowed >> r & 1)) return below;
            if (++taken > k) return below;
        }
    }
    return below;
}

/* dealer hands from the ranks not in the spot's suits s[4] whose flush key is below
 * (size << 13 | limit): fewer cards in every suit, or exactly `size` in a suit below `limit` */
static i64 dealer_below(const int s[4], int size, int limit) {
    i64 p[4][8];
    for (int j = 0; j < 4; j++) {
        int free = 8191 & ~s[j];
        int n = 13 - POP[s[j]];
        for (int d = 0; d < 8; d++)
            p[j][d] = d < size ? C[n][d] : d == size ? count_below(free, size, limit) : 0;
    }
    i64 a[8] = {0}, b[8] = {0};
    for (int x = 0; x < 8; x++)
        for (int y = 0; x + y < 8; y++) {
            a[x + y] += p[0][x] * p[1][y];
            b[x + y] += p[2][x] * p[3][y];
        }
    i64 total = 0;
    for (int x = 0; x < 8; x++) total += a[x] * b[7 - x];
    return total;
}

static int flush_key_of(const int s[4]) {
    int best = 0;
    for (int j = 0; j < 4; j++) {
        int key = POP[s[j]] << 13 | s[j];
        if (key > best) best = key;
    }
    return best;
}

static void counts(const int s[4], i64 *nq, i64 *lt, i64 *le) {
    int key = flush_key_of(s), size = key >> 13, ranks = key & 8191;
    *nq = dealer_below(s, QUALIFYING >> 13, QUALIFYING & 8191);
    *lt = dealer_below(s, size, ranks);
    *le = dealer_below(s, size, ranks + 1);
}

static void split(uint64_t hand, int s[4]) {
    for (int j = 0; j < 4; j++) s[j] = (int)(hand >> (13 * j) & 8191);
}

/* --- all: every spot hand, once per suit pattern, weighted by its relabellings ---------- */

static i64 DECISIONS[65536][3]; /* by spot flush key: weight folding, raising 1x, raising cap */
static i128 SUM_HANDS, SUM_EV, SUM_SQUARE, SUM_NQ, SUM_BELOW, SUM_ABOVE, SUM_EQUAL;

static void spot(const int s[4], i64 weight) {
    i64 nq, lt, le;
    counts(s, &nq, &lt, &le);
    int key = flush_key_of(s), size = key >> 13;
    i64 win, lose;
    if (key >= QUALIFYING) {
        win = lt - nq; /* R9: dealer qualifies and is below: ante and raise win */
        lose = DEALER_HANDS - le;
    } else {
        win = 0; /* every qualifying dealer is above a non-qualifying spot */
        lose = DEALER_HANDS - nq;
    }
    int cap = size <= 4 ? 1 : size == 5 ? 2 : 3; /* R8 */
    /* EV in units of 1/DEALER_HANDS per unit of ante: fold -1; raise r: a dealer who does not
     * qualify pays the ante (raise pushes), else both win or lose, a tie pushes (R9). */
    i64 fold = -DEALER_HANDS;
    i64 one = nq + 2 * (win - lose);
    i64 most = nq + (1 + cap) * (win - lose);
    i64 best = fold, square = DEALER_HANDS;
    int decision = 0;
    if (one > best) best = one, decision = 1, square = nq + 4 * (win + lose);
    if (most > best) best = most, decision = 2, square = nq + (i64)(1 + cap) * (1 + cap) * (win + lose);
    DECISIONS[key][decision] += weight;
    SUM_HANDS += weight;
    SUM_EV += (i128)weight * best;
    SUM_SQUARE += (i128)weight * square;
    SUM_NQ += (i128)weight * nq;
    SUM_BELOW += (i128)weight * lt;
    SUM_ABOVE += (i128)weight * (DEALER_HANDS - le);
    SUM_EQUAL += (i128)weight * (le - lt);
}

static void print_i128(const char *name, i128 v) {
    char buf[64];
    int i = 63, negative = v < 0;
    unsigned __int128 u = negative ? -(unsigned __int128)v : (unsigned __int128)v;
    buf[i] = 0;
    do buf[--i] = (char)('0' + (int)(u % 10)); while ((u /= 10) != 0);
    if (negative) buf[--i] = '-';
    printf("SUM %s %s\n", name, buf + i);
}

static void all(void) {
    /* suit sizes high to low; each pattern stands for its 4!/prod(mult!) orderings */
    for (int a = 7; a >= 0; a--)
        for (int b = a; b >= 0; b--)
            for (int c = b; c >= 0; c--) {
                int d = 7 - a - b - c;
                if (d < 0 || d > c) continue;
                int sizes[4] = {a, b, c, d}, mult = 1, run = 1;
                for (int j = 1; j < 4; j++) {
                    run = sizes[j] == sizes[j - 1] ? run + 1 : 1;
                    mult *= run;
                }
                i64 weight = 24 / mult;
                int s[4];
                for (int i0 = 0; i0 < N_BY_SIZE[a]; i0++) {
                    s[0] = BY_SIZE[a][i0];
                    for (int i1 = 0; i1 < N_BY_SIZE[b]; i1++) {
                        s[1] = BY_SIZE[b][i1];
                        for (int i2 = 0; i2 < N_BY_SIZE[c]; i2++) {
                            s[2] = BY_SIZE[c][i2];
                            for (int i3 = 0; i3 < N_BY_SIZE[d]; i3++) {
                                s[3] = BY_SIZE[d][i3];
                                spot(s, weight);
                            }
                        }
                    }
                }
                fprintf(stderr, "pattern %d%d%d%d done\n", a, b, c, d);
            }
    print_i128("hands", SUM_HANDS);
    print_i128("ev", SUM_EV);
    print_i128("square", SUM_SQUARE);
    print_i128("dealer_not_qualifying", SUM_NQ);
    print_i128("dealer_below", SUM_BELOW);
    print_i128("dealer_above", SUM_ABOVE);
    print_i128("dealer_equal", SUM_EQUAL);
    for (int key = 0; key < 65536; key++)
        if (DECISIONS[key][0] || DECISIONS[key][1] || DECISIONS[key][2])
            printf("KEY %d %lld %lld %lld\n", key, (long long)DECISIONS[key][0],
                   (long long)DECISIONS[key][1], (long long)DECISIONS[key][2]);
}

/* --- brute: deal every dealer hand ------------------------------------------------------- */

static void brute(uint64_t hand, i64 *nq, i64 *lt, i64 *le) {
    int s[4], rest[45], n = 0;
    split(hand, s);
    int key = flush_key_of(s);
    for (int card = 0; card < 52; card++)
        if (!(hand >> card & 1)) rest[n++] = card;
    *nq = *lt = *le = 0;
    int idx[7];
    for (int i = 0; i < 7; i++) idx[i] = i;
    for (;;) {
        int d[4] = {0, 0, 0, 0};
        for (int i = 0; i < 7; i++) d[rest[idx[i]] / 13] |= 1 << (rest[idx[i]] % 13);
        int dk = flush_key_of(d);
        *nq += dk < QUALIFYING;
        *lt += dk < key;
        *le += dk <= key;
        int i = 6;
        while (i >= 0 && idx[i] == 45 - 7 + i) i--;
        if (i < 0) break;
        idx[i]++;
        for (int j = i + 1; j < 7; j++) idx[j] = idx[j - 1] + 1;
    }
}

int main(int argc, char **argv) {
    init();
    if (argc == 2 && !strcmp(argv[1], "all")) {
        all();
        return 0;
    }
    if (argc == 2 && (!strcmp(argv[1], "count") || !strcmp(argv[1], "brute"))) {
        unsigned long long hand;
        while (scanf("%llu", &hand) == 1) {
            i64 nq, lt, le;
            if (argv[1][0] == 'b') {
                brute(hand, &nq, &lt, &le);
            } else {
                int s[4];
                split(hand, s);
                counts(s, &nq, &lt, &le);
            }
            printf("%lld %lld %lld\n", (long long)nq, (long long)lt, (long long)le);
        }
        return 0;
    }
    fprintf(stderr, "usage: %s all|count|brute\n", argv[0]);
    return 2;
}
