/* SPDX-License-Identifier: Apache-2.0 */
/* The SONNX profile check: attribute defaults, sparse tensors, and nodes that
 * static inference shows cannot succeed (docs/spec/, "Restrictions"). */
#include <stdlib.h>
#include <string.h>

#include "../core/internal.h"
#include "../onnx/alloc.h"
#include "../onnx/arena.h"
#include "onnx_subset.pb-c.h"
#include "../onnx/wire.h"
#include "runtime.h"

typedef struct finding {
  onnxshape_profile_rule rule;
  char message[ONNXSHAPE_DIAG_SIZE];
} finding;

struct onnxshape_profile_report {
  size_t n, cap;
  finding *items;
  int failed; /* an allocation failed while adding */
};

static void add(onnxshape_profile_report *r, onnxshape_profile_rule rule, const char *message) {
  if (r->failed) return;
  if (r->n == r->cap) {
    size_t cap = r->cap ? 2 * r->cap : 8;
    finding *items = cap <= SIZE_MAX / sizeof *items
                         ? onnxshape__realloc(r->items, cap * sizeof *items)
                         : NULL;
    if (items == NULL) {
      r->failed = 1;
      return;
    }
    r->items = items;
    r->cap = cap;
  }
  /* The message (formatted, so already escaped) and what follows it. */
  r->items[r->n].rule = rule;
  (void)onnxshape__format(r->items[r->n].message, sizeof r->items[r->n].message, "{}",
                          ONNXSHAPE__ARGS(ARG_TEXT(message)));
  r->n++;
}

/* ---- sparse tensors ---------------------------------------------------- */

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

static void sparse_decls(Onnx__ValueInfoProto **v, size_t n, const char *what,
                         void (*report)(void *, const char *), void *ctx) {
  char msg[ONNXSHAPE_DIAG_SIZE];
  for (size_t i = 0; i < n; i++) {
    if (v[i]->type != NULL && v[i]->type->value_case == ONNX__TYPE_PROTO__VALUE_SPARSE_TENSOR_TYPE) {
      onnxshape__format(msg, sizeof msg, "graph {} '{}' is a sparse tensor",
                        ONNXSHAPE__ARGS(ARG_STR(what), ARG_NAME(v[i]->name != NULL ? v[i]->name : "")));
      report(ctx, msg);
    }
  }
}

static int sparse_attribute(const Onnx__AttributeProto *ap) {
  return ap->has_sparse_tensor || ap->n_sparse_tensors > 0 ||
         (ap->has_type && (ap->type == ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__SPARSE_TENSOR ||
                           ap->type == ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__SPARSE_TENSORS));
}

/* Calls report(ctx, what) for each use of a sparse tensor in the decoded
 * ModelProto proto (sparse initializers, sparse attributes, graph inputs,
 * outputs and value_info of a sparse type), `what` naming the place. */
static void sparse_uses(const void *proto, void (*report)(void *ctx, const char *what),
                            void *ctx) {
  const Onnx__GraphProto *g = ((const Onnx__ModelProto *)proto)->graph;
  if (g == NULL) return;
  char msg[ONNXSHAPE_DIAG_SIZE], name[128];
  for (size_t i = 0; i < g->n_sparse_initializer; i++) {
    sparse_name(&g->sparse_initializer[i], name, sizeof name);
    if (name[0] != '\0') {
      onnxshape__format(msg, sizeof msg, "sparse initializer '{}'", ONNXSHAPE__ARGS(ARG_NAME(name)));
    } else {
      onnxshape__format(msg, sizeof msg, "sparse initializer #{} (unnamed)",
                        ONNXSHAPE__ARGS(ARG_UINT(i)));
    }
    report(ctx, msg);
  }
  for (size_t i = 0; i < g->n_node; i++) {
    const Onnx__NodeProto *np = g->node[i];
    for (size_t k = 0; k < np->n_attribute; k++) {
      const Onnx__AttributeProto *ap = np->attribute[k];
      if (!sparse_attribute(ap)) continue;
      const char *op = np->op_type != NULL ? np->op_type : "";
      const char *attr = ap->name != NULL ? ap->name : "";
      if (np->name != NULL && np->name[0] != '\0') {
        onnxshape__format(msg, sizeof msg, "node '{}' ({}): attribute '{}' is a sparse tensor",
                          ONNXSHAPE__ARGS(ARG_NAME(np->name), ARG_NAME(op), ARG_NAME(attr)));
      } else {
        onnxshape__format(msg, sizeof msg, "node #{} ({}): attribute '{}' is a sparse tensor",
                          ONNXSHAPE__ARGS(ARG_UINT(i), ARG_NAME(op), ARG_NAME(attr)));
      }
      report(ctx, msg);
    }
  }
  sparse_decls(g->input, g->n_input, "input", report, ctx);
  sparse_decls(g->output, g->n_output, "output", report, ctx);
  sparse_decls(g->value_info, g->n_value_info, "value_info", report, ctx);
}

