/* SPDX-License-Identifier: Apache-2.0 */
/* Symbolic expressions (src/runtime/expr.c): canonical forms compare equal
 * as pointers, exact division, floor/ceil/mod by constants, min and max,
 * merged symbols, bounds, overflow, the work charged and the text. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "../src/runtime/analysis.h"
#include "../src/runtime/expr.h"

static uint64_t budget;
static int take(void *ctx, uint64_t units) {
  (void)ctx;
  if (units > budget) return 0;
  budget -= units;
  return 1;
}

static onnxshape__arena *arena;
static an_exprs *current; /* its scratch room is on the heap until an_exprs_end */
static an_exprs *fresh_exprs(void) {
  an_exprs_end(current);
  onnxshape__arena_release(arena);
  arena = onnxshape__arena_new(SIZE_MAX);
  budget = UINT64_MAX;
  current = an_exprs_new(arena, take, NULL);
  return current;
}

#define TEXT(x, v, want) CHECK_STR(an_expr_text((x), (v)) != NULL ? an_expr_text((x), (v)) : "(none)", want)

/* covers: ANALYSIS-EXPR */
static void test_after_end(void) {
  /* During the analysis the scratch room is on the heap; an_exprs_end frees
   * it, and operations after it take their room from the arena: the same
   * interned results. */
  an_exprs *x = fresh_exprs();
  an_val n = an_expr_symbol(x, "N");
  an_val a = an_expr_mul(x, n, an_val_num(3));
  an_exprs_end(x);
  an_val b = an_expr_mul(x, n, an_val_num(3));
  CHECK(!b.known && b.e == a.e);
  TEXT(x, an_expr_add(x, b, an_val_num(1)), "3*N + 1");
  an_exprs_end(x);
  an_exprs_end(NULL);
  TEXT(x, an_expr_mul(x, a, n), "3*N*N");
}

/* covers: ANALYSIS-EXPR */
static void test_canonical_forms(void) {
  an_exprs *x = fresh_exprs();
  an_val n = an_expr_symbol(x, "N"), s = an_expr_symbol(x, "S");
  CHECK(!n.known && n.e != NULL && an_expr_symbol(x, "N").e == n.e);
  an_val ns = an_expr_mul(x, n, s), sn = an_expr_mul(x, s, n);
  CHECK(ns.e == sn.e); /* commutative: one interned copy */
  an_val big = an_expr_mul(x, ns, an_val_num(768));
  TEXT(x, big, "768*N*S");
  /* N*S*768 / 768 is N*S; / (S*768) is N */
  CHECK(an_expr_div_exact(x, big, an_val_num(768)).e == ns.e);
  CHECK(an_expr_div_exact(x, big, an_expr_mul(x, s, an_val_num(768))).e == n.e);
  CHECK(!an_expr_div_exact(x, big, an_val_num(5)).known &&
        an_expr_div_exact(x, big, an_val_num(5)).e == NULL);
  /* (3N + 3) / (N + 1) = 3 */
  an_val n1 = an_expr_add(x, n, an_val_num(1));
  an_val q = an_expr_div_exact(x, an_expr_mul(x, n1, an_val_num(3)), n1);
  CHECK(q.known && q.v == 3);
  /* (N + 1)(N - 1) = N*N - 1, and a - a = 0 */
  TEXT(x, an_expr_mul(x, n1, an_expr_sub(x, n, an_val_num(1))), "N*N - 1");
  an_val zero = an_expr_sub(x, big, big);
  CHECK(zero.known && zero.v == 0);
  TEXT(x, an_expr_sub(x, an_val_num(2), an_expr_mul(x, n, an_val_num(3))), "-3*N + 2");
  /* symbols that are not identifiers are quoted */
  TEXT(x, an_expr_add(x, an_expr_symbol(x, "batch size"), an_expr_symbol(x, "it's")),
       "'batch size' + 'it\\'s'");
}

/* covers: ANALYSIS-EXPR */
static void test_division_by_constants(void) {
  an_exprs *x = fresh_exprs();
  an_val h = an_expr_symbol(x, "H");
  /* Conv: floor((H + 2p - d(k - 1) - 1) / s) + 1 with p 1, d 1, k 3, s 2 */
  an_val num = an_expr_sub(x, h, an_val_num(1));
  an_val out = an_expr_add(x, an_expr_floor_div(x, num, 2), an_val_num(1));
  TEXT(x, out, "floor((H + 1)/2)");
  /* floor((2N + 5) / 2) = N + 2; ceil((4N + 1) / 2) = 2N + 1; mod */
  an_val nn = an_expr_symbol(x, "N");
  TEXT(x, an_expr_floor_div(x, an_expr_add(x, an_expr_mul(x, nn, an_val_num(2)), an_val_num(5)), 2),
       "N + 2");
  TEXT(x, an_expr_ceil_div(x, an_expr_add(x, an_expr_mul(x, nn, an_val_num(4)), an_val_num(1)), 2),
       "2*N + 1");
  TEXT(x, an_expr_mod(x, an_expr_add(x, an_expr_mul(x, nn, an_val_num(4)), an_val_num(7)), 4), "3");
  TEXT(x, an_expr_mod(x, nn, 4), "mod(N, 4)");
  /* floor(floor(N / 2) / 3) = floor(N / 6) */
  CHECK(an_expr_floor_div(x, an_expr_floor_div(x, nn, 2), 3).e == an_expr_floor_div(x, nn, 6).e);
  /* numbers: floor and ceil toward -inf and +inf, mod with k's sign */
  CHECK(an_expr_floor_div(x, an_val_num(-7), 2).v == -4 && an_expr_ceil_div(x, an_val_num(-7), 2).v == -3);
  CHECK(an_expr_mod(x, an_val_num(-7), 3).v == 2);
  CHECK(an_expr_floor_div(x, nn, 0).e == NULL && !an_expr_floor_div(x, nn, -2).known);
}

