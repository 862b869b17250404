/* SPDX-License-Identifier: Apache-2.0 */
/* Symbolic expressions (expr.h): canonical polynomials over interned
 * atoms. An operation builds its result in a scratch polynomial, puts it in
 * canonical form (each term's atoms sorted, equal monomials merged, zero
 * coefficients dropped, terms sorted) and interns it: a table keyed by the
 * structure gives back the one copy. Atoms are interned the same way, so a
 * monomial is a list of pointers and comparing two is comparing pointers
 * one by one. Every loop is bounded by AN_EXPR_TERMS and AN_EXPR_DEGREE
 * and charged; nesting (floor of a floor of ...) is bounded by
 * AN_EXPR_NEST, so every recursion below is too. */
#include "expr.h"

#include <string.h>

#include "../onnx/alloc.h"
#include "../onnx/hash.h"

/* Atoms nest (an operand holding an atom holding ...) at most this deep;
 * deeper results are not known, so recursion stays shallow. */
#define AN_EXPR_NEST 12u
/* The scratch room: a product of two expressions before its terms merge. */
#define SCRATCH_TERMS ((AN_EXPR_TERMS + 1) * (AN_EXPR_TERMS + 1))

typedef struct sterm {
  int64_t coef;
  uint32_t n;
  const an_atom *atoms[AN_EXPR_DEGREE];
} sterm;

/* A polynomial being built. */
typedef struct spoly {
  size_t n;
  sterm *t; /* room for SCRATCH_TERMS */
  int64_t constant;
  int ok; /* 0 once something overflowed or passed a bound */
} spoly;

/* An interning table: open addressing, at most half full, doubled in the
 * arena (the old array stays: twice the final size at most). */
typedef struct table {
  void **slots;
  size_t mask, n;
} table;

struct an_exprs {
  onnxshape__arena *arena;
  an_expr_charge_fn charge;
  void *ctx;
  table atoms, exprs;
  /* Symbols by the address of the name they were asked for: a name the
   * model holds once is walked once, however often it is asked for. */
  struct name_slot {
    const char *name;
    const an_atom *atom; /* NULL: the name could not be afforded */
  } *names;
  size_t names_mask, names_n;
  sterm *scratch[3]; /* three polynomials in flight at most */
  int scratch_heap;   /* scratch[0] is the heap block holding all three */
  int ended;          /* an_exprs_end was called: scratch from the arena */
  uint64_t epoch;     /* bumped by each merge of symbols */
  size_t text_left;   /* bytes the texts may still take (an_exprs_text_budget) */
  uint64_t fresh;     /* fresh symbols made */
};

/* The resolved form of an expression, cached with the epoch it is for. */
typedef struct an_expr_full {
  an_expr e;
  const an_expr *resolved;
  uint64_t resolved_epoch;
  const char *text; /* its text, once made */
  int too_long;     /* its text is longer than AN_EXPR_TEXT_MAX */
  uint32_t depth; /* nesting of atoms inside */
} an_expr_full;

typedef struct an_atom_full {
  an_atom a;
  uint32_t depth;
} an_atom_full;

static int charge(an_exprs *x, uint64_t units) { return x->charge(x->ctx, units); }

/* ---- hashing and order ------------------------------------------------- */

static uint64_t mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15u + (h << 6) + (h >> 2);
  return h * 0xff51afd7ed558ccdu;
}

static int cmp_expr(const an_expr *a, const an_expr *b);

/* A total order of atoms that does not depend on the order they were
 * made in: symbols by name, then operations by kind, operands, constant. */
static int cmp_atom(const an_atom *a, const an_atom *b) {
  if (a == b) return 0;
  if (a->kind != b->kind) return a->kind < b->kind ? -1 : 1;
  if (a->kind == AN_ATOM_SYMBOL) return strcmp(a->name, b->name) < 0 ? -1 : 1;
  int c = cmp_expr(a->a, b->a);
  if (c == 0 && (a->b != NULL || b->b != NULL)) {
    c = a->b == NULL ? -1 : b->b == NULL ? 1 : cmp_expr(a->b, b->b);
  }
  if (c == 0 && a->k != b->k) c = a->k < b->k ? -1 : 1;
  return c;
}

static int cmp_monomial(uint32_t na, const an_atom *const *a, uint32_t nb,
                        const an_atom *const *b) {
  if (na != nb) return na > nb ? -1 : 1; /* higher degree first */
  for (uint32_t i = 0; i < na; i++) {
    int c = cmp_atom(a[i], b[i]);
    if (c != 0) return c;
  }
  return 0;
}

static int cmp_expr(const an_expr *a, const an_expr *b) {
  if (a == b) return 0;
  if (a->n_terms != b->n_terms) return a->n_terms < b->n_terms ? -1 : 1;
  for (uint32_t i = 0; i < a->n_terms; i++) {
    const an_term *s = &a->terms[i], *t = &b->terms[i];
    int c = cmp_monomial(s->n, s->atoms, t->n, t->atoms);
    if (c != 0) return c;
    if (s->coef != t->coef) return s->coef < t->coef ? -1 : 1;
  }
  if (a->constant != b->constant) return a->constant < b->constant ? -1 : 1;
  return 0;
}

static uint32_t expr_depth(const an_expr *e) { return ((const an_expr_full *)e)->depth; }
static uint32_t atom_depth(const an_atom *a) { return ((const an_atom_full *)a)->depth; }

/* ---- the tables ---------------------------------------------------------- */

/* Doubles t when it is half full, charging an entry's move each. The probes
 * of the moves are not charged one by one: the hashes are fixed
 * (onnxshape__name_hash_fixed), so names made to collide make them as
 * many as the probes of the entries' insertions, which were charged, and
 * the doublings together cost at most 4/3 of those. */
static int table_grow(an_exprs *x, table *t, uint64_t (*hash_of)(const void *)) {
  if (2 * (t->n + 1) <= t->mask + 1 && t->slots != NULL) return 1;
  size_t size = t->slots == NULL ? 64 : 2 * (t->mask + 1);
  if (size > SIZE_MAX / 4 / sizeof(void *)) return 0;
  void **s = onnxshape__arena_alloc(x->arena, size * sizeof *s);
  if (s == NULL || !charge(x, t->n + 1)) return 0;
  for (size_t i = 0; t->slots != NULL && i <= t->mask; i++) {
    if (t->slots[i] == NULL) continue;
    size_t at = (size_t)hash_of(t->slots[i]) & (size - 1);
    while (s[at] != NULL) at = (at + 1) & (size - 1);
    s[at] = t->slots[i];
  }
  t->slots = s;
  t->mask = size - 1;
  return 1;
}

