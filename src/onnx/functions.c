/* SPDX-License-Identifier: Apache-2.0 */
/* Model-local functions (load.h). A node whose (domain, op_type, overload) names a model-local function is a
 * call: each call loads the function's body again, as a graph of its own
 * (graph_node.body) that sees only its own names, at the function's opset,
 * with each attribute reference replaced by the call's attribute (or the
 * function's default). Analysis then runs the body on the call's inputs
 * (docs/analysis.md, "Model-local functions"). */
#include <stdio.h>
#include <string.h>

#include "load.h"
#include "pbfast.h"

static const char *fn_domain(const Onnx__FunctionProto *f) {
  return is_default_domain(f->domain) ? "" : f->domain;
}

/* A function as messages name it, for "'{}{}{}'". */
#define FN_ARGS(f) ONNXSHAPE__OP_ARGS(fn_domain(f), (f)->name)

/* 0 for the domains ONNX defines (the default domain, ai.onnx.*): a node
 * there names ONNX's operator, never a model-local function, as onnx's own
 * shape inference resolves it (the proto leaves the choice to runtimes; a
 * node that names no operator onnxshape knows is then not evaluated). */
int onnxshape__calls_functions(const char *domain) {
  return !is_default_domain(domain) && strncmp(domain, "ai.onnx.", 8) != 0;
}

/* ---- long names, interned once ---------------------------------------------- */

/* A slot of the address index of long names: the address mixed (fmix64 of
 * MurmurHash3; addresses are the arena's, not the file's). */
static size_t address_slot(const char *s, size_t mask) {
  uint64_t x = (uint64_t)(uintptr_t)s;
  x ^= x >> 33;
  x *= UINT64_C(0xff51afd7ed558ccd);
  x ^= x >> 33;
  return (size_t)x & mask;
}

/* 1 when s has at least LONG_NAME bytes (looking at no more than those). */
static int is_long(const char *s) {
  size_t n = 0;
  while (n < LONG_NAME && s[n] != '\0') n++;
  return n == LONG_NAME;
}

name_key onnxshape__name_key(const onnxshape_model *m, const char *s) {
  if (m->known != NULL && is_long(s)) {
    for (size_t at = address_slot(s, m->names_mask); m->known[at].s != NULL;
         at = (at + 1) & m->names_mask) {
      onnxshape__probes++;
      if (m->known[at].s == s) return m->known[at];
    }
  }
  return (name_key){s, onnxshape__name_hash(s)};
}

int onnxshape__same_name(const char *a, const char *b) {
  if (a == b) return 1;
  size_t i = 0;
  while (a[i] == b[i] && a[i] != '\0') i++;
  onnxshape__name_bytes += i + 1;
  return a[i] == b[i];
}

/* Where interning keeps what it has met: a hash by content of the long
 * names (the first of each content), and the model's index by address. */
typedef struct interner {
  onnxshape_model *m;
  name_key *by_content;
  size_t mask;
} interner;

/* *p, when it is a long name, replaced by the first name of its content
 * (which the model's index then holds, with its hash). */
static void intern(interner *in, char **p) {
  if (*p == NULL || !is_long(*p)) return;
  size_t h = onnxshape__name_hash(*p);
  size_t at = h & in->mask;
  for (; in->by_content[at].s != NULL; at = (at + 1) & in->mask) {
    onnxshape__probes++;
    if (in->by_content[at].hash == h && onnxshape__same_name(in->by_content[at].s, *p)) {
      *p = (char *)(uintptr_t)in->by_content[at].s;
      return;
    }
  }
  in->by_content[at] = (name_key){*p, h};
  onnxshape_model *m = in->m;
  size_t k = address_slot(*p, m->names_mask);
  while (m->known[k].s != NULL) {
    onnxshape__probes++;
    k = (k + 1) & m->names_mask;
  }
  m->known[k] = in->by_content[at];
}

/* Calls each(in, p) on every name of function f a call of it looks up or
 * compares: the function's own (domain, name, overload), its inputs,
 * outputs, defaults' names and value_info, and its nodes' inputs, outputs,
 * operators, attributes' names and references. */