/* covers: ANALYSIS-EXPR */
static void test_min_max(void) {
  an_exprs *x = fresh_exprs();
  an_val n = an_expr_symbol(x, "N"), m = an_expr_symbol(x, "M");
  CHECK(an_expr_min(x, n, m).e == an_expr_min(x, m, n).e);
  CHECK(an_expr_max(x, n, an_val_num(4)).e == an_expr_max(x, an_val_num(4), n).e);
  TEXT(x, an_expr_min(x, n, an_val_num(4)), "min(N, 4)");
  /* a constant apart: decided */
  CHECK(an_expr_max(x, n, an_expr_add(x, n, an_val_num(3))).e == an_expr_add(x, n, an_val_num(3)).e);
  CHECK(an_expr_min(x, an_val_num(2), an_val_num(9)).v == 2);
  /* a lower bound decides: max(N, 5) >= 5 > 1, N + 2 >= 1, floor((N + 8)/4) >= 2 */
  an_val m5 = an_expr_max(x, n, an_val_num(5));
  CHECK(an_expr_max(x, m5, an_val_num(1)).e == m5.e);
  an_val three = an_expr_min(x, m5, an_val_num(3));
  CHECK(three.known && three.v == 3);
  an_val n2 = an_expr_add(x, n, an_val_num(2));
  CHECK(an_expr_max(x, an_val_num(1), n2).e == n2.e);
  an_val f = an_expr_floor_div(x, an_expr_add(x, n, an_val_num(8)), 4);
  an_val two = an_expr_min(x, f, an_val_num(2));
  CHECK(two.known && two.v == 2);
  /* no bound from a negative coefficient: min(N - M, 0) stays */
  TEXT(x, an_expr_min(x, an_expr_sub(x, n, m), an_val_num(0)), "min(-M + N, 0)");
}

/* covers: ANALYSIS-EXPR */
static void test_sign(void) {
  an_exprs *x = fresh_exprs();
  an_val n = an_expr_symbol(x, "N"), m = an_expr_symbol(x, "M");
  CHECK(an_expr_nonneg(x, an_val_num(0)) && !an_expr_nonneg(x, an_val_num(-1)));
  CHECK(an_expr_nonneg(x, an_expr_add(x, an_expr_mul(x, n, m), an_val_num(3))));
  CHECK(!an_expr_nonneg(x, an_expr_sub(x, n, an_val_num(1))));
  CHECK(an_expr_nonneg(x, an_expr_floor_div(x, an_expr_add(x, n, an_val_num(1)), 2)));
  CHECK(!an_expr_nonneg(x, an_expr_floor_div(x, an_expr_sub(x, n, an_val_num(1)), 2)));
  CHECK(an_expr_nonneg(x, an_expr_mod(x, an_expr_sub(x, n, m), 3)));
  CHECK(an_expr_nonneg(x, an_expr_max(x, an_expr_sub(x, n, m), n)));
  CHECK(!an_expr_nonneg(x, an_expr_min(x, an_expr_sub(x, n, m), n)));
  CHECK(!an_expr_nonneg(x, an_val_unknown()));
}

/* covers: ANALYSIS-EXPR LIMIT-ANALYSIS-WORK */
static void test_text_limits(void) {
  an_exprs *x = fresh_exprs();
  /* a name of 1,000 characters: its text fits 1,024, twice of it does not */
  char *name = malloc(1001);
  CHECK(name != NULL);
  if (name == NULL) return;
  memset(name, 'a', 1000);
  name[1000] = '\0';
  an_val a = an_expr_symbol(x, name);
  CHECK(an_expr_text(x, a) != NULL && strlen(an_expr_text(x, a)) == 1000);
  CHECK(an_expr_text(x, a) == an_expr_text(x, a)); /* made once */
  an_val b = an_expr_symbol(x, "b");
  CHECK(an_expr_text(x, an_expr_mul(x, a, an_expr_add(x, a, b))) == NULL);
  /* the budget: 10 bytes take "N + 1" (6 with its NUL), not "M + 22" too */
  an_exprs_text_budget(x, 10);
  TEXT(x, an_expr_add(x, an_expr_symbol(x, "N"), an_val_num(1)), "N + 1");
  CHECK(an_expr_text(x, an_expr_add(x, an_expr_symbol(x, "M"), an_val_num(22))) == NULL);
  TEXT(x, an_expr_add(x, an_expr_symbol(x, "N"), an_val_num(1)), "N + 1"); /* kept */
  free(name);
}

/* covers: ANALYSIS-EXPR LIMIT-ANALYSIS-WORK */
static void test_held_names(void) {
  an_exprs *x = fresh_exprs();
  /* a held name is walked once: the second time costs a few units, whatever
   * its length */
  static char held[4096];
  memset(held, 'h', sizeof held - 1);
  budget = 1000;
  an_val a = an_expr_symbol_held(x, held);
  uint64_t first = 1000 - budget;
  CHECK(a.e != NULL && first >= sizeof held / 16);
  uint64_t before = budget;
  an_val b = an_expr_symbol_held(x, held);
  CHECK(b.e == a.e && before - budget < 8); /* the first took over 255 */
  /* the same as asking by content */
  budget = UINT64_MAX;
  CHECK(an_expr_symbol(x, held).e == a.e);
  /* a name that could not be afforded stays unknown at that address */
  char other[64] = "other_name";
  budget = 1;
  CHECK(an_expr_symbol_held(x, other).e == NULL);
  budget = UINT64_MAX;
  CHECK(an_expr_symbol_held(x, other).e == NULL);
  CHECK(an_expr_symbol(x, other).e != NULL);
}