static uint64_t atom_hash_of(const void *p) { return ((const an_atom *)p)->hash; }
static uint64_t expr_hash_of(const void *p) { return ((const an_expr *)p)->hash; }

an_exprs *an_exprs_new(onnxshape__arena *arena, an_expr_charge_fn charge_fn, void *ctx) {
  an_exprs *x = onnxshape__arena_alloc(arena, sizeof *x);
  if (x == NULL) return NULL;
  memset(x, 0, sizeof *x);
  x->arena = arena;
  x->charge = charge_fn;
  x->ctx = ctx;
  x->text_left = SIZE_MAX;
  return x;
}

/* The interned atom equal to `want` (its hash set), made when new; NULL
 * when out of memory or work. */
static const an_atom *intern_atom(an_exprs *x, const an_atom *want, uint32_t depth) {
  if (!table_grow(x, &x->atoms, atom_hash_of)) return NULL;
  size_t at = (size_t)want->hash & x->atoms.mask;
  for (an_atom *a; (a = x->atoms.slots[at]) != NULL; at = (at + 1) & x->atoms.mask) {
    if (!charge(x, 1)) return NULL;
    if (a->hash == want->hash && a->kind == want->kind && a->k == want->k && a->a == want->a &&
        a->b == want->b && a->fresh == want->fresh &&
        (a->kind != AN_ATOM_SYMBOL || strcmp(a->name, want->name) == 0)) {
      return a;
    }
  }
  an_atom_full *made = onnxshape__arena_alloc(x->arena, sizeof *made);
  if (made == NULL) return NULL;
  memset(made, 0, sizeof *made);
  made->a = *want;
  if (want->kind == AN_ATOM_SYMBOL) { /* the caller's name may not last */
    size_t len = strlen(want->name);
    char *copy = onnxshape__arena_alloc(x->arena, len + 1);
    if (copy == NULL || !charge(x, len / 16 + 1)) return NULL;
    memcpy(copy, want->name, len + 1);
    made->a.name = copy;
  }
  made->a.up = NULL;
  made->a.has_value = 0;
  made->depth = depth;
  x->atoms.slots[at] = made;
  x->atoms.n++;
  return &made->a;
}

/* ---- scratch polynomials --------------------------------------------------- */

/* Scratch polynomial i (the three are made at the first use). */
/* The three areas take a megabyte (3 * 65 * 65 terms). From the arena they
 * were zeroed on every analysis (a calloc'd block, most of whose pages no
 * expression touches): 0.1 to 1 ms a model, more than the rest of the
 * analysis. So during the analysis they are one heap block, written before
 * read, counted against the arena's limit all the same and freed by
 * an_exprs_end; after it (or when the heap block cannot be had) from the
 * arena as before. */
static int scratch(an_exprs *x, int i, spoly *p) {
  if (x->scratch[0] == NULL) {
    const size_t bytes = 3u * SCRATCH_TERMS * sizeof(sterm);
    sterm *s;
    if (!x->ended) {
      if (!onnxshape__arena_charge(x->arena, bytes)) return 0;
      s = onnxshape__malloc(bytes);
      if (s == NULL) {
        x->arena->out_of_memory = 1;
        return 0;
      }
      x->scratch_heap = 1;
    } else {
      s = onnxshape__arena_alloc(x->arena, bytes);
      if (s == NULL) return 0;
    }
    for (int k = 0; k < 3; k++) x->scratch[k] = s + (size_t)k * SCRATCH_TERMS;
  }
  p->n = 0;
  p->t = x->scratch[i];
  p->constant = 0;
  p->ok = 1;
  return 1;
}

/* a's terms into p (p empty), times `scale`. */
static void load(spoly *p, const an_val *a, int64_t scale) {
  if (a->known) {
    p->ok &= !__builtin_mul_overflow(a->v, scale, &p->constant);
    return;
  }
  const an_expr *e = a->e;
  for (uint32_t i = 0; i < e->n_terms; i++) {
    sterm *t = &p->t[p->n++];
    p->ok &= !__builtin_mul_overflow(e->terms[i].coef, scale, &t->coef);
    t->n = e->terms[i].n;
    memcpy(t->atoms, e->terms[i].atoms, t->n * sizeof t->atoms[0]);
  }
  p->ok &= !__builtin_mul_overflow(e->constant, scale, &p->constant);
}

/* Appends a's terms (times scale) to p. */
static void append(spoly *p, const an_val *a, int64_t scale) {
  spoly more = {0, p->t + p->n, 0, 1};
  load(&more, a, scale);
  p->n += more.n;
  p->ok &= more.ok && !__builtin_add_overflow(p->constant, more.constant, &p->constant);
}

static void sort_atoms(sterm *t) {
  for (uint32_t i = 1; i < t->n; i++) {
    const an_atom *v = t->atoms[i];
    uint32_t j = i;
    while (j > 0 && cmp_atom(t->atoms[j - 1], v) > 0) {
      t->atoms[j] = t->atoms[j - 1];
      j--;
    }
    t->atoms[j] = v;
  }
}

static int cmp_sterm(const sterm *a, const sterm *b) {
  return cmp_monomial(a->n, a->atoms, b->n, b->atoms);
}

/* p in canonical form: atoms sorted, terms sorted (merge sort: p may hold
 * 4,096 terms), equal monomials merged, zero coefficients dropped; more
 * than AN_EXPR_TERMS terms left is not known. */
static void canonical(an_exprs *x, spoly *p) {
  if (!p->ok) return;
  if (!charge(x, (uint64_t)p->n * 16 + 1)) {
    p->ok = 0;
    return;
  }
  /* a term without atoms (a monomial divided away) is part of the constant */
  size_t kept = 0;
  for (size_t i = 0; i < p->n; i++) {
    if (p->t[i].n == 0) {
      if (__builtin_add_overflow(p->constant, p->t[i].coef, &p->constant)) {
        p->ok = 0;
        return;
      }
    } else {
      p->t[kept++] = p->t[i];
    }
  }
  p->n = kept;
  for (size_t i = 0; i < p->n; i++) sort_atoms(&p->t[i]);
  /* bottom-up merge sort through the third scratch area */
  sterm *tmp = x->scratch[2];
  sterm *src = p->t, *dst = tmp;
  for (size_t w = 1; w < p->n; w *= 2) {
    for (size_t lo = 0; lo < p->n; lo += 2 * w) {
      size_t mid = lo + w < p->n ? lo + w : p->n, hi = lo + 2 * w < p->n ? lo + 2 * w : p->n;
      size_t i = lo, j = mid, k = lo;
      while (i < mid && j < hi) dst[k++] = cmp_sterm(&src[j], &src[i]) < 0 ? src[j++] : src[i++];
      while (i < mid) dst[k++] = src[i++];
      while (j < hi) dst[k++] = src[j++];
    }
    sterm *s = src;
    src = dst;
    dst = s;
  }
  if (src != p->t) memcpy(p->t, src, p->n * sizeof *src);
  size_t out = 0;
  for (size_t i = 0; i < p->n; i++) {
    if (out > 0 && cmp_sterm(&p->t[out - 1], &p->t[i]) == 0) {
      if (__builtin_add_overflow(p->t[out - 1].coef, p->t[i].coef, &p->t[out - 1].coef)) {
        p->ok = 0;
        return;
      }
    } else {
      p->t[out++] = p->t[i];
    }
    if (p->t[out - 1].coef == 0) out--;
  }
  p->n = out;
  if (p->n > AN_EXPR_TERMS) p->ok = 0;
}

