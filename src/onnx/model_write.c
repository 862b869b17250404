/* SPDX-License-Identifier: Apache-2.0 */
/* infer --write-model: the model's own bytes again, with what analysis
 * knows of the main graph's values spliced in as ValueInfoProto (docs/cli.md,
 * "infer --write-model"). It works on the wire format: every field it does
 * not rewrite is copied as it is, so nothing the loader leaves out (training
 * info, metadata, fields of later ONNX versions) is lost.
 *
 * In the main graph (field 7 of ModelProto; each occurrence, as protobuf
 * merges them): a graph input, graph output or value_info entry (fields 11,
 * 12, 13) whose name analysis knows is rewritten with the known element
 * type and dims, each dim a known number (dim_value), else the declared dim,
 * else the dim's symbol or expression (dim_param), else left empty; an entry
 * whose type is not a tensor is copied. Then every other value of a node
 * whose element type is known gets a new value_info entry. Only graphs
 * certain to run are spliced (the main graph, the If branch a known
 * condition takes, and so on down): a subgraph that may not run (an If
 * branch whose condition is not known, a Loop or Scan body) is copied as
 * it is, since what analysis knows of it holds only if it runs (a branch
 * that never runs at the bindings given may hold dims no run can have, and
 * a runtime's own inference of the branch would meet them). Nested messages
 * are measured before they are written (their length comes first), so the
 * file is written in one pass without holding a copy of the model. */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../core/internal.h"
#include "alloc.h"
#include "fileio.h"
#include "model.h"
#include "wire.h"

/* Field numbers of onnx.proto3. */
enum {
  MODEL_GRAPH = 7,
  GRAPH_NODE = 1,
  NODE_ATTRIBUTE = 5,
  AP_NAME = 1,
  AP_G = 6,
  AP_GRAPHS = 11,
  GRAPH_INPUT = 11,
  GRAPH_OUTPUT = 12,
  GRAPH_VALUE_INFO = 13,
  VI_NAME = 1,
  VI_TYPE = 2,
  TYPE_TENSOR = 1,
  TYPE_DENOTATION = 6,
  TENSOR_ELEM_TYPE = 1,
  TENSOR_SHAPE = 2,
  SHAPE_DIM = 1,
  DIM_VALUE = 1,
  DIM_PARAM = 2
};

/* Where bytes go: counted, and written when sink is not NULL. */
typedef struct emitter {
  onnxshape__sink *sink;
  uint64_t n;
} emitter;

static void put(emitter *e, const void *p, size_t len) {
  e->n += len;
  if (e->sink != NULL) onnxshape__sink_append(e->sink, p, len);
}

static void put_varint(emitter *e, uint64_t v) {
  uint8_t b[10];
  size_t k = 0;
  do {
    b[k++] = (uint8_t)((v & 0x7fu) | (v > 0x7fu ? 0x80u : 0u));
    v >>= 7;
  } while (v != 0);
  put(e, b, k);
}

static void put_tag(emitter *e, unsigned field, unsigned wire) {
  put_varint(e, ((uint64_t)field << 3) | wire);
}

static void put_string(emitter *e, unsigned field, const char *s) {
  size_t len = strlen(s);
  put_tag(e, field, WIRE_LEN);
  put_varint(e, len);
  put(e, s, len);
}

/* A dim's text as dim_param: an expression as it prints (docs/cli.md,
 * "Expressions"), but a lone symbol as its name, unquoted ('seq len' is
 * the symbol seq len), so that a value's dim names the same symbol as the
 * graph input it came from. A quoted symbol's text ends at the first
 * unescaped quote; when that is the text's end, it is a lone symbol. */
static void put_dim_param(emitter *e, const char *s) {
  size_t n = 0, i = 1;
  int lone = s[0] == '\'';
  for (; lone && s[i] != '\0' && s[i] != '\''; i++, n++) {
    if (s[i] == '\\' && s[i + 1] != '\0') i++;
  }
  if (!lone || s[i] != '\'' || s[i + 1] != '\0') {
    put_string(e, DIM_PARAM, s);
    return;
  }
  put_tag(e, DIM_PARAM, WIRE_LEN);
  put_varint(e, n);
  for (i = 1; s[i] != '\''; i++) {
    if (s[i] == '\\') i++;
    put(e, &s[i], 1);
  }
}