/* covers: ANALYSIS-EXPR */
static void test_merged_symbols(void) {
  an_exprs *x = fresh_exprs();
  an_val n = an_expr_symbol(x, "N"), m = an_expr_symbol(x, "M");
  an_val n1 = an_expr_add(x, n, an_val_num(1)), m1 = an_expr_add(x, m, an_val_num(1));
  CHECK(!an_expr_same(x, n1, m1));
  CHECK(an_expr_equate(x, n, m));
  CHECK(an_expr_same(x, n1, m1));
  TEXT(x, n1, "M + 1"); /* the class is named by its first name in order */
  CHECK(an_expr_equate(x, m, an_val_num(5)));
  CHECK(an_expr_same(x, an_expr_mul(x, n, an_val_num(2)), an_val_num(10)));
  CHECK(!an_expr_equate(x, n, an_val_num(6))); /* a contradiction */
  CHECK(an_expr_differ(x, n, an_val_num(6)) && !an_expr_differ(x, n, an_val_num(5)));
  CHECK(an_expr_differ(x, an_expr_symbol(x, "K"), an_expr_add(x, an_expr_symbol(x, "K"), an_val_num(1))));
}

static int bind(void *ctx, const char *name, int64_t *v) {
  (void)ctx;
  if (strcmp(name, "H") == 0) *v = 224;
  else if (strcmp(name, "N") == 0) *v = 3;
  else return 0;
  return 1;
}

/* covers: ANALYSIS-EXPR */
static void test_eval_and_fresh(void) {
  an_exprs *x = fresh_exprs();
  an_val h = an_expr_symbol(x, "H"), n = an_expr_symbol(x, "N");
  an_val e = an_expr_add(x, an_expr_floor_div(x, an_expr_sub(x, h, an_val_num(1)), 2),
                         an_expr_mul(x, n, n));
  int64_t v = 0;
  CHECK(an_expr_eval(e, bind, NULL, &v) && v == 111 + 9);
  CHECK(!an_expr_eval(an_expr_symbol(x, "Z"), bind, NULL, &v));
  /* fresh symbols: unique, never one of the model's */
  an_val f1 = an_expr_fresh(x, "nz"), f2 = an_expr_fresh(x, "nz"), decl = an_expr_symbol(x, "nz");
  CHECK(f1.e != NULL && f2.e != NULL && f1.e != f2.e && decl.e != f1.e && decl.e != f2.e);
  TEXT(x, f1, "nz");
  TEXT(x, f2, "'nz#1'");
  /* nor named as one of the model's (interned first: N above), so no two
   * symbols print the same */
  an_val fn = an_expr_fresh(x, "N");
  CHECK(fn.e != NULL && fn.e != n.e);
  TEXT(x, fn, "'N#2'");
}

/* covers: ANALYSIS-EXPR
 * Equating: numbers, expressions that are not one symbol (nothing to
 * record), a symbol and an expression, classes with values (equal or not),
 * and a class whose value comes from the name it joins. */
static void test_equate_cases(void) {
  an_exprs *x = fresh_exprs();
  an_val n = an_expr_symbol(x, "N"), m = an_expr_symbol(x, "M");
  CHECK(an_expr_equate(x, an_val_num(3), an_val_num(3)));
  CHECK(!an_expr_equate(x, an_val_num(3), an_val_num(4)));
  /* neither side a lone symbol, or one side not: accepted, nothing merged */
  CHECK(an_expr_equate(x, an_expr_add(x, n, an_val_num(1)), an_expr_mul(x, m, an_val_num(2))));
  CHECK(an_expr_equate(x, an_expr_add(x, n, an_val_num(1)), m));
  CHECK(an_expr_equate(x, m, an_expr_add(x, n, an_val_num(1))));
  CHECK(!an_expr_same(x, n, m) && !an_expr_same(x, m, an_expr_add(x, n, an_val_num(1))));
  /* two classes with values: merged when the values agree, else refused */
  an_val p = an_expr_symbol(x, "P"), q = an_expr_symbol(x, "Q"), r = an_expr_symbol(x, "R");
  CHECK(an_expr_equate(x, p, an_val_num(5)) && an_expr_equate(x, q, an_val_num(5)));
  CHECK(an_expr_equate(x, p, q) && an_expr_same(x, p, q));
  CHECK(an_expr_equate(x, r, an_val_num(6)));
  CHECK(!an_expr_equate(x, p, r) && !an_expr_same(x, p, r) && an_expr_differ(x, p, r));
  /* B has a value; A (first in order) keeps the class and takes it */
  an_val a = an_expr_symbol(x, "A"), b = an_expr_symbol(x, "B");
  CHECK(an_expr_equate(x, b, an_val_num(7)));
  CHECK(an_expr_equate(x, b, a));
  an_val ra = an_expr_resolve(x, a);
  CHECK(ra.known && ra.v == 7);
  CHECK(an_expr_equate(x, a, b)); /* already one class */
  /* evaluated: a merged symbol with a value, and one named by its class */
  int64_t v = 0;
  CHECK(an_expr_eval(an_expr_add(x, a, b), bind, NULL, &v) && v == 14);
  an_val h2 = an_expr_symbol(x, "H2"), hh = an_expr_symbol(x, "H");
  CHECK(an_expr_equate(x, h2, hh)); /* H is first: H2 -> H, evaluated through H */
  CHECK(an_expr_eval(h2, bind, NULL, &v) && v == 224);
}