/* The interned expression of canonical p (a number when it has no term). */
static an_val intern(an_exprs *x, const spoly *p) {
  if (!p->ok) return an_val_unknown();
  if (p->n == 0) return an_val_num(p->constant);
  uint64_t h = mix(0x243f6a8885a308d3u, (uint64_t)p->constant);
  uint32_t depth = 0;
  for (size_t i = 0; i < p->n; i++) {
    h = mix(h, (uint64_t)p->t[i].coef);
    for (uint32_t k = 0; k < p->t[i].n; k++) {
      h = mix(h, p->t[i].atoms[k]->hash);
      if (atom_depth(p->t[i].atoms[k]) > depth) depth = atom_depth(p->t[i].atoms[k]);
    }
    h = mix(h, 0x13198a2e03707344u);
  }
  if (!table_grow(x, &x->exprs, expr_hash_of)) return an_val_unknown();
  size_t at = (size_t)h & x->exprs.mask;
  for (an_expr *e; (e = x->exprs.slots[at]) != NULL; at = (at + 1) & x->exprs.mask) {
    if (!charge(x, 1)) return an_val_unknown();
    if (e->hash != h || e->n_terms != p->n || e->constant != p->constant) continue;
    size_t i = 0;
    while (i < p->n && e->terms[i].coef == p->t[i].coef && e->terms[i].n == p->t[i].n &&
           memcmp(e->terms[i].atoms, p->t[i].atoms, p->t[i].n * sizeof(const an_atom *)) == 0) {
      i++;
    }
    if (i == p->n) return (an_val){0, 0, e};
  }
  an_expr_full *made = onnxshape__arena_alloc(x->arena, sizeof *made);
  an_term *terms = onnxshape__arena_alloc(x->arena, p->n * sizeof *terms);
  if (made == NULL || terms == NULL) return an_val_unknown();
  for (size_t i = 0; i < p->n; i++) {
    const an_atom **atoms = onnxshape__arena_alloc(x->arena, p->t[i].n * sizeof *atoms);
    if (atoms == NULL) return an_val_unknown();
    memcpy(atoms, p->t[i].atoms, p->t[i].n * sizeof *atoms);
    terms[i] = (an_term){p->t[i].coef, p->t[i].n, atoms};
  }
  memset(made, 0, sizeof *made);
  made->e = (an_expr){(uint32_t)p->n, terms, p->constant, h};
  made->depth = depth;
  x->exprs.slots[at] = made;
  x->exprs.n++;
  return (an_val){0, 0, &made->e};
}

/* ---- atoms --------------------------------------------------------------- */

static an_val atom_value(an_exprs *x, const an_atom *a) {
  spoly p;
  if (a == NULL || !scratch(x, 0, &p)) return an_val_unknown();
  p.t[0].coef = 1;
  p.t[0].n = 1;
  p.t[0].atoms[0] = a;
  p.n = 1;
  return intern(x, &p);
}

/* The slot of name's address in x->names (grown as needed), or NULL when
 * out of memory or work. */
static struct name_slot *name_slot_of(an_exprs *x, const char *name) {
  if (x->names == NULL || 2 * (x->names_n + 1) > x->names_mask + 1) {
    size_t size = x->names == NULL ? 64 : 2 * (x->names_mask + 1);
    if (size > SIZE_MAX / 4 / sizeof *x->names || !charge(x, x->names_n + 1)) return NULL;
    struct name_slot *t = onnxshape__arena_alloc(x->arena, size * sizeof *t);
    if (t == NULL) return NULL;
    memset(t, 0, size * sizeof *t);
    for (size_t i = 0; x->names != NULL && i <= x->names_mask; i++) {
      if (x->names[i].name == NULL) continue;
      size_t at = (size_t)mix(0x2u, (uint64_t)(uintptr_t)x->names[i].name) & (size - 1);
      while (t[at].name != NULL) at = (at + 1) & (size - 1);
      t[at] = x->names[i];
    }
    x->names = t;
    x->names_mask = size - 1;
  }
  size_t at = (size_t)mix(0x2u, (uint64_t)(uintptr_t)name) & x->names_mask;
  while (x->names[at].name != NULL && x->names[at].name != name) at = (at + 1) & x->names_mask;
  return &x->names[at];
}

/* The symbol atom of `name`, its hash walked and charged by its length. */
static const an_atom *symbol_atom(an_exprs *x, const char *name) {
  size_t len = strlen(name);
  if (!charge(x, len / 16 + 1)) return NULL;
  an_atom want = {AN_ATOM_SYMBOL, name, NULL, NULL, 0, NULL, 0, 0,
                  mix(0x1u, onnxshape__name_hash_fixed(name)), 0};
  return intern_atom(x, &want, 0);
}

an_val an_expr_symbol(an_exprs *x, const char *name) {
  if (name == NULL) return an_val_unknown();
  const an_atom *a = symbol_atom(x, name);
  return a != NULL ? atom_value(x, a) : an_val_unknown();
}

an_val an_expr_symbol_held(an_exprs *x, const char *name) {
  if (name == NULL || !charge(x, 1)) return an_val_unknown();
  struct name_slot *slot = name_slot_of(x, name);
  if (slot == NULL) return an_val_unknown();
  if (slot->name == NULL) { /* the first time at this address */
    slot->name = name;
    x->names_n++;
    slot->atom = symbol_atom(x, name);
  }
  return slot->atom != NULL ? atom_value(x, slot->atom) : an_val_unknown();
}

/* 1 when a symbol atom named `name` (fresh or the model's, as `fresh`
 * says) is interned, 0 when not, -1 when the probe cannot be paid for. */
