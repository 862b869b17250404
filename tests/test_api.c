/* SPDX-License-Identifier: Apache-2.0 */
/* The model, tensor and run API (src/onnx, src/runtime) called directly:
 * argument checks, accessors, in-memory parsing, writing and reading back,
 * binding rules and the runner's growth past its inline buffers. Models are
 * written here with a few lines of protobuf encoding. */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <unistd.h>

#include "harness.h"

/* ---- a tiny protobuf writer ---- */
typedef struct buf {
  unsigned char b[8192];
  size_t n;
} buf;

static void put_varint(buf *o, uint64_t v) {
  while (v >= 0x80) {
    o->b[o->n++] = (unsigned char)(v | 0x80);
    v >>= 7;
  }
  o->b[o->n++] = (unsigned char)v;
}
static void put_int(buf *o, unsigned field, uint64_t v) {
  put_varint(o, field << 3);
  put_varint(o, v);
}
static void put_bytes(buf *o, unsigned field, const void *p, size_t n) {
  put_varint(o, (field << 3) | 2);
  put_varint(o, n);
  memcpy(o->b + o->n, p, n);
  o->n += n;
}
static void put_str(buf *o, unsigned field, const char *s) { put_bytes(o, field, s, strlen(s)); }
static void put_msg(buf *o, unsigned field, const buf *m) { put_bytes(o, field, m->b, m->n); }

/* ValueInfoProto of a float or int64 tensor with the given rank of 1s. */
static void value_info(buf *o, unsigned field, const char *name, int elem_type) {
  buf vi = {{0}, 0}, tp = {{0}, 0}, tt = {{0}, 0};
  put_int(&tt, 1, (uint64_t)elem_type);
  put_msg(&tp, 1, &tt);
  put_str(&vi, 1, name);
  put_msg(&vi, 2, &tp);
  put_msg(o, field, &vi);
}

/* Into graph g: Constant value_ints = target -> s, Reshape(x, s) -> out. */
static void reshape_nodes(buf *g, const int64_t *target, size_t len, const char *out) {
  buf c = {{0}, 0}, a = {{0}, 0}, r = {{0}, 0};
  put_str(&a, 1, "value_ints");
  put_int(&a, 20, 7);
  for (size_t i = 0; i < len; i++) put_int(&a, 8, (uint64_t)target[i]);
  put_str(&c, 2, "s");
  put_str(&c, 4, "Constant");
  put_msg(&c, 5, &a);
  put_str(&r, 1, "x");
  put_str(&r, 1, "s");
  put_str(&r, 2, out);
  put_str(&r, 3, "r");
  put_str(&r, 4, "Reshape");
  put_msg(g, 1, &c);
  put_msg(g, 1, &r);
}

/* Into graph g: If(cond) -> out, node `name`, with then_branch `then_g`
 * and else_branch `else_g` (GRAPH attributes). */
static void if_node(buf *g, const char *cond, const char *out, const char *name,
                    const buf *then_g, const buf *else_g) {
  buf n = {{0}, 0}, at = {{0}, 0}, ae = {{0}, 0};
  put_str(&at, 1, "then_branch");
  put_msg(&at, 6, then_g);
  put_int(&at, 20, 5);
  put_str(&ae, 1, "else_branch");
  put_msg(&ae, 6, else_g);
  put_int(&ae, 20, 5);
  put_str(&n, 1, cond);
  put_str(&n, 2, out);
  put_str(&n, 3, name);
  put_str(&n, 4, "If");
  put_msg(&n, 5, &at);
  put_msg(&n, 5, &ae);
  put_msg(g, 1, &n);
}

/* Model m: IR version 8, default-domain opset 14, graph g. */
static size_t model_of(buf *m, const buf *g) {
  buf op = {{0}, 0};
  put_int(m, 1, 8);
  put_str(&op, 1, "");
  put_int(&op, 2, 14);
  put_msg(m, 8, &op);
  put_msg(m, 7, g);
  return m->n;
}

/* x (float) -> Reshape(x, Constant value_ints = target) -> y */
static size_t reshape_model(buf *m, const int64_t *target, size_t len) {
  buf g = {{0}, 0};
  reshape_nodes(&g, target, len, "y");
  value_info(&g, 11, "x", 1);
  value_info(&g, 12, "y", 1);
  return model_of(m, &g);
}

/* x, the graph input of the models here: data as a 2x3 float tensor. */
static onnxshape_binding bind_x(onnxshape_tensor *x, float data[6]) {
  static const int64_t dims[] = {2, 3};
  *x = (onnxshape_tensor){ONNXSHAPE_TYPE_FLOAT, 2, dims, data, 6 * sizeof data[0]};
  return (onnxshape_binding){"x", x};
}

