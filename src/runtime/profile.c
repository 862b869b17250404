/* SPDX-License-Identifier: Apache-2.0 */
/* The SONNX profile check: attribute defaults, sparse tensors, and nodes that
 * static inference shows cannot succeed (docs/spec/, "Restrictions"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/internal.h"
#include "../onnx/alloc.h"
#include "../onnx/arena.h"
#include "../onnx/pbfast.h"
#include "../onnx/wire.h"
#include "onnx_subset.pb-c.h"
#include "runtime.h"

/* Every rule of `check`: its stable id (never renamed), the public rule it
 * refines, its severity (onnxshape_check_rule, docs/cli.md "Rules"). */
typedef struct rule_row {
  const char *id;
  onnxshape_profile_rule rule;
  int severity;
} rule_row;

#define ERROR_ ONNXSHAPE_SEVERITY_ERROR
#define WARNING_ ONNXSHAPE_SEVERITY_WARNING
static const rule_row rule_rows[CHECK_RULES] = {
    [CHECK_DOMAIN] = {"domain", ONNXSHAPE_PROFILE_DOMAIN, ERROR_},
    [CHECK_CONFLICT] = {"conflict", ONNXSHAPE_PROFILE_CONFLICT, ERROR_},
    [CHECK_ORDER] = {"validity/order", ONNXSHAPE_PROFILE_ORDER, ERROR_},
    [CHECK_UNKNOWN_OP] = {"validity/unknown-op", ONNXSHAPE_PROFILE_UNKNOWN_OP, ERROR_},
    [CHECK_OPSET] = {"validity/opset", ONNXSHAPE_PROFILE_OPSET, ERROR_},
    [CHECK_D1] = {"portability/D1", ONNXSHAPE_PROFILE_PORTABILITY, WARNING_},
    [CHECK_D6] = {"portability/D6", ONNXSHAPE_PROFILE_PORTABILITY, WARNING_},
    [CHECK_D7] = {"portability/D7", ONNXSHAPE_PROFILE_PORTABILITY, WARNING_},
    [CHECK_D11] = {"portability/D11", ONNXSHAPE_PROFILE_PORTABILITY, WARNING_},
    [CHECK_INCOMPLETE] = {"incomplete", ONNXSHAPE_PROFILE_INCOMPLETE, WARNING_},
    /* only under the profile, where conformance was asked for */
    [CHECK_SONNX_DEFAULT] = {"sonnx/default", ONNXSHAPE_PROFILE_DEFAULT, ERROR_},
    [CHECK_SONNX_SPARSE] = {"sonnx/sparse", ONNXSHAPE_PROFILE_SPARSE, ERROR_},
    [CHECK_DEPRECATED] = {"validity/deprecated", ONNXSHAPE_PROFILE_DEPRECATED, ERROR_},
};
#undef ERROR_
#undef WARNING_

const char *onnxshape_check_rule(size_t i, int *severity) {
  if (i >= CHECK_RULES) return NULL;
  if (severity != NULL) *severity = rule_rows[i].severity;
  return rule_rows[i].id;
}

struct onnxshape_profile_report {
  size_t n, cap;
  onnxshape_finding *items; /* in arena; room for cap */
  onnxshape__arena *arena;  /* the findings, made at the first one; while the check runs, within
                               the model's arena, so they count against its limit (LIMIT-MEMORY) */
  onnxshape__arena *within; /* the arena to count against when the first finding comes */
  int failed;               /* an allocation failed while adding */
};

/* Where a finding is: its graph's path, and its node (NULL: none), as the
 * model spells them. */
typedef struct finding_at {
  const char *graph;
  const char *node;
  const char *domain; /* the node's, "" for the default domain */
  const char *op;
  int version;
  size_t index; /* the node's place in its graph */
} finding_at;

/* s in the report's arena; NULL for a NULL s, or when memory fails
 * (r->failed set). */
static const char *copy_text(onnxshape_profile_report *r, const char *s) {
  if (s == NULL) return NULL;
  size_t len = strlen(s);
  char *copy = onnxshape__arena_alloc(r->arena, len + 1);
  if (copy == NULL) {
    r->failed = 1;
    return NULL;
  }
  memcpy(copy, s, len + 1);
  return copy;
}