static int symbol_taken(an_exprs *x, const char *name, int fresh) {
  uint64_t hash = mix(fresh ? 0x3u : 0x1u, onnxshape__name_hash_fixed(name));
  for (size_t at = (size_t)hash & x->atoms.mask; x->atoms.slots[at] != NULL;
       at = (at + 1) & x->atoms.mask) {
    const an_atom *a = x->atoms.slots[at];
    if (!charge(x, 1)) return -1;
    if (a->kind == AN_ATOM_SYMBOL && a->fresh == fresh && strcmp(a->name, name) == 0) return 1;
  }
  return 0;
}

an_val an_expr_fresh(an_exprs *x, const char *base) {
  size_t len = strlen(base);
  if (!charge(x, len / 16 + 1)) return an_val_unknown();
  char *name = onnxshape__arena_alloc(x->arena, len + 24);
  if (name == NULL) return an_val_unknown();
  memcpy(name, base, len + 1);
  /* A name the model's symbols (all interned before the first fresh one:
   * an_expr_fresh's contract) or another fresh symbol holds is made unique
   * with "#k", so no two symbols print the same. */
  for (uint64_t k = 0; k < 64; k++) {
    if (k > 0) {
      char digits[21];
      size_t n = 0;
      uint64_t v = ++x->fresh;
      do {
        digits[n++] = (char)('0' + v % 10);
        v /= 10;
      } while (v != 0);
      name[len] = '#';
      for (size_t i = 0; i < n; i++) name[len + 1 + i] = digits[n - 1 - i];
      name[len + 1 + n] = '\0';
    }
    if (!charge(x, len / 16 + 1) || !table_grow(x, &x->atoms, atom_hash_of)) {
      return an_val_unknown();
    }
    int taken = symbol_taken(x, name, 1);
    if (taken == 0) taken = symbol_taken(x, name, 0);
    if (taken < 0) return an_val_unknown();
    if (taken == 0) {
      an_atom probe = {AN_ATOM_SYMBOL, name, NULL, NULL, 0, NULL, 0, 0,
                       mix(0x3u, onnxshape__name_hash_fixed(name)), 1};
      return atom_value(x, intern_atom(x, &probe, 0));
    }
  }
  return an_val_unknown();
}

/* The atom of an operation on a (and b), canonical operands. */
static an_val op_atom(an_exprs *x, an_atom_kind kind, an_val a, an_val b, int64_t k) {
  const an_expr *ea = a.e, *eb = b.known || b.e == NULL ? NULL : b.e;
  if (ea == NULL) return an_val_unknown();
  uint32_t depth = expr_depth(ea);
  if (eb != NULL && expr_depth(eb) > depth) depth = expr_depth(eb);
  if (depth + 1 > AN_EXPR_NEST) return an_val_unknown();
  uint64_t h = mix(mix(mix((uint64_t)kind + 7, ea->hash), eb != NULL ? eb->hash : 0), (uint64_t)k);
  an_atom want = {kind, NULL, ea, eb, k, NULL, 0, 0, h, 0};
  return atom_value(x, intern_atom(x, &want, depth + 1));
}

/* ---- arithmetic ------------------------------------------------------------ */

static int is_value(an_val a) { return a.known || a.e != NULL; }

an_val an_expr_add(an_exprs *x, an_val a, an_val b) {
  if (!is_value(a) || !is_value(b)) return an_val_unknown();
  if (a.known && b.known) {
    int64_t r;
    return __builtin_add_overflow(a.v, b.v, &r) ? an_val_unknown() : an_val_num(r);
  }
  spoly p;
  if (!scratch(x, 0, &p)) return an_val_unknown();
  load(&p, &a, 1);
  append(&p, &b, 1);
  canonical(x, &p);
  return intern(x, &p);
}

an_val an_expr_sub(an_exprs *x, an_val a, an_val b) {
  if (!is_value(a) || !is_value(b)) return an_val_unknown();
  if (a.known && b.known) {
    int64_t r;
    return __builtin_sub_overflow(a.v, b.v, &r) ? an_val_unknown() : an_val_num(r);
  }
  spoly p;
  if (!scratch(x, 0, &p)) return an_val_unknown();
  load(&p, &a, 1);
  append(&p, &b, -1);
  canonical(x, &p);
  return intern(x, &p);
}

/* The terms of a value (an expression's, or none for a number) and its
 * constant, for the loops below. */
typedef struct view {
  uint32_t n;
  const an_term *terms;
  int64_t constant;
} view;

static view view_of(an_val a) {
  if (a.known) return (view){0, NULL, a.v};
  return (view){a.e->n_terms, a.e->terms, a.e->constant};
}

an_val an_expr_mul(an_exprs *x, an_val a, an_val b) {
  if (!is_value(a) || !is_value(b)) return an_val_unknown();
  if (a.known && b.known) {
    int64_t r;
    return __builtin_mul_overflow(a.v, b.v, &r) ? an_val_unknown() : an_val_num(r);
  }
  if ((a.known && a.v == 0) || (b.known && b.v == 0)) return an_val_num(0);
  view va = view_of(a), vb = view_of(b);
  if (!charge(x, ((uint64_t)va.n + 1) * (vb.n + 1) * AN_EXPR_DEGREE)) return an_val_unknown();
  spoly p;
  if (!scratch(x, 0, &p)) return an_val_unknown();
  /* (sum ta + ca)(sum tb + cb) */
  for (uint32_t i = 0; i <= va.n && p.ok; i++) {
    for (uint32_t j = 0; j <= vb.n && p.ok; j++) {
      const an_term *s = i < va.n ? &va.terms[i] : NULL, *t = j < vb.n ? &vb.terms[j] : NULL;
      int64_t cs = s != NULL ? s->coef : va.constant, ct = t != NULL ? t->coef : vb.constant;
      int64_t c;
      if (__builtin_mul_overflow(cs, ct, &c)) {
        p.ok = 0;
        break;
      }
      if (s == NULL && t == NULL) {
        p.constant = c;
        continue;
      }
      uint32_t n = (s != NULL ? s->n : 0) + (t != NULL ? t->n : 0);
      if (n > AN_EXPR_DEGREE) {
        p.ok = 0;
        break;
      }
      if (c == 0) continue;
      sterm *r = &p.t[p.n++];
      r->coef = c;
      r->n = 0;
      for (uint32_t k = 0; s != NULL && k < s->n; k++) r->atoms[r->n++] = s->atoms[k];
      for (uint32_t k = 0; t != NULL && k < t->n; k++) r->atoms[r->n++] = t->atoms[k];
    }
  }
  canonical(x, &p);
  return intern(x, &p);
}