/* covers: ANALYSIS-EXPR
 * Resolving an expression of every atom kind after a symbol got a value,
 * twice (the second from the cache). */
static void test_resolve_atoms(void) {
  an_exprs *x = fresh_exprs();
  an_val n = an_expr_symbol(x, "N"), m = an_expr_symbol(x, "M");
  an_val e = an_expr_add(x, an_expr_floor_div(x, n, 2), an_expr_ceil_div(x, n, 3));
  e = an_expr_add(x, e, an_expr_mod(x, n, 4));
  e = an_expr_add(x, e, an_expr_min(x, n, m));
  e = an_expr_add(x, e, an_expr_max(x, n, an_val_num(5)));
  TEXT(x, e, "floor(N/2) + ceil(N/3) + mod(N, 4) + min(M, N) + max(N, 5)");
  CHECK(an_expr_resolve(x, e).e == e.e); /* nothing equated yet */
  CHECK(an_expr_equate(x, n, an_val_num(10)));
  /* 5 + 4 + 2 + min(M, 10) + 10 */
  an_val r1 = an_expr_resolve(x, e), r2 = an_expr_resolve(x, e);
  TEXT(x, r1, "min(M, 10) + 21");
  CHECK(r1.e != NULL && r1.e == r2.e);
  CHECK(an_expr_equate(x, m, an_val_num(3)));
  an_val r3 = an_expr_resolve(x, e);
  CHECK(r3.known && r3.v == 24);
}

/* covers: ANALYSIS-EXPR
 * Signs and lower bounds of min and max atoms: what min_max keeps as an
 * atom, what it decides from a bound, and what an_expr_nonneg says. */
static void test_min_max_bounds(void) {
  an_exprs *x = fresh_exprs();
  an_val n = an_expr_symbol(x, "N"), m = an_expr_symbol(x, "M");
  an_val n5 = an_expr_sub(x, n, an_val_num(5)), m5 = an_expr_sub(x, m, an_val_num(5));
  an_val min_nm5 = an_expr_min(x, n, m5), max_n5m = an_expr_max(x, n5, m);
  TEXT(x, min_nm5, "min(M - 5, N)");
  TEXT(x, max_n5m, "max(M, N - 5)");
  CHECK(!an_expr_nonneg(x, min_nm5) && an_expr_nonneg(x, max_n5m));
  CHECK(an_expr_nonneg(x, an_expr_min(x, n, an_val_num(5))));
  CHECK(!an_expr_nonneg(x, an_expr_min(x, n5, an_val_num(3))));
  CHECK(!an_expr_nonneg(x, an_expr_max(x, n5, an_val_num(-1))));
  CHECK(an_expr_nonneg(x, an_expr_max(x, n5, an_val_num(2))));
  CHECK(an_expr_nonneg(x, an_expr_floor_div(x, n, 3)) && !an_expr_nonneg(x, an_expr_floor_div(x, n5, 3)));
  /* bounds through the atoms: min(N, 4) >= 0, so max(min(N, 4), -2) is it */
  an_val min_n4 = an_expr_min(x, n, an_val_num(4));
  CHECK(an_expr_max(x, min_n4, an_val_num(-2)).e == min_n4.e);
  /* min(N, M - 5) has no lower bound: max of it and -2 stays an atom */
  TEXT(x, an_expr_max(x, min_nm5, an_val_num(-2)), "max(min(M - 5, N), -2)");
  /* max(N - 5, M) >= 0 (through M): so is max(that, 0) */
  CHECK(an_expr_max(x, max_n5m, an_val_num(0)).e == max_n5m.e);
  /* max(N - 5, 3) >= 3 through its number: min of it and 2 is 2; an atom
   * whose bound is negative gives its term none (max(N - 5, -3) and -4) */
  an_val mx = an_expr_max(x, n5, an_val_num(3));
  an_val mn = an_expr_min(x, mx, an_val_num(2));
  CHECK(mn.known && mn.v == 2);
  TEXT(x, an_expr_min(x, an_expr_max(x, n5, an_val_num(-3)), an_val_num(-4)),
       "min(max(N - 5, -3), -4)");
  /* floor((N + 7)/2) >= 3: max(that, 3) is it; ceil too */
  an_val fl = an_expr_floor_div(x, an_expr_add(x, n, an_val_num(7)), 2);
  CHECK(an_expr_max(x, fl, an_val_num(3)).e == fl.e);
  an_val ce = an_expr_ceil_div(x, an_expr_add(x, n, an_val_num(7)), 2);
  CHECK(an_expr_max(x, ce, an_val_num(3)).e == ce.e);
  /* floor of what has no bound: none */
  TEXT(x, an_expr_max(x, an_expr_floor_div(x, m5, 2), an_val_num(0)), "max(floor((M + 1)/2) - 3, 0)");
  /* eval of min with an expression second, and of ceil */
  int64_t v = 0;
  CHECK(an_expr_eval(min_nm5, bind, NULL, &v) == 0); /* M has no value */
  CHECK(an_expr_eval(an_expr_ceil_div(x, n, 2), bind, NULL, &v) && v == 2);
  CHECK(an_expr_eval(an_expr_ceil_div(x, an_expr_add(x, n, an_val_num(1)), 2), bind, NULL, &v) && v == 2);
}

/* covers: ANALYSIS-EXPR
 * The edges of equating, signs, evaluation, quoting and the canonical
 * check: a number with a symbol, expressions that are not one symbol,
 * min and max of two expressions, an operand that cannot be evaluated, a
 * sum past int64, names that need quotes, terms that break the form. */