static void add(onnxshape_profile_report *r, check_rule rule, const finding_at *at,
                const char *message) {
  if (r->failed) return;
  if (r->arena == NULL) {
    r->arena = r->within != NULL ? onnxshape__arena_new_within(r->within, SIZE_MAX) : NULL;
    if (r->arena == NULL) {
      r->failed = 1;
      return;
    }
  }
  if (r->n == r->cap) {
    size_t cap = r->cap ? 2 * r->cap : 16;
    /* the old array stays in the arena: twice the final size at most */
    onnxshape_finding *items = cap <= SIZE_MAX / 4 / sizeof *items
                                   ? onnxshape__arena_alloc(r->arena, cap * sizeof *items)
                                   : NULL;
    if (items == NULL) {
      r->failed = 1;
      return;
    }
    if (r->n > 0) memcpy(items, r->items, r->n * sizeof *items);
    r->items = items;
    r->cap = cap;
  }
  /* Copies: the model (whose names these are) is freed before the report.
   * The message is formatted, so already escaped. */
  int node = at->node != NULL;
  onnxshape_finding f = {sizeof f,
                         rule_rows[rule].rule,
                         rule_rows[rule].id,
                         rule_rows[rule].severity,
                         copy_text(r, at->graph != NULL ? at->graph : ""),
                         copy_text(r, at->node),
                         node ? copy_text(r, at->op != NULL ? at->op : "") : NULL,
                         node ? at->version : 0,
                         copy_text(r, message),
                         node ? copy_text(r, at->domain != NULL ? at->domain : "") : NULL,
                         node ? at->index : 0};
  if (r->failed) return;
  r->items[r->n++] = f;
}

/* A finding about node n (NULL: none) of the graph at path. */
static void add_at(onnxshape_profile_report *r, check_rule rule, const char *path,
                   const graph_node *n, const char *message) {
  finding_at at = {path, NULL, NULL, NULL, 0, 0};
  if (n != NULL) at = (finding_at){path, n->name, n->domain, n->op_type, n->version, n->index};
  add(r, rule, &at, message);
}

/* ---- sparse tensors ---------------------------------------------------- */

/* Walks a decoded ModelProto, its main graph, every subgraph of every node
 * (GRAPH and GRAPHS attributes, decoded here) and every model-local
 * function's body, for each use of a sparse tensor the SONNX profile
 * forbids: sparse initializers, SPARSE_TENSOR(S) attributes and
 * TYPE_PROTO(S) attributes whose type is or holds one (a function's
 * defaults too), and inputs, outputs and value_info whose type is, or holds,
 * a sparse tensor. */
typedef struct sparse_scan {
  onnxshape_profile_report *r;
  onnxshape__arena *arena; /* where subgraphs and functions decode: within the model's, borrowing
                              bytes fields from the level above */
  onnxshape_diag *diag;
  onnxshape_status st; /* a subgraph or function that does not decode stops the walk */
} sparse_scan;

/* "in PATH: <what>; the SONNX profile forbids sparse tensors" (no "in"
 * for the main graph, path ""). */
static void report_sparse(sparse_scan *sc, const finding_at *at, const char *what) {
  char msg[ONNXSHAPE_DIAG_SIZE];
  (void)onnxshape__format(msg, sizeof msg, "{}; the SONNX profile forbids sparse tensors",
                          ONNXSHAPE__ARGS(ARG_TEXT(what)));
  onnxshape__in_graph(msg, sizeof msg, at->graph, NULL, msg);
  add(sc->r, CHECK_SONNX_SPARSE, at, msg);
}

/* A sparse finding about no node of the graph at path. */
static void report_sparse_in(sparse_scan *sc, const char *path, const char *what) {
  finding_at at = {path, NULL, NULL, NULL, 0, 0};
  report_sparse(sc, &at, what);
}

/* The name of a SparseTensorProto: that of its `values` TensorProto (field
 * 1, whose name is field 8), read with the wire reader; "" when it has
 * none. */
