/* SPDX-License-Identifier: Apache-2.0 */
/* Symbolic dims and integer values (expr.c, docs/analysis.md
 * "Expressions"): polynomials with integer coefficients over atoms, an
 * atom being a symbol (a dim_param such as N, or one made for a node's
 * data-dependent output) or an operation no polynomial states (floor and
 * ceil division and modulo by a constant, min and max). Canonical and
 * interned: two equal expressions are one pointer, so comparing them is
 * comparing pointers (once symbols that a valid model makes equal are
 * merged: an_expr_same). Every operation is bounded (AN_EXPR_TERMS terms,
 * AN_EXPR_DEGREE atoms a term) and charged to the analysis's work budget;
 * what would grow past the bounds is not known. */
#ifndef ONNXSHAPE_EXPR_H
#define ONNXSHAPE_EXPR_H

#include <stddef.h>
#include <stdint.h>

#include "../onnx/arena.h"

/* An expression grows to at most this many terms, a term to this many
 * atoms; past either the result is not known (LIMIT-ANALYSIS-WORK). */
#define AN_EXPR_TERMS 64u
#define AN_EXPR_DEGREE 8u
/* The longest text of an expression (an_expr_text): a longer one is
 * shown as not known. */
#define AN_EXPR_TEXT_MAX 1024u

typedef struct an_expr an_expr;

typedef enum an_atom_kind {
  AN_ATOM_SYMBOL = 0,
  AN_ATOM_FLOOR = 1, /* floor(a / k) */
  AN_ATOM_CEIL = 2,  /* ceil(a / k) */
  AN_ATOM_MOD = 3,   /* a mod k (the result has k's sign: floor modulo) */
  AN_ATOM_MIN = 4,   /* min(a, b) */
  AN_ATOM_MAX = 5    /* max(a, b) */
} an_atom_kind;

typedef struct an_atom {
  an_atom_kind kind;
  const char *name;     /* a symbol's name (NUL-terminated, from the model or made) */
  const an_expr *a, *b; /* the operands */
  int64_t k;            /* the constant divisor or modulus (> 0) */
  struct an_atom *up;   /* a symbol merged into another (union-find), or NULL */
  int has_value;        /* a symbol a valid model makes equal to value */
  int64_t value;
  uint64_t hash;
  int fresh;            /* a symbol made for a node's data-dependent dim (never one of
                           the model's, whatever its name) */
} an_atom;

typedef struct an_term {
  int64_t coef;              /* never 0 */
  uint32_t n;                /* atoms in the monomial (1 to AN_EXPR_DEGREE) */
  const an_atom *const *atoms; /* sorted (a power repeats its atom) */
} an_term;

/* Sum of the terms plus a constant. A number alone is never an an_expr
 * (an element holds it as a number); neither is zero terms. */
struct an_expr {
  uint32_t n_terms;
  const an_term *terms; /* sorted, each monomial once */
  int64_t constant;
  uint64_t hash;
};

/* The expressions of one analysis: the interning tables, in its arena. */
typedef struct an_exprs an_exprs;

/* The work one operation may do is charged by the callers through this. */
typedef int (*an_expr_charge_fn)(void *ctx, uint64_t units);

/* A new set of expressions allocating from arena, charging charge(ctx, n)
 * for its work (0 refuses); NULL when out of memory. */
an_exprs *an_exprs_new(onnxshape__arena *arena, an_expr_charge_fn charge, void *ctx);

/* A value: a number (known), an expression, or not known (e NULL). */
typedef struct an_val {
  int known;
  int64_t v;
  const an_expr *e;
} an_val;

static inline an_val an_val_num(int64_t v) { return (an_val){1, v, NULL}; }
static inline an_val an_val_unknown(void) { return (an_val){0, 0, NULL}; }

/* The symbol `name` (interned: the same name, the same symbol); the name
 * is walked (and charged by its length) each time. */
an_val an_expr_symbol(an_exprs *x, const char *name);
/* The same, for a name whose bytes stay as they are while x lives (a
 * model's dim_param): looked up by its address first, so each name the
 * model holds is walked once however often it is asked for. */