static void each_name(Onnx__FunctionProto *f, void (*each)(interner *, char **), interner *in) {
  each(in, &f->domain);
  each(in, &f->name);
  each(in, &f->overload);
  for (size_t i = 0; i < f->n_input; i++) each(in, &f->input[i]);
  for (size_t i = 0; i < f->n_output; i++) each(in, &f->output[i]);
  for (size_t i = 0; i < f->n_attribute_proto; i++) each(in, &f->attribute_proto[i]->name);
  for (size_t i = 0; i < f->n_value_info; i++) each(in, &f->value_info[i]->name);
  for (size_t k = 0; k < f->n_node; k++) {
    Onnx__NodeProto *np = f->node[k];
    each(in, &np->domain);
    each(in, &np->op_type);
    each(in, &np->overload);
    for (size_t i = 0; i < np->n_input; i++) each(in, &np->input[i]);
    for (size_t i = 0; i < np->n_output; i++) each(in, &np->output[i]);
    for (size_t i = 0; i < np->n_attribute; i++) {
      each(in, &np->attribute[i]->name);
      each(in, &np->attribute[i]->ref_attr_name);
    }
  }
}

/* Adds the bytes of a name to in->mask (a count, before the indexes exist). */
static void count_bytes(interner *in, char **p) {
  if (*p != NULL) in->mask += strlen(*p);
}

/* The bytes of the names a call of f makes its body point to, which it
 * counts against LIMIT-MEMORY as if it copied them (each is looked up in
 * time independent of its length, but printed, and the symbols
 * analysed, once per call): every name each_name visits, the nodes'
 * names and the symbols of the value_info. */
static size_t body_bytes(Onnx__FunctionProto *f) {
  interner in = {NULL, NULL, 0};
  each_name(f, count_bytes, &in);
  for (size_t k = 0; k < f->n_node; k++) count_bytes(&in, &f->node[k]->name);
  for (size_t k = 0; k < f->n_value_info; k++) {
    const Onnx__TypeProto *tp = f->value_info[k]->type;
    const Onnx__TensorShapeProto *shape =
        tp != NULL && tp->value_case == ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE ? tp->tensor_type->shape
                                                                            : NULL;
    for (size_t i = 0; shape != NULL && i < shape->n_dim; i++) {
      if (shape->dim[i]->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM) {
        count_bytes(&in, &shape->dim[i]->dim_param);
      }
    }
  }
  return in.mask;
}

/* Counts a long name (in in->mask, before the indexes exist). */
static void count_long(interner *in, char **p) {
  if (*p != NULL && is_long(*p)) in->mask++;
}

/* The long names of the model's n functions fs interned, their hashes in
 * m->known; 0 when out of memory. The two indexes take 64 bytes a long
 * name at most, less than the name's own bytes. */
static int intern_long_names(onnxshape_model *m, Onnx__FunctionProto **fs, size_t n) {
  interner in = {m, NULL, 0};
  for (size_t i = 0; i < n; i++) each_name(fs[i], count_long, &in);
  size_t longs = in.mask;
  if (longs == 0) return 1;
  size_t size = 8;
  while (size / 2 < longs) size *= 2; /* longs < the file's bytes / LONG_NAME: no overflow */
  name_key *by_content = model_alloc(m, size, sizeof *by_content);
  name_key *known = model_alloc(m, size, sizeof *known);
  if (by_content == NULL || known == NULL) return 0;
  m->known = known;
  m->names = by_content;
  m->names_mask = size - 1;
  in.by_content = by_content;
  in.mask = size - 1;
  for (size_t i = 0; i < n; i++) each_name(fs[i], intern, &in);
  return 1;
}

/* ---- the index of functions ------------------------------------------------ */

static size_t fn_hash(size_t domain, size_t name, size_t overload) {
  return name ^ (domain * 31u) ^ (overload * 961u);
}

static int fn_is(const Onnx__FunctionProto *f, const char *domain, const char *name,
                 const char *overload) {
  return onnxshape__same_name(f->name, name) && onnxshape__same_name(fn_domain(f), domain) &&
         onnxshape__same_name(overload_of(f->overload), overload);
}