static void sparse_name(const ProtobufCBinaryData *b, char *name, size_t cap) {
  name[0] = '\0';
  if (b->len == 0) return; /* empty bytes have no buffer (data is NULL) */
  const uint8_t *p = b->data, *end = b->data + b->len;
  wire_field f, g;
  while (p < end && wire_field_read(&p, end, &f)) {
    if (f.number != 1 || f.wire != WIRE_LEN) continue;
    const uint8_t *q = f.at, *stop = f.at + f.v;
    while (q < stop && wire_field_read(&q, stop, &g)) {
      if (g.number != 8 || g.wire != WIRE_LEN) continue;
      size_t n = g.v < cap - 1 ? (size_t)g.v : cap - 1;
      memcpy(name, g.at, n);
      name[n] = '\0';
    }
    return;
  }
}

/* The last LEN field `number` of the message in [p, end) (a nested type's
 * bytes), or 0. */
static int len_field(const uint8_t *p, const uint8_t *end, uint64_t number, wire_field *out) {
  wire_field f;
  int found = 0;
  while (p < end && wire_field_read(&p, end, &f)) {
    if (f.number == number && f.wire == WIRE_LEN) {
      *out = f;
      found = 1;
    }
  }
  return found;
}

/* 1 when the container type in [p, end) (a Sequence or Optional, whose
 * element type is field 1, or a Map, whose value type is field 2: `inner`)
 * holds a sparse tensor, nested to any depth: followed in a loop, a level at
 * a time, in time linear in the bytes; else 0. */
static int container_holds_sparse(const uint8_t *p, const uint8_t *end, uint64_t inner) {
  wire_field f, t;
  while (len_field(p, end, inner, &f)) {
    /* f: a TypeProto: sparse_tensor_type (8), or another level (4, 9, 5) */
    const uint8_t *q = f.at, *stop = f.at + f.v;
    if (len_field(q, stop, 8, &t)) return 1;
    if (len_field(q, stop, 4, &t) || len_field(q, stop, 9, &t)) {
      inner = 1;
    } else if (len_field(q, stop, 5, &t)) {
      inner = 2;
    } else {
      return 0;
    }
    p = t.at;
    end = t.at + t.v;
  }
  return 0;
}

/* 1 when the type is a sparse tensor, 2 when it holds one (a sequence,
 * optional or map of ...), else 0. */
static int holds_sparse(const Onnx__TypeProto *tp) {
  if (tp == NULL) return 0;
  if (tp->value_case == ONNX__TYPE_PROTO__VALUE_SPARSE_TENSOR_TYPE) return 1;
  const ProtobufCBinaryData *b = tp->value_case == ONNX__TYPE_PROTO__VALUE_SEQUENCE_TYPE
                                     ? &tp->sequence_type
                                 : tp->value_case == ONNX__TYPE_PROTO__VALUE_OPTIONAL_TYPE
                                     ? &tp->optional_type
                                 : tp->value_case == ONNX__TYPE_PROTO__VALUE_MAP_TYPE
                                     ? &tp->map_type
                                     : NULL;
  if (b == NULL || b->len == 0) return 0;
  uint64_t inner = tp->value_case == ONNX__TYPE_PROTO__VALUE_MAP_TYPE ? 2 : 1;
  return container_holds_sparse(b->data, b->data + b->len, inner) ? 2 : 0;
}

/* holds_sparse of a TypeProto held as bytes (a TYPE_PROTO(S) attribute's),
 * read with the wire reader: any member of its oneof that is, or holds, a
 * sparse tensor counts. */
static int type_bytes_sparse(const ProtobufCBinaryData *b) {
  if (b->len == 0) return 0;
  const uint8_t *p = b->data, *end = b->data + b->len;
  wire_field t;
  if (len_field(p, end, 8, &t)) return 1;
  if (len_field(p, end, 4, &t) && container_holds_sparse(t.at, t.at + t.v, 1)) return 2;
  if (len_field(p, end, 9, &t) && container_holds_sparse(t.at, t.at + t.v, 1)) return 2;
  if (len_field(p, end, 5, &t) && container_holds_sparse(t.at, t.at + t.v, 2)) return 2;
  return 0;
}