/* The bytes of one message field: [at, at + len). */
typedef struct span {
  const uint8_t *at;
  size_t len;
} span;

typedef void (*content_fn)(emitter *e, const void *ctx);

/* A length-delimited field whose content fn writes: measured first. */
static void put_message(emitter *e, unsigned field, content_fn fn, const void *ctx) {
  emitter m = {NULL, 0};
  fn(&m, ctx);
  put_tag(e, field, WIRE_LEN);
  put_varint(e, m.n);
  if (e->sink == NULL) e->n += m.n;
  else fn(e, ctx);
}

/* The fields of the message m other than those that keep() refuses, each
 * copied with its tag as it is. */
static void put_others(emitter *e, span m, const unsigned *drop, size_t n_drop) {
  const uint8_t *p = m.at, *end = m.at + m.len;
  while (p < end) {
    const uint8_t *start = p;
    wire_field f;
    if (!wire_field_read(&p, end, &f)) return; /* the caller checked m */
    size_t k = 0;
    while (k < n_drop && f.number != drop[k]) k++;
    if (k == n_drop) put(e, start, (size_t)(p - start));
  }
}

/* 1 when m is a well-formed message; *count its fields numbered `number`
 * of wire type LEN (or VARINT for a varint field), *last the last one. */
static int scan(span m, unsigned number, unsigned wire, size_t *count, wire_field *last) {
  const uint8_t *p = m.at, *end = m.at + m.len;
  *count = 0;
  while (p < end) {
    wire_field f;
    if (!wire_field_read(&p, end, &f)) return 0;
    if (f.number != number) continue;
    if (f.wire != wire) return 0; /* the loader would have refused it */
    (*count)++;
    *last = f;
  }
  return 1;
}

static span field_span(const wire_field *f) { return (span){f->at, (size_t)f->v}; }

/* 1 when every field of m reads (nested messages are checked where they
 * are used). */
static int well_formed(span m) {
  const uint8_t *p = m.at, *end = m.at + m.len;
  while (p < end) {
    wire_field f;
    if (!wire_field_read(&p, end, &f)) return 0;
  }
  return 1;
}

/* One dim: the known number, else the declared dim as it is, else the
 * symbol or expression, else empty; the declared dim's other fields (its
 * denotation) kept. */
typedef struct dim_ctx {
  const onnxshape_value_info *v;
  size_t k;
  span decl; /* len 0 with at NULL: none declared */
} dim_ctx;

static void dim_content(emitter *e, const void *ctx) {
  const dim_ctx *c = ctx;
  static const unsigned value_and_param[] = {DIM_VALUE, DIM_PARAM};
  int64_t d = c->v->dims[c->k];
  const char *param = c->v->params != NULL ? c->v->params[c->k] : NULL;
  size_t n_value = 0, n_param = 0;
  wire_field f;
  int declared = c->decl.at != NULL && scan(c->decl, DIM_VALUE, WIRE_VARINT, &n_value, &f) &&
                 scan(c->decl, DIM_PARAM, WIRE_LEN, &n_param, &f);
  if (d < 0 && declared && n_value + n_param > 0) {
    put(e, c->decl.at, c->decl.len);
    return;
  }
  if (d >= 0) {
    put_tag(e, DIM_VALUE, WIRE_VARINT);
    put_varint(e, (uint64_t)d);
  } else if (param != NULL) {
    put_dim_param(e, param);
  }
  if (declared) put_others(e, c->decl, value_and_param, 2);
}

/* The shape: the declared dims merged one by one when the declared rank is
 * the known one, else the known dims alone. */
typedef struct shape_ctx {
  const onnxshape_value_info *v;
  span decl; /* at NULL: none */
} shape_ctx;