/* The index entry of (domain, name, overload) under hash h, or NULL;
 * *free_at is where the index would take it. */
static const model_function *find_hashed(const onnxshape_model *m, size_t h, const char *domain,
                                         const char *name, const char *overload,
                                         size_t *free_at) {
  size_t at = h & m->fn_mask;
  for (size_t e; (e = m->fn_index[at]) != 0; at = (at + 1) & m->fn_mask) {
    onnxshape__probes++;
    const model_function *fn = &m->functions[e - 1];
    if (fn->hash == h && fn_is(fn->proto, domain, name, overload)) return fn;
  }
  *free_at = at;
  return NULL;
}

/* The hash of (domain, name, overload) in the function index. */
static size_t fn_key(const onnxshape_model *m, const char *domain, const char *name,
                     const char *overload) {
  return fn_hash(onnxshape__name_key(m, domain).hash, onnxshape__name_key(m, name).hash,
                 onnxshape__name_key(m, overload).hash);
}

/* The function a node of domain (normalised: "" for the default domain),
 * op_type and overload calls, or NULL; *free_at is where the index would
 * take it. */
const model_function *onnxshape__find_function(const onnxshape_model *m, const char *domain,
                                               const char *name, const char *overload,
                                               size_t *free_at) {
  if (m->fn_index == NULL) return NULL;
  return find_hashed(m, fn_key(m, domain, name, overload), domain, name, overload, free_at);
}

/* The default-domain opset function fn's body resolves at: its own
 * import, else the model's; found once, when the function is indexed (a
 * call then costs nothing in the length of its import list). A second
 * default-domain import, or a version this build does not support, is
 * recorded for the calls to refuse (as the first such import says). */
static void function_opset(const onnxshape_model *m, model_function *fn) {
  const Onnx__FunctionProto *f = fn->proto;
  fn->opset = m->opset;
  int found = 0;
  for (size_t i = 0; i < f->n_opset_import; i++) {
    onnxshape__probes++;
    const Onnx__OperatorSetIdProto *o = f->opset_import[i];
    if (!is_default_domain(o->domain)) continue;
    if (found++) {
      fn->opset_fault = FN_OPSET_TWICE;
      return;
    }
    if (!o->has_version || o->version < 1 || o->version > ONNXSHAPE_MAX_OPSET) {
      fn->opset_fault = FN_OPSET_UNSUPPORTED;
      fn->opset = o->version;
      return;
    }
    fn->opset = o->version;
  }
}

/* Refuses a call (node n) of a function whose opset imports are faulty. */
static onnxshape_status opset_fault(const graph_node *n, const model_function *fn,
                                    onnxshape_diag *diag) {
  const Onnx__FunctionProto *f = fn->proto;
  if (fn->opset_fault == FN_OPSET_TWICE) {
    return NFAIL(n, ONNXSHAPE_ERR_INVALID_MODEL,
                 "function '{}{}{}' imports the default domain twice",
                 ONNXSHAPE__ARGS(FN_ARGS(f)));
  }
  return NFAIL(n, ONNXSHAPE_ERR_UNSUPPORTED_OPSET,
               "function '{}{}{}' imports default-domain opset {}; this build supports 1 to {}",
               ONNXSHAPE__ARGS(FN_ARGS(f), ARG_INT(fn->opset), ARG_INT(ONNXSHAPE_MAX_OPSET)));
}

/* Each function decoded, named, and indexed by (domain, name, overload),
 * which must be unique; its long names interned, its opset found. */