/* a / c into *q when c divides a exactly (and the quotient fits). */
static int exact_num(int64_t a, int64_t c, int64_t *q) {
  if (c == 0 || (a == INT64_MIN && c == -1) || a % c != 0) return 0;
  *q = a / c;
  return 1;
}

/* floor(v / k) and the remainder's sign convention for numbers (k > 0). */
static int64_t floor_div_num(int64_t v, int64_t k) {
  int64_t q = v / k;
  return (v % k != 0 && v < 0) ? q - 1 : q;
}

static int64_t floor_mod_num(int64_t v, int64_t k) {
  int64_t r = v % k;
  return r < 0 ? r + k : r;
}

/* a = k*q + r with r's coefficients and constant in [0, k): q into *q, r
 * into *r (each interned). */
static int split(an_exprs *x, an_val a, int64_t k, an_val *q, an_val *r) {
  spoly pq, pr;
  if (!scratch(x, 0, &pq) || !scratch(x, 1, &pr)) {
    return 0;
  }
  view v = view_of(a);
  for (uint32_t i = 0; i < v.n; i++) {
    const an_term *t = &v.terms[i];
    int64_t cq = floor_div_num(t->coef, k), cr = floor_mod_num(t->coef, k);
    if (cq != 0) {
      sterm *s = &pq.t[pq.n++];
      s->coef = cq;
      s->n = t->n;
      memcpy(s->atoms, t->atoms, t->n * sizeof s->atoms[0]);
    }
    if (cr != 0) {
      sterm *s = &pr.t[pr.n++];
      s->coef = cr;
      s->n = t->n;
      memcpy(s->atoms, t->atoms, t->n * sizeof s->atoms[0]);
    }
  }
  pq.constant = floor_div_num(v.constant, k);
  pr.constant = floor_mod_num(v.constant, k);
  canonical(x, &pq);
  *q = intern(x, &pq);
  canonical(x, &pr);
  *r = intern(x, &pr);
  return is_value(*q) && is_value(*r);
}

/* A single atom of `kind` alone (coefficient 1, no constant), or NULL. */
static const an_atom *lone_atom(an_val a, an_atom_kind kind) {
  if (a.known || a.e == NULL || a.e->n_terms != 1 || a.e->constant != 0) return NULL;
  const an_term *t = &a.e->terms[0];
  return t->coef == 1 && t->n == 1 && t->atoms[0]->kind == kind ? t->atoms[0] : NULL;
}

/* floor (ceil: 0) or ceil (1) of a / k. */
static an_val div_const(an_exprs *x, an_val a, int64_t k, int up) {
  if (!is_value(a) || k <= 0) return an_val_unknown();
  if (a.known) {
    int64_t q = floor_div_num(a.v, k);
    return an_val_num(up && q * k != a.v ? q + 1 : q);
  }
  /* floor(floor(e / k1) / k2) = floor(e / (k1 k2)), likewise ceil */
  const an_atom *inner = lone_atom(a, up ? AN_ATOM_CEIL : AN_ATOM_FLOOR);
  int64_t kk;
  if (inner != NULL && !__builtin_mul_overflow(inner->k, k, &kk)) {
    return div_const(x, (an_val){0, 0, inner->a}, kk, up);
  }
  an_val q, r;
  if (!split(x, a, k, &q, &r)) return an_val_unknown();
  if (r.known) return up && r.v != 0 ? an_expr_add(x, q, an_val_num(1)) : q;
  /* floor((k q + r) / k) = q + floor(r / k), r's coefficients in [0, k) */
  return an_expr_add(x, q, op_atom(x, up ? AN_ATOM_CEIL : AN_ATOM_FLOOR, r, an_val_unknown(), k));
}

an_val an_expr_floor_div(an_exprs *x, an_val a, int64_t k) { return div_const(x, a, k, 0); }
an_val an_expr_ceil_div(an_exprs *x, an_val a, int64_t k) { return div_const(x, a, k, 1); }

an_val an_expr_mod(an_exprs *x, an_val a, int64_t k) {
  if (!is_value(a) || k <= 0) return an_val_unknown();
  if (a.known) return an_val_num(floor_mod_num(a.v, k));
  an_val q, r;
  if (!split(x, a, k, &q, &r)) return an_val_unknown();
  if (r.known) return r;
  return op_atom(x, AN_ATOM_MOD, r, an_val_unknown(), k);
}

/* 1 when the monomial m (n atoms) holds d's atoms (a multiset), with the
 * rest into rest (*nr atoms). */
static int holds(const an_atom *const *m, uint32_t n, const an_atom *const *d, uint32_t nd,
                 const an_atom **rest, uint32_t *nr) {
  uint32_t i = 0, j = 0;
  *nr = 0;
  while (i < n) {
    if (j < nd && m[i] == d[j]) {
      i++;
      j++;
    } else {
      rest[(*nr)++] = m[i++];
    }
  }
  return j == nd;
}

/* a / (c * m) for a monomial m: exact when every term holds m and its
 * coefficient is a multiple of c, and the constant is 0 (m not empty). */
static an_val div_monomial(an_exprs *x, an_val a, int64_t c, const an_atom *const *m, uint32_t nm) {
  view v = view_of(a);
  spoly p;
  if ((nm > 0 && v.constant != 0) || !scratch(x, 0, &p) ||
      !exact_num(v.constant, c, &p.constant)) {
    return an_val_unknown();
  }
  for (uint32_t i = 0; i < v.n; i++) {
    const an_term *t = &v.terms[i];
    sterm *s = &p.t[p.n];
    if (!exact_num(t->coef, c, &s->coef) || !holds(t->atoms, t->n, m, nm, s->atoms, &s->n)) {
      return an_val_unknown();
    }
    p.n++;
  }
  canonical(x, &p);
  return intern(x, &p);
}