static void test_expr_edges(void) {
  an_exprs *x = fresh_exprs();
  an_val n = an_expr_symbol(x, "N"), m = an_expr_symbol(x, "M"), k = an_expr_symbol(x, "K");
  /* a number first, a symbol second: the symbol takes the value */
  CHECK(an_expr_equate(x, an_val_num(4), k));
  an_val rk = an_expr_resolve(x, k);
  CHECK(rk.known && rk.v == 4);
  /* 2N, N*M, floor(N/2) are no lone symbol: nothing recorded */
  CHECK(an_expr_equate(x, an_expr_mul(x, n, an_val_num(2)), m));
  CHECK(an_expr_equate(x, an_expr_mul(x, n, m), an_val_num(6)));
  CHECK(an_expr_equate(x, an_expr_floor_div(x, n, 2), m));
  CHECK(!an_expr_same(x, n, m) && !an_expr_resolve(x, m).known);
  /* unknown operands: neither the same nor different */
  CHECK(!an_expr_same(x, an_val_unknown(), n) && !an_expr_same(x, n, an_val_unknown()));
  CHECK(!an_expr_differ(x, an_val_unknown(), n) && !an_expr_differ(x, n, an_val_unknown()));
  /* signs of min and max of two expressions */
  an_val n5 = an_expr_sub(x, n, an_val_num(5)), m5 = an_expr_sub(x, m, an_val_num(5));
  CHECK(an_expr_nonneg(x, an_expr_min(x, n, m)));
  CHECK(!an_expr_nonneg(x, an_expr_min(x, n5, m)));
  CHECK(!an_expr_nonneg(x, an_expr_max(x, n5, m5)));
  CHECK(an_expr_nonneg(x, an_expr_max(x, n, m5)));
  CHECK(!an_expr_nonneg(x, an_val_unknown()) && an_expr_nonneg(x, an_val_num(0)) &&
        !an_expr_nonneg(x, an_val_num(-1)));
  /* evaluation: numbers, nothing, an operand without a value (either
   * side of a min), a sum past int64 */
  int64_t v = 0;
  CHECK(an_expr_eval(an_val_num(-9), bind, NULL, &v) && v == -9);
  CHECK(!an_expr_eval(an_val_unknown(), bind, NULL, &v));
  an_val z5 = an_expr_sub(x, an_expr_symbol(x, "Z"), an_val_num(5));
  an_val a5 = an_expr_sub(x, an_expr_symbol(x, "A"), an_val_num(5));
  CHECK(!an_expr_eval(an_expr_min(x, n, z5), bind, NULL, &v));
  CHECK(!an_expr_eval(an_expr_min(x, a5, n), bind, NULL, &v));
  CHECK(an_expr_eval(an_expr_max(x, n, an_expr_sub(x, an_expr_symbol(x, "H"), an_val_num(300))), bind,
                     NULL, &v) && v == 3);
  an_val h = an_expr_symbol(x, "H");
  an_val over = an_expr_add(x, an_expr_mul(x, h, an_val_num(INT64_MAX / 300)), an_val_num(INT64_MAX / 2));
  CHECK(!over.known && over.e != NULL && !an_expr_eval(over, bind, NULL, &v));
  /* names: an identifier as it is, anything else quoted (a backslash too) */
  TEXT(x, an_expr_symbol(x, "_b9"), "_b9");
  TEXT(x, an_expr_symbol(x, "9b"), "'9b'");
  TEXT(x, an_expr_symbol(x, "b-9"), "'b-9'");
  TEXT(x, an_expr_symbol(x, "a\\b"), "'a\\\\b'");
  /* a term with no atoms, or more terms than AN_EXPR_TERMS: not canonical */
  an_val nm = an_expr_add(x, an_expr_mul(x, n, m), an_val_num(1));
  CHECK(an_expr_canonical(nm.e));
  an_term t = nm.e->terms[0];
  an_expr bad = *nm.e;
  bad.terms = &t;
  t.n = 0;
  CHECK(!an_expr_canonical(&bad));
  t = nm.e->terms[0];
  bad.n_terms = AN_EXPR_TERMS + 1;
  CHECK(!an_expr_canonical(&bad));
  bad.n_terms = 0;
  CHECK(!an_expr_canonical(&bad));
}

/* covers: ANALYSIS-EXPR LIMIT-ANALYSIS-WORK */
static void test_bounds_and_work(void) {
  an_exprs *x = fresh_exprs();
  /* (a0 + ... + a9)^2 has 55 terms: known; times (b0 + b1) passes 64 */
  an_val sum = an_val_num(0), two = an_val_num(0);
  char name[8];
  for (int i = 0; i < 10; i++) {
    snprintf(name, sizeof name, "a%d", i);
    sum = an_expr_add(x, sum, an_expr_symbol(x, name));
  }
  for (int i = 0; i < 2; i++) {
    snprintf(name, sizeof name, "b%d", i);
    two = an_expr_add(x, two, an_expr_symbol(x, name));
  }
  an_val sq = an_expr_mul(x, sum, sum);
  CHECK(sq.e != NULL && sq.e->n_terms == 55);
  CHECK(an_expr_mul(x, sq, two).e == NULL);
  /* a term of more than 8 atoms */
  an_val p = an_expr_symbol(x, "a0");
  for (int i = 0; i < 7; i++) p = an_expr_mul(x, p, an_expr_symbol(x, "a1"));
  CHECK(p.e != NULL && an_expr_mul(x, p, an_expr_symbol(x, "a2")).e == NULL);
  /* coefficients past int64 */
  an_val huge = an_expr_mul(x, an_expr_symbol(x, "a0"), an_val_num(INT64_MAX));
  CHECK(huge.e != NULL && an_expr_add(x, huge, huge).e == NULL);
  CHECK(an_expr_mul(x, huge, an_val_num(2)).e == NULL);
  /* nesting past the bound: floor(... (N + 1)/3 ... + 1)/3) */
  an_val nest = an_expr_symbol(x, "N");
  int depth = 0;
  while (nest.e != NULL && depth < 40) {
    nest = an_expr_floor_div(x, an_expr_add(x, nest, an_val_num(1)), 3);
    depth++;
  }
  CHECK(nest.e == NULL && depth > 5 && depth <= 16);
  /* the work is charged: with none left, nothing new is made */
  budget = 0;
  CHECK(an_expr_symbol(x, "fresh_name").e == NULL);
  CHECK(an_expr_mul(x, sum, sum).e == NULL);
}