static void shape_content(emitter *e, const void *ctx) {
  const shape_ctx *c = ctx;
  size_t n_dims = 0;
  wire_field last;
  int merge = c->decl.at != NULL && scan(c->decl, SHAPE_DIM, WIRE_LEN, &n_dims, &last) &&
              n_dims == c->v->rank;
  if (!merge) {
    for (size_t k = 0; k < c->v->rank; k++) {
      dim_ctx d = {c->v, k, {NULL, 0}};
      put_message(e, SHAPE_DIM, dim_content, &d);
    }
    return;
  }
  const uint8_t *p = c->decl.at, *end = c->decl.at + c->decl.len;
  size_t k = 0;
  while (p < end) {
    const uint8_t *start = p;
    wire_field f;
    if (!wire_field_read(&p, end, &f)) return; /* scanned above */
    if (f.number != SHAPE_DIM) {
      put(e, start, (size_t)(p - start));
      continue;
    }
    dim_ctx d = {c->v, k++, field_span(&f)};
    put_message(e, SHAPE_DIM, dim_content, &d);
  }
}

/* TypeProto.Tensor: the element type (the known one, else the declared),
 * the shape, then the declared tensor's other fields. */
typedef struct tensor_ctx {
  const onnxshape_value_info *v;
  span decl;        /* at NULL: none */
  int64_t elem;     /* the element type written, 0 for none */
  int has_shape;    /* a declared shape */
  wire_field shape; /* it */
} tensor_ctx;

static void tensor_content(emitter *e, const void *ctx) {
  const tensor_ctx *c = ctx;
  static const unsigned type_and_shape[] = {TENSOR_ELEM_TYPE, TENSOR_SHAPE};
  if (c->elem != 0) {
    put_tag(e, TENSOR_ELEM_TYPE, WIRE_VARINT);
    put_varint(e, (uint64_t)c->elem);
  }
  if (c->v->rank_known) {
    shape_ctx s = {c->v, c->has_shape ? field_span(&c->shape) : (span){NULL, 0}};
    put_message(e, TENSOR_SHAPE, shape_content, &s);
  } else if (c->has_shape) {
    put_tag(e, TENSOR_SHAPE, WIRE_LEN);
    put_varint(e, c->shape.v);
    put(e, c->shape.at, (size_t)c->shape.v);
  }
  if (c->decl.at != NULL) put_others(e, c->decl, type_and_shape, 2);
}

/* TypeProto: the tensor type, then the declared type's other fields (its
 * denotation). */
typedef struct type_ctx {
  const tensor_ctx *tensor;
  span decl; /* at NULL: none */
} type_ctx;

static void type_content(emitter *e, const void *ctx) {
  const type_ctx *c = ctx;
  static const unsigned tensor[] = {TYPE_TENSOR};
  put_message(e, TYPE_TENSOR, tensor_content, c->tensor);
  if (c->decl.at != NULL) put_others(e, c->decl, tensor, 1);
}

/* A ValueInfoProto: the declared one's fields but its type, then the
 * merged type; or a new one, its name and type. */
typedef struct entry_ctx {
  const onnxshape_value_info *v;
  span decl; /* at NULL: a new entry */
  const type_ctx *type;
} entry_ctx;

static void entry_content(emitter *e, const void *ctx) {
  const entry_ctx *c = ctx;
  static const unsigned type_field[] = {VI_TYPE};
  if (c->decl.at != NULL) put_others(e, c->decl, type_field, 1);
  else put_string(e, VI_NAME, c->v->name);
  put_message(e, VI_TYPE, type_content, c->type);
}

/* Reads a declared entry's type down to its tensor: 1 when the entry can
 * be merged (no type, or one tensor type), setting *t and *type_decl. */