an_val an_expr_div_exact(an_exprs *x, an_val a, an_val b) {
  if (!is_value(a) || !is_value(b)) return an_val_unknown();
  if (b.known) {
    if (b.v == 0) return an_val_unknown();
    int64_t q;
    if (a.known) return exact_num(a.v, b.v, &q) ? an_val_num(q) : an_val_unknown();
    return div_monomial(x, a, b.v, NULL, 0);
  }
  if (a.e == b.e) return an_val_num(1);
  const an_expr *eb = b.e;
  if (eb->n_terms == 1 && eb->constant == 0) {
    return div_monomial(x, a, eb->terms[0].coef, eb->terms[0].atoms, eb->terms[0].n);
  }
  /* A polynomial divisor: the quotient of the leading terms, checked by
   * multiplying back ((3N + 3) / (N + 1) = 3). */
  if (a.known) return an_val_unknown();
  an_val lead_a = {0, 0, NULL};
  spoly p;
  if (!scratch(x, 1, &p)) return an_val_unknown();
  p.t[0].coef = a.e->terms[0].coef;
  p.t[0].n = a.e->terms[0].n;
  memcpy(p.t[0].atoms, a.e->terms[0].atoms, p.t[0].n * sizeof p.t[0].atoms[0]);
  p.n = 1;
  lead_a = intern(x, &p);
  if (!is_value(lead_a)) return an_val_unknown(); /* out of budget or memory */
  an_val q = div_monomial(x, lead_a, eb->terms[0].coef, eb->terms[0].atoms, eb->terms[0].n);
  if (!is_value(q)) return an_val_unknown();
  an_val back = an_expr_mul(x, q, b);
  return an_expr_same(x, back, a) ? q : an_val_unknown();
}

static int lower_expr(const an_expr *e, int64_t *lb);

/* A lower bound of atom a (every symbol is a dim, >= 0): 1 and *lb, or 0
 * when none is known. */
static int lower_atom(const an_atom *a, int64_t *lb) {
  int64_t l, m;
  switch (a->kind) {
    case AN_ATOM_SYMBOL: case AN_ATOM_MOD: *lb = 0; return 1;
    case AN_ATOM_FLOOR: case AN_ATOM_CEIL:
      if (!lower_expr(a->a, &l)) return 0;
      *lb = floor_div_num(l, a->k); /* floor and ceil are at least the floor */
      return 1;
    case AN_ATOM_MIN:
      if (!lower_expr(a->a, &l)) return 0;
      if (a->b != NULL ? !lower_expr(a->b, &m) : (m = a->k, 0)) return 0;
      *lb = l < m ? l : m;
      return 1;
    default: { /* max: the larger of what either gives */
      int la = lower_expr(a->a, &l);
      int lb2 = a->b != NULL ? lower_expr(a->b, &m) : (m = a->k, 1);
      if (!la && !lb2) return 0;
      *lb = !la ? m : !lb2 ? l : l > m ? l : m;
      return 1;
    }
  }
}

/* A lower bound of e: its constant plus, for each term with a positive
 * coefficient, the coefficient times the product of its atoms' bounds
 * when each is >= 0 (a negative coefficient: none known). Nesting is
 * bounded (AN_EXPR_NEST); the callers charge the walk. */
static int lower_expr(const an_expr *e, int64_t *lb) {
  int64_t sum = e->constant;
  for (uint32_t i = 0; i < e->n_terms; i++) {
    const an_term *t = &e->terms[i];
    if (t->coef < 0) return 0;
    int64_t prod = t->coef;
    for (uint32_t k = 0; k < t->n; k++) {
      int64_t l;
      if (!lower_atom(t->atoms[k], &l) || l < 0 || __builtin_mul_overflow(prod, l, &prod)) return 0;
    }
    if (__builtin_add_overflow(sum, prod, &sum)) return 0;
  }
  *lb = sum;
  return 1;
}

static an_val min_max(an_exprs *x, an_val a, an_val b, int max) {
  if (!is_value(a) || !is_value(b)) return an_val_unknown();
  an_val d = an_expr_sub(x, a, b);
  if (!is_value(d)) return an_val_unknown();
  if (d.known) return (max ? d.v >= 0 : d.v <= 0) ? a : b;
  /* An expression whose lower bound is at least the other side: the
   * larger (max(N + 2, 1) is N + 2, min(max(N, 5), 3) is 3). */
  int64_t lb;
  if (!charge(x, (uint64_t)d.e->n_terms * AN_EXPR_DEGREE + 1)) return an_val_unknown();
  if (lower_expr(d.e, &lb) && lb >= 0) return max ? a : b;
  an_val nd = an_expr_sub(x, b, a);
  if (!is_value(nd)) return an_val_unknown();
  if (!nd.known && lower_expr(nd.e, &lb) && lb >= 0) return max ? b : a;
  /* an atom of the two, in a canonical order, a number second */
  an_val lo = a, hi = b;
  if (!lo.known && !hi.known && cmp_expr(lo.e, hi.e) > 0) {
    lo = b;
    hi = a;
  }
  if (lo.known) {
    an_val t = lo;
    lo = hi;
    hi = t;
  }
  if (hi.known) {
    /* op_atom takes an expression second: a number as a constant expression
     * is not interned, so keep it as the atom's k with b NULL */
    an_atom_kind kind = max ? AN_ATOM_MAX : AN_ATOM_MIN;
    uint32_t depth = expr_depth(lo.e);
    if (depth + 1 > AN_EXPR_NEST) return an_val_unknown();
    uint64_t h = mix(mix(mix((uint64_t)kind + 7, lo.e->hash), 0), (uint64_t)hi.v);
    an_atom want = {kind, NULL, lo.e, NULL, hi.v, NULL, 0, 0, h, 0};
    return atom_value(x, intern_atom(x, &want, depth + 1));
  }
  return op_atom(x, max ? AN_ATOM_MAX : AN_ATOM_MIN, lo, hi, 0);
}

an_val an_expr_min(an_exprs *x, an_val a, an_val b) { return min_max(x, a, b, 0); }
an_val an_expr_max(an_exprs *x, an_val a, an_val b) { return min_max(x, a, b, 1); }

/* ---- symbols merged ---------------------------------------------------------- */

static an_atom *root_of(an_atom *a) {
  while (a->up != NULL) a = a->up;
  return a;
}

/* The symbol atom alone in a, or NULL. */
static an_atom *lone_symbol(an_val a) {
  return (an_atom *)(uintptr_t)lone_atom(a, AN_ATOM_SYMBOL);
}

int an_expr_equate(an_exprs *x, an_val a, an_val b) {
  if (a.known && b.known) return a.v == b.v;
  an_atom *sa = lone_symbol(a), *sb = lone_symbol(b);
  if (sa == NULL && sb == NULL) return 1;
  if (sa == NULL) {
    an_atom *t = sa;
    sa = sb;
    sb = t;
    an_val tv = a;
    a = b;
    b = tv;
  }
  an_atom *ra = root_of(sa);
  if (b.known) {
    if (ra->has_value) return ra->value == b.v;
    ra->has_value = 1;
    ra->value = b.v;
    x->epoch++;
    return 1;
  }
  if (sb == NULL) return 1;
  an_atom *rb = root_of(sb);
  if (ra == rb) return 1;
  if (ra->has_value && rb->has_value && ra->value != rb->value) return 0;
  /* the class keeps the first name in the atoms' order */
  an_atom *keep = cmp_atom(ra, rb) <= 0 ? ra : rb, *join = keep == ra ? rb : ra;
  if (join->has_value && !keep->has_value) {
    keep->has_value = 1;
    keep->value = join->value;
  }
  join->up = keep;
  x->epoch++;
  return 1;
}