onnxshape_status onnxshape__load_functions(onnxshape_model *m, const Onnx__ModelProto *mp,
                                       onnxshape_diag *diag) {
  if (mp->n_functions == 0) return ONNXSHAPE_OK;
  m->functions = model_alloc(m, mp->n_functions, sizeof *m->functions);
  m->fn_index = onnxshape__new_index(m, mp->n_functions, &m->fn_mask);
  Onnx__FunctionProto **fs = model_alloc(m, mp->n_functions, sizeof *fs);
  if (m->functions == NULL || m->fn_index == NULL || fs == NULL) {
    m->fn_index = NULL;
    return out_of_memory(m, diag);
  }
  for (size_t i = 0; i < mp->n_functions; i++) {
    ProtobufCMessage *msg;
    onnxshape_status st = onnxshape__decode_held(m, &onnx__function_proto__descriptor,
                                                 &mp->functions[i], &msg, diag);
    if (st == ONNXSHAPE_ERR_MALFORMED) {
      return onnxshape__error(diag, st, "function {} is not a valid FunctionProto",
                              ONNXSHAPE__ARGS(ARG_UINT(i)));
    }
    if (st != ONNXSHAPE_OK) return st;
    fs[i] = (Onnx__FunctionProto *)msg;
    if (fs[i]->name == NULL || fs[i]->name[0] == '\0') {
      return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_MODEL, "function {} has no name",
                              ONNXSHAPE__ARGS(ARG_UINT(i)));
    }
  }
  if (!intern_long_names(m, fs, mp->n_functions)) return out_of_memory(m, diag);
  for (size_t i = 0; i < mp->n_functions; i++) {
    const Onnx__FunctionProto *f = fs[i];
    const char *domain = fn_domain(f), *overload = overload_of(f->overload);
    size_t h = fn_key(m, domain, f->name, overload);
    size_t at = 0;
    if (find_hashed(m, h, domain, f->name, overload, &at) != NULL) {
      return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_MODEL, "function '{}{}{}' is defined twice",
                              ONNXSHAPE__ARGS(FN_ARGS(f)));
    }
    model_function *fn = &m->functions[i];
    fn->proto = f;
    fn->hash = h;
    fn->cost = body_bytes(fs[i]);
    function_opset(m, fn);
    m->fn_index[at] = i + 1;
    m->n_functions = i + 1;
  }
  return ONNXSHAPE_OK;
}

/* The k-th of call c's attributes followed by its function's defaults. */
static const Onnx__AttributeProto *call_attr(const model_call *c, size_t k) {
  const Onnx__NodeProto *call = c->node;
  const Onnx__FunctionProto *f = c->function;
  return k < call->n_attribute ? call->attribute[k] : f->attribute_proto[k - call->n_attribute];
}

/* The key of name s, with the interned name of its content when there is
 * one (a call's own attribute names, compared with its body's
 * references). */
static name_key canonical_key(const onnxshape_model *m, const char *s) {
  name_key k = onnxshape__name_key(m, s);
  if (m->names == NULL || !is_long(s)) return k;
  for (size_t at = k.hash & m->names_mask; m->names[at].s != NULL; at = (at + 1) & m->names_mask) {
    onnxshape__probes++;
    if (m->names[at].hash == k.hash && onnxshape__same_name(m->names[at].s, s)) return m->names[at];
  }
  return k;
}

/* k + 1 for the attribute named `ref` in call c's index (call_attr(c, k)),
 * or 0; *free_at is where the index would take it. */
static size_t attr_at(const model_call *c, name_key ref, size_t *free_at) {
  if (c->attrs == NULL) return 0;
  size_t at = ref.hash & c->attrs_mask;
  for (size_t e; (e = c->attrs[at]) != 0; at = (at + 1) & c->attrs_mask) {
    onnxshape__probes++;
    if (c->attr_keys[at].hash == ref.hash && onnxshape__same_name(c->attr_keys[at].s, ref.s)) {
      return e;
    }
  }
  *free_at = at;
  return 0;
}

/* Indexes, by name, what the references in c's body can take: the call's
 * attributes, then the function's defaults for names the call does not
 * give (the first of a name wins), so that resolving takes time in the
 * number of references, not in references times attributes. */