static int decl_tensor(span entry, const onnxshape_value_info *v, tensor_ctx *t,
                       span *type_decl) {
  size_t n;
  wire_field f;
  *t = (tensor_ctx){v, {NULL, 0}, v->type, 0, {0, 0, 0, NULL}};
  *type_decl = (span){NULL, 0};
  if (!scan(entry, VI_TYPE, WIRE_LEN, &n, &f) || n > 1) return 0;
  if (n == 0) return 1;
  *type_decl = field_span(&f);
  /* Only a tensor type (and a denotation) is merged; a sequence, map,
   * optional or sparse tensor type is kept as declared. */
  const uint8_t *p = type_decl->at, *end = type_decl->at + type_decl->len;
  size_t n_tensor = 0;
  while (p < end) {
    wire_field g;
    if (!wire_field_read(&p, end, &g)) return 0;
    if (g.number == TYPE_TENSOR && g.wire == WIRE_LEN) {
      n_tensor++;
      t->decl = field_span(&g);
    } else if (g.number != TYPE_DENOTATION) {
      return 0;
    }
  }
  if (n_tensor > 1) return 0;
  if (n_tensor == 0) return 1;
  size_t n_elem, n_shape;
  wire_field elem;
  if (!scan(t->decl, TENSOR_ELEM_TYPE, WIRE_VARINT, &n_elem, &elem) ||
      !scan(t->decl, TENSOR_SHAPE, WIRE_LEN, &n_shape, &t->shape) || n_shape > 1) {
    return 0;
  }
  if (t->elem == 0 && n_elem > 0) t->elem = (int64_t)(int32_t)(uint32_t)elem.v;
  t->has_shape = n_shape == 1;
  return 1;
}

/* The values to splice, and what the walk has met. */
typedef struct named {
  const char *graph; /* its graph's path ("" for the main graph) */
  const char *name;
  size_t len;        /* of name */
  size_t index;      /* in vals */
} named;

typedef struct splice {
  const onnxshape_value_info *const *vals;
  size_t n;
  named *by_name;      /* vals sorted by graph, then name (then index) */
  size_t *by_graph;    /* indices of vals sorted by graph, then index */
  unsigned char *seen; /* by index: an entry of its graph names it */
  int failed;          /* memory ran out: the file is not written */
  const model_graph *const *sure; /* the graphs spliced, by address */
  size_t n_sure;
} splice;

/* 1 when g is one of s->sure. */
static int is_sure(const splice *s, const model_graph *g) {
  size_t lo = 0, hi = s->n_sure;
  uintptr_t key = (uintptr_t)g;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    uintptr_t at = (uintptr_t)s->sure[mid];
    if (at == key) return 1;
    if (at < key) lo = mid + 1;
    else hi = mid;
  }
  return 0;
}

/* Names as bytes: the shorter first on a common prefix. */
static int name_cmp(const char *a, size_t al, const uint8_t *b, size_t bl) {
  int c = memcmp(a, b, al < bl ? al : bl);
  return c != 0 ? c : (al > bl) - (al < bl);
}

static int by_name_cmp(const void *a, const void *b) {
  const named *x = a, *y = b;
  int c = strcmp(x->graph, y->graph);
  if (c == 0) c = name_cmp(x->name, x->len, (const uint8_t *)y->name, y->len);
  return c != 0 ? c : (x->index > y->index) - (x->index < y->index);
}

/* The index of the value of graph `graph` named [name, name + len), or
 * SIZE_MAX. */
static size_t find(const splice *s, const char *graph, const uint8_t *name, size_t len) {
  size_t lo = 0, hi = s->n; /* the first not below (graph, name) */
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    const named *m = &s->by_name[mid];
    int c = strcmp(m->graph, graph);
    if (c == 0) c = name_cmp(m->name, m->len, name, len);
    if (c < 0) lo = mid + 1;
    else hi = mid;
  }
  if (lo < s->n && strcmp(s->by_name[lo].graph, graph) == 0 &&
      name_cmp(s->by_name[lo].name, s->by_name[lo].len, name, len) == 0) {
    return s->by_name[lo].index;
  }
  return SIZE_MAX;
}