/* One fixed sequence of expressions (the steps of a model's dims): out[i]
 * its values. */
#define SWEEP_STEPS 24
static void sweep_steps(an_exprs *x, an_val *out) {
  an_val n = an_expr_symbol(x, "N"), m = an_expr_symbol(x, "M"), h = an_expr_symbol(x, "H");
  an_val k = an_expr_fresh(x, "k");
  out[0] = n;
  out[1] = an_expr_add(x, an_expr_mul(x, n, an_val_num(3)), m);
  out[2] = an_expr_sub(x, out[1], an_expr_mul(x, m, m));
  out[3] = an_expr_mul(x, an_expr_add(x, n, an_val_num(1)), an_expr_add(x, m, h));
  out[4] = an_expr_floor_div(x, an_expr_add(x, h, an_val_num(5)), 2);
  out[5] = an_expr_ceil_div(x, an_expr_sub(x, h, an_val_num(1)), 3);
  out[6] = an_expr_mod(x, an_expr_add(x, n, m), 4);
  out[7] = an_expr_div_exact(x, an_expr_mul(x, out[3], an_val_num(6)), an_val_num(3));
  out[8] = an_expr_min(x, n, m);
  out[9] = an_expr_max(x, an_expr_min(x, n, an_val_num(4)), an_expr_min(x, n, m));
  out[10] = an_expr_add(x, out[8], out[9]);
  out[11] = an_expr_mul(x, out[4], out[5]);
  out[12] = an_expr_floor_div(x, out[11], 5);
  out[13] = an_expr_max(x, an_expr_floor_div(x, n, 2), an_expr_ceil_div(x, n, 2));
  out[14] = an_expr_add(x, k, an_expr_mul(x, k, n));
  out[15] = an_expr_div_exact(x, out[14], an_expr_add(x, n, an_val_num(1)));
  out[16] = an_expr_mod(x, an_expr_mul(x, h, an_val_num(6)), 4);
  out[17] = an_expr_min(x, an_expr_add(x, n, an_val_num(2)), an_expr_add(x, n, an_val_num(5)));
  out[18] = an_expr_sub(x, out[3], out[3]);
  out[19] = an_expr_mul(x, an_expr_mul(x, n, m), an_expr_mul(x, h, n));
  out[20] = an_expr_div_exact(x, out[19], an_expr_mul(x, n, n));
  out[21] = an_expr_add(x, an_expr_max(x, h, m), an_expr_min(x, h, m));
  out[22] = an_expr_floor_div(x, an_expr_add(x, out[21], out[13]), 7);
  out[23] = an_expr_mul(x, out[22], an_expr_mod(x, out[22], 3));
}

/* covers: ANALYSIS-EXPR LIMIT-ANALYSIS-WORK */
static void test_budget_sweep(void) {
  /* with every budget from none to enough, each value is the one an
   * unlimited budget gives (same text) or not known: a budget that runs
   * out mid-way never leaves a wrong expression behind */
  char want[SWEEP_STEPS][256];
  an_val full[SWEEP_STEPS];
  an_exprs *x = fresh_exprs();
  sweep_steps(x, full);
  for (int i = 0; i < SWEEP_STEPS; i++) {
    const char *t = an_expr_text(x, full[i]);
    CHECK(t != NULL && strlen(t) < sizeof want[i]);
    snprintf(want[i], sizeof want[i], "%s", t != NULL ? t : "");
  }
  TEXT(x, full[7], "2*H*N + 2*M*N + 2*H + 2*M");
  TEXT(x, full[12], "-floor((H + 1)/2) + floor((floor((H + 1)/2)*ceil((H + 2)/3) + 4*floor((H + 1)/2) + "
                    "2*ceil((H + 2)/3) + 3)/5) - 1");
  TEXT(x, full[15], "k");
  TEXT(x, full[16], "mod(2*H, 4)");
  TEXT(x, full[17], "N + 2");
  TEXT(x, full[18], "0");
  TEXT(x, full[20], "H*M");
  int complete = 0;
  for (uint64_t b = 0; b < 100000 && !complete; b++) {
    an_val got[SWEEP_STEPS];
    x = fresh_exprs();
    budget = b;
    sweep_steps(x, got);
    budget = UINT64_MAX;
    complete = 1;
    for (int i = 0; i < SWEEP_STEPS; i++) {
      if (!got[i].known && got[i].e == NULL) {
        complete = 0;
        continue;
      }
      const char *t = an_expr_text(x, got[i]);
      if (t == NULL || strcmp(t, want[i]) != 0) {
        printf("budget %llu, step %d: %s, want %s\n", (unsigned long long)b, i, t != NULL ? t : "(none)",
               want[i]);
        CHECK(0);
        return;
      }
    }
  }
  CHECK(complete);
}