static void sparse_decls(sparse_scan *sc, const char *path, Onnx__ValueInfoProto **v, size_t n,
                         const char *what) {
  char msg[ONNXSHAPE_DIAG_SIZE];
  for (size_t i = 0; i < n; i++) {
    int how = holds_sparse(v[i]->type);
    if (how == 0) continue;
    (void)onnxshape__format(msg, sizeof msg, "{} '{}' {} a sparse tensor",
                            ONNXSHAPE__ARGS(ARG_STR(what),
                                            ARG_NAME(v[i]->name != NULL ? v[i]->name : ""),
                                            ARG_STR(how == 1 ? "is" : "holds")));
    report_sparse_in(sc, path, msg);
  }
}

/* What makes attribute ap a use of sparse tensors, as the end of "attribute
 * 'NAME' ...": a SPARSE_TENSOR(S) value, or a TYPE_PROTO(S) value that is
 * or holds a sparse tensor type; NULL for none. */
static const char *sparse_attribute(const Onnx__AttributeProto *ap) {
  if (ap->has_sparse_tensor || ap->n_sparse_tensors > 0 ||
      (ap->has_type && (ap->type == ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__SPARSE_TENSOR ||
                        ap->type == ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__SPARSE_TENSORS))) {
    return "is a sparse tensor";
  }
  int how = ap->has_tp ? type_bytes_sparse(&ap->tp) : 0;
  if (how == 1) return "is the type of a sparse tensor";
  if (how == 2) return "is a type that holds a sparse tensor";
  for (size_t k = 0; k < ap->n_type_protos; k++) {
    how = type_bytes_sparse(&ap->type_protos[k]);
    if (how == 1) return "lists the type of a sparse tensor";
    if (how == 2) return "lists a type that holds a sparse tensor";
  }
  return NULL;
}

/* PATH/PART/ATTR (PART the node's name, or OP#INDEX), "[k]" for the k-th of
 * a GRAPHS attribute, in the arena; NULL when out of memory. */
static const char *sub_path(sparse_scan *sc, const char *path, const Onnx__NodeProto *np, size_t i,
                            const char *attr, int many, size_t k) {
  char part[ONNXSHAPE_DIAG_SIZE];
  if (np->name != NULL && np->name[0] != '\0') {
    (void)onnxshape__format(part, sizeof part, "{}", ONNXSHAPE__ARGS(ARG_TEXT(np->name)));
  } else {
    (void)onnxshape__format(part, sizeof part, "{}#{}",
                            ONNXSHAPE__ARGS(ARG_TEXT(np->op_type != NULL ? np->op_type : ""),
                                            ARG_UINT(i)));
  }
  size_t need = strlen(path) + strlen(part) + strlen(attr) + 32;
  char *p = onnxshape__arena_alloc(sc->arena, need);
  if (p == NULL) return NULL;
  (void)snprintf(p, need, "%s%s%s/%s", path, path[0] != '\0' ? "/" : "", part, attr);
  if (many) (void)snprintf(p + strlen(p), need - strlen(p), "[%zu]", k);
  return p;
}

static void sparse_graph(sparse_scan *sc, const Onnx__GraphProto *g, const char *path,
                         size_t depth);

/* A subgraph held as bytes, decoded and walked. */
static void sparse_subgraph(sparse_scan *sc, const ProtobufCBinaryData *b, const char *path,
                            size_t depth) {
  ProtobufCMessage *msg;
  onnxshape_status st = onnxshape__pb_decode_in(&onnx__graph_proto__descriptor, b->data, b->len,
                                                sc->arena, &msg);
  if (st == ONNXSHAPE_OK) {
    sparse_graph(sc, (const Onnx__GraphProto *)msg, path, depth);
  } else if (st == ONNXSHAPE_ERR_MALFORMED) {
    sc->st = onnxshape__error(sc->diag, st, "in {}: not a valid GraphProto",
                              ONNXSHAPE__ARGS(ARG_NAME(path)));
  } else {
    sc->st = onnxshape__out_of_memory(sc->arena, "checking the model", sc->diag);
  }
}

/* The sparse attributes of node np (the i-th of its graph at path), then
 * the graphs it holds. */
