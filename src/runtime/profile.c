/* SPDX-License-Identifier: Apache-2.0 */
/* The SONNX profile check: attribute defaults, sparse tensors, and nodes that
 * static inference shows cannot succeed (docs/spec/, "Restrictions"). */
#include <stdlib.h>
#include <string.h>

#include "../core/internal.h"
#include "../onnx/alloc.h"
#include "../onnx/arena.h"
#include "../onnx/model.h"

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
  if (sonnx) onnxshape__sparse_uses(proto, add_sparse, r);
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