static int index_call_attrs(onnxshape_model *m, model_call *c) {
  const Onnx__NodeProto *call = c->node;
  const Onnx__FunctionProto *f = c->function;
  size_t n = call->n_attribute + f->n_attribute_proto;
  if (n == 0) return 1; /* nothing to take: attr_at finds nothing */
  c->attrs = onnxshape__new_index(m, n, &c->attrs_mask);
  c->attr_keys = c->attrs != NULL ? model_alloc(m, c->attrs_mask + 1, sizeof *c->attr_keys) : NULL;
  if (c->attr_keys == NULL) return 0;
  for (size_t i = 0; i < n; i++) {
    const Onnx__AttributeProto *a = call_attr(c, i);
    if (a->name == NULL) continue;
    name_key key = canonical_key(m, a->name);
    size_t at = 0;
    if (attr_at(c, key, &at) == 0) {
      c->attrs[at] = i + 1;
      c->attr_keys[at] = key;
    }
  }
  return 1;
}

/* Node *np of a function's body (or of a subgraph in it) with its
 * attribute references resolved against call c: *np itself when it has
 * none, else a copy, with *scopes saying for each of its attributes where a
 * graph value is loaded (the scope of the call's attribute it took; NULL:
 * where the node is). A reference must take an attribute of its own type. */
onnxshape_status onnxshape__resolve_refs(onnxshape_model *m, const model_call *c,
                                     const Onnx__NodeProto **np, const model_graph ***scopes,
                                     onnxshape_diag *diag) {
  const Onnx__NodeProto *node = *np;
  size_t refs = 0;
  for (size_t i = 0; i < node->n_attribute; i++) refs += node->attribute[i]->ref_attr_name != NULL;
  if (refs == 0) return ONNXSHAPE_OK;
  Onnx__NodeProto *copy = model_alloc(m, 1, sizeof *copy);
  Onnx__AttributeProto **attrs = model_alloc(m, node->n_attribute + 1, sizeof *attrs);
  Onnx__AttributeProto *made = model_alloc(m, refs, sizeof *made);
  const model_graph **where = model_alloc(m, node->n_attribute + 1, sizeof *where);
  if (copy == NULL || attrs == NULL || made == NULL || where == NULL) return out_of_memory(m, diag);
  *copy = *node;
  copy->attribute = attrs;
  copy->n_attribute = 0;
  for (size_t i = 0; i < node->n_attribute; i++) {
    Onnx__AttributeProto *a = node->attribute[i];
    if (a->ref_attr_name == NULL) {
      attrs[copy->n_attribute++] = a;
      continue;
    }
    /* The call's attribute of that name, else the function's default, else
     * none: the attribute is then absent, as ONNX says. */
    size_t unused;
    size_t e = attr_at(c, onnxshape__name_key(m, a->ref_attr_name), &unused);
    if (e == 0) continue;
    size_t k = e - 1;
    const Onnx__NodeProto *call = c->node;
    const Onnx__AttributeProto *value = call_attr(c, k);
    if (a->has_type && value->has_type && a->type != value->type) {
      diag->node = node->name != NULL && node->name[0] != '\0' ? node->name : NULL;
      return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_MODEL,
                              "attribute '{}' refers to '{}', which is {}; the reference is {}",
                              ONNXSHAPE__ARGS(ARG_NAME(a->name != NULL ? a->name : ""),
                                              ARG_NAME(a->ref_attr_name),
                                              ARG_STR(onnxshape__attr_type_name((int)value->type)),
                                              ARG_STR(onnxshape__attr_type_name((int)a->type))));
    }
    *made = *value;
    made->name = a->name;
    made->ref_attr_name = NULL;
    where[copy->n_attribute] = k < call->n_attribute ? c->scopes[k] : NULL;
    attrs[copy->n_attribute++] = made++;
  }
  *np = copy;
  *scopes = where;
  return ONNXSHAPE_OK;
}

/* ValueInfoProtos that only name values (a function's inputs and outputs
 * have names alone); NULL when out of memory. */
static Onnx__ValueInfoProto **named_values(onnxshape_model *m, char **names, size_t n) {
  Onnx__ValueInfoProto **list = model_alloc(m, n + 1, sizeof *list);
  Onnx__ValueInfoProto *v = model_alloc(m, n + 1, sizeof *v);
  if (list == NULL || v == NULL) return NULL;
  for (size_t i = 0; i < n; i++) {
    Onnx__ValueInfoProto init = ONNX__VALUE_INFO_PROTO__INIT;
    v[i] = init;
    v[i].name = names[i];
    list[i] = &v[i];
  }
  return list;
}