/* covers: KERNEL-CAPACITY */
static void test_null_arguments(void) {
  onnxshape_model *m = NULL;
  onnxshape_owned_tensor *t = NULL;
  onnxshape_result *r = NULL;
  onnxshape_inference *inf = NULL;
  CHECK_STATUS(onnxshape_model_read_file(NULL, &m, NULL), ONNXSHAPE_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(onnxshape_model_read_file("x", NULL, NULL), ONNXSHAPE_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(onnxshape_model_parse(NULL, 3, NULL, &m, NULL), ONNXSHAPE_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(onnxshape_tensor_parse(NULL, 3, NULL, &t, NULL), ONNXSHAPE_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(onnxshape_tensor_read_file(NULL, &t, NULL), ONNXSHAPE_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(onnxshape_tensor_write_file(NULL, "n", NULL, NULL), ONNXSHAPE_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(onnxshape_model_run(NULL, NULL, 0, &r, NULL), ONNXSHAPE_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(onnxshape_model_infer(NULL, &inf, NULL), ONNXSHAPE_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(onnxshape_model_check_runnable(NULL, NULL), ONNXSHAPE_ERR_INVALID_ARGUMENT);
  CHECK(onnxshape_model_input_count(NULL) == 0 && onnxshape_model_output_count(NULL) == 0);
  CHECK(onnxshape_model_input_name(NULL, 0) == NULL && onnxshape_model_output_name(NULL, 0) == NULL);
  CHECK(onnxshape_model_opset(NULL) == 0 && onnxshape_model_input_has_default(NULL, 0) == 0);
  CHECK(onnxshape_result_count(NULL) == 0 && onnxshape_result_tensor(NULL, 0) == NULL);
  CHECK(onnxshape_result_name(NULL, 0) == NULL && onnxshape_inference_count(NULL) == 0);
  CHECK(onnxshape_inference_get(NULL, 0) == NULL && onnxshape_owned_tensor_get(NULL) == NULL);
  CHECK(onnxshape_owned_tensor_name(NULL) == NULL);
  onnxshape_model_free(NULL);
  onnxshape_result_free(NULL);
  onnxshape_inference_free(NULL);
  onnxshape_owned_tensor_free(NULL);
}

/* covers: OPSET-RESOLVE RESHAPE-INFER */
static void test_model_in_memory(void) {
  buf m = {{0}, 0};
  static const int64_t target[] = {3, -1};
  reshape_model(&m, target, 2);
  onnxshape_model *model = NULL;
  onnxshape_diag d;
  onnxshape_diag_init(&d);
  CHECK_STATUS(onnxshape_model_parse(m.b, m.n, NULL, &model, &d), ONNXSHAPE_OK);
  if (model == NULL) return;
  snprintf(d.message, sizeof d.message, "stale");
  CHECK_STATUS(onnxshape_model_check_runnable(model, &d), ONNXSHAPE_OK);
  CHECK_STR(d.message, "");
  CHECK_I64(onnxshape_model_opset(model), 14);
  CHECK_I64(onnxshape_model_input_count(model), 1);
  CHECK_STR(onnxshape_model_input_name(model, 0), "x");
  CHECK(onnxshape_model_input_name(model, 1) == NULL);
  CHECK_I64(onnxshape_model_input_has_default(model, 0), 0);
  CHECK_I64(onnxshape_model_output_count(model), 1);
  CHECK_STR(onnxshape_model_output_name(model, 0), "y");
  CHECK(onnxshape_model_output_name(model, 1) == NULL);

  float data[6] = {1, 2, 3, 4, 5, 6};
  onnxshape_tensor x;
  onnxshape_binding b = bind_x(&x, data);
  onnxshape_result *r = NULL;
  CHECK_STATUS(onnxshape_model_run(model, &b, 1, &r, &d), ONNXSHAPE_OK);
  CHECK_I64(onnxshape_result_count(r), 1);
  CHECK_STR(onnxshape_result_name(r, 0), "y");
  CHECK(onnxshape_result_name(r, 1) == NULL && onnxshape_result_tensor(r, 1) == NULL);
  const onnxshape_tensor *y = onnxshape_result_tensor(r, 0);
  CHECK(y != NULL && y->data == (const void *)data); /* a view: nothing copied */
  if (y != NULL) CHECK_DIMS(y->dims, y->rank, 3, 2);
  onnxshape_result_free(r);

  /* Binding rules. */
  onnxshape_binding twice[2] = {{"x", &x}, {"x", &x}};
  CHECK_STATUS(onnxshape_model_run(model, twice, 2, &r, &d), ONNXSHAPE_ERR_INVALID_ARGUMENT);
  CHECK_STR(d.message, "graph input 'x' is bound twice");
  onnxshape_binding none = {"x", NULL};
  CHECK_STATUS(onnxshape_model_run(model, &none, 1, &r, &d), ONNXSHAPE_ERR_INVALID_ARGUMENT);
  onnxshape_tensor bad = x;
  bad.type = 99;
  onnxshape_binding badb = {"x", &bad};
  CHECK_STATUS(onnxshape_model_run(model, &badb, 1, &r, &d), ONNXSHAPE_ERR_UNKNOWN_TYPE);
  bad = x;
  bad.data_bytes = 23;
  CHECK_STATUS(onnxshape_model_run(model, &badb, 1, &r, &d), ONNXSHAPE_ERR_DATA_SIZE);
  CHECK_STR(d.message, "input 'x': 6 elements of float need more than the 23 bytes given");
  static const int64_t neg[] = {2, -3};
  bad = x;
  bad.dims = neg;
  CHECK_STATUS(onnxshape_model_run(model, &badb, 1, &r, &d), ONNXSHAPE_ERR_NEGATIVE_DIM);
  onnxshape_binding nameless = {NULL, &x};
  CHECK_STATUS(onnxshape_model_run(model, &nameless, 1, &r, &d), ONNXSHAPE_ERR_NOT_FOUND);
  CHECK_STR(d.message, "the model has no graph input named '(null)' (its graph inputs: 'x')");
  onnxshape_model_free(model);
}

/* covers: RESHAPE-LITERAL RESHAPE-COUNT */
/* A target of 300 dims, read and resolved in the words of the runner's arena. */
static void test_long_target(void) {
  int64_t target[300];
  for (size_t i = 0; i < 300; i++) target[i] = 1;
  target[150] = -1;
  buf m = {{0}, 0};
  reshape_model(&m, target, 300);
  onnxshape_model *model = NULL;
  CHECK_STATUS(onnxshape_model_parse(m.b, m.n, NULL, &model, NULL), ONNXSHAPE_OK);
  float data[6] = {0};
  static const int64_t dims[] = {6};
  onnxshape_tensor x = {ONNXSHAPE_TYPE_FLOAT, 1, dims, data, sizeof data};
  onnxshape_binding b = {"x", &x};
  for (int run = 0; run < 2 && model != NULL; run++) {
    onnxshape_result *r = NULL;
    CHECK_STATUS(onnxshape_model_run(model, &b, 1, &r, NULL), ONNXSHAPE_OK);
    const onnxshape_tensor *y = onnxshape_result_tensor(r, 0);
    CHECK(y != NULL && y->rank == 300 && y->dims[150] == 6 && y->dims[0] == 1);
    onnxshape_result_free(r);
  }
  onnxshape_inference *inf = NULL;
  CHECK_STATUS(onnxshape_model_infer(model, &inf, NULL), ONNXSHAPE_OK);
  CHECK_I64(onnxshape_inference_count(inf), 3);
  const onnxshape_value_info *v = onnxshape_inference_get(inf, 2);
  CHECK(v != NULL && v->rank_known && v->rank == 300 && v->dims[150] == -1);
  CHECK(onnxshape_inference_get(inf, 3) == NULL);
  onnxshape_inference_free(inf);
  onnxshape_model_free(model);
}

/* covers: ANALYSIS-WHY */
/* The provenance of each value (onnxshape_value_info's origin, inputs and
 * declaration_used) and onnxshape_inference_find(), on models written here:
 * x -> Constant s -> Reshape y; the same with a target certain to fail;
 * and nodes of another domain, one declared and one not. */
static void test_provenance(void) {
  buf m = {{0}, 0};
  const int64_t target[] = {3, -1};
  reshape_model(&m, target, 2);
  onnxshape_model *model = NULL;
  CHECK_STATUS(onnxshape_model_parse(m.b, m.n, NULL, &model, NULL), ONNXSHAPE_OK);
  onnxshape_inference *inf = NULL;
  CHECK_STATUS(onnxshape_model_infer(model, &inf, NULL), ONNXSHAPE_OK);
  CHECK_I64(onnxshape_inference_count(inf), 3);
  const onnxshape_value_info *x = onnxshape_inference_get(inf, 0);
  const onnxshape_value_info *t = onnxshape_inference_get(inf, 1);
  const onnxshape_value_info *y = onnxshape_inference_get(inf, 2);
  CHECK(x != NULL && t != NULL && y != NULL);
  CHECK(y->size >= offsetof(onnxshape_value_info, inputs) + sizeof y->inputs);
  CHECK_I64(x->origin, ONNXSHAPE_ORIGIN_INPUT);
  CHECK(x->n_inputs == 0 && x->inputs == NULL && !x->declaration_used);
  CHECK_I64(t->origin, ONNXSHAPE_ORIGIN_EVALUATED);
  CHECK(t->n_inputs == 0);
  CHECK_I64(y->origin, ONNXSHAPE_ORIGIN_EVALUATED);
  CHECK(y->n_inputs == 2 && y->inputs != NULL && y->inputs[0] == 0 && y->inputs[1] == 1);
  CHECK(!y->declaration_used);
  onnxshape_diag d;
  onnxshape_diag_init(&d);
  size_t at = 99;
  CHECK_STATUS(onnxshape_inference_find(inf, "y", &at, &d), ONNXSHAPE_OK);
  CHECK_I64(at, 2);
  CHECK_STATUS(onnxshape_inference_find(inf, "yy", &at, &d), ONNXSHAPE_ERR_NOT_FOUND);
  CHECK_STR(d.message, "the model has no value named 'yy'; did you mean 'y'?");
  CHECK_STATUS(onnxshape_inference_find(inf, "zzzzzz", &at, &d), ONNXSHAPE_ERR_NOT_FOUND);
  CHECK_STR(d.message, "the model has no value named 'zzzzzz'");
  CHECK_STATUS(onnxshape_inference_find(NULL, "y", &at, &d), ONNXSHAPE_ERR_INVALID_ARGUMENT);
  CHECK_STR(d.message, "inference_find: NULL argument");
  CHECK_STATUS(onnxshape_inference_find(inf, NULL, &at, &d), ONNXSHAPE_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(onnxshape_inference_find(inf, "y", NULL, &d), ONNXSHAPE_ERR_INVALID_ARGUMENT);
  CHECK_I64(at, 2);
  onnxshape_inference_free(inf);
  onnxshape_model_free(model);

  /* A target with two -1, analysed with keep_going: y is FAILED. */
  buf f = {{0}, 0};
  const int64_t twice[] = {-1, -1};
  reshape_model(&f, twice, 2);
  CHECK_STATUS(onnxshape_model_parse(f.b, f.n, NULL, &model, NULL), ONNXSHAPE_OK);
  onnxshape_infer_options opts = ONNXSHAPE_INFER_OPTIONS_INIT;
  opts.keep_going = 1;
  inf = NULL;
  CHECK_STATUS(onnxshape_model_infer_with(model, &opts, &inf, NULL), ONNXSHAPE_OK);
  y = onnxshape_inference_get(inf, 2);
  CHECK(y != NULL && y->origin == ONNXSHAPE_ORIGIN_FAILED && !y->rank_known);
  CHECK(y->n_inputs == 2 && y->inputs[0] == 0 && y->inputs[1] == 1);
  onnxshape_inference_free(inf);
  /* Without keep_going, that node is an error of the whole analysis. */
  inf = NULL;
  CHECK_STATUS(onnxshape_model_infer(model, &inf, NULL), ONNXSHAPE_ERR_MULTIPLE_INFERRED);
  CHECK(inf == NULL);
  onnxshape_model_free(model);

  /* The same Reshape in the then branch of an If whose condition is an
   * input: the branch may not run, so the analysis succeeds without
   * keep_going and records no failure (a check finding, not an error). */
  buf br = {{0}, 0}, el = {{0}, 0};
  buf ifg = {{0}, 0}, ifm = {{0}, 0}, idn = {{0}, 0};
  reshape_nodes(&br, twice, 2, "y_then");
  value_info(&br, 12, "y_then", 1);
  put_str(&idn, 1, "x");
  put_str(&idn, 2, "y_else");
  put_str(&idn, 4, "Identity");
  put_msg(&el, 1, &idn);
  value_info(&el, 12, "y_else", 1);
  if_node(&ifg, "cond", "y", "if", &br, &el);
  value_info(&ifg, 11, "cond", 9);
  value_info(&ifg, 11, "x", 1);
  value_info(&ifg, 12, "y", 1);
  model_of(&ifm, &ifg);
  onnxshape_diag d2;
  onnxshape_diag_init(&d2);
  CHECK_STATUS(onnxshape_model_parse(ifm.b, ifm.n, NULL, &model, &d2), ONNXSHAPE_OK);
  inf = NULL;
  CHECK_STATUS(onnxshape_model_infer(model, &inf, &d2), ONNXSHAPE_OK);
  CHECK_STR(d2.message, "");
  CHECK(inf != NULL && onnxshape_inference_summary(inf)->failures == 0);
  onnxshape_inference_free(inf);
  onnxshape_model_free(model);

  /* x -> d:Foo -> u (declared nowhere), x -> d:Foo -> w (value_info
   * [N,2]), and an empty optional input of u's node. */
  buf g = {{0}, 0}, n1 = {{0}, 0}, n2 = {{0}, 0}, op = {{0}, 0}, vi = {{0}, 0};
  buf tp = {{0}, 0}, tt = {{0}, 0}, shape = {{0}, 0}, d0 = {{0}, 0}, d1 = {{0}, 0};
  put_str(&n1, 1, "x");
  put_str(&n1, 1, "");
  put_str(&n1, 2, "u");
  put_str(&n1, 4, "Foo");
  put_str(&n1, 7, "d");
  put_str(&n2, 1, "x");
  put_str(&n2, 2, "w");
  put_str(&n2, 4, "Foo");
  put_str(&n2, 7, "d");
  put_str(&d0, 2, "N");
  put_int(&d1, 1, 2);
  put_msg(&shape, 1, &d0);
  put_msg(&shape, 1, &d1);
  put_int(&tt, 1, 1);
  put_msg(&tt, 2, &shape);
  put_msg(&tp, 1, &tt);
  put_str(&vi, 1, "w");
  put_msg(&vi, 2, &tp);
  put_msg(&g, 1, &n1);
  put_msg(&g, 1, &n2);
  value_info(&g, 11, "x", 1);
  value_info(&g, 12, "w", 1);
  put_msg(&g, 13, &vi);
  buf mm = {{0}, 0};
  put_int(&mm, 1, 8);
  put_str(&op, 1, "");
  put_int(&op, 2, 14);
  put_msg(&mm, 8, &op);
  put_msg(&mm, 7, &g);
  CHECK_STATUS(onnxshape_model_parse(mm.b, mm.n, NULL, &model, NULL), ONNXSHAPE_OK);
  inf = NULL;
  CHECK_STATUS(onnxshape_model_infer(model, &inf, NULL), ONNXSHAPE_OK);
  CHECK_I64(onnxshape_inference_count(inf), 3);
  const onnxshape_value_info *u = onnxshape_inference_get(inf, 1);
  const onnxshape_value_info *w = onnxshape_inference_get(inf, 2);
  CHECK(u != NULL && w != NULL);
  CHECK_STR(u->name, "u");
  CHECK_I64(u->origin, ONNXSHAPE_ORIGIN_UNDECLARED);
  CHECK(u->n_inputs == 2 && u->inputs[0] == 0 && u->inputs[1] == SIZE_MAX);
  CHECK_STR(w->name, "w");
  CHECK_I64(w->origin, ONNXSHAPE_ORIGIN_DECLARED);
  CHECK(w->rank_known && w->rank == 2 && w->dims[1] == 2 && w->n_inputs == 1);
  onnxshape_inference_free(inf);
  onnxshape_model_free(model);
}

/* covers: API-STRUCT-SIZE *//* covers: API-STRUCT-SIZE */
/* Options carry their size: a caller compiled with a smaller (older)
 * struct is read as far as its size, a larger (newer) one only when the
 * fields this library lacks are unset; returned structs say their size. */
static void test_struct_sizes(void) {
  buf m = {{0}, 0};
  const int64_t target[] = {-1};
  reshape_model(&m, target, 1);
  onnxshape_model *model = NULL;
  CHECK_STATUS(onnxshape_model_parse(m.b, m.n, NULL, &model, NULL), ONNXSHAPE_OK);
  onnxshape_diag d;
  onnxshape_diag_init(&d);
  onnxshape_inference *inf = NULL;
  onnxshape_infer_options opts;
  memset(&opts, 0xff, sizeof opts);
  onnxshape_infer_options_init(&opts);
  CHECK_I64(opts.size, sizeof opts);
  CHECK(opts.inputs == NULL && opts.n_inputs == 0 && opts.dims == NULL && opts.n_dims == 0);
  onnxshape_infer_options_init(NULL);
  CHECK_STATUS(onnxshape_model_infer_with(model, &opts, &inf, &d), ONNXSHAPE_OK);
  const onnxshape_infer_summary *sum = onnxshape_inference_summary(inf);
  CHECK(sum != NULL && sum->size == sizeof *sum && sum->reshape_nodes == 1);
  const onnxshape_value_info *v = onnxshape_inference_get(inf, 0);
  CHECK(v != NULL && v->size == sizeof *v);
  onnxshape_inference_free(inf);
  inf = NULL;
  /* A finding says its size too (a Reshape-14 without allowzero under the
   * SONNX profile is one). */
  onnxshape_profile_report *report = NULL;
  CHECK_STATUS(onnxshape_profile_check_sonnx(m.b, m.n, NULL, &report, &d), ONNXSHAPE_OK);
  const onnxshape_finding *f = onnxshape_profile_finding(report, 0);
  CHECK(f != NULL && f->size == sizeof *f);
  onnxshape_profile_free(report);
  /* Too small: a struct without size (zeroed), and one cut before n_dims,
   * whose n_dims and dims (here contradicting each other) are not read. */
  const size_t least = offsetof(onnxshape_infer_options, keep_going) + sizeof opts.keep_going;
  char want[ONNXSHAPE_DIAG_SIZE];
  opts.size = 0;
  CHECK_STATUS(onnxshape_model_infer_with(model, &opts, &inf, &d),
               ONNXSHAPE_ERR_INVALID_ARGUMENT);
  snprintf(want, sizeof want,
           "model_infer: options.size is 0; it must be at least %zu (initialize the options "
           "with ONNXSHAPE_INFER_OPTIONS_INIT)", least);
  CHECK_STR(d.message, want);
  CHECK(inf == NULL);
  onnxshape_infer_options_init(&opts);
  opts.size = offsetof(onnxshape_infer_options, n_dims);
  opts.n_dims = 1; /* with dims NULL: "NULL argument", were it read */
  CHECK_STATUS(onnxshape_model_infer_with(model, &opts, &inf, &d),
               ONNXSHAPE_ERR_INVALID_ARGUMENT);
  snprintf(want, sizeof want,
           "model_infer: options.size is %zu; it must be at least %zu (initialize the options "
           "with ONNXSHAPE_INFER_OPTIONS_INIT)", offsetof(onnxshape_infer_options, n_dims), least);
  CHECK_STR(d.message, want);
  CHECK(inf == NULL);
  opts.size = sizeof opts;
  CHECK_STATUS(onnxshape_model_infer_with(model, &opts, &inf, &d),
               ONNXSHAPE_ERR_INVALID_ARGUMENT);
  CHECK_STR(d.message, "model_infer: NULL argument");
  CHECK(inf == NULL);
  onnxshape_infer_options_init(&opts);
  /* A newer caller's struct: extra fields unset pass, set ones are refused. */
  struct newer_options {
    onnxshape_infer_options known;
    uint64_t newer[2];
  } big;
  memset(&big, 0, sizeof big);
  onnxshape_infer_options_init(&big.known);
  big.known.size = sizeof big;
  CHECK_STATUS(onnxshape_model_infer_with(model, &big.known, &inf, &d), ONNXSHAPE_OK);
  onnxshape_inference_free(inf);
  inf = NULL;
  /* one byte set, the same byte on every host (newer[1] = 1 sets byte 56
   * little-endian, 63 big-endian) */
  ((unsigned char *)&big.newer[1])[0] = 1;
  CHECK_STATUS(onnxshape_model_infer_with(model, &big.known, &inf, &d),
               ONNXSHAPE_ERR_INVALID_ARGUMENT);
  snprintf(want, sizeof want,
           "model_infer: the options set a field at byte %zu, which this library (%zu bytes "
           "of options) does not have", offsetof(struct newer_options, newer) + 8, sizeof opts);
  CHECK_STR(d.message, want);
  /* At most 256 bytes more than this library's struct (a larger size is
   * no size: a caller built against another layout), refused before any
   * byte past the struct is read, set (here the last) or not. */
  struct far_options {
    onnxshape_infer_options known;
    unsigned char more[257];
  } far;
  memset(&far, 0, sizeof far);
  onnxshape_infer_options_init(&far.known);
  far.known.size = sizeof opts + 256;
  CHECK_STATUS(onnxshape_model_infer_with(model, &far.known, &inf, &d), ONNXSHAPE_OK);
  onnxshape_inference_free(inf);
  inf = NULL;
  far.known.size = sizeof opts + 257;
  far.more[256] = 1;
  CHECK_STATUS(onnxshape_model_infer_with(model, &far.known, &inf, &d),
               ONNXSHAPE_ERR_INVALID_ARGUMENT);
  snprintf(want, sizeof want,
           "model_infer: options.size is %zu; this library takes at most %zu (was the caller "
           "built against this library's header?)", sizeof opts + 257, sizeof opts + 256);
  CHECK_STR(d.message, want);
  CHECK(inf == NULL);
  onnxshape_model_free(model);
}

/* covers: STORAGE-RAW STORAGE-STRINGS STORAGE-PACKED */
/* Writing and reading back every kind of payload, strings included. */
static void test_write_and_read_back(void) {
  char dir[] = "/tmp/onnxshape-api-XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  char path[256];
  snprintf(path, sizeof path, "%s/s.pb", dir);
  static const int64_t dims[] = {3};
  const onnxshape_string strs[3] = {{"ab", 2}, {NULL, 0}, {"\0z", 2}};
  onnxshape_tensor s = {ONNXSHAPE_TYPE_STRING, 1, dims, strs, sizeof strs};
  onnxshape_diag d;
  onnxshape_diag_init(&d);
  CHECK_STATUS(onnxshape_tensor_write_file(path, "names", &s, &d), ONNXSHAPE_OK);
  onnxshape_owned_tensor *t = NULL;
  CHECK_STATUS(onnxshape_tensor_read_file(path, &t, &d), ONNXSHAPE_OK);
  if (t != NULL) {
    CHECK_STR(onnxshape_owned_tensor_name(t), "names");
    const onnxshape_tensor *v = onnxshape_owned_tensor_get(t);
    const onnxshape_string *got = v->data;
    CHECK(v->type == ONNXSHAPE_TYPE_STRING && v->rank == 1 && v->dims[0] == 3);
    CHECK(got[0].length == 2 && memcmp(got[0].data, "ab", 2) == 0 && got[1].length == 0);
    CHECK(got[2].length == 2 && memcmp(got[2].data, "\0z", 2) == 0);
    onnxshape_owned_tensor_free(t);
  }
  /* Unwritable directory, unknown type, missing data. */
  CHECK_STATUS(onnxshape_tensor_write_file("/nonexistent-dir/x.pb", "x", &s, &d), ONNXSHAPE_ERR_IO);
  onnxshape_tensor bad = s;
  bad.type = 0;
  CHECK_STATUS(onnxshape_tensor_write_file(path, "x", &bad, &d), ONNXSHAPE_ERR_UNKNOWN_TYPE);
  bad = s;
  bad.data = NULL;
  CHECK_STATUS(onnxshape_tensor_write_file(path, "x", &bad, &d), ONNXSHAPE_ERR_DATA_SIZE);
  /* A zero-size string tensor round-trips with no payload. */
  static const int64_t zero[] = {0};
  onnxshape_tensor empty = {ONNXSHAPE_TYPE_STRING, 1, zero, NULL, 0};
  CHECK_STATUS(onnxshape_tensor_write_file(path, "e", &empty, &d), ONNXSHAPE_OK);
  CHECK_STATUS(onnxshape_tensor_read_file(path, &t, &d), ONNXSHAPE_OK);
  if (t != NULL) CHECK(onnxshape_owned_tensor_get(t)->data_bytes == 0);
  onnxshape_owned_tensor_free(t);
  /* A directory is not a tensor file. */
  CHECK_STATUS(onnxshape_tensor_read_file(dir, &t, &d), ONNXSHAPE_ERR_IO);
  CHECK(strstr(d.message, "is not a regular file") != NULL);
  unlink(path);
  rmdir(dir);
}

/* covers: KERNEL-CAPACITY */
/* External data needs a directory to resolve in. */
static void test_external_needs_directory(void) {
  buf tp = {{0}, 0}, e = {{0}, 0};
  put_int(&tp, 1, 1);
  put_int(&tp, 2, 1);
  put_str(&e, 1, "location");
  put_str(&e, 2, "x.bin");
  put_msg(&tp, 13, &e);
  put_int(&tp, 14, 1);
  onnxshape_owned_tensor *t = NULL;
  onnxshape_diag d;
  onnxshape_diag_init(&d);
  CHECK_STATUS(onnxshape_tensor_parse(tp.b, tp.n, NULL, &t, &d), ONNXSHAPE_ERR_INVALID_TENSOR);
  CHECK_STR(d.message, "tensor '(unnamed)': external data is not allowed here (no model directory)");
  CHECK_STATUS(onnxshape_tensor_parse(tp.b, tp.n, "/nonexistent-dir", &t, &d), ONNXSHAPE_ERR_IO);
  CHECK_STR(d.message, "cannot open the directory '/nonexistent-dir': No such file or directory");
}

/* covers: SHAPE-DEFAULTS RESHAPE-ALLOWZERO-VALUES RESHAPE-ONE-INFERRED
 * The SONNX profile check through the API: each finding's rule and message,
 * out-of-range queries, NULL arguments and an undecodable model. */
static void test_profile_check(void) {
  buf m = {{0}, 0};
  static const int64_t ok_target[] = {3, -1}, bad_target[] = {-1, -1};
  reshape_model(&m, ok_target, 2);
  onnxshape_profile_report *r = NULL;
  onnxshape_diag d;
  onnxshape_diag_init(&d);
  CHECK_STATUS(onnxshape_profile_check_sonnx(m.b, m.n, NULL, &r, &d), ONNXSHAPE_OK);
  CHECK_I64(onnxshape_profile_count(r), 1);
  CHECK_I64(onnxshape_profile_rule_of(r, 0), ONNXSHAPE_PROFILE_DEFAULT);
  CHECK_STR(onnxshape_profile_message(r, 0),
            "Reshape-14 (node 'r'): attribute 'allowzero' is not set; the SONNX profile forbids "
            "relying on its default (0)");
  CHECK(onnxshape_profile_message(r, 1) == NULL);
  CHECK_I64(onnxshape_profile_rule_of(r, 1), 0);
  /* The same finding as fields (issue 32 item 3), copied out of the model,
   * which is freed by now. */
  const onnxshape_finding *f = onnxshape_profile_finding(r, 0);
  CHECK(f != NULL);
  CHECK_I64(f->size, sizeof *f);
  CHECK_I64(f->rule, ONNXSHAPE_PROFILE_DEFAULT);
  CHECK_STR(f->id, "sonnx/default");
  CHECK_I64(f->severity, ONNXSHAPE_SEVERITY_ERROR);
  CHECK_STR(f->graph, "");
  CHECK_STR(f->node, "r");
  CHECK_STR(f->op, "Reshape");
  CHECK_I64(f->version, 14);
  CHECK(f->message == onnxshape_profile_message(r, 0));
  CHECK_STR(f->domain, "");
  CHECK_I64(f->node_index, 1); /* after the Constant */
  CHECK(onnxshape_profile_finding(r, 1) == NULL);
  CHECK(onnxshape_profile_finding(NULL, 0) == NULL);
  onnxshape_profile_free(r);
  buf bad = {{0}, 0};
  reshape_model(&bad, bad_target, 2);
  r = NULL;
  CHECK_STATUS(onnxshape_profile_check_sonnx(bad.b, bad.n, NULL, &r, &d), ONNXSHAPE_OK);
  CHECK_I64(onnxshape_profile_count(r), 2);
  CHECK_I64(onnxshape_profile_rule_of(r, 1), ONNXSHAPE_PROFILE_DOMAIN);
  CHECK_STR(onnxshape_profile_message(r, 1),
            "Reshape-14 (node 'r'): shape[0] and shape[1] are both -1; at most one dimension can "
            "be inferred (known without input data)");
  f = onnxshape_profile_finding(r, 1);
  CHECK(f != NULL);
  CHECK_STR(f->id, "domain");
  CHECK_I64(f->rule, ONNXSHAPE_PROFILE_DOMAIN);
  CHECK_I64(f->severity, ONNXSHAPE_SEVERITY_ERROR);
  CHECK_STR(f->node, "r");
  onnxshape_profile_free(r);
  /* The same bytes checked by onnxshape_model_check(): the profile's two
   * findings, or, with the core rules, the DOMAIN finding alone. */
  r = NULL;
  CHECK_STATUS(onnxshape_model_check(bad.b, bad.n, NULL, ONNXSHAPE_CHECK_SONNX, &r, &d),
               ONNXSHAPE_OK);
  CHECK_I64(onnxshape_profile_count(r), 2);
  CHECK_STR(onnxshape_profile_finding(r, 0)->id, "sonnx/default");
  CHECK_STR(onnxshape_profile_finding(r, 1)->id, "domain");
  onnxshape_profile_free(r);
  r = NULL;
  CHECK_STATUS(onnxshape_model_check(bad.b, bad.n, NULL, ONNXSHAPE_CHECK_CORE, &r, &d),
               ONNXSHAPE_OK);
  CHECK_I64(onnxshape_profile_count(r), 1);
  CHECK_STR(onnxshape_profile_message(r, 0),
            "Reshape-14 (node 'r'): shape[0] and shape[1] are both -1; at most one dimension can "
            "be inferred (known without input data)");
  CHECK_STR(d.message, "");
  onnxshape_profile_free(r);
  CHECK_I64(onnxshape_profile_count(NULL), 0);
  CHECK(onnxshape_profile_message(NULL, 0) == NULL);
  onnxshape_profile_free(NULL);
  CHECK_STATUS(onnxshape_profile_check_sonnx(m.b, m.n, NULL, NULL, &d),
               ONNXSHAPE_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(onnxshape_profile_check_sonnx_file(NULL, &r, &d), ONNXSHAPE_ERR_INVALID_ARGUMENT);
  static const unsigned char garbage[] = {0xff, 0xff, 0xff};
  CHECK_STATUS(onnxshape_profile_check_sonnx(garbage, sizeof garbage, NULL, &r, &d),
               ONNXSHAPE_ERR_MALFORMED);
}

/* covers: CHECK-RULES
 * The rule ids of check: a stable list, each id once, with its severity;
 * NULL past the end, and a NULL severity allowed. */
static void test_check_rules(void) {
  static const char *const ids[] = {
      "domain",          "conflict",       "validity/order", "validity/unknown-op",
      "validity/opset",  "portability/D1", "portability/D6", "portability/D7",
      "portability/D11", "incomplete",     "sonnx/default",  "sonnx/sparse",
      "validity/deprecated"};
  static const int severities[] = {
      ONNXSHAPE_SEVERITY_ERROR,   ONNXSHAPE_SEVERITY_ERROR,   ONNXSHAPE_SEVERITY_ERROR,
      ONNXSHAPE_SEVERITY_ERROR,   ONNXSHAPE_SEVERITY_ERROR,   ONNXSHAPE_SEVERITY_WARNING,
      ONNXSHAPE_SEVERITY_WARNING, ONNXSHAPE_SEVERITY_WARNING, ONNXSHAPE_SEVERITY_WARNING,
      ONNXSHAPE_SEVERITY_WARNING, ONNXSHAPE_SEVERITY_ERROR,   ONNXSHAPE_SEVERITY_ERROR,
      ONNXSHAPE_SEVERITY_ERROR};
  size_t n = sizeof ids / sizeof ids[0];
  for (size_t i = 0; i < n; i++) {
    int severity = 0;
    CHECK_STR(onnxshape_check_rule(i, &severity), ids[i]);
    CHECK_I64(severity, severities[i]);
  }
  int untouched = 7;
  CHECK(onnxshape_check_rule(n, &untouched) == NULL);
  CHECK_I64(untouched, 7);
  CHECK_STR(onnxshape_check_rule(0, NULL), "domain");
}

/* Writes n bytes to path; 1 on success. */
static int put_file(const char *path, const unsigned char *b, size_t n) {
  FILE *f = fopen(path, "wb");
  if (f == NULL) return 0;
  int ok = fwrite(b, 1, n, f) == n;
  return fclose(f) == 0 && ok;
}

/* A TensorProto of float [count] with the given raw_data fields (each len
 * bytes of value fill), in b; returns its length. */
static size_t float_proto(unsigned char *b, int64_t count, int fields, size_t len,
                          unsigned char fill) {
  size_t n = 0;
  b[n++] = 0x08; /* dims */
  for (uint64_t v = (uint64_t)count; ; v >>= 7) {
    b[n++] = (unsigned char)((v & 0x7f) | (v >= 0x80 ? 0x80 : 0));
    if (v < 0x80) break;
  }
  b[n++] = 0x10; /* data_type float */
  b[n++] = 1;
  b[n++] = 0x42; /* name */
  b[n++] = 1;
  b[n++] = 'x';
  for (int f = 0; f < fields; f++) {
    b[n++] = 0x4a; /* raw_data */
    for (uint64_t v = len; ; v >>= 7) {
      b[n++] = (unsigned char)((v & 0x7f) | (v >= 0x80 ? 0x80 : 0));
      if (v < 0x80) break;
    }
    memset(b + n, fill + f, len);
    n += len;
  }
  return n;
}

/* covers: STORAGE-RAW RESHAPE-VIEW
 * A large raw_data is used in place in the mapped file, and a tensor written
 * from it is moved file-to-file; both must give the exact bytes. Files the
 * in-place reader does not take (two raw_data fields, a truncated field, a
 * length that does not match the dims) are decoded or rejected as before. */
static void test_large_inline_file(void) {
  char dir[] = "/tmp/onnxshape-big-XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  char in[256], out[256], out2[256];
  snprintf(in, sizeof in, "%s/in.pb", dir);
  snprintf(out, sizeof out, "%s/out.pb", dir);
  snprintf(out2, sizeof out2, "%s/out2.pb", dir);
  /* Two 1 MiB copy chunks and a short one. */
  const size_t bytes = (2u << 20) + 12;
  unsigned char *b = malloc(2 * bytes + 64);
  CHECK(b != NULL);
  if (b == NULL) return;
  size_t n = float_proto(b, (int64_t)(bytes / 4), 1, bytes, 0x5a);
  /* Bytes that tell every offset apart (251 is prime): a copy shifted by
   * any amount below 251 compares unequal. */
  for (size_t i = 0; i < bytes; i++) b[n - bytes + i] = (unsigned char)(i % 251);
  CHECK(put_file(in, b, n));
  onnxshape_diag d;
  onnxshape_diag_init(&d);
  onnxshape_owned_tensor *t = NULL;
  CHECK_STATUS(onnxshape_tensor_read_file(in, &t, &d), ONNXSHAPE_OK);
  if (t != NULL) {
    const onnxshape_tensor *v = onnxshape_owned_tensor_get(t);
    CHECK_I64(v->data_bytes, bytes);
    CHECK(memcmp(v->data, b + n - bytes, bytes) == 0);
    CHECK_STR(onnxshape_owned_tensor_name(t), "x");
    /* Copied from the mapping's file, then read back: the same name keeps
     * raw_data's offset modulo 64 (one buffer), ... */
    CHECK_STATUS(onnxshape_tensor_write_file(out, "y", v, &d), ONNXSHAPE_OK);
    onnxshape_owned_tensor *back = NULL;
    CHECK_STATUS(onnxshape_tensor_read_file(out, &back, &d), ONNXSHAPE_OK);
    if (back != NULL) {
      const onnxshape_tensor *w = onnxshape_owned_tensor_get(back);
      CHECK(w->data_bytes == bytes && memcmp(w->data, b + n - bytes, bytes) == 0);
      CHECK_STR(onnxshape_owned_tensor_name(back), "y");
      /* ... a longer name moves it (pread and write at different residues). */
      CHECK_STATUS(onnxshape_tensor_write_file(out2, "a_longer_name", w, &d), ONNXSHAPE_OK);
      onnxshape_owned_tensor_free(back);
    }
    onnxshape_owned_tensor_free(t);
  }
  CHECK_STATUS(onnxshape_tensor_read_file(out2, &t, &d), ONNXSHAPE_OK);
  if (t != NULL) {
    CHECK(onnxshape_owned_tensor_get(t)->data_bytes == bytes);
    CHECK(memcmp(onnxshape_owned_tensor_get(t)->data, b + n - bytes, bytes) == 0);
    CHECK_STR(onnxshape_owned_tensor_name(t), "a_longer_name");
    onnxshape_owned_tensor_free(t);
  }
  /* Two raw_data fields: protobuf keeps the last. */
  n = float_proto(b, (int64_t)(bytes / 4), 2, bytes, 0x10);
  CHECK(put_file(in, b, n));
  CHECK_STATUS(onnxshape_tensor_read_file(in, &t, &d), ONNXSHAPE_OK);
  if (t != NULL) {
    CHECK(((const unsigned char *)onnxshape_owned_tensor_get(t)->data)[0] == 0x11);
    onnxshape_owned_tensor_free(t);
  }
  /* Truncated inside raw_data. */
  n = float_proto(b, (int64_t)(bytes / 4), 1, bytes, 0);
  CHECK(put_file(in, b, n - 1));
  CHECK_STATUS(onnxshape_tensor_read_file(in, &t, &d), ONNXSHAPE_ERR_MALFORMED);
  /* raw_data that does not match the dims. */
  n = float_proto(b, 10, 1, bytes, 0);
  CHECK(put_file(in, b, n));
  CHECK_STATUS(onnxshape_tensor_read_file(in, &t, &d), ONNXSHAPE_ERR_INVALID_TENSOR);
  CHECK_STR(d.message, "tensor 'x': raw_data holds 2097164 bytes; 10 elements of float need 40");
  free(b);
  unlink(in);
  unlink(out);
  unlink(out2);
  rmdir(dir);
}

/* covers: MODEL-DECODE STORAGE-RAW */
/* onnxshape_tensor_read_file (which uses a large raw_data in place, found by
 * the one wire reader of src/onnx/wire.h) and onnxshape_tensor_parse (the
 * decoder) agree on every file: a raw_data length given in 6 bytes (which
 * protobuf-c refuses, and the in-place reader once took), a tag in 6
 * bytes, a length past the end, a cut in every part, two raw_data fields,
 * and the valid file itself. */
static void test_read_file_agrees_with_parse(void) {
  char dir[] = "/tmp/onnxshape-agree-XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  char path[256];
  snprintf(path, sizeof path, "%s/t.pb", dir);
  const size_t len = 80000; /* past the 64 KiB where raw_data is used in place */
  unsigned char *b = malloc(2 * len + 64), *v = malloc(2 * len + 64);
  CHECK(b != NULL && v != NULL);
  if (b == NULL || v == NULL) return;
  size_t n = float_proto(b, (int64_t)(len / 4), 1, len, 7);
  size_t raw_at = 6; /* the raw_data tag: after dims (4 bytes), data_type, name */
  while (b[raw_at] != 0x4a) raw_at++;
  struct variant {
    const char *what;
    size_t len;
  } variants[16];
  size_t nv = 0, header = raw_at + 1 + 3; /* tag + a 3-byte length */
  unsigned char *bufs[16];
  /* 1: the valid file. */
  bufs[nv] = malloc(n);
  memcpy(bufs[nv], b, n);
  variants[nv++] = (struct variant){"valid", n};
  /* 2: the length of raw_data in 6 bytes (0x80 0x80 0x80 continuation). */
  bufs[nv] = malloc(n + 3);
  memcpy(bufs[nv], b, raw_at + 1);
  bufs[nv][raw_at + 1] = (unsigned char)((len & 0x7f) | 0x80);
  bufs[nv][raw_at + 2] = (unsigned char)(((len >> 7) & 0x7f) | 0x80);
  bufs[nv][raw_at + 3] = (unsigned char)(((len >> 14) & 0x7f) | 0x80);
  bufs[nv][raw_at + 4] = 0x80;
  bufs[nv][raw_at + 5] = 0x80;
  bufs[nv][raw_at + 6] = 0x00;
  memcpy(bufs[nv] + raw_at + 7, b + header, len);
  variants[nv++] = (struct variant){"6-byte length prefix", raw_at + 7 + len};
  /* 3: the raw_data tag in 6 bytes. */
  bufs[nv] = malloc(n + 5);
  memcpy(bufs[nv], b, raw_at);
  memcpy(bufs[nv] + raw_at, "\xca\x80\x80\x80\x80\x00", 6);
  memcpy(bufs[nv] + raw_at + 6, b + raw_at + 1, n - raw_at - 1);
  variants[nv++] = (struct variant){"6-byte tag", n + 5};
  /* 4: a length past the end. */
  bufs[nv] = malloc(n);
  memcpy(bufs[nv], b, n);
  bufs[nv][raw_at + 3] = 0x7f;
  variants[nv++] = (struct variant){"length past the end", n};
  /* 5-10: cut at each place. */
  size_t cuts[] = {1, raw_at, raw_at + 1, raw_at + 2, header + 1, n - 1};
  for (size_t c = 0; c < sizeof cuts / sizeof cuts[0]; c++) {
    bufs[nv] = malloc(cuts[c] + 1);
    memcpy(bufs[nv], b, cuts[c]);
    variants[nv++] = (struct variant){"cut", cuts[c]};
  }
  /* 11: two raw_data fields (protobuf keeps the last). */
  size_t n2 = float_proto(v, (int64_t)(len / 4), 2, len, 3);
  bufs[nv] = malloc(n2);
  memcpy(bufs[nv], v, n2);
  variants[nv++] = (struct variant){"two raw_data", n2};
  for (size_t i = 0; i < nv; i++) {
    CHECK(put_file(path, bufs[i], variants[i].len));
    onnxshape_owned_tensor *a = NULL, *f = NULL;
    onnxshape_diag d;
    onnxshape_diag_init(&d);
    onnxshape_status parsed = onnxshape_tensor_parse(bufs[i], variants[i].len, NULL, &a, &d);
    onnxshape_status read = onnxshape_tensor_read_file(path, &f, &d);
    if (parsed != read) {
      fprintf(stderr, "variant %zu (%s): parse %s, read_file %s\n", i, variants[i].what,
              onnxshape_status_name(parsed), onnxshape_status_name(read));
    }
    CHECK_STATUS(read, parsed);
    if (parsed == ONNXSHAPE_OK && read == ONNXSHAPE_OK) {
      const onnxshape_tensor *x = onnxshape_owned_tensor_get(a), *y = onnxshape_owned_tensor_get(f);
      CHECK(x->data_bytes == y->data_bytes && memcmp(x->data, y->data, x->data_bytes) == 0);
    }
    onnxshape_owned_tensor_free(a);
    onnxshape_owned_tensor_free(f);
    free(bufs[i]);
  }
  CHECK(nv == 11);
  free(b);
  free(v);
  unlink(path);
  rmdir(dir);
}

/* ---- a graph of many names ---- */

static unsigned char big_graph[1 << 20], big_model[(1 << 20) + 64];

/* Appends b to the graph in big_graph[0 .. *g); 0 when it does not fit. */
static int graph_append(size_t *g, const buf *b) {
  if (*g + b->n > sizeof big_graph) return 0;
  memcpy(big_graph + *g, b->b, b->n);
  *g += b->n;
  return 1;
}

/* big_model[]: an opset-14 model around the g bytes of big_graph; its
 * length. */
static size_t wrap_graph(size_t g) {
  buf m = {{0}, 0}, op = {{0}, 0};
  put_int(&m, 1, 8);
  put_str(&op, 1, "");
  put_int(&op, 2, 14);
  put_msg(&m, 8, &op);
  put_varint(&m, 7 << 3 | 2);
  put_varint(&m, g);
  memcpy(big_model, m.b, m.n);
  memcpy(big_model + m.n, big_graph, g);
  return m.n + g;
}

/* Parses the len bytes of big_model[], which must load. */
static onnxshape_model *parse_big(size_t len, onnxshape_diag *d) {
  onnxshape_model *model = NULL;
  onnxshape_diag_init(d);
  CHECK(len > 0);
  CHECK_STATUS(onnxshape_model_parse(big_model, len, NULL, &model, d), ONNXSHAPE_OK);
  return model;
}

/* x -> Constant s = {3, -1} -> Reshape r0 -> y0 -> Reshape r1 -> y1 ... ->
 * y(n-1), with node `bad` (if below n) given the input `bad_in` or the
 * output `bad_out` instead of its own. Written into big_model[]; returns its
 * length. */
static size_t chain_model(size_t n, size_t bad, const char *bad_in, const char *bad_out) {
  size_t g = 0;
  buf head = {{0}, 0}, c = {{0}, 0}, a = {{0}, 0};
  put_str(&a, 1, "value_ints");
  put_int(&a, 20, 7);
  put_int(&a, 8, 3);
  put_int(&a, 8, (uint64_t)-1);
  put_str(&c, 2, "s");
  put_str(&c, 4, "Constant");
  put_msg(&c, 5, &a);
  put_msg(&head, 1, &c);
  value_info(&head, 11, "x", 1);
  graph_append(&g, &head);
  char in[32] = "x", out[32], name[32];
  for (size_t i = 0; i < n; i++) {
    buf node = {{0}, 0}, wrapped = {{0}, 0};
    snprintf(out, sizeof out, "y%zu", i);
    snprintf(name, sizeof name, "r%zu", i);
    put_str(&node, 1, i == bad && bad_in != NULL ? bad_in : in);
    put_str(&node, 1, "s");
    put_str(&node, 2, i == bad && bad_out != NULL ? bad_out : out);
    put_str(&node, 3, name);
    put_str(&node, 4, "Reshape");
    put_msg(&wrapped, 1, &node);
    if (!graph_append(&g, &wrapped)) return 0;
    memcpy(in, out, sizeof in);
  }
  buf tail = {{0}, 0};
  value_info(&tail, 12, in, 1);
  if (!graph_append(&g, &tail)) return 0;
  return wrap_graph(g);
}

/* covers: MODEL-NAMES ERROR-MESSAGE */
/* 20,000 nodes: every name found (the loader indexes them in a hash table,
 * so this loads in time linear in the names), and a duplicate or a name
 * not yet defined is still caught deep in the graph. */
static void test_many_names(void) {
  enum { N = 20000 };
  onnxshape_diag d;
  onnxshape_model *model = parse_big(chain_model(N, N, NULL, NULL), &d);
  if (model == NULL) return;
  CHECK_STR(onnxshape_model_output_name(model, 0), "y19999");
  float data[6] = {1, 2, 3, 4, 5, 6};
  onnxshape_tensor x;
  onnxshape_binding b = bind_x(&x, data);
  onnxshape_result *r = NULL;
  CHECK_STATUS(onnxshape_model_run(model, &b, 1, &r, &d), ONNXSHAPE_OK);
  const onnxshape_tensor *y = onnxshape_result_tensor(r, 0);
  CHECK(y != NULL && y->rank == 2 && y->dims[0] == 3 && y->dims[1] == 2);
  CHECK(y != NULL && y->data == (const void *)data); /* 20,000 views of the input */
  onnxshape_result_free(r);
  onnxshape_model_free(model);

  model = NULL;
  size_t len = chain_model(N, 15000, NULL, "y14321");
  CHECK_STATUS(onnxshape_model_parse(big_model, len, NULL, &model, &d),
               ONNXSHAPE_ERR_INVALID_MODEL);
  CHECK_STR(d.message, "Reshape-14 (node 'r15000'): output 'y14321' is already defined");
  CHECK(model == NULL);
  /* r15000 taking r15001's output closes a cycle (r15001 takes y15000);
   * the depth-first order meets it at r15001 */
  len = chain_model(N, 15000, "y15001", NULL);
  CHECK_STATUS(onnxshape_model_parse(big_model, len, NULL, &model, &d),
               ONNXSHAPE_ERR_INVALID_MODEL);
  CHECK_STR(d.message,
            "node 'r15001' takes 'y15000', which depends on the node's own outputs: the nodes "
            "form a cycle");
  len = chain_model(N, 15000, "nowhere", NULL);
  CHECK_STATUS(onnxshape_model_parse(big_model, len, NULL, &model, &d),
               ONNXSHAPE_ERR_INVALID_MODEL);
  CHECK_STR(d.message,
            "Reshape-14 (node 'r15000'): input 'nowhere' is not a graph input, an initializer or "
            "the output of an earlier node");
  len = chain_model(N, 19999, NULL, "s");
  CHECK_STATUS(onnxshape_model_parse(big_model, len, NULL, &model, &d),
               ONNXSHAPE_ERR_INVALID_MODEL);
  CHECK_STR(d.message, "Reshape-14 (node 'r19999'): output 's' is already defined");
}

/* x0 .. x(n-1), Size(x(n-1)) -> y; written into big_model[], as
 * chain_model(). */
static size_t inputs_model(size_t n) {
  size_t g = 0;
  char name[32];
  for (size_t i = 0; i < n; i++) {
    buf vi = {{0}, 0};
    snprintf(name, sizeof name, "x%zu", i);
    value_info(&vi, 11, name, 1);
    if (!graph_append(&g, &vi)) return 0;
  }
  buf tail = {{0}, 0}, node = {{0}, 0};
  put_str(&node, 1, name);
  put_str(&node, 2, "y");
  put_str(&node, 4, "Size");
  put_msg(&tail, 1, &node);
  value_info(&tail, 12, "y", 7);
  if (!graph_append(&g, &tail)) return 0;
  return wrap_graph(g);
}

/* A model of n graph inputs (more than the runner tracks on its stack),
 * Size of the last, bound by name in reverse order (the runner finds each
 * through the model's name index): every one must be bound, once. */
static void check_many_inputs(int n) {
  onnxshape_diag d;
  onnxshape_model *model = parse_big(inputs_model((size_t)n), &d);
  if (model == NULL) return;
  CHECK_I64(onnxshape_model_input_count(model), n);
  static char names[20000][16];
  static onnxshape_binding b[20000];
  CHECK(n <= 20000);
  float data[6] = {0};
  onnxshape_tensor x;
  onnxshape_binding one = bind_x(&x, data);
  for (int i = 0; i < n && i < 20000; i++) {
    snprintf(names[i], sizeof names[i], "x%d", n - 1 - i);
    b[i] = (onnxshape_binding){names[i], one.tensor};
  }
  onnxshape_result *r = NULL;
  CHECK_STATUS(onnxshape_model_run(model, b, (size_t)n, &r, &d), ONNXSHAPE_OK);
  const onnxshape_tensor *y = onnxshape_result_tensor(r, 0);
  CHECK(y != NULL && y->type == ONNXSHAPE_TYPE_INT64 && (int64_t)onnxshape_load_le(y->data, 8) == 6);
  onnxshape_result_free(r);
  r = NULL;
  CHECK_STATUS(onnxshape_model_run(model, b, (size_t)n - 1, &r, &d), ONNXSHAPE_ERR_NOT_FOUND);
  CHECK_STR(d.message, "graph input 'x0' is not bound");
  b[n - 1].name = "x3";
  CHECK_STATUS(onnxshape_model_run(model, b, (size_t)n, &r, &d), ONNXSHAPE_ERR_INVALID_ARGUMENT);
  CHECK_STR(d.message, "graph input 'x3' is bound twice");
  /* A name that is none: the graph's inputs, as many as fit, and a count. */
  b[n - 1].name = "y";
  CHECK_STATUS(onnxshape_model_run(model, b, (size_t)n, &r, &d), ONNXSHAPE_ERR_NOT_FOUND);
  char want[ONNXSHAPE_DIAG_SIZE];
  /* (the list takes the room the message leaves, not a fixed 160 bytes) */
  snprintf(want, sizeof want,
           "the model has no graph input named 'y' (its graph inputs: 'x0', 'x1', 'x2', 'x3', "
           "'x4', 'x5', 'x6', 'x7', 'x8', 'x9', 'x10', 'x11', 'x12', 'x13', 'x14', 'x15', 'x16', "
           "'x17', 'x18', 'x19', 'x20', 'x21', 'x22', 'x23', 'x24', 'x25', 'x26', 'x27', 'x28', "
           "'x29', 'x30', 'x31', and %d more inputs)", n - 32);
  CHECK_STR(d.message, want);
  CHECK(r == NULL);
  /* One edit from an input's name: that one is suggested. */
  b[n - 1].name = "x12 ";
  CHECK_STATUS(onnxshape_model_run(model, b, (size_t)n, &r, &d), ONNXSHAPE_ERR_NOT_FOUND);
  snprintf(want, sizeof want,
           "the model has no graph input named 'x12 '; did you mean 'x12'? (its graph inputs: "
           "'x0', 'x1', 'x2', 'x3', 'x4', 'x5', 'x6', 'x7', 'x8', 'x9', 'x10', 'x11', 'x12', "
           "'x13', 'x14', 'x15', 'x16', 'x17', 'x18', 'x19', 'x20', 'x21', 'x22', 'x23', 'x24', "
           "'x25', 'x26', 'x27', and %d more inputs)", n - 28);
  CHECK_STR(d.message, want);
  onnxshape_model_free(model);
}

/* covers: STORAGE-LE-HOST */
/* Tensor data is ONNX's little-endian storage on every host: the shape
 * input is given and the outputs are checked as bytes, so this test fails
 * on a big-endian host if any of them is read or written in host order. */
static void test_little_endian_storage(void) {
  static const unsigned char b[] = {0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x88, 0x99};
  CHECK(onnxshape_load_le(b, 1) == 0x01u);
  CHECK(onnxshape_load_le(b, 2) == 0x0201u);
  CHECK(onnxshape_load_le(b, 4) == 0x04030201u);
  CHECK(onnxshape_load_le(b, 8) == UINT64_C(0x8807060504030201));
  CHECK(onnxshape_load_le(b, 9) == UINT64_C(0x8807060504030201)); /* at most 8 */
  CHECK((int64_t)onnxshape_load_le(b + 1, 8) == (int64_t)UINT64_C(0x9988070605040302));
  unsigned char w[10];
  memset(w, 0xAA, sizeof w);
  onnxshape_store_le(w, UINT64_C(0x1122334455667788), 3);
  static const unsigned char w3[] = {0x88, 0x77, 0x66, 0xAA};
  CHECK(memcmp(w, w3, sizeof w3) == 0);
  onnxshape_store_le(w, (uint64_t)(int64_t)-2, 12);
  static const unsigned char w8[] = {0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xAA, 0xAA};
  CHECK(memcmp(w, w8, sizeof w8) == 0);

  /* x float, s int64 [2] -> Reshape(x, s) -> y; Shape(y) -> sh; Size(y) -> n */
  buf m = {{0}, 0}, g = {{0}, 0}, r = {{0}, 0}, sh = {{0}, 0}, sz = {{0}, 0}, op = {{0}, 0};
  put_str(&r, 1, "x");
  put_str(&r, 1, "s");
  put_str(&r, 2, "y");
  put_str(&r, 4, "Reshape");
  put_str(&sh, 1, "y");
  put_str(&sh, 2, "sh");
  put_str(&sh, 4, "Shape");
  put_str(&sz, 1, "y");
  put_str(&sz, 2, "n");
  put_str(&sz, 4, "Size");
  put_msg(&g, 1, &r);
  put_msg(&g, 1, &sh);
  put_msg(&g, 1, &sz);
  value_info(&g, 11, "x", ONNXSHAPE_TYPE_FLOAT);
  value_info(&g, 11, "s", ONNXSHAPE_TYPE_INT64);
  value_info(&g, 12, "y", ONNXSHAPE_TYPE_FLOAT);
  value_info(&g, 12, "sh", ONNXSHAPE_TYPE_INT64);
  value_info(&g, 12, "n", ONNXSHAPE_TYPE_INT64);
  put_int(&m, 1, 8);
  put_str(&op, 1, "");
  put_int(&op, 2, 14);
  put_msg(&m, 8, &op);
  put_msg(&m, 7, &g);
  onnxshape_model *model = NULL;
  onnxshape_diag d;
  onnxshape_diag_init(&d);
  CHECK_STATUS(onnxshape_model_parse(m.b, m.n, NULL, &model, &d), ONNXSHAPE_OK);
  if (model == NULL) return;
  float data[6] = {0};
  onnxshape_tensor x;
  /* [3, -1], as storage: 3 then all ones, least significant byte first. */
  static const unsigned char target[16] = {3, 0, 0, 0, 0, 0, 0, 0,
                                           0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
  static const int64_t two[] = {2};
  const onnxshape_tensor s_t = {ONNXSHAPE_TYPE_INT64, 1, two, target, sizeof target};
  onnxshape_binding bind[2] = {bind_x(&x, data), {"s", &s_t}};
  onnxshape_result *res = NULL;
  CHECK_STATUS(onnxshape_model_run(model, bind, 2, &res, &d), ONNXSHAPE_OK);
  const onnxshape_tensor *y = onnxshape_result_tensor(res, 0);
  const onnxshape_tensor *shape = onnxshape_result_tensor(res, 1);
  const onnxshape_tensor *count = onnxshape_result_tensor(res, 2);
  if (y != NULL) CHECK_DIMS(y->dims, y->rank, 3, 2);
  static const unsigned char want_shape[16] = {3, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0};
  static const unsigned char want_count[8] = {6, 0, 0, 0, 0, 0, 0, 0};
  CHECK(shape != NULL && shape->data_bytes == 16 && memcmp(shape->data, want_shape, 16) == 0);
  CHECK(count != NULL && count->rank == 0 && count->data_bytes == 8 &&
        memcmp(count->data, want_count, 8) == 0);
  onnxshape_result_free(res);
  onnxshape_model_free(model);
}

/* covers: MODEL-NAMES SIZE-OUTPUT */
static void test_many_inputs(void) {
  check_many_inputs(70);
  check_many_inputs(20000);
}

/* Every signal's disposition before main: the program installs no handler,
 * but a sanitizer runtime installs its own (SIGSEGV, SIGBUS, SIGFPE) before
 * constructors run. */
static struct sigaction dispositions_at_start[32];

__attribute__((constructor)) static void record_dispositions(void) {
  for (int sig = 1; sig < 32; sig++) (void)sigaction(sig, NULL, &dispositions_at_start[sig]);
}

/* covers: FILE-CHANGED
 * The library never installs a signal handler (docs/cli.md, "Files that
 * change while in use"; only the command catches SIGBUS, for its own
 * reads): after it has mapped, copied and checked a large tensor file, and
 * run last, after every other test here has loaded models and external
 * data, every signal's disposition is still the one it had before main. */
static void test_no_signal_handlers(void) {
  char dir[] = "/tmp/onnxshape-sig-XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  char in[256], out[256];
  snprintf(in, sizeof in, "%s/in.pb", dir);
  snprintf(out, sizeof out, "%s/out.pb", dir);
  const size_t bytes = 1u << 20;
  unsigned char *b = malloc(bytes + 64);
  CHECK(b != NULL);
  if (b == NULL) return;
  size_t n = float_proto(b, (int64_t)(bytes / 4), 1, bytes, 0x21);
  CHECK(put_file(in, b, n));
  onnxshape_diag d;
  onnxshape_diag_init(&d);
  onnxshape_owned_tensor *t = NULL;
  CHECK_STATUS(onnxshape_tensor_read_file(in, &t, &d), ONNXSHAPE_OK);
  if (t != NULL) {
    CHECK_STATUS(onnxshape_owned_tensor_check_file(t, &d), ONNXSHAPE_OK);
    CHECK_STATUS(onnxshape_tensor_write_file(out, "y", onnxshape_owned_tensor_get(t), &d),
                 ONNXSHAPE_OK);
    onnxshape_owned_tensor_free(t);
  }
  int handlers = 0;
  for (int sig = 1; sig < 32; sig++) {
    struct sigaction sa;
    if (sigaction(sig, NULL, &sa) != 0) continue; /* no such signal */
    const struct sigaction *was = &dispositions_at_start[sig];
    int siginfo = (sa.sa_flags & SA_SIGINFO) != 0;
    if (siginfo != ((was->sa_flags & SA_SIGINFO) != 0) ||
        (siginfo ? sa.sa_sigaction != was->sa_sigaction : sa.sa_handler != was->sa_handler)) {
      fprintf(stderr, "signal %d has a new handler\n", sig);
      handlers++;
    }
  }
  CHECK_I64(handlers, 0);
  free(b);
  unlink(in);
  unlink(out);
  rmdir(dir);
}

/* A tensor entry of graph field `field`: name, then type { tensor {
 * elem_type, shape { dims } } }; each dim a number >= 0, or the symbol
 * params[k] where dims[k] < 0. */
static void tensor_entry(buf *o, unsigned field, const char *name, int elem_type, size_t rank,
                         const int64_t *dims, const char *const *params) {
  buf vi = {{0}, 0}, tp = {{0}, 0}, tt = {{0}, 0}, sh = {{0}, 0};
  for (size_t k = 0; k < rank; k++) {
    buf dim = {{0}, 0};
    if (dims[k] >= 0) put_int(&dim, 1, (uint64_t)dims[k]);
    else put_str(&dim, 2, params[k]);
    put_msg(&sh, 1, &dim);
  }
  put_int(&tt, 1, (uint64_t)elem_type);
  put_msg(&tt, 2, &sh);
  put_msg(&tp, 1, &tt);
  put_str(&vi, 1, name);
  put_msg(&vi, 2, &tp);
  put_msg(o, field, &vi);
}

/* The file at path is exactly want[0, n). */
static int file_is(const char *path, const unsigned char *want, size_t n) {
  static unsigned char got[8192];
  FILE *f = fopen(path, "rb");
  if (f == NULL) return 0;
  size_t len = fread(got, 1, sizeof got, f);
  fclose(f);
  return len == n && memcmp(got, want, n) == 0;
}

/* covers: INFER-WRITE-MODEL */
/* infer --write-model through the API: x float [N, 6] -> Reshape(x, [-1, 3])
 * -> y, declared with its type only. The model written is the model with
 * y's dims and a value_info for s spliced in, byte for byte; bound, x
 * declares the bound dims. */
static void test_write_model(void) {
  static const int64_t target[] = {-1, 3}, x_dims[] = {-1, 6}, y_dims[] = {-1, 3};
  static const int64_t x_bound[] = {4, 6}, y_bound[] = {8, 3}, s_dims[] = {2};
  static const char *const x_params[] = {"N", NULL}, *const y_params[] = {"2*N", NULL};
  buf g = {{0}, 0}, m = {{0}, 0}, want_g = {{0}, 0}, want = {{0}, 0};
  reshape_nodes(&g, target, 2, "y");
  tensor_entry(&g, 11, "x", 1, 2, x_dims, x_params);
  value_info(&g, 12, "y", 1);
  size_t len = model_of(&m, &g);
  char dir[] = "/tmp/onnxshape-api-XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  char src[64], out[64];
  snprintf(src, sizeof src, "%s/m.onnx", dir);
  snprintf(out, sizeof out, "%s/out.onnx", dir);
  onnxshape_diag d;
  onnxshape_diag_init(&d);
  onnxshape_model *model = NULL;
  onnxshape_inference *inf = NULL;
  CHECK_STATUS(onnxshape_model_parse(m.b, len, NULL, &model, &d), ONNXSHAPE_OK);
  CHECK_STATUS(onnxshape_model_infer(model, &inf, &d), ONNXSHAPE_OK);
  /* As given: y [2*N, 3], then s's new entry (int64 [2]). */
  reshape_nodes(&want_g, target, 2, "y");
  tensor_entry(&want_g, 11, "x", 1, 2, x_dims, x_params);
  tensor_entry(&want_g, 12, "y", 1, 2, y_dims, y_params);
  tensor_entry(&want_g, 13, "s", 7, 1, s_dims, NULL);
  size_t want_len = model_of(&want, &want_g);
  CHECK_STATUS(onnxshape_inference_write_model_bytes(model, inf, m.b, len, out, &d), ONNXSHAPE_OK);
  CHECK_STR(d.message, "");
  CHECK(file_is(out, want.b, want_len));
  /* The same from the file the model was read from, which may be out. */
  CHECK(put_file(src, m.b, len));
  onnxshape_model *from_file = NULL;
  CHECK_STATUS(onnxshape_model_read_file(src, &from_file, &d), ONNXSHAPE_OK);
  CHECK_STATUS(onnxshape_inference_write_model(from_file, inf, src, src, &d), ONNXSHAPE_OK);
  CHECK(file_is(src, want.b, want_len));
  /* The file changed since it was read: now longer, nothing written. */
  unlink(out);
  CHECK_STATUS(onnxshape_inference_write_model(from_file, inf, src, out, &d), ONNXSHAPE_ERR_IO);
  char msg[1024];
  snprintf(msg, sizeof msg,
           "cannot write '%s': '%s' holds %zu bytes, but the model was read from %zu "
           "(the file changed since)",
           out, src, want_len, len);
  CHECK_STR(d.message, msg);
  CHECK(access(out, F_OK) != 0);
  onnxshape_model_free(from_file);
  /* Bytes that are not the model's: another length; the same length, not
   * a model; an unwritable place. */
  CHECK_STATUS(onnxshape_inference_write_model_bytes(model, inf, m.b, len - 1, out, &d),
               ONNXSHAPE_ERR_INVALID_ARGUMENT);
  snprintf(msg, sizeof msg, "cannot write '%s': %zu bytes given, but the model was parsed from %zu",
           out, len - 1, len);
  CHECK_STR(d.message, msg);
  static unsigned char junk[8192];
  memset(junk, 0xff, len);
  CHECK_STATUS(onnxshape_inference_write_model_bytes(model, inf, junk, len, out, &d),
               ONNXSHAPE_ERR_MALFORMED);
  snprintf(msg, sizeof msg,
           "cannot write '%s': the model's bytes do not read as a ModelProto with a graph", out);
  CHECK_STR(d.message, msg);
  CHECK_STATUS(onnxshape_inference_write_model_bytes(model, inf, m.b, len, "/nonexistent-dir/o",
                                                     &d),
               ONNXSHAPE_ERR_IO);
  CHECK(access(out, F_OK) != 0);
  CHECK_STATUS(onnxshape_inference_write_model_bytes(NULL, inf, m.b, len, out, &d),
               ONNXSHAPE_ERR_INVALID_ARGUMENT);
  CHECK_STR(d.message, "inference_write_model_bytes: NULL argument");
  CHECK_STATUS(onnxshape_inference_write_model(model, inf, NULL, out, &d),
               ONNXSHAPE_ERR_INVALID_ARGUMENT);
  CHECK_STR(d.message, "inference_write_model: NULL argument");
  onnxshape_inference_free(inf);
  /* Bound at x = [4, 6]: x declares them, y is [8, 3]. */
  onnxshape_input_dims in = {"x", 2, x_bound};
  onnxshape_infer_options opts = ONNXSHAPE_INFER_OPTIONS_INIT;
  opts.inputs = &in;
  opts.n_inputs = 1;
  inf = NULL;
  CHECK_STATUS(onnxshape_model_infer_with(model, &opts, &inf, &d), ONNXSHAPE_OK);
  want_g.n = 0;
  want.n = 0;
  reshape_nodes(&want_g, target, 2, "y");
  tensor_entry(&want_g, 11, "x", 1, 2, x_bound, NULL);
  tensor_entry(&want_g, 12, "y", 1, 2, y_bound, NULL);
  tensor_entry(&want_g, 13, "s", 7, 1, s_dims, NULL);
  want_len = model_of(&want, &want_g);
  CHECK_STATUS(onnxshape_inference_write_model_bytes(model, inf, m.b, len, out, &d), ONNXSHAPE_OK);
  CHECK(file_is(out, want.b, want_len));
  onnxshape_inference_free(inf);
  onnxshape_model_free(model);
  unlink(out);
  unlink(src);
  rmdir(dir);
}

/* The model of test_write_model_graphs, `o_dims` the declared dims of
 * output o and `ts_rank` (0 or 1) those of then_branch's output ts ([2]):
 * If "pick"(k) comes before the Constant that makes k (true), so the
 * loader reorders; x's first dim has a denotation; k is declared a
 * sequence; the main graph is split over two fields (protobuf merges them).
 * Into out: the model; returns its length. */
static size_t if_model(buf *out, int64_t o_dim, size_t ts_rank) {
  static const int64_t two[] = {2};
  buf tg = {{0}, 0}, eg = {{0}, 0};
  buf g1 = {{0}, 0}, g2 = {{0}, 0}, k = {{0}, 0}, kv = {{0}, 0}, t = {{0}, 0};
  /* then: ts = Shape(x); else: es = Size(x); each declared int64. */
  buf sh = {{0}, 0}, sz = {{0}, 0};
  put_str(&sh, 1, "x");
  put_str(&sh, 2, "ts");
  put_str(&sh, 4, "Shape");
  put_msg(&tg, 1, &sh);
  if (ts_rank == 0) value_info(&tg, 12, "ts", 7);
  else tensor_entry(&tg, 12, "ts", 7, 1, two, NULL);
  put_str(&sz, 1, "x");
  put_str(&sz, 2, "es");
  put_str(&sz, 4, "Size");
  put_msg(&eg, 1, &sz);
  value_info(&eg, 12, "es", 7);
  if_node(&g1, "k", "o", "pick", &tg, &eg);
  /* k = Constant(value = true) */
  put_int(&t, 2, 9); /* data_type BOOL */
  put_int(&t, 5, 1); /* int32_data: true */
  put_str(&kv, 1, "value");
  put_msg(&kv, 5, &t);
  put_int(&kv, 20, 4);
  put_str(&k, 2, "k");
  put_str(&k, 4, "Constant");
  put_msg(&k, 5, &kv);
  put_msg(&g1, 1, &k);
  {
    /* x: float [2 (denotation DATA_BATCH), 3] */
    buf vi = {{0}, 0}, tp = {{0}, 0}, tt = {{0}, 0}, shp = {{0}, 0}, d0 = {{0}, 0}, d1 = {{0}, 0};
    put_int(&d0, 1, 2);
    put_str(&d0, 3, "DATA_BATCH");
    put_int(&d1, 1, 3);
    put_msg(&shp, 1, &d0);
    put_msg(&shp, 1, &d1);
    put_int(&tt, 1, 1);
    put_msg(&tt, 2, &shp);
    put_msg(&tp, 1, &tt);
    put_str(&vi, 1, "x");
    put_msg(&vi, 2, &tp);
    put_msg(&g1, 11, &vi);
  }
  {
    /* k declared a sequence of bool tensors: copied as it is */
    buf vi = {{0}, 0}, tp = {{0}, 0}, seq = {{0}, 0}, el = {{0}, 0}, tt = {{0}, 0};
    put_int(&tt, 1, 9);
    put_msg(&el, 1, &tt);
    put_msg(&seq, 1, &el);
    put_msg(&tp, 4, &seq);
    put_str(&vi, 1, "k");
    put_msg(&vi, 2, &tp);
    put_msg(&g1, 13, &vi);
  }
  const int64_t o_dims[] = {o_dim};
  tensor_entry(&g2, 12, "o", 7, 1, o_dims, NULL);
  buf op = {{0}, 0};
  put_int(out, 1, 8);
  put_str(&op, 1, "");
  put_int(&op, 2, 14);
  put_msg(out, 8, &op);
  put_msg(out, 7, &g1);
  put_msg(out, 7, &g2);
  return out->n;
}

/* covers: INFER-WRITE-MODEL ANALYSIS-SUBGRAPHS
 * Subgraphs, a reordered graph, a split graph, denotations and a
 * non-tensor declaration: the model written is the model with o's dims
 * (declared [5], computed [2]) and then_branch's ts dims ([2]) spliced in,
 * byte for byte; the branch not taken (k is true) and k's sequence
 * declaration are copied as they are. */
static void test_write_model_graphs(void) {
  buf m = {{0}, 0}, want = {{0}, 0};
  size_t len = if_model(&m, 5, 0), want_len = if_model(&want, 2, 1);
  char dir[] = "/tmp/onnxshape-api-XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  char out[64];
  snprintf(out, sizeof out, "%s/out.onnx", dir);
  onnxshape_diag d;
  onnxshape_diag_init(&d);
  onnxshape_model *model = NULL;
  onnxshape_inference *inf = NULL;
  CHECK_STATUS(onnxshape_model_parse(m.b, len, NULL, &model, &d), ONNXSHAPE_OK);
  CHECK_STATUS(onnxshape_model_infer(model, &inf, &d), ONNXSHAPE_OK);
  CHECK_STATUS(onnxshape_inference_write_model_bytes(model, inf, m.b, len, out, &d), ONNXSHAPE_OK);
  CHECK_STR(d.message, "");
  CHECK(file_is(out, want.b, want_len));
  onnxshape_inference_free(inf);
  onnxshape_model_free(model);
  unlink(out);
  rmdir(dir);
}

/* covers: KERNEL-CAPACITY DIAG-PINNED
 * The message of each refused argument of the model, tensor, run, infer
 * and check API, exact (scripts/check-messages: every message a test). */
static void test_argument_messages(void) {
  onnxshape_diag d;
  onnxshape_diag_init(&d);
  onnxshape_model *m = NULL;
  onnxshape_owned_tensor *t = NULL;
  onnxshape_result *r = NULL;
  onnxshape_profile_report *rep = NULL;
  CHECK_STATUS(onnxshape_model_parse(NULL, 3, NULL, &m, &d), ONNXSHAPE_ERR_INVALID_ARGUMENT);
  CHECK_STR(d.message, "model_parse: NULL argument");
  CHECK_STATUS(onnxshape_model_read_file(NULL, &m, &d), ONNXSHAPE_ERR_INVALID_ARGUMENT);
  CHECK_STR(d.message, "model_read_file: NULL argument");
  CHECK_STATUS(onnxshape_model_check_files(NULL, &d), ONNXSHAPE_ERR_INVALID_ARGUMENT);
  CHECK_STR(d.message, "model_check_files: NULL argument");
  CHECK_STATUS(onnxshape_model_check_runnable(NULL, &d), ONNXSHAPE_ERR_INVALID_ARGUMENT);
  CHECK_STR(d.message, "model_check_runnable: NULL argument");
  CHECK_STATUS(onnxshape_model_run(NULL, NULL, 0, &r, &d), ONNXSHAPE_ERR_INVALID_ARGUMENT);
  CHECK_STR(d.message, "model_run: NULL argument");
  CHECK_STATUS(onnxshape_tensor_parse(NULL, 3, NULL, &t, &d), ONNXSHAPE_ERR_INVALID_ARGUMENT);
  CHECK_STR(d.message, "tensor_parse: NULL argument");
  CHECK_STATUS(onnxshape_tensor_parse_npy(NULL, 3, &t, &d), ONNXSHAPE_ERR_INVALID_ARGUMENT);
  CHECK_STR(d.message, "tensor_parse_npy: NULL argument");
  static const unsigned char garbage[] = {0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f};
  CHECK_STATUS(onnxshape_tensor_parse(garbage, sizeof garbage, NULL, &t, &d),
               ONNXSHAPE_ERR_MALFORMED);
  CHECK_STR(d.message, "not a valid TensorProto (6 bytes)");
  CHECK_STATUS(onnxshape_tensor_read_file(NULL, &t, &d), ONNXSHAPE_ERR_INVALID_ARGUMENT);
  CHECK_STR(d.message, "tensor_read_file: NULL argument");
  CHECK_STATUS(onnxshape_owned_tensor_check_file(NULL, &d), ONNXSHAPE_ERR_INVALID_ARGUMENT);
  CHECK_STR(d.message, "owned_tensor_check_file: NULL argument");
  CHECK_STATUS(onnxshape_profile_check_sonnx(NULL, 3, NULL, &rep, &d),
               ONNXSHAPE_ERR_INVALID_ARGUMENT);
  CHECK_STR(d.message, "profile_check_sonnx: NULL argument");
  CHECK_STATUS(onnxshape_model_check_file(NULL, ONNXSHAPE_CHECK_CORE, &rep, &d),
               ONNXSHAPE_ERR_INVALID_ARGUMENT);
  CHECK_STR(d.message, "model_check_file: NULL argument");
  CHECK_STATUS(onnxshape_model_check_file("x.onnx", (onnxshape_check_profile)7, &rep, &d),
               ONNXSHAPE_ERR_INVALID_ARGUMENT);
  CHECK_STR(d.message, "model_check_file: unknown profile 7");
  CHECK_STATUS(onnxshape_model_check(NULL, 3, NULL, ONNXSHAPE_CHECK_CORE, &rep, &d),
               ONNXSHAPE_ERR_INVALID_ARGUMENT);
  CHECK_STR(d.message, "model_check: NULL argument");
  CHECK_STATUS(onnxshape_model_check(garbage, sizeof garbage, NULL, ONNXSHAPE_CHECK_CORE, NULL, &d),
               ONNXSHAPE_ERR_INVALID_ARGUMENT);
  CHECK_STR(d.message, "model_check: NULL argument");
  CHECK_STATUS(onnxshape_model_check(garbage, sizeof garbage, NULL, (onnxshape_check_profile)-1,
                                     &rep, &d),
               ONNXSHAPE_ERR_INVALID_ARGUMENT);
  CHECK_STR(d.message, "model_check: unknown profile -1");
  /* Writing tensors. */
  static const int64_t three[] = {3}, negative[] = {-3}, huge[] = {(int64_t)1 << 62};
  const float f[3] = {1, 2, 3};
  onnxshape_tensor ok = {ONNXSHAPE_TYPE_FLOAT, 1, three, f, sizeof f};
  onnxshape_tensor nodims = {ONNXSHAPE_TYPE_FLOAT, 1, NULL, f, sizeof f};
  CHECK_STATUS(onnxshape_tensor_write_file(NULL, "x", &ok, &d), ONNXSHAPE_ERR_INVALID_ARGUMENT);
  CHECK_STR(d.message, "tensor_write_file: NULL path");
  CHECK_STATUS(onnxshape_tensor_write_fd(-1, "x.pb", "x", &ok, &d), ONNXSHAPE_ERR_INVALID_ARGUMENT);
  CHECK_STR(d.message, "tensor_write_fd: no file");
  CHECK_STATUS(onnxshape_tensor_write_npy_file(NULL, &ok, &d), ONNXSHAPE_ERR_INVALID_ARGUMENT);
  CHECK_STR(d.message, "tensor_write_npy_file: NULL path");
  CHECK_STATUS(onnxshape_tensor_write_npy_fd(-1, "x.npy", &ok, &d),
               ONNXSHAPE_ERR_INVALID_ARGUMENT);
  CHECK_STR(d.message, "tensor_write_npy_fd: no file");
  char dir[] = "/tmp/onnxshape-msg-XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  char path[256];
  snprintf(path, sizeof path, "%s/t.pb", dir);
  CHECK_STATUS(onnxshape_tensor_write_file(path, "x", &nodims, &d),
               ONNXSHAPE_ERR_INVALID_ARGUMENT);
  CHECK_STR(d.message, "tensor_write: NULL tensor or dims");
  onnxshape_tensor bad = ok;
  bad.type = 99;
  CHECK_STATUS(onnxshape_tensor_write_file(path, "x", &bad, &d), ONNXSHAPE_ERR_UNKNOWN_TYPE);
  CHECK_STR(d.message, "cannot write element type 99");
  bad = ok;
  bad.dims = negative;
  CHECK_STATUS(onnxshape_tensor_write_file(path, "x", &bad, &d), ONNXSHAPE_ERR_NEGATIVE_DIM);
  CHECK_STR(d.message, "cannot write a tensor with invalid dims");
  bad = ok;
  bad.type = ONNXSHAPE_TYPE_DOUBLE;
  bad.dims = huge;
  CHECK_STATUS(onnxshape_tensor_write_file(path, "x", &bad, &d), ONNXSHAPE_ERR_OVERFLOW);
  CHECK_STR(d.message, "tensor too large to write");
  snprintf(path, sizeof path, "%s/t.npy", dir);
  CHECK_STATUS(onnxshape_tensor_write_npy_file(path, &nodims, &d), ONNXSHAPE_ERR_INVALID_ARGUMENT);
  CHECK_STR(d.message, "tensor_write_npy: NULL tensor or dims");
  static const int64_t past[] = {(int64_t)1 << 62, 4};
  bad = ok;
  bad.rank = 2;
  bad.dims = past;
  CHECK_STATUS(onnxshape_tensor_write_npy_file(path, &bad, &d), ONNXSHAPE_ERR_OVERFLOW);
  char want[400];
  snprintf(want, sizeof want, "cannot write '%s': the element count overflows int64", path);
  CHECK_STR(d.message, want);
  bad = ok;
  bad.type = ONNXSHAPE_TYPE_DOUBLE;
  bad.dims = huge;
  CHECK_STATUS(onnxshape_tensor_write_npy_file(path, &bad, &d), ONNXSHAPE_ERR_OVERFLOW);
  snprintf(want, sizeof want, "cannot write '%s': 4611686018427387904 elements do not fit in memory",
           path);
  CHECK_STR(d.message, want); /* 2^65 bytes: past any size_t */
  unlink(path);
  rmdir(dir);
}

/* covers: ANALYSIS-BINDINGS DIAG-PINNED
 * The messages of bindings the library refuses before any work: a run's
 * NULL or unknown tensor, infer's NULL symbol or name, negative dims. */
static void test_binding_messages(void) {
  static const int64_t target[] = {3, 2};
  buf mb = {{0}, 0};
  reshape_model(&mb, target, 2);
  onnxshape_model *model = NULL;
  onnxshape_diag d;
  onnxshape_diag_init(&d);
  CHECK_STATUS(onnxshape_model_parse(mb.b, mb.n, NULL, &model, &d), ONNXSHAPE_OK);
  if (model == NULL) return;
  onnxshape_result *r = NULL;
  onnxshape_binding b = {"x", NULL};
  CHECK_STATUS(onnxshape_model_run(model, &b, 1, &r, &d), ONNXSHAPE_ERR_INVALID_ARGUMENT);
  CHECK_STR(d.message, "input 'x': NULL tensor or dims");
  float data[6] = {0};
  onnxshape_tensor x;
  b = bind_x(&x, data);
  x.type = 99;
  CHECK_STATUS(onnxshape_model_run(model, &b, 1, &r, &d), ONNXSHAPE_ERR_UNKNOWN_TYPE);
  CHECK_STR(d.message, "input 'x': unknown element type 99");
  onnxshape_inference *inf = NULL;
  onnxshape_infer_options opts = ONNXSHAPE_INFER_OPTIONS_INIT;
  onnxshape_dim_binding dim = {NULL, 2};
  opts.dims = &dim;
  opts.n_dims = 1;
  CHECK_STATUS(onnxshape_model_infer_with(model, &opts, &inf, &d), ONNXSHAPE_ERR_INVALID_ARGUMENT);
  CHECK_STR(d.message, "model_infer: NULL symbol");
  dim = (onnxshape_dim_binding){"N", -2};
  CHECK_STATUS(onnxshape_model_infer_with(model, &opts, &inf, &d), ONNXSHAPE_ERR_INVALID_ARGUMENT);
  CHECK_STR(d.message, "dim 'N' = -2 is negative");
  opts.n_dims = 0;
  static const int64_t neg[] = {2, -3};
  onnxshape_input_dims in = {NULL, 2, neg};
  opts.inputs = &in;
  opts.n_inputs = 1;
  CHECK_STATUS(onnxshape_model_infer_with(model, &opts, &inf, &d), ONNXSHAPE_ERR_INVALID_ARGUMENT);
  CHECK_STR(d.message, "model_infer: NULL input name or dims");
  in.name = "x";
  CHECK_STATUS(onnxshape_model_infer_with(model, &opts, &inf, &d), ONNXSHAPE_ERR_INVALID_ARGUMENT);
  CHECK_STR(d.message, "input 'x': dim 1 = -3 is negative");
  CHECK(inf == NULL);
  onnxshape_model_free(model);
}

RUN_TESTS(TEST_ENTRY(test_profile_check), TEST_ENTRY(test_check_rules),
          TEST_ENTRY(test_null_arguments), TEST_ENTRY(test_many_inputs),
          TEST_ENTRY(test_many_names), TEST_ENTRY(test_model_in_memory),
          TEST_ENTRY(test_long_target), TEST_ENTRY(test_struct_sizes), TEST_ENTRY(test_provenance),
          TEST_ENTRY(test_little_endian_storage), TEST_ENTRY(test_write_and_read_back),
          TEST_ENTRY(test_external_needs_directory), TEST_ENTRY(test_large_inline_file),
          TEST_ENTRY(test_read_file_agrees_with_parse), TEST_ENTRY(test_no_signal_handlers),
          TEST_ENTRY(test_argument_messages), TEST_ENTRY(test_write_model),
          TEST_ENTRY(test_write_model_graphs),
          TEST_ENTRY(test_binding_messages))