/* One graph input, output or value_info entry: merged when its name is
 * known and its type can be, else copied. */
static void put_entry(emitter *e, splice *s, const char *graph, unsigned field, span entry,
                      const uint8_t *start, const uint8_t *end) {
  size_t n_names;
  wire_field name;
  size_t i = SIZE_MAX;
  if (scan(entry, VI_NAME, WIRE_LEN, &n_names, &name) && n_names > 0) {
    i = find(s, graph, name.at, (size_t)name.v);
  }
  if (i != SIZE_MAX) s->seen[i] = 1;
  tensor_ctx t;
  span type_decl;
  if (i == SIZE_MAX || (s->vals[i]->type == 0 && !s->vals[i]->rank_known) ||
      !decl_tensor(entry, s->vals[i], &t, &type_decl)) {
    put(e, start, (size_t)(end - start));
    return;
  }
  type_ctx ty = {&t, type_decl};
  entry_ctx c = {s->vals[i], entry, &ty};
  put_message(e, field, entry_content, &c);
}

/* 1 for a value that gets a new value_info entry when no entry names it:
 * the output of a node (or a declared value), its element type known. */
static int wants_entry(const onnxshape_value_info *v) {
  return v->type != 0 && v->origin != ONNXSHAPE_ORIGIN_INPUT &&
         v->origin != ONNXSHAPE_ORIGIN_INITIALIZER && v->origin != ONNXSHAPE_ORIGIN_NOT_ANALYSED;
}

typedef struct graph_ctx {
  splice *s;
  span graph;
  int last;              /* the last field of this graph: the new entries go there */
  const model_graph *mg; /* the graph as loaded */
  size_t first_node;     /* the file index of its first node (the main graph's fields
                            after the first continue its nodes, as protobuf merges them) */
} graph_ctx;

static void graph_content(emitter *e, const void *ctx);

/* An attribute of a node that holds graphs: each graph the loader loaded
 * from it (its last `g`, then every one of `graphs`) spliced, the rest
 * copied. */
typedef struct attr_ctx {
  splice *s;
  span attr;
  const node_subgraph *subs; /* its graphs, in the order the loader took them */
} attr_ctx;

static void attr_content(emitter *e, const void *ctx) {
  const attr_ctx *c = ctx;
  size_t n_g = 0, k = 0;
  wire_field last_g;
  (void)scan(c->attr, AP_G, WIRE_LEN, &n_g, &last_g); /* checked by the caller */
  const uint8_t *p = c->attr.at, *end = c->attr.at + c->attr.len;
  while (p < end) {
    const uint8_t *start = p;
    wire_field f;
    if (!wire_field_read(&p, end, &f)) return;
    const node_subgraph *sub = NULL;
    if (f.number == AP_G && f.at == last_g.at) sub = &c->subs[0];
    else if (f.number == AP_GRAPHS) sub = &c->subs[(n_g > 0 ? 1 : 0) + k++];
    if (sub == NULL || !is_sure(c->s, sub->graph) || !well_formed(field_span(&f))) {
      put(e, start, (size_t)(p - start));
      continue;
    }
    graph_ctx g = {c->s, field_span(&f), 1, sub->graph, 0};
    put_message(e, (unsigned)f.number, graph_content, &g);
  }
}

/* How many graphs the loader took from attribute a (its last `g` and each
 * of `graphs`), and whether its name is `name`: 0 when a does not read. */
static int attr_graphs(span a, size_t *count, span *name) {
  size_t n_g, n_graphs, n_names;
  wire_field f, nf;
  if (!scan(a, AP_G, WIRE_LEN, &n_g, &f) || !scan(a, AP_GRAPHS, WIRE_LEN, &n_graphs, &f) ||
      !scan(a, AP_NAME, WIRE_LEN, &n_names, &nf)) {
    return 0;
  }
  *count = (n_g > 0 ? 1u : 0u) + n_graphs;
  *name = n_names > 0 ? field_span(&nf) : (span){(const uint8_t *)"", 0};
  return 1;
}