static void add_sparse(void *ctx, const char *what) {
  char msg[ONNXSHAPE_DIAG_SIZE];
  (void)onnxshape__format(msg, sizeof msg, "{}; the SONNX profile forbids sparse tensors",
                          ONNXSHAPE__ARGS(ARG_TEXT(what)));
  add(ctx, ONNXSHAPE_PROFILE_SPARSE, msg);
}

static void add_domain(void *ctx, int rule, const char *message) {
  char msg[ONNXSHAPE_DIAG_SIZE];
  if (rule == ONNXSHAPE_PROFILE_DOMAIN) {
    (void)onnxshape__format(msg, sizeof msg, "{} (known without input data)",
                            ONNXSHAPE__ARGS(ARG_TEXT(message)));
  } else {
    (void)onnxshape__format(msg, sizeof msg, "{}", ONNXSHAPE__ARGS(ARG_TEXT(message)));
  }
  add(ctx, (onnxshape_profile_rule)rule, msg);
}

/* Node n of graph g leaves `attr` at its default: a finding named by the
 * graph's path too (each call of a function has its own body, whose
 * references may set the attribute or not). */
static void add_default(onnxshape_profile_report *r, const model_graph *g, const graph_node *n,
                        const char *attr, const char *value) {
  onnxshape_diag d = {n->label, {0}};
  (void)onnxshape__fail(&d, ONNXSHAPE_ERR_INVALID_ATTRIBUTE, onnxshape_op_name((onnxshape_op)n->kind),
                        n->version,
                        "attribute '{}' is not set; the SONNX profile forbids relying on its "
                        "default ({})",
                        ONNXSHAPE__ARGS(ARG_STR(attr), ARG_STR(value)));
  onnxshape__in_graph(d.message, sizeof d.message, g->path, NULL, d.message);
  add(r, ONNXSHAPE_PROFILE_DEFAULT, d.message);
}

static void check_defaults(onnxshape_profile_report *r, const onnxshape_model *m) {
  for (size_t k = 0; k < m->n_graphs; k++) {
    const model_graph *g = m->graphs[k];
    for (size_t i = 0; i < g->n_nodes; i++) {
      const graph_node *n = &g->nodes[i];
      if (n->kind == NODE_SHAPE && n->version >= 15) {
        if (!n->shape_attrs.has_start) add_default(r, g, n, "start", "0");
        if (!n->shape_attrs.has_end) add_default(r, g, n, "end", "the input's rank");
      } else if (n->kind == NODE_RESHAPE && n->version >= 14 && !n->reshape_attrs.has_allowzero) {
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
  int sonnx = profile == ONNXSHAPE_CHECK_SONNX;
  if (sonnx) sparse_uses(proto, add_sparse, r);
  onnxshape_status st = ONNXSHAPE_OK;
  /* A model with sparse tensors cannot be loaded; its findings stop there
   * (their names were read from the mapping, when there is one). */
  if (r->n > 0) {
    if (source != NULL) st = onnxshape__map_check(source, diag);
    onnxshape__arena_release(arena);
  } else {
    onnxshape_model *model = NULL;
    st = onnxshape__model_load(proto, arena, ext, len, source, &model, diag);
    if (st == ONNXSHAPE_OK) {
      if (sonnx) check_defaults(r, model);
      st = onnxshape__model_infer_all(model, add_domain, r, diag);
    }
    /* Findings (or a failure) from a file that changed while it was read
     * are not its: the change is the error. */
    onnxshape_diag files;
    onnxshape_diag_init(&files);
    if (model != NULL && onnxshape_model_check_files(model, &files) != ONNXSHAPE_OK) {
      st = ONNXSHAPE_ERR_IO;
      memcpy(diag->message, files.message, sizeof files.message);
    }
    onnxshape_model_free(model);
  }
  if (st == ONNXSHAPE_OK && r->failed) {
    st = onnxshape__out_of_memory(NULL, NULL, diag);
  }
  if (st != ONNXSHAPE_OK) {
    onnxshape_profile_free(r);
    return st;
  }
  onnxshape__diag_clear(diag);
  *out = r;
  return ONNXSHAPE_OK;
}

onnxshape_status onnxshape_profile_check_sonnx(const void *bytes, size_t len,
                                               const char *base_dir,
                                               onnxshape_profile_report **out,
                                               onnxshape_diag *diag) {
  if (out == NULL || (bytes == NULL && len > 0)) {
    return onnxshape__fail(diag, ONNXSHAPE_ERR_INVALID_ARGUMENT, NULL, 0,
                           "profile_check_sonnx: NULL argument", ONNXSHAPE__NO_ARGS);
  }
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
  st = check_decoded(proto, arena, &ext, len, NULL, ONNXSHAPE_CHECK_SONNX, out, diag);
  onnxshape__extdir_close(&ext);
  return st;
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
                           "model_check_file: unknown profile {}", ONNXSHAPE__ARGS(ARG_INT(profile)));
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

void onnxshape_profile_free(onnxshape_profile_report *r) {
  if (r == NULL) return;
  onnxshape__free(r->items);
  onnxshape__free(r);
}