an_val an_expr_resolve(an_exprs *x, an_val a) {
  if (a.known || a.e == NULL) return a;
  an_expr_full *f = (an_expr_full *)(uintptr_t)a.e;
  if (f->resolved != NULL && f->resolved_epoch == x->epoch) return (an_val){0, 0, f->resolved};
  if (x->epoch == 0) return a;
  /* Rebuild: each atom replaced by its class (a symbol) or its operands'
   * resolved forms (an operation). */
  an_val sum = an_val_num(a.e->constant);
  for (uint32_t i = 0; i < a.e->n_terms && is_value(sum); i++) {
    const an_term *t = &a.e->terms[i];
    an_val term = an_val_num(t->coef);
    for (uint32_t k = 0; k < t->n && is_value(term); k++) {
      const an_atom *at = t->atoms[k];
      an_val v;
      if (at->kind == AN_ATOM_SYMBOL) {
        an_atom *r = root_of((an_atom *)(uintptr_t)at);
        v = r->has_value ? an_val_num(r->value) : atom_value(x, r);
      } else {
        an_val ra = an_expr_resolve(x, (an_val){0, 0, at->a});
        an_val rb = at->b != NULL ? an_expr_resolve(x, (an_val){0, 0, at->b}) : an_val_num(at->k);
        switch (at->kind) {
          case AN_ATOM_FLOOR: v = an_expr_floor_div(x, ra, at->k); break;
          case AN_ATOM_CEIL: v = an_expr_ceil_div(x, ra, at->k); break;
          case AN_ATOM_MOD: v = an_expr_mod(x, ra, at->k); break;
          case AN_ATOM_MIN: v = an_expr_min(x, ra, rb); break;
          default: v = an_expr_max(x, ra, rb); break;
        }
      }
      term = an_expr_mul(x, term, v);
    }
    sum = an_expr_add(x, sum, term);
  }
  if (!sum.known && sum.e != NULL) {
    f->resolved = sum.e;
    f->resolved_epoch = x->epoch;
  }
  return sum;
}

int an_expr_same(an_exprs *x, an_val a, an_val b) {
  if (!is_value(a) || !is_value(b)) return 0;
  if (!a.known && !b.known && a.e == b.e) return 1;
  a = an_expr_resolve(x, a);
  b = an_expr_resolve(x, b);
  if (a.known || b.known) return a.known && b.known && a.v == b.v;
  return a.e != NULL && a.e == b.e;
}

int an_expr_differ(an_exprs *x, an_val a, an_val b) {
  if (!is_value(a) || !is_value(b)) return 0;
  an_val d = an_expr_sub(x, an_expr_resolve(x, a), an_expr_resolve(x, b));
  return d.known && d.v != 0;
}

/* ---- text ---------------------------------------------------------------------- */

typedef struct text {
  char *b;
  size_t n, cap;
  int ok;
} text;

static void put(text *t, const char *s, size_t n) {
  if (!t->ok) return; /* full: the walk stops too (put_expr, put_atom) */
  if (t->n + n + 1 > t->cap) {
    t->ok = 0;
    return;
  }
  memcpy(t->b + t->n, s, n);
  t->n += n;
  t->b[t->n] = '\0';
}

static void put_s(text *t, const char *s) { put(t, s, strlen(s)); }

/* A magnitude's decimal digits. */
static void put_u(text *t, uint64_t u) {
  char d[24];
  size_t n = 0;
  do {
    d[n++] = (char)('0' + u % 10);
    u /= 10;
  } while (u != 0);
  for (size_t i = 0; i < n; i++) put(t, &d[n - 1 - i], 1);
}

/* |v| as an unsigned magnitude (INT64_MIN included). */
static uint64_t magnitude(int64_t v) { return v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v; }

static void put_i(text *t, int64_t v) {
  if (v < 0) put_s(t, "-");
  put_u(t, magnitude(v));
}

static int is_identifier(const char *s) {
  if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') || *s == '_')) return 0;
  for (s++; *s != '\0'; s++) {
    if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') ||
          *s == '_')) {
      return 0;
    }
  }
  return 1;
}

static void put_expr(text *t, const an_expr *e);

static void put_atom(text *t, const an_atom *a) {
  static const char *const fn[] = {"", "floor(", "ceil(", "mod(", "min(", "max("};
  if (!t->ok) return;
  if (a->kind == AN_ATOM_SYMBOL) {
    if (is_identifier(a->name)) {
      put_s(t, a->name);
      return;
    }
    put_s(t, "'");
    for (const char *c = a->name; *c != '\0'; c++) {
      if (*c == '\'' || *c == '\\') put_s(t, "\\");
      put(t, c, 1);
    }
    put_s(t, "'");
    return;
  }
  put_s(t, fn[a->kind]);
  if (a->kind == AN_ATOM_FLOOR || a->kind == AN_ATOM_CEIL) {
    /* floor((H + 1)/2): a sum in parentheses */
    int sum = a->a->n_terms > 1 || a->a->constant != 0 || a->a->terms[0].coef != 1;
    if (sum) put_s(t, "(");
    put_expr(t, a->a);
    if (sum) put_s(t, ")");
    put_s(t, "/");
    put_i(t, a->k);
  } else {
    put_expr(t, a->a);
    put_s(t, ", ");
    if (a->b != NULL) put_expr(t, a->b);
    else put_i(t, a->k);
  }
  put_s(t, ")");
}

static void put_expr(text *t, const an_expr *e) {
  for (uint32_t i = 0; i < e->n_terms && t->ok; i++) {
    const an_term *m = &e->terms[i];
    int64_t c = m->coef;
    if (i > 0) put_s(t, c < 0 ? " - " : " + ");
    else if (c < 0) put_s(t, "-");
    if (magnitude(c) != 1) {
      put_u(t, magnitude(c));
      put_s(t, "*");
    }
    for (uint32_t k = 0; k < m->n; k++) {
      if (k > 0) put_s(t, "*");
      put_atom(t, m->atoms[k]);
    }
  }
  if (e->constant != 0) {
    put_s(t, e->constant < 0 ? " - " : " + ");
    put_u(t, magnitude(e->constant));
  }
}

void an_exprs_text_budget(an_exprs *x, size_t bytes) { x->text_left = bytes; }