/* A node that holds graphs: its attributes matched with the graphs the
 * loader took from them, in order, each by its attribute's name. */
typedef struct node_ctx {
  splice *s;
  span node;
  const graph_node *n;
} node_ctx;

/* 1 when the attributes of c's node hold exactly the graphs the loader
 * took, attribute by attribute. */
static int node_matches(const node_ctx *c) {
  const uint8_t *p = c->node.at, *end = c->node.at + c->node.len;
  size_t at = 0;
  while (p < end) {
    wire_field f;
    if (!wire_field_read(&p, end, &f)) return 0;
    if (f.number != NODE_ATTRIBUTE || f.wire != WIRE_LEN) continue;
    size_t count;
    span name;
    if (!attr_graphs(field_span(&f), &count, &name)) return 0;
    for (size_t k = 0; k < count; k++, at++) {
      if (at >= c->n->n_subgraphs) return 0;
      const char *want = c->n->subgraphs[at].attr;
      if (name_cmp(want, strlen(want), name.at, name.len) != 0) return 0;
    }
  }
  return at == c->n->n_subgraphs;
}

static void node_content(emitter *e, const void *ctx) {
  const node_ctx *c = ctx;
  const uint8_t *p = c->node.at, *end = c->node.at + c->node.len;
  size_t at = 0;
  while (p < end) {
    const uint8_t *start = p;
    wire_field f;
    if (!wire_field_read(&p, end, &f)) return; /* node_matches read it */
    size_t count = 0;
    span name;
    if (f.number == NODE_ATTRIBUTE && f.wire == WIRE_LEN &&
        attr_graphs(field_span(&f), &count, &name) && count > 0) {
      attr_ctx a = {c->s, field_span(&f), &c->n->subgraphs[at]};
      at += count;
      put_message(e, NODE_ATTRIBUTE, attr_content, &a);
    } else {
      put(e, start, (size_t)(p - start));
    }
  }
}

/* The loaded node of g at file index i, or NULL; by_index (g->n_nodes
 * entries, or NULL) inverts g's order when it is not the file's. */
static const graph_node *node_at(const model_graph *g, const graph_node *const *by_index,
                                 size_t i) {
  if (i >= g->n_nodes) return NULL;
  if (by_index != NULL) return by_index[i];
  return g->nodes[i].index == i ? &g->nodes[i] : NULL;
}

/* The nodes of g by file index when its order is not the file's, else
 * NULL (also when memory runs out: then s->failed). */
static const graph_node **invert_order(splice *s, const model_graph *g) {
  size_t i = 0;
  while (i < g->n_nodes && g->nodes[i].index == i) i++;
  if (i == g->n_nodes) return NULL;
  const graph_node **by_index = onnxshape__calloc(g->n_nodes, sizeof *by_index);
  if (by_index == NULL) {
    s->failed = 1;
    return NULL;
  }
  for (size_t j = 0; j < g->n_nodes; j++) {
    if (g->nodes[j].index < g->n_nodes) by_index[g->nodes[j].index] = &g->nodes[j];
  }
  return by_index;
}