/* covers: ANALYSIS-EXPR */
static void test_numbers_and_overflow(void) {
  an_exprs *x = fresh_exprs();
  an_val n = an_expr_symbol(x, "N");
  /* numbers past int64 are not known, never wrapped */
  CHECK(!an_expr_add(x, an_val_num(INT64_MAX), an_val_num(1)).known);
  CHECK(!an_expr_sub(x, an_val_num(INT64_MIN), an_val_num(1)).known);
  CHECK(!an_expr_mul(x, an_val_num(INT64_MAX), an_val_num(2)).known);
  /* a product with 0 is 0, whatever the other side */
  an_val z = an_expr_mul(x, n, an_val_num(0));
  CHECK(z.known && z.v == 0);
  z = an_expr_mul(x, an_val_num(0), an_expr_add(x, n, an_val_num(1)));
  CHECK(z.known && z.v == 0);
  /* a / a is 1; by 0, or a number by an expression, not known */
  an_val n1 = an_expr_add(x, n, an_val_num(1));
  an_val one = an_expr_div_exact(x, n1, n1);
  CHECK(one.known && one.v == 1);
  CHECK(an_expr_div_exact(x, n1, an_val_num(0)).e == NULL && !an_expr_div_exact(x, n1, an_val_num(0)).known);
  CHECK(!an_expr_div_exact(x, an_val_num(6), n).known && an_expr_div_exact(x, an_val_num(6), n).e == NULL);
  CHECK(an_expr_div_exact(x, an_val_num(12), an_val_num(4)).v == 3);
  CHECK(!an_expr_div_exact(x, an_val_num(13), an_val_num(4)).known);
  CHECK(!an_expr_div_exact(x, an_val_num(INT64_MIN), an_val_num(-1)).known);
  /* unknown operands give unknown results */
  CHECK(an_expr_add(x, an_val_unknown(), n).e == NULL && an_expr_min(x, n, an_val_unknown()).e == NULL);
  CHECK(an_expr_floor_div(x, an_val_unknown(), 2).e == NULL);
  CHECK(!an_expr_same(x, an_val_unknown(), an_val_unknown()));
  CHECK(!an_expr_differ(x, an_val_unknown(), n));
  /* negative numbers in the text */
  TEXT(x, an_val_num(-12), "-12");
}

/* The values of the sweep's symbols: N 5, M 7, H 11, k 2. */
static int bind_sweep(void *ctx, const char *name, int64_t *v) {
  (void)ctx;
  if (strcmp(name, "N") == 0) *v = 5;
  else if (strcmp(name, "M") == 0) *v = 7;
  else if (strcmp(name, "H") == 0) *v = 11;
  else if (strcmp(name, "k") == 0) *v = 2;
  else return 0;
  return 1;
}

/* covers: ANALYSIS-EXPR */
static void test_eval_atoms(void) {
  an_exprs *x = fresh_exprs();
  an_val v[SWEEP_STEPS];
  sweep_steps(x, v);
  /* each step at N 5, M 7, H 11, k 2, worked out by hand */
  static const int64_t want[SWEEP_STEPS] = {
      5,                 /* N */
      22,                /* 3N + M */
      22 - 49,           /* 3N + M - M*M */
      6 * 18,            /* (N + 1)(M + H) */
      8,                 /* floor((H + 5)/2) */
      4,                 /* ceil((H - 1)/3) = ceil(10/3) */
      0,                 /* (N + M) mod 4 = 12 mod 4 */
      2 * 6 * 18,        /* 6(N + 1)(M + H)/3 */
      5,                 /* min(N, M) */
      5,                 /* max(min(N, 4), min(N, M)) = max(4, 5) */
      10,                /* the two above */
      32,                /* 8 * 4 */
      6,                 /* floor(32/5) */
      3,                 /* max(floor(5/2), ceil(5/2)) */
      12,                /* k + k*N */
      2,                 /* (k + kN)/(N + 1) */
      2,                 /* 66 mod 4 */
      7,                 /* min(N + 2, N + 5) */
      0,                 /* a - a */
      5 * 7 * 11 * 5,    /* N*M*H*N */
      7 * 11,            /* that / N^2 */
      11 + 7,            /* max(H, M) + min(H, M) */
      (18 + 3) / 7,      /* floor((18 + 3)/7) */
      3 * 0,             /* 3 * (3 mod 3) */
  };
  for (int i = 0; i < SWEEP_STEPS; i++) {
    int64_t got = -1;
    int ok = v[i].known ? (got = v[i].v, 1) : an_expr_eval(v[i], bind_sweep, NULL, &got);
    if (!ok || got != want[i]) printf("step %d: %lld, want %lld\n", i, (long long)got, (long long)want[i]);
    CHECK(ok && got == want[i]);
  }
  /* a symbol without a value, or a result past int64: not evaluated */
  int64_t out;
  CHECK(!an_expr_eval(an_expr_add(x, an_expr_symbol(x, "Q"), an_val_num(1)), bind_sweep, NULL, &out));
  an_val big = an_expr_mul(x, an_expr_symbol(x, "H"), an_val_num(INT64_MAX / 4));
  CHECK(!an_expr_eval(big, bind_sweep, NULL, &out));
}

/* covers: ANALYSIS-EXPR
 * The lattice's invariants (asserted for every node output in debug
 * builds) hold for what the expressions make and fail for what breaks
 * them: a zero coefficient, terms out of order, a negative known dim, an
 * element count the dims do not make, a number that is also an expression. */