an_val an_expr_symbol_held(an_exprs *x, const char *name);
/* A fresh symbol (a node's data-dependent dim, an undeclared input dim)
 * named "<base>", made unique with "#k" when another fresh symbol or one
 * of the model's holds the name: so every symbol of the model must be
 * interned (an_expr_symbol_held) before the first fresh one is made. */
an_val an_expr_fresh(an_exprs *x, const char *base);

/* Arithmetic. Exact: a result past int64 (a coefficient or the constant)
 * or past the bounds is not known, never wrapped. */
an_val an_expr_add(an_exprs *x, an_val a, an_val b);
an_val an_expr_sub(an_exprs *x, an_val a, an_val b);
an_val an_expr_mul(an_exprs *x, an_val a, an_val b);
/* floor(a / k), ceil(a / k) and a mod k for a constant k > 0 (else not
 * known): exact where every coefficient is a multiple of k. */
an_val an_expr_floor_div(an_exprs *x, an_val a, int64_t k);
an_val an_expr_ceil_div(an_exprs *x, an_val a, int64_t k);
an_val an_expr_mod(an_exprs *x, an_val a, int64_t k);
/* a / b when the quotient is exact whatever the symbols' values (b a
 * number, a monomial, or a polynomial that divides a); else not known. */
an_val an_expr_div_exact(an_exprs *x, an_val a, an_val b);
an_val an_expr_min(an_exprs *x, an_val a, an_val b);
an_val an_expr_max(an_exprs *x, an_val a, an_val b);

/* 1 when a and b are the same number or the same expression, symbols
 * merged as recorded (an_expr_equate); 0 otherwise (not known to differ:
 * see an_expr_differ). */
int an_expr_same(an_exprs *x, an_val a, an_val b);
/* 1 when a and b are certain to differ (two different numbers; an
 * expression and a number or expression it is a constant apart from). */
int an_expr_differ(an_exprs *x, an_val a, an_val b);
/* 1 when e is in canonical form: 1 to AN_EXPR_TERMS terms in order, each
 * monomial once, no zero coefficient, 1 to AN_EXPR_DEGREE atoms a term in
 * order, a divisor or modulus > 0 (the lattice's invariant, asserted in
 * debug builds: an_slot_sound). */
int an_expr_canonical(const an_expr *e);
/* Records that a valid model makes a and b equal (two symbols, or a symbol
 * and a number): 1, or 0 when that contradicts what is recorded (two
 * numbers that differ). Other pairs are left as they are (1). */
int an_expr_equate(an_exprs *x, an_val a, an_val b);
/* a with merged symbols replaced by their class's (or its number). */
an_val an_expr_resolve(an_exprs *x, an_val a);

/* 1 when a is certain to be >= 0: a number >= 0, or an expression whose
 * coefficients and constant are >= 0 over atoms that are (every symbol is
 * a dim). 0 otherwise. */
int an_expr_nonneg(an_exprs *x, an_val a);

/* At most `bytes` of texts from now on (an_expr_text gives NULL past them:
 * the caller shows the value as not known). Unlimited by default. */
void an_exprs_text_budget(an_exprs *x, size_t bytes);
/* Frees the scratch room the operations took from the heap (NULL is
 * allowed); operations after it still work, their scratch from the arena.
 * Called once the analysis is over: an_exprs lives in its arena, which
 * frees nothing else. */
void an_exprs_end(an_exprs *x);
/* a's text in the documented grammar (docs/cli.md, "Dims"): a number,
 * "N", "12*S", "N*S + 3", "floor((H + 1)/2)", "min(N, 4)"; a symbol whose
 * name is not an identifier is quoted ('batch size', \' and \\ escaped).
 * NUL-terminated, in the arena, made once per expression; NULL for a
 * value not known, a text longer than AN_EXPR_TEXT_MAX, past the text
 * budget or the work budget, or out of memory. */
const char *an_expr_text(an_exprs *x, an_val a);

/* The value of a at the symbols' values value(ctx, name, &v) gives: 1 and
 * *out, or 0 when a symbol has none or the result leaves int64. */
int an_expr_eval(an_val a, int (*value)(void *ctx, const char *name, int64_t *v), void *ctx,
                 int64_t *out);

#endif
