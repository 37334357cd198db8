#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""stattest - exact one-sided tests for comparing two measured counts.

The integration tests compare two runs of an emulated guest (hard-temp
against hard-reg); a fixed ratio between two noisy shares fails now and
then. These tests state their level instead: a check passes when the
effect it claims is significant at ALPHA, so a run without the effect
passes with probability at most ALPHA, and the chance that a run with the
effect fails follows from the effect and the samples (see the callers).

  stattest.py share K1 N1 K2 N2 [ALPHA]
      K1 of N1 samples against K2 of N2: is the first share larger?
      Fisher's exact test (hypergeometric tail), one-sided.
  stattest.py rate K1 K2 RATIO [ALPHA]
      two Poisson counts over the same exposure: is the first rate more
      than RATIO times the second? Given K1 + K2, K1 is binomial with
      p = RATIO / (RATIO + 1) at the boundary; one-sided tail.

Prints "p=P" and exits 0 when P < ALPHA (default 0.01), 1 when not, 2 on
bad arguments.
"""
import math
import sys


def log_comb(n, k):
    """log of n choose k"""
    return math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)


def share_p(k1, n1, k2, n2):
    """P(first group's hits >= k1) with the margins fixed (Fisher)"""
    hits, total = k1 + k2, n1 + n2
    top = min(n1, hits)
    denom = log_comb(total, hits)
    return min(1.0, sum(math.exp(log_comb(n1, x) + log_comb(n2, hits - x) - denom)
                        for x in range(k1, top + 1)))


def rate_p(k1, k2, ratio):
    """P(K >= k1) for K ~ Binomial(k1 + k2, ratio / (ratio + 1))"""
    n, p = k1 + k2, ratio / (ratio + 1.0)
    if n == 0:
        return 1.0
    if p >= 1.0:
        return 1.0
    return min(1.0, sum(math.exp(log_comb(n, x) + x * math.log(p) + (n - x) * math.log1p(-p))
                        for x in range(k1, n + 1)))


def main(argv):
    try:
        if len(argv) in (5, 6) and argv[0] == "share":
            k1, n1, k2, n2 = (int(a) for a in argv[1:5])
            if min(k1, n1, k2, n2) < 0 or k1 > n1 or k2 > n2 or n1 == 0 or n2 == 0:
                raise ValueError("counts: 0 <= K <= N, N > 0")
            alpha = float(argv[5]) if len(argv) == 6 else 0.01
            p = share_p(k1, n1, k2, n2)
        elif len(argv) in (4, 5) and argv[0] == "rate":
            k1, k2 = int(argv[1]), int(argv[2])
            ratio = float(argv[3])
            if min(k1, k2) < 0 or ratio <= 0:
                raise ValueError("counts >= 0, ratio > 0")
            alpha = float(argv[4]) if len(argv) == 5 else 0.01
            p = rate_p(k1, k2, ratio)
        else:
            raise ValueError("usage: share K1 N1 K2 N2 [ALPHA] | rate K1 K2 RATIO [ALPHA]")
        if not 0 < alpha < 1:
            raise ValueError("ALPHA between 0 and 1")
    except ValueError as e:
        print("stattest: %s" % e, file=sys.stderr)
        return 2
    print("p=%.3g" % p)
    return 0 if p < alpha else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