static void test_invariants(void) {
  an_exprs *x = fresh_exprs();
  an_val n = an_expr_symbol(x, "N"), s = an_expr_symbol(x, "S");
  an_val sum = an_expr_add(x, an_expr_mul(x, n, s), an_expr_floor_div(x, n, 2));
  CHECK(an_expr_canonical(n.e) && an_expr_canonical(sum.e));
  CHECK(sum.e->n_terms == 2);
  an_term swapped[2] = {sum.e->terms[1], sum.e->terms[0]};
  an_expr bad = *sum.e;
  bad.terms = swapped;
  CHECK(!an_expr_canonical(&bad)); /* out of order */
  swapped[0] = sum.e->terms[0];
  swapped[1] = sum.e->terms[0];
  CHECK(!an_expr_canonical(&bad)); /* a monomial twice */
  swapped[1] = sum.e->terms[1];
  swapped[1].coef = 0;
  CHECK(!an_expr_canonical(&bad));
  CHECK(!an_expr_canonical(NULL));
  an_elem dims[2] = {an_num(2), n}, vals[3] = {an_num(7), sum, an_unknown()};
  slot_info ok = {7, 1, 2, dims, 1, 3, vals, NULL, 0, NULL, {0, 0, NULL}, 0};
  CHECK(an_slot_sound(&ok)); /* N not known: any count */
  dims[1] = an_num(3);
  CHECK(!an_slot_sound(&ok)); /* 2*3 dims, 3 elements */
  ok.n_vals = 0;
  ok.vals_known = 0;
  CHECK(an_slot_sound(&ok));
  dims[0] = an_num(-1);
  CHECK(!an_slot_sound(&ok));
  dims[0] = an_num(0);
  ok.vals_known = 1;
  CHECK(an_slot_sound(&ok)); /* 0*3: no element */
  dims[0] = n;
  dims[0].known = 1; /* a number and an expression at once */
  CHECK(!an_slot_sound(&ok));
  slot_info scalar = {7, 1, 0, NULL, 1, 1, vals, NULL, 0, NULL, {0, 0, NULL}, 0};
  CHECK(an_slot_sound(&scalar));
  scalar.n_vals = 2;
  CHECK(!an_slot_sound(&scalar));
  /* A sequence: nothing a tensor has, a length >= 0, its elements sound;
   * a tensor has no length, element or optional state. */
  scalar.n_vals = 1;
  slot_info seq = {0, 0, 0, NULL, 0, 0, NULL, NULL, AN_SEQUENCE, &scalar, {1, 2, NULL}, 0};
  CHECK(an_slot_sound(&seq));
  seq.seq_len = an_num(-1);
  CHECK(!an_slot_sound(&seq));
  seq.seq_len = sum;
  CHECK(an_slot_sound(&seq)); /* an expression */
  seq.elem = &ok;
  CHECK(!an_slot_sound(&seq)); /* its element is not sound */
  seq.elem = NULL;
  seq.type = 7;
  CHECK(!an_slot_sound(&seq));
  seq.type = 0;
  seq.rank_known = 1; /* a rank, elements or a value of its own */
  CHECK(!an_slot_sound(&seq));
  seq.rank_known = 0;
  seq.vals_known = 1;
  CHECK(!an_slot_sound(&seq));
  seq.vals_known = 0;
  onnxshape_tensor t = {7, 0, NULL, NULL, 0};
  seq.value = &t;
  CHECK(!an_slot_sound(&seq));
  seq.value = NULL;
  CHECK(an_slot_sound(&seq));
  scalar.seq_len = an_num(1);
  CHECK(!an_slot_sound(&scalar));
  scalar.seq_len = an_unknown();
  scalar.elem = &scalar;
  CHECK(!an_slot_sound(&scalar));
  scalar.elem = NULL;
  scalar.opt_has = AN_OPT_FULL;
  CHECK(!an_slot_sound(&scalar));
  scalar.opt_has = 0;
  CHECK(an_slot_sound(&scalar));
  /* a tensor: dims for its rank, at most MAX_ENUM elements, each sound */
  slot_info nodims = {7, 1, 2, NULL, 0, 0, NULL, NULL, 0, NULL, {0, 0, NULL}, 0};
  CHECK(!an_slot_sound(&nodims));
  scalar.n_vals = MAX_ENUM + 1;
  CHECK(!an_slot_sound(&scalar));
  scalar.n_vals = 1;
  scalar.vals = NULL;
  CHECK(!an_slot_sound(&scalar));
  an_elem odd = sum;
  odd.e = &bad; /* terms out of order */
  scalar.vals = &odd;
  CHECK(!an_slot_sound(&scalar));
}

RUN_TESTS(TEST_ENTRY(test_invariants), TEST_ENTRY(test_after_end), TEST_ENTRY(test_canonical_forms), TEST_ENTRY(test_division_by_constants),
          TEST_ENTRY(test_min_max), TEST_ENTRY(test_merged_symbols),
          TEST_ENTRY(test_eval_and_fresh), TEST_ENTRY(test_bounds_and_work),
          TEST_ENTRY(test_sign), TEST_ENTRY(test_text_limits), TEST_ENTRY(test_held_names),
          TEST_ENTRY(test_budget_sweep), TEST_ENTRY(test_numbers_and_overflow), TEST_ENTRY(test_eval_atoms),
          TEST_ENTRY(test_equate_cases), TEST_ENTRY(test_resolve_atoms), TEST_ENTRY(test_min_max_bounds),
          TEST_ENTRY(test_expr_edges))