static void sparse_node(sparse_scan *sc, const Onnx__NodeProto *np, size_t i, const char *path,
                        size_t depth) {
  char msg[ONNXSHAPE_DIAG_SIZE];
  const char *op = np->op_type != NULL ? np->op_type : "";
  for (size_t k = 0; k < np->n_attribute && sc->st == ONNXSHAPE_OK; k++) {
    const Onnx__AttributeProto *ap = np->attribute[k];
    const char *attr = ap->name != NULL ? ap->name : "";
    const char *use = sparse_attribute(ap);
    if (use != NULL) {
      if (np->name != NULL && np->name[0] != '\0') {
        (void)onnxshape__format(msg, sizeof msg, "node '{}' ({}): attribute '{}' {}",
                                ONNXSHAPE__ARGS(ARG_NAME(np->name), ARG_NAME(op), ARG_NAME(attr),
                                                ARG_STR(use)));
      } else {
        (void)onnxshape__format(msg, sizeof msg, "node #{} ({}): attribute '{}' {}",
                                ONNXSHAPE__ARGS(ARG_UINT(i), ARG_NAME(op), ARG_NAME(attr),
                                                ARG_STR(use)));
      }
      const char *domain = np->domain != NULL && strcmp(np->domain, "ai.onnx") != 0 ? np->domain
                                                                                    : "";
      finding_at at = {path, np->name != NULL ? np->name : "", domain, op, 0, i};
      report_sparse(sc, &at, msg);
    }
    /* deeper graphs than a model may hold fail its loading; not walked */
    if (depth + 1 > MAX_SUBGRAPH_DEPTH) continue;
    for (size_t g = 0; g < (ap->has_g ? 1u : 0u) + ap->n_graphs && sc->st == ONNXSHAPE_OK; g++) {
      int many = !ap->has_g || g > 0;
      size_t idx = ap->has_g ? g - (g > 0) : g;
      const char *sp = sub_path(sc, path, np, i, attr, many && !(ap->has_g && g == 0), idx);
      if (sp == NULL) {
        sc->st = onnxshape__out_of_memory(sc->arena, "checking the model", sc->diag);
        break;
      }
      sparse_subgraph(sc, ap->has_g && g == 0 ? &ap->g : &ap->graphs[idx], sp, depth + 1);
    }
  }
}

static void sparse_graph(sparse_scan *sc, const Onnx__GraphProto *g, const char *path,
                         size_t depth) {
  char msg[ONNXSHAPE_DIAG_SIZE], name[128];
  for (size_t i = 0; i < g->n_sparse_initializer; i++) {
    sparse_name(&g->sparse_initializer[i], name, sizeof name);
    if (name[0] != '\0') {
      (void)onnxshape__format(msg, sizeof msg, "sparse initializer '{}'",
                              ONNXSHAPE__ARGS(ARG_NAME(name)));
    } else {
      (void)onnxshape__format(msg, sizeof msg, "sparse initializer #{} (unnamed)",
                              ONNXSHAPE__ARGS(ARG_UINT(i)));
    }
    report_sparse_in(sc, path, msg);
  }
  for (size_t i = 0; i < g->n_node && sc->st == ONNXSHAPE_OK; i++) {
    sparse_node(sc, g->node[i], i, path, depth);
  }
  sparse_decls(sc, path, g->input, g->n_input, "graph input");
  sparse_decls(sc, path, g->output, g->n_output, "graph output");
  sparse_decls(sc, path, g->value_info, g->n_value_info, "value_info");
}

/* A function's body: its nodes (and their graphs), value_info and default
 * attributes. */
static void sparse_function(sparse_scan *sc, const Onnx__FunctionProto *f) {
  char path[ONNXSHAPE_DIAG_SIZE];
  const char *domain = f->domain != NULL ? f->domain : "";
  (void)onnxshape__format(path, sizeof path, "function {}{}{}",
                          ONNXSHAPE__ARGS(ARG_TEXT(domain), ARG_STR(domain[0] != '\0' ? ":" : ""),
                                          ARG_TEXT(f->name != NULL ? f->name : "")));
  char msg[ONNXSHAPE_DIAG_SIZE];
  for (size_t k = 0; k < f->n_attribute_proto; k++) {
    const char *use = sparse_attribute(f->attribute_proto[k]);
    if (use == NULL) continue;
    const char *attr = f->attribute_proto[k]->name;
    (void)onnxshape__format(msg, sizeof msg, "the default of attribute '{}' {}",
                            ONNXSHAPE__ARGS(ARG_NAME(attr != NULL ? attr : ""), ARG_STR(use)));
    report_sparse_in(sc, path, msg);
  }
  sparse_decls(sc, path, f->value_info, f->n_value_info, "value_info");
  for (size_t i = 0; i < f->n_node && sc->st == ONNXSHAPE_OK; i++) {
    sparse_node(sc, f->node[i], i, path, 1);
  }
}