void an_exprs_end(an_exprs *x) {
  if (x == NULL) return;
  if (x->scratch_heap) free(x->scratch[0]);
  for (int k = 0; k < 3; k++) x->scratch[k] = NULL;
  x->scratch_heap = 0;
  x->ended = 1;
}

const char *an_expr_text(an_exprs *x, an_val a) {
  a = an_expr_resolve(x, a);
  if (!is_value(a)) return NULL;
  an_expr_full *f = a.known ? NULL : (an_expr_full *)(uintptr_t)a.e;
  if (f != NULL && (f->text != NULL || f->too_long)) return f->text;
  /* Written into room for the longest text (or what the budget leaves);
   * then kept in the bytes it takes. The walk writes at least a character
   * a step and stops where the room ends, so its work is bounded by the
   * text budget, not charged. */
  char room[AN_EXPR_TEXT_MAX + 1];
  size_t cap = x->text_left < sizeof room ? x->text_left : sizeof room;
  if (cap < 2) return NULL;
  text t = {room, 0, cap, 1};
  room[0] = '\0';
  if (a.known) put_i(&t, a.v);
  else put_expr(&t, a.e);
  if (!t.ok) {
    /* The walk counts against the budget all the same. */
    x->text_left -= t.n;
    if (f != NULL && cap == sizeof room) f->too_long = 1;
    return NULL;
  }
  char *kept = onnxshape__arena_alloc(x->arena, t.n + 1);
  if (kept == NULL) return NULL;
  memcpy(kept, room, t.n + 1);
  x->text_left -= t.n + 1;
  if (f != NULL) f->text = kept;
  return kept;
}

/* ---- sign ------------------------------------------------------------------------ */

static int nonneg_expr(const an_expr *e);

/* Every symbol stands for a dim (>= 0); floor and ceil of what is >= 0 by
 * k > 0, and mod by k > 0, are >= 0; min of two, and max of one. */
static int nonneg_atom(const an_atom *a) {
  switch (a->kind) {
    case AN_ATOM_SYMBOL: return 1;
    case AN_ATOM_MOD: return 1;
    case AN_ATOM_FLOOR: case AN_ATOM_CEIL: return nonneg_expr(a->a);
    case AN_ATOM_MIN: return nonneg_expr(a->a) && (a->b != NULL ? nonneg_expr(a->b) : a->k >= 0);
    default: return nonneg_expr(a->a) || (a->b != NULL ? nonneg_expr(a->b) : a->k >= 0);
  }
}

/* Nesting is bounded (AN_EXPR_NEST), so is this recursion; each level
 * looks at most at AN_EXPR_TERMS * AN_EXPR_DEGREE atoms, the callers
 * charge it. */
static int nonneg_expr(const an_expr *e) {
  if (e->constant < 0) return 0;
  for (uint32_t i = 0; i < e->n_terms; i++) {
    if (e->terms[i].coef < 0) return 0;
    for (uint32_t k = 0; k < e->terms[i].n; k++) {
      if (!nonneg_atom(e->terms[i].atoms[k])) return 0;
    }
  }
  return 1;
}

int an_expr_nonneg(an_exprs *x, an_val a) {
  if (a.known) return a.v >= 0;
  if (a.e == NULL || !charge(x, (uint64_t)a.e->n_terms * AN_EXPR_DEGREE + 1)) return 0;
  return nonneg_expr(a.e);
}

/* ---- evaluation ------------------------------------------------------------------ */

static int eval_expr(const an_expr *e, int (*value)(void *, const char *, int64_t *), void *ctx,
                     int64_t *out);

static int eval_atom(const an_atom *a, int (*value)(void *, const char *, int64_t *), void *ctx,
                     int64_t *out) {
  if (a->kind == AN_ATOM_SYMBOL) {
    const an_atom *r = a;
    while (r->up != NULL) r = r->up;
    if (r->has_value) {
      *out = r->value;
      return 1;
    }
    return value(ctx, a->name, out) || (r != a && value(ctx, r->name, out));
  }
  int64_t va, vb = a->k;
  if (!eval_expr(a->a, value, ctx, &va)) return 0;
  if (a->b != NULL && !eval_expr(a->b, value, ctx, &vb)) return 0;
  switch (a->kind) {
    case AN_ATOM_FLOOR: *out = floor_div_num(va, a->k); return 1;
    case AN_ATOM_CEIL: {
      int64_t q = floor_div_num(va, a->k);
      *out = q * a->k != va ? q + 1 : q;
      return 1;
    }
    case AN_ATOM_MOD: *out = floor_mod_num(va, a->k); return 1;
    case AN_ATOM_MIN: *out = va < vb ? va : vb; return 1;
    default: *out = va > vb ? va : vb; return 1;
  }
}

static int eval_expr(const an_expr *e, int (*value)(void *, const char *, int64_t *), void *ctx,
                     int64_t *out) {
  int64_t sum = e->constant;
  for (uint32_t i = 0; i < e->n_terms; i++) {
    int64_t term = e->terms[i].coef;
    for (uint32_t k = 0; k < e->terms[i].n; k++) {
      int64_t v;
      if (!eval_atom(e->terms[i].atoms[k], value, ctx, &v) || __builtin_mul_overflow(term, v, &term)) {
        return 0;
      }
    }
    if (__builtin_add_overflow(sum, term, &sum)) return 0;
  }
  *out = sum;
  return 1;
}

int an_expr_eval(an_val a, int (*value)(void *ctx, const char *name, int64_t *v), void *ctx,
                 int64_t *out) {
  if (a.known) {
    *out = a.v;
    return 1;
  }
  return a.e != NULL && eval_expr(a.e, value, ctx, out);
}

int an_expr_canonical(const an_expr *e) {
  if (e == NULL || e->n_terms == 0 || e->n_terms > AN_EXPR_TERMS) return 0;
  for (uint32_t i = 0; i < e->n_terms; i++) {
    const an_term *t = &e->terms[i];
    if (t->coef == 0 || t->n == 0 || t->n > AN_EXPR_DEGREE) return 0;
    for (uint32_t j = 0; j < t->n; j++) {
      const an_atom *a = t->atoms[j];
      if (a->kind != AN_ATOM_SYMBOL && a->kind != AN_ATOM_MIN && a->kind != AN_ATOM_MAX &&
          a->k <= 0) {
        return 0;
      }
      if (j > 0 && cmp_atom(t->atoms[j - 1], a) > 0) return 0;
    }
    /* strictly in order: each monomial once */
    if (i > 0 && cmp_monomial(e->terms[i - 1].n, e->terms[i - 1].atoms, t->n, t->atoms) >= 0) {
      return 0;
    }
  }
  return 1;
}
