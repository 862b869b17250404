/* SPDX-License-Identifier: Apache-2.0 */
/* The SONNX profile check: attribute defaults, sparse tensors, and nodes that
 * static inference shows cannot succeed (docs/spec/, "Restrictions"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/internal.h"
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
    finding *items = realloc(r->items, cap * sizeof *items);
    if (items == NULL) {
      r->failed = 1;
      return;
    }
    r->items = items;
    r->cap = cap;
  }
  r->items[r->n].rule = rule;
  snprintf(r->items[r->n].message, sizeof r->items[r->n].message, "%s", message);
  r->n++;
}

static void add_sparse(void *ctx, const char *what) {
  char msg[ONNXSHAPE_DIAG_SIZE];
  snprintf(msg, sizeof msg, "%s; the SONNX profile forbids sparse tensors", what);
  add(ctx, ONNXSHAPE_PROFILE_SPARSE, msg);
}

static void add_domain(void *ctx, const char *message) {
  char msg[ONNXSHAPE_DIAG_SIZE];
  snprintf(msg, sizeof msg, "%s (known without input data)", message);
  add(ctx, ONNXSHAPE_PROFILE_DOMAIN, msg);
}

static void add_default(onnxshape_profile_report *r, const os_node *n, const char *attr,
                        const char *value) {
  char msg[ONNXSHAPE_DIAG_SIZE];
  snprintf(msg, sizeof msg,
           "%s-%d (node '%s'): attribute '%s' is not set; the SONNX profile forbids relying "
           "on its default (%s)",
           onnxshape_op_name((onnxshape_op)n->kind), n->version, n->label, attr, value);
  add(r, ONNXSHAPE_PROFILE_DEFAULT, msg);
}

static void check_defaults(onnxshape_profile_report *r, const onnxshape_model *m) {
  for (size_t i = 0; i < m->n_nodes; i++) {
    const os_node *n = &m->nodes[i];
    if (n->kind == OS_KIND_SHAPE && n->version >= 15) {
      if (!n->shape_attrs.has_start) add_default(r, n, "start", "0");
      if (!n->shape_attrs.has_end) add_default(r, n, "end", "the input's rank");
    } else if (n->kind == OS_KIND_RESHAPE && n->version >= 14 && !n->reshape_attrs.has_allowzero) {
      add_default(r, n, "allowzero", "0");
    }
  }
}

onnxshape_status onnxshape_profile_check_sonnx(const void *bytes, size_t len,
                                               const char *base_dir,
                                               onnxshape_profile_report **out,
                                               onnxshape_diag *diag) {
  if (out == NULL || (bytes == NULL && len > 0)) {
    return onnxshape__fail(diag, ONNXSHAPE_ERR_INVALID_ARGUMENT, NULL, 0,
                           "profile_check_sonnx: NULL argument");
  }
  onnxshape_profile_report *r = calloc(1, sizeof *r);
  if (r == NULL) return onnxshape__fail(diag, ONNXSHAPE_ERR_OUT_OF_MEMORY, NULL, 0, "out of memory");
  onnxshape_status st = onnxshape__sparse_uses(bytes, len, add_sparse, r, diag);
  onnxshape_model *model = NULL;
  /* A model with sparse tensors cannot be loaded; its findings stop there. */
  if (st == ONNXSHAPE_OK && r->n == 0) {
    st = onnxshape_model_parse(bytes, len, base_dir, &model, diag);
    if (st == ONNXSHAPE_OK) {
      check_defaults(r, model);
      st = onnxshape__model_infer_all(model, add_domain, r, diag);
    }
  }
  onnxshape_model_free(model);
  if (st == ONNXSHAPE_OK && r->failed) {
    st = onnxshape__fail(diag, ONNXSHAPE_ERR_OUT_OF_MEMORY, NULL, 0, "out of memory");
  }
  if (st != ONNXSHAPE_OK) {
    onnxshape_profile_free(r);
    return st;
  }
  onnxshape__diag_clear(diag);
  *out = r;
  return ONNXSHAPE_OK;
}

static onnxshape_status check_into(const void *bytes, size_t len, const char *dir, void *ctx,
                                   onnxshape_diag *diag) {
  return onnxshape_profile_check_sonnx(bytes, len, dir, ctx, diag);
}

onnxshape_status onnxshape_profile_check_sonnx_file(const char *path,
                                                    onnxshape_profile_report **out,
                                                    onnxshape_diag *diag) {
  if (path == NULL || out == NULL) {
    return onnxshape__fail(diag, ONNXSHAPE_ERR_INVALID_ARGUMENT, NULL, 0,
                           "profile_check_sonnx_file: NULL argument");
  }
  return onnxshape__with_model_file(path, check_into, out, diag);
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
  free(r->items);
  free(r);
}