/* Every sparse tensor in the decoded model (SPARSE findings); a subgraph
 * or function that does not decode is the check's error. */
static onnxshape_status sparse_uses(const void *proto, onnxshape_profile_report *r,
                                    onnxshape__arena *arena, onnxshape_diag *diag) {
  const Onnx__ModelProto *mp = proto;
  sparse_scan sc = {r, arena, diag, ONNXSHAPE_OK};
  if (mp->graph != NULL) sparse_graph(&sc, mp->graph, "", 0);
  for (size_t i = 0; i < mp->n_functions && sc.st == ONNXSHAPE_OK; i++) {
    ProtobufCMessage *msg;
    onnxshape_status st = onnxshape__pb_decode_in(&onnx__function_proto__descriptor,
                                                  mp->functions[i].data, mp->functions[i].len,
                                                  arena, &msg);
    if (st == ONNXSHAPE_ERR_MALFORMED) {
      sc.st = onnxshape__error(diag, st, "function {} is not a valid FunctionProto",
                               ONNXSHAPE__ARGS(ARG_UINT(i)));
    } else if (st != ONNXSHAPE_OK) {
      sc.st = onnxshape__out_of_memory(arena, "checking the model", diag);
    } else {
      sparse_function(&sc, (const Onnx__FunctionProto *)msg);
    }
  }
  return sc.st;
}

/* A finding of the analysis; a DOMAIN one says it needs no data (the
 * finding's middle gives way when the message is full, never its end). */
static void add_reported(void *ctx, check_rule rule, const char *path, const graph_node *n,
                         const char *message) {
  char msg[ONNXSHAPE_DIAG_SIZE];
  onnxshape__fit_message(msg, sizeof msg, "", message,
                         rule == CHECK_DOMAIN ? " (known without input data)" : "");
  add_at(ctx, rule, path, n, msg);
}

/* Node n of graph g leaves `attr` at its default: a finding named by the
 * graph's path too (each call of a function has its own body, whose
 * references may set the attribute or not). */
static void add_default(onnxshape_profile_report *r, const model_graph *g, const graph_node *n,
                        const char *attr, const char *value) {
  onnxshape_diag d = {n->label, {0}};
  (void)onnxshape__fail(&d, ONNXSHAPE_ERR_INVALID_ATTRIBUTE, onnxshape_op_name(node_kernel(n->op)),
                        n->version,
                        "attribute '{}' is not set; the SONNX profile forbids relying on its "
                        "default ({})",
                        ONNXSHAPE__ARGS(ARG_STR(attr), ARG_STR(value)));
  onnxshape__in_graph(d.message, sizeof d.message, g->path, NULL, d.message);
  add_at(r, CHECK_SONNX_DEFAULT, g->path, n, d.message);
}

static void check_defaults(onnxshape_profile_report *r, const onnxshape_model *m) {
  for (size_t k = 0; k < m->n_graphs; k++) {
    const model_graph *g = m->graphs[k];
    for (size_t i = 0; i < g->n_nodes; i++) {
      const graph_node *n = &g->nodes[i];
      if (n->op == OP_SHAPE && n->version >= 15) {
        if (!n->shape_attrs.has_start) add_default(r, g, n, "start", "0");
        if (!n->shape_attrs.has_end) add_default(r, g, n, "end", "the input's rank");
      } else if (n->op == OP_RESHAPE && n->version >= 14 && !n->reshape_attrs.has_allowzero) {
        add_default(r, g, n, "allowzero", "0");
      }
    }
  }
}

/* The check of a model decoded once (its arena taken, released on failure):
 * its sparse tensors, else the loaded model's defaults and domains. */