/* The first of s->by_graph in graph `path` (s->n when none). */
static size_t graph_start(const splice *s, const char *path) {
  size_t lo = 0, hi = s->n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (strcmp(s->vals[s->by_graph[mid]]->graph, path) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

static void graph_content(emitter *e, const void *ctx) {
  const graph_ctx *c = ctx;
  splice *s = c->s;
  const char *path = c->mg->path;
  const graph_node **by_index = invert_order(s, c->mg);
  const uint8_t *p = c->graph.at, *end = c->graph.at + c->graph.len;
  size_t i = c->first_node; /* the file index of the next node */
  while (p < end) {
    const uint8_t *start = p;
    wire_field f;
    if (!wire_field_read(&p, end, &f)) break; /* checked by the caller */
    if ((f.number == GRAPH_INPUT || f.number == GRAPH_OUTPUT || f.number == GRAPH_VALUE_INFO) &&
        f.wire == WIRE_LEN) {
      put_entry(e, s, path, (unsigned)f.number, field_span(&f), start, p);
      continue;
    }
    const graph_node *n = NULL;
    if (f.number == GRAPH_NODE && f.wire == WIRE_LEN) n = node_at(c->mg, by_index, i++);
    node_ctx nc = {s, field_span(&f), n};
    if (n != NULL && n->n_subgraphs > 0 && node_matches(&nc)) {
      put_message(e, GRAPH_NODE, node_content, &nc);
    } else {
      put(e, start, (size_t)(p - start));
    }
  }
  onnxshape__free((void *)by_index);
  if (!c->last) return;
  for (size_t k = graph_start(s, path);
       k < s->n && strcmp(s->vals[s->by_graph[k]]->graph, path) == 0; k++) {
    size_t j = s->by_graph[k];
    const onnxshape_value_info *v = s->vals[j];
    if (s->seen[j] || !wants_entry(v)) continue;
    tensor_ctx t = {v, {NULL, 0}, v->type, 0, {0, 0, 0, NULL}};
    type_ctx ty = {&t, {NULL, 0}};
    entry_ctx en = {v, {NULL, 0}, &ty};
    put_message(e, GRAPH_VALUE_INFO, entry_content, &en);
  }
}

typedef struct model_ctx {
  splice *s;
  span model;
  const uint8_t *last_graph;    /* where the last graph field's bytes start */
  const model_graph *main;      /* the main graph as loaded */
  const onnxshape__map *source; /* the mapping bytes lie in, or NULL */
} model_ctx;

/* The NodeProtos of graph g. */
static size_t count_nodes(span g) {
  size_t n = 0;
  wire_field f;
  return scan(g, GRAPH_NODE, WIRE_LEN, &n, &f) ? n : 0;
}

/* The model: every field as it is, each main graph spliced. */
static void model_content(emitter *e, const void *ctx) {
  const model_ctx *c = ctx;
  const uint8_t *p = c->model.at, *end = c->model.at + c->model.len;
  size_t nodes = 0;
  while (p < end) {
    const uint8_t *start = p;
    wire_field f;
    if (!wire_field_read(&p, end, &f)) return; /* checked by the caller */
    if (f.number == MODEL_GRAPH && f.wire == WIRE_LEN) {
      graph_ctx g = {c->s, field_span(&f), f.at == c->last_graph, c->main, nodes};
      nodes += count_nodes(g.graph);
      put_message(e, MODEL_GRAPH, graph_content, &g);
    } else {
      put(e, start, (size_t)(p - start));
    }
  }
}

/* Checks the model's fields and its graphs' (entries and nodes are checked
 * where they are rewritten); the place of the last graph in *last_graph; 0
 * when they do not read or there is no graph. */
static int check_model(span model, const uint8_t **last_graph) {
  const uint8_t *p = model.at, *end = model.at + model.len;
  *last_graph = NULL;
  while (p < end) {
    wire_field f;
    if (!wire_field_read(&p, end, &f)) return 0;
    if (f.number != MODEL_GRAPH) continue;
    if (f.wire != WIRE_LEN || !well_formed(field_span(&f))) return 0;
    *last_graph = f.at;
  }
  return *last_graph != NULL;
}

static onnxshape_status write_spliced(int fd, const char *shown, const void *ctx,
                                      onnxshape_diag *diag) {
  const model_ctx *c = ctx;
  onnxshape__sink *sink = onnxshape__sink_new(fd);
  if (sink == NULL) return onnxshape__out_of_memory(NULL, NULL, diag);
  emitter e = {sink, 0};
  model_content(&e, ctx);
  onnxshape_status st = onnxshape__sink_finish(sink, shown, diag);
  if (st == ONNXSHAPE_OK && c->s->failed) st = onnxshape__out_of_memory(NULL, NULL, diag);
  /* A mapped file cut short meanwhile: what was copied is not the model
   * (checked before the rename). */
  if (st == ONNXSHAPE_OK && c->source != NULL) st = onnxshape__map_check(c->source, diag);
  return st;
}

/* The size of the largest main graph once spliced: protobuf-c reads no
 * length past INT_MAX (a subgraph is smaller than the graph holding it). */
static uint64_t largest_graph(const model_ctx *c) {
  uint64_t most = 0;
  size_t nodes = 0;
  const uint8_t *p = c->model.at, *end = c->model.at + c->model.len;
  while (p < end) {
    wire_field f;
    if (!wire_field_read(&p, end, &f)) break;
    if (f.number != MODEL_GRAPH) continue;
    graph_ctx g = {c->s, field_span(&f), f.at == c->last_graph, c->main, nodes};
    nodes += count_nodes(g.graph);
    emitter m = {NULL, 0};
    graph_content(&m, &g);
    if (m.n > most) most = m.n;
  }
  return most;
}

/* Indices in order (each graph's run of by_graph). */
static int index_cmp(const void *a, const void *b) {
  size_t i = *(const size_t *)a, j = *(const size_t *)b;
  return (i > j) - (i < j);
}

onnxshape_status onnxshape__model_write_values(const onnxshape_model *m, const uint8_t *bytes,
                                               size_t len, const onnxshape__map *source,
                                               const onnxshape_value_info *const *vals, size_t n,
                                               const model_graph *const *sure, size_t n_sure,
                                               const char *path, onnxshape_diag *diag) {
  span model = {bytes, len};
  const uint8_t *last_graph;
  if (!check_model(model, &last_graph)) {
    return onnxshape__error(diag, ONNXSHAPE_ERR_MALFORMED,
                            "cannot write '{}': the model's bytes do not read as a ModelProto "
                            "with a graph",
                            ONNXSHAPE__ARGS(ARG_NAME(path)));
  }
  named *by_name = onnxshape__malloc_n(n + 1, sizeof *by_name);
  size_t *by_graph = onnxshape__malloc_n(n + 1, sizeof *by_graph);
  unsigned char *seen = onnxshape__malloc(n + 1);
  if (by_name == NULL || by_graph == NULL || seen == NULL) {
    onnxshape__free(by_name);
    onnxshape__free(by_graph);
    onnxshape__free(seen);
    return onnxshape__out_of_memory(NULL, NULL, diag);
  }
  for (size_t i = 0; i < n; i++) {
    by_name[i] = (named){vals[i]->graph, vals[i]->name, strlen(vals[i]->name), i};
  }
  qsort(by_name, n, sizeof *by_name, by_name_cmp);
  /* Each graph's run of by_name, by index. */
  for (size_t i = 0; i < n; i++) by_graph[i] = by_name[i].index;
  for (size_t i = 0; i < n;) {
    size_t j = i + 1;
    while (j < n && strcmp(by_name[j].graph, by_name[i].graph) == 0) j++;
    qsort(by_graph + i, j - i, sizeof *by_graph, index_cmp);
    i = j;
  }
  memset(seen, 0, n + 1);
  splice s = {vals, n, by_name, by_graph, seen, 0, sure, n_sure};
  model_ctx c = {&s, model, last_graph, &m->g, source};
  onnxshape_status st = ONNXSHAPE_OK;
  uint64_t most = largest_graph(&c);
  if (s.failed) {
    st = onnxshape__out_of_memory(NULL, NULL, diag);
  } else if (most > INT_MAX) {
    st = onnxshape__error(diag, ONNXSHAPE_ERR_OVERFLOW,
                          "cannot write '{}': its graph with the value_info would take {} bytes, "
                          "past protobuf's 2 GiB limit for a message",
                          ONNXSHAPE__ARGS(ARG_NAME(path), ARG_UINT(most)));
  }
  if (st == ONNXSHAPE_OK) st = onnxshape__write_file_via(path, write_spliced, &c, diag);
  onnxshape__free(by_name);
  onnxshape__free(by_graph);
  onnxshape__free(seen);
  return st;
}