/* Node n of g (decoded from np; scopes as onnxshape__resolve_refs gave them, or NULL)
 * calls function fn: its body, loaded for this call. */
onnxshape_status onnxshape__load_body(onnxshape_model *m, model_graph *g, graph_node *n,
                                  const Onnx__NodeProto *np, const model_graph *const *scopes,
                                  const model_function *fn, onnxshape_diag *diag) {
  const Onnx__FunctionProto *f = fn->proto;
  for (const model_call *c = g->call; c != NULL; c = c->outer) {
    if (c->function == f) {
      return NFAIL(n, ONNXSHAPE_ERR_INVALID_MODEL,
                   "calls function '{}{}{}' inside its own body (a function cannot call itself)",
                   ONNXSHAPE__ARGS(FN_ARGS(f)));
    }
  }
  if (g->depth + 1 > MAX_SUBGRAPH_DEPTH) {
    return NFAIL(n, ONNXSHAPE_ERR_INVALID_MODEL, "function calls and subgraphs nest more than {} deep",
                 ONNXSHAPE__ARGS(ARG_UINT(MAX_SUBGRAPH_DEPTH)));
  }
  if (np->n_input > f->n_input || np->n_output > f->n_output) {
    return NFAIL(n, ONNXSHAPE_ERR_INVALID_MODEL,
                 "calls function '{}{}{}' with {} input(s) and {} output(s); it has {} and {}",
                 ONNXSHAPE__ARGS(FN_ARGS(f), ARG_UINT(np->n_input),
                                 ARG_UINT(np->n_output), ARG_UINT(f->n_input), ARG_UINT(f->n_output)));
  }
  /* What a body may cost beyond what its load allocates (a subgraph in it
   * decoded again, names printed once per call) is in proportion to the
   * function's bytes: each call counts them as if it copied them. */
  if (!onnxshape__arena_charge(m->arena, fn->cost)) return out_of_memory(m, diag);
  model_graph *body = model_alloc(m, 1, sizeof *body);
  model_call *call = model_alloc(m, 1, sizeof *call);
  Onnx__GraphProto *gp = model_alloc(m, 1, sizeof *gp);
  size_t need = strlen(fn_domain(f)) + strlen(f->name) + 2;
  char *what = model_alloc(m, need, 1);
  const model_graph **attr_scopes = model_alloc(m, np->n_attribute + 1, sizeof *attr_scopes);
  if (body == NULL || call == NULL || gp == NULL || what == NULL || attr_scopes == NULL) {
    return out_of_memory(m, diag);
  }
  (void)snprintf(what, need, "%s%s%s", fn_domain(f), fn_domain(f)[0] != '\0' ? ":" : "", f->name);
  for (size_t k = 0; k < np->n_attribute; k++) {
    attr_scopes[k] = scopes != NULL && scopes[k] != NULL ? scopes[k] : g;
  }
  Onnx__GraphProto init = ONNX__GRAPH_PROTO__INIT;
  *gp = init;
  gp->n_node = f->n_node;
  gp->node = f->node;
  gp->n_input = f->n_input;
  gp->input = named_values(m, f->input, f->n_input);
  gp->n_output = f->n_output;
  gp->output = named_values(m, f->output, f->n_output);
  gp->n_value_info = f->n_value_info;
  gp->value_info = f->value_info;
  body->path = onnxshape__graph_path(m, g, n, what, 0, 0);
  if (gp->input == NULL || gp->output == NULL || body->path == NULL) {
    return out_of_memory(m, diag);
  }
  if (fn->opset_fault != FN_OPSET_OK) return opset_fault(n, fn, diag);
  body->opset = fn->opset;
  *call = (model_call){.function = f, .node = np, .outer = g->call, .scopes = attr_scopes};
  if (!index_call_attrs(m, call)) return out_of_memory(m, diag);
  body->call = call;
  n->body = body;
  return onnxshape__load_held(m, g, NULL, n, body, gp, diag);
}