static onnxshape_status check_decoded(const void *proto, onnxshape__arena *arena,
                                      onnxshape__extdir *ext, size_t len, onnxshape__map *source,
                                      onnxshape_check_profile profile,
                                      onnxshape_profile_report **out, onnxshape_diag *diag) {
  onnxshape_profile_report *r = onnxshape__calloc(1, sizeof *r);
  if (r == NULL) {
    onnxshape__arena_release(arena);
    return onnxshape__out_of_memory(NULL, NULL, diag);
  }
  /* Findings, the sparse scan's subgraphs and the analysis all count
   * against the model's limit (LIMIT-MEMORY). */
  r->within = arena;
  onnxshape_status st = ONNXSHAPE_OK;
  if (profile == ONNXSHAPE_CHECK_SONNX) {
    onnxshape__arena *scan = onnxshape__arena_new_within(arena, SIZE_MAX);
    /* Each subgraph decodes from the bytes of the level above. Borrowed,
     * a level costs its own structure, not a copy of every level below it
     * (depth times the size): the bytes are the model's (its arena, or the
     * mapping, unmapped only after the check), and this arena is released
     * first; findings hold copies of what they show. */
    if (scan != NULL) scan->borrow = 1;
    st = scan != NULL ? sparse_uses(proto, r, scan, diag)
                      : onnxshape__out_of_memory(arena, "checking the model", diag);
    onnxshape__arena_release(scan);
  }
  /* A model with sparse tensors cannot be loaded; its findings stop there
   * (their names were read from the mapping, when there is one). */
  if (st != ONNXSHAPE_OK || r->n > 0) {
    if (st == ONNXSHAPE_OK && source != NULL) st = onnxshape__map_check(source, diag);
    onnxshape__arena_detach(r->arena);
    onnxshape__arena_release(arena);
  } else {
    onnxshape_model *model = NULL;
    r->within = NULL; /* loading may release the arena; no finding comes meanwhile */
    st = onnxshape__model_load(proto, arena, ext, len, source, &model, diag);
    if (st == ONNXSHAPE_OK) {
      r->within = model->arena;
      if (profile == ONNXSHAPE_CHECK_SONNX) check_defaults(r, model);
      st = onnxshape__model_infer_all(model, add_reported, r, model->arena, diag);
    }
    /* Findings (or a failure) from a file that changed while it was read
     * are not its: the change is the error. */
    onnxshape_diag files;
    onnxshape_diag_init(&files);
    if (model != NULL && onnxshape_model_check_files(model, &files) != ONNXSHAPE_OK) {
      st = ONNXSHAPE_ERR_IO;
      memcpy(diag->message, files.message, sizeof files.message);
    }
    onnxshape__arena_detach(r->arena);
    r->within = NULL;
    onnxshape_model_free(model);
  }
  if (st == ONNXSHAPE_OK && r->failed) {
    /* The findings' arena is detached by now (its own limit became what it
     * took): the limit it met is the model's, worded from the input. */
    st = onnxshape__out_of_memory_at(r->arena != NULL && r->arena->over_limit,
                                     onnxshape__memory_limit(len), "the check's findings", diag);
  }
  if (st != ONNXSHAPE_OK) {
    onnxshape_profile_free(r);
    return st;
  }
  onnxshape__diag_clear(diag);
  *out = r;
  return ONNXSHAPE_OK;
}

/* The check of @p len bytes in memory, its arguments valid. */
static onnxshape_status check_bytes(const void *bytes, size_t len, const char *base_dir,
                                    onnxshape_check_profile profile,
                                    onnxshape_profile_report **out, onnxshape_diag *diag) {
  onnxshape_diag local;
  if (diag == NULL) {
    onnxshape_diag_init(&local);
    diag = &local;
  }
  onnxshape__arena *arena;
  const void *proto;
  onnxshape_status st = onnxshape__model_decode(bytes, len, NULL, 0, &arena, &proto, diag);
  if (st != ONNXSHAPE_OK) return st;
  onnxshape__extdir ext = {base_dir, -1, NULL, 0, 0};
  st = check_decoded(proto, arena, &ext, len, NULL, profile, out, diag);
  onnxshape__extdir_close(&ext);
  return st;
}

onnxshape_status onnxshape_model_check(const void *bytes, size_t len, const char *base_dir,
                                       onnxshape_check_profile profile,
                                       onnxshape_profile_report **out, onnxshape_diag *diag) {
  if (out == NULL || (bytes == NULL && len > 0)) {
    return onnxshape__fail(diag, ONNXSHAPE_ERR_INVALID_ARGUMENT, NULL, 0,
                           "model_check: NULL argument", ONNXSHAPE__NO_ARGS);
  }
  if (profile != ONNXSHAPE_CHECK_CORE && profile != ONNXSHAPE_CHECK_SONNX) {
    return onnxshape__fail(diag, ONNXSHAPE_ERR_INVALID_ARGUMENT, NULL, 0,
                           "model_check: unknown profile {}",
                           ONNXSHAPE__ARGS(ARG_INT((int)profile)));
  }
  return check_bytes(bytes, len, base_dir, profile, out, diag);
}

onnxshape_status onnxshape_profile_check_sonnx(const void *bytes, size_t len,
                                               const char *base_dir,
                                               onnxshape_profile_report **out,
                                               onnxshape_diag *diag) {
  if (out == NULL || (bytes == NULL && len > 0)) {
    return onnxshape__fail(diag, ONNXSHAPE_ERR_INVALID_ARGUMENT, NULL, 0,
                           "profile_check_sonnx: NULL argument", ONNXSHAPE__NO_ARGS);
  }
  return check_bytes(bytes, len, base_dir, ONNXSHAPE_CHECK_SONNX, out, diag);
}

typedef struct check_request {
  onnxshape_check_profile profile;
  onnxshape_profile_report **out;
} check_request;

static onnxshape_status check_decoded_file(const void *proto, onnxshape__arena *arena,
                                           onnxshape__extdir *ext, size_t len,
                                           onnxshape__map *source, void *ctx,
                                           onnxshape_diag *diag) {
  const check_request *req = ctx;
  return check_decoded(proto, arena, ext, len, source, req->profile, req->out, diag);
}

onnxshape_status onnxshape_model_check_file(const char *path, onnxshape_check_profile profile,
                                            onnxshape_profile_report **out,
                                            onnxshape_diag *diag) {
  if (path == NULL || out == NULL) {
    return onnxshape__fail(diag, ONNXSHAPE_ERR_INVALID_ARGUMENT, NULL, 0,
                           "model_check_file: NULL argument", ONNXSHAPE__NO_ARGS);
  }
  if (profile != ONNXSHAPE_CHECK_CORE && profile != ONNXSHAPE_CHECK_SONNX) {
    return onnxshape__fail(diag, ONNXSHAPE_ERR_INVALID_ARGUMENT, NULL, 0,
                           "model_check_file: unknown profile {}",
                           ONNXSHAPE__ARGS(ARG_INT((int)profile)));
  }
  check_request req = {profile, out};
  return onnxshape__model_file_decoded(path, check_decoded_file, &req, diag);
}

onnxshape_status onnxshape_profile_check_sonnx_file(const char *path,
                                                    onnxshape_profile_report **out,
                                                    onnxshape_diag *diag) {
  return onnxshape_model_check_file(path, ONNXSHAPE_CHECK_SONNX, out, diag);
}

size_t onnxshape_profile_count(const onnxshape_profile_report *r) { return r ? r->n : 0; }

onnxshape_profile_rule onnxshape_profile_rule_of(const onnxshape_profile_report *r, size_t i) {
  return r && i < r->n ? r->items[i].rule : (onnxshape_profile_rule)0;
}

const char *onnxshape_profile_message(const onnxshape_profile_report *r, size_t i) {
  return r && i < r->n ? r->items[i].message : NULL;
}

const onnxshape_finding *onnxshape_profile_finding(const onnxshape_profile_report *r, size_t i) {
  return r && i < r->n ? &r->items[i] : NULL;
}

void onnxshape_profile_free(onnxshape_profile_report *r) {
  if (r == NULL) return;
  onnxshape__arena_release(r->arena);
  onnxshape__free(r);
}
