/* SPDX-License-Identifier: Apache-2.0 */
/* Graphs, their nodes and the name index (load.h): a GraphProto to a
 * model_graph, its values declared, defined and connected, its subgraphs
 * loaded where their nodes are. */
#include <stdio.h>
#include <string.h>

#include "load.h"
#include "pbfast.h"
#include "tensor.h"
#include "wire.h"

/* The size of an open-addressing index for n entries (a power of two, at
 * least 8 and at least twice n), or 0 when it would not fit; the size - 1
 * in *mask. */
static size_t index_size(size_t n, size_t *mask) {
  size_t size = 8;
  while (size / 2 < n && size <= SIZE_MAX / 4) size *= 2;
  *mask = size - 1;
  return size / 2 >= n ? size : 0;
}

/* A zeroed open-addressing index for n entries in the model's arena (its
 * size - 1 in *mask); NULL when out of memory. Slots, functions and a
 * call's attributes use one. */
size_t *onnxshape__new_index(onnxshape_model *m, size_t n, size_t *mask) {
  size_t size = index_size(n, mask);
  return size != 0 ? model_alloc(m, size, sizeof(size_t)) : NULL;
}

/* The local index of the slot named key.s in g alone, or -1; *free_at is
 * where the index would take it. Hashes are compared first, names only
 * when they match (at once when both are one interned name). */
static inline long find_slot_at(const model_graph *g, name_key key, size_t *free_at) {
  size_t at = key.hash & g->slot_mask;
  for (size_t e; (e = g->slot_index[at]) != 0; at = (at + 1) & g->slot_mask) {
    onnxshape__probes++;
    const value_slot *s = &g->slots[e - 1];
    if (s->hash == key.hash && onnxshape__same_name(s->name, key.s)) return (long)(e - 1);
  }
  *free_at = at;
  return -1;
}

/* The id of the value named key.s in g or the graphs around it, or -1. */
static long find_slot_key(const model_graph *g, name_key key) {
  for (; g != NULL; g = g->parent) {
    size_t unused;
    long i = find_slot_at(g, key, &unused);
    if (i >= 0) return (long)g->slots[i].id;
  }
  return -1;
}

long onnxshape__graph_find_slot(const model_graph *g, const char *name) {
  return find_slot_key(g, (name_key){name, onnxshape__name_hash(name)});
}

/* The kind of a value that is not a tensor, for messages; NULL for a
 * tensor. */
static const char *other_kind(Onnx__TypeProto__ValueCase c) {
  switch (c) {
    case ONNX__TYPE_PROTO__VALUE_SEQUENCE_TYPE: return "a sequence";
    case ONNX__TYPE_PROTO__VALUE_MAP_TYPE: return "a map";
    case ONNX__TYPE_PROTO__VALUE_OPTIONAL_TYPE: return "an optional";
    case ONNX__TYPE_PROTO__VALUE_SPARSE_TENSOR_TYPE: return "a sparse tensor";
    default: return NULL;
  }
}

/* d's element type and shape from tt (NULL: neither); *bad the index of
 * a dim_value below 0, else SIZE_MAX. 0 when out of memory. */
static int tensor_decl(onnxshape_model *m, const Onnx__TypeProto__Tensor *tt, value_decl *d,
                       size_t *bad) {
  *bad = SIZE_MAX;
  if (tt == NULL) return 1;
  d->has_type = tt->has_elem_type && onnxshape_type_get(tt->elem_type) != NULL;
  d->elem_type = d->has_type ? tt->elem_type : 0;
  if (tt->shape == NULL) return 1;
  d->has_shape = 1;
  d->rank = tt->shape->n_dim;
  if (d->rank > 0) {
    d->dims = model_alloc(m, d->rank, sizeof *d->dims);
    if (d->dims == NULL) return 0;
  }
  for (size_t i = 0; i < d->rank; i++) {
    const Onnx__TensorShapeProto__Dimension *dim = tt->shape->dim[i];
    d->dims[i].value = -1;
    if (dim->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE) {
      if (dim->dim_value < 0) {
        *bad = i;
        return 1;
      }
      d->dims[i].value = dim->dim_value;
    } else if (dim->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM &&
               dim->dim_param != NULL && dim->dim_param[0] != '\0') {
      d->dims[i].param = dim->dim_param;
    }
  }
  return 1;
}

/* A declaration of a value. The main graph's inputs and outputs must have a
 * type, and a tensor one a known element type; a sequence, map, optional or
 * sparse tensor is loaded as such (not_tensor: analysis knows nothing of
 * it, run refuses the model). value_info and a subgraph's inputs and
 * outputs may say less (no type): has_type stays 0. */
static onnxshape_status load_decl(onnxshape_model *m, const Onnx__ValueInfoProto *vi,
                                  value_decl *d, const char *what, int strict,
                                  onnxshape_diag *diag) {
  d->name = vi->name != NULL ? vi->name : "";
  if (d->name[0] == '\0') return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_MODEL, "a graph {} has no name", ONNXSHAPE__ARGS(ARG_STR(what)));
  const Onnx__TypeProto *tp = vi->type;
  d->not_tensor = tp != NULL ? other_kind(tp->value_case) : NULL;
  if (!strict) {
    const Onnx__TypeProto__Tensor *tt =
        tp != NULL && tp->value_case == ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE ? tp->tensor_type : NULL;
    if (tt == NULL || !tt->has_elem_type || onnxshape_type_get(tt->elem_type) == NULL) {
      if (tt == NULL || tt->shape == NULL) return ONNXSHAPE_OK;
    }
  }
  if (tp == NULL || tp->value_case == ONNX__TYPE_PROTO__VALUE__NOT_SET) {
    return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_MODEL,
                 "graph {} '{}' has no type (ONNX requires one for graph inputs and outputs)", ONNXSHAPE__ARGS(ARG_STR(what), ARG_NAME(d->name)));
  }
  if (tp->value_case != ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE) return ONNXSHAPE_OK;
  const Onnx__TypeProto__Tensor *tt = tp->tensor_type;
  if (!strict && (!tt->has_elem_type || onnxshape_type_get(tt->elem_type) == NULL)) {
    /* a shape without a (known) element type */
  } else if (!tt->has_elem_type || onnxshape_type_get(tt->elem_type) == NULL) {
    return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_MODEL, "graph {} '{}' has {} element type {}", ONNXSHAPE__ARGS(ARG_STR(what), ARG_NAME(d->name), ARG_NAME(tt->has_elem_type ? "unknown" : "no"), ARG_INT(tt->elem_type)));
  }
  size_t bad;
  if (!tensor_decl(m, tt, d, &bad)) return out_of_memory(m, diag);
  if (bad != SIZE_MAX) {
    return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_MODEL, "graph {} '{}' declares dim {} = {}", ONNXSHAPE__ARGS(ARG_STR(what), ARG_NAME(d->name), ARG_UINT(bad), ARG_INT(tt->shape->dim[bad]->dim_value)));
  }
  return ONNXSHAPE_OK;
}

/* The bytes of field 1 (elem_type) of a TypeProto.Sequence or
 * TypeProto.Optional in b, into *inner: 1 when found, 0 when there is
 * none, -1 when b is malformed, -2 when out of memory. Several occurrences
 * are merged as protobuf merges a message field: their bytes joined (a
 * copy in the model's arena, no longer than b). */
static int wrapped_type(onnxshape_model *m, const ProtobufCBinaryData *b,
                        ProtobufCBinaryData *inner) {
  if (b->len == 0) return 0; /* data may be NULL then */
  const uint8_t *p = b->data, *end = b->data + b->len;
  size_t total = 0, count = 0;
  wire_field f;
  while (p < end) {
    if (!wire_field_read(&p, end, &f)) return -1;
    if (f.number != 1) continue;
    if (f.wire != WIRE_LEN) return -1;
    if (count++ == 0) {
      inner->data = (uint8_t *)(uintptr_t)f.at;
      inner->len = (size_t)f.v;
    }
    total += (size_t)f.v; /* at most b->len */
  }
  if (count <= 1) return (int)count;
  uint8_t *joined = model_alloc(m, total + 1, 1);
  if (joined == NULL) return -2;
  size_t at = 0;
  for (p = b->data; p < end && wire_field_read(&p, end, &f);) {
    if (f.number != 1) continue;
    memcpy(joined + at, f.at, (size_t)f.v);
    at += (size_t)f.v;
  }
  inner->data = joined;
  inner->len = total;
  return 1;
}

/* Attribute a of node n holds bytes that are not a TypeProto. */
static onnxshape_status not_type_proto(const graph_node *n, const node_attr *a,
                                       onnxshape_diag *diag) {
  return NFAIL(n, ONNXSHAPE_ERR_MALFORMED, "attribute '{}' is not a valid TypeProto", ONNXSHAPE__ARGS(ARG_NAME(a->name)));
}

/* Attribute a of node n, a TYPE_PROTO in b, as an attr_type_info chain of
 * TYPE_ATTR_DEPTH links at most; the levels below are decoded and checked
 * too, to TYPE_ATTR_NEST_MAX. A type that does not decode, a dim below 0
 * or a deeper nesting is an error, as it is for protobuf and onnx. */
static onnxshape_status load_type_attr(onnxshape_model *m, graph_node *n, node_attr *a,
                                       const ProtobufCBinaryData *b, onnxshape_diag *diag) {
  attr_type_info **link = (attr_type_info **)&a->tp;
  ProtobufCBinaryData bytes = *b;
  for (unsigned depth = 0; depth < TYPE_ATTR_NEST_MAX; depth++) {
    ProtobufCMessage *msg;
    onnxshape_status st = onnxshape__decode_held(m, &onnx__type_proto__descriptor, &bytes, &msg,
                                                 diag);
    if (st == ONNXSHAPE_ERR_MALFORMED) return not_type_proto(n, a, diag);
    if (st != ONNXSHAPE_OK) return st;
    const Onnx__TypeProto *tp = (const Onnx__TypeProto *)msg;
    attr_type_info below; /* a level past TYPE_ATTR_DEPTH: checked, not kept */
    attr_type_info *t = &below;
    memset(&below, 0, sizeof below);
    if (link != NULL) {
      t = model_alloc(m, 1, sizeof *t);
      if (t == NULL) return out_of_memory(m, diag);
      *link = t;
    }
    t->decl.name = a->name;
    if (tp->value_case == ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE) {
      size_t bad;
      t->kind = TP_TENSOR;
      if (!tensor_decl(m, tp->tensor_type, &t->decl, &bad)) return out_of_memory(m, diag);
      if (bad != SIZE_MAX) {
        return NFAIL(n, ONNXSHAPE_ERR_INVALID_ATTRIBUTE, "attribute '{}' declares dim {} = {}", ONNXSHAPE__ARGS(ARG_NAME(a->name), ARG_UINT(bad), ARG_INT(tp->tensor_type->shape->dim[bad]->dim_value)));
      }
      return ONNXSHAPE_OK;
    }
    const ProtobufCBinaryData *wrapper =
        tp->value_case == ONNX__TYPE_PROTO__VALUE_SEQUENCE_TYPE   ? &tp->sequence_type
        : tp->value_case == ONNX__TYPE_PROTO__VALUE_OPTIONAL_TYPE ? &tp->optional_type
                                                                  : NULL;
    if (wrapper == NULL) return ONNXSHAPE_OK; /* a map, a sparse tensor, nothing: TP_OTHER */
    t->kind = tp->value_case == ONNX__TYPE_PROTO__VALUE_SEQUENCE_TYPE ? TP_SEQUENCE : TP_OPTIONAL;
    int found = wrapped_type(m, wrapper, &bytes);
    if (found == -2) return out_of_memory(m, diag);
    if (found < 0) return not_type_proto(n, a, diag);
    if (found == 0) return ONNXSHAPE_OK; /* no element type: not known */
    link = depth + 1 < TYPE_ATTR_DEPTH ? (attr_type_info **)&t->elem : NULL;
  }
  return NFAIL(n, ONNXSHAPE_ERR_INVALID_ATTRIBUTE, "attribute '{}' nests types more than {} deep", ONNXSHAPE__ARGS(ARG_NAME(a->name), ARG_UINT(TYPE_ATTR_NEST_MAX)));
}

/* A new value named `name` in g; *local is its index in g->slots. A name
 * may be defined once per graph (a subgraph's inputs and initializers may
 * shadow outer names; connect_output keeps node outputs out of the
 * enclosing graphs too, as ONNX's single static assignment requires). */
static onnxshape_status add_slot(onnxshape_model *m, model_graph *g, const char *name,
                                 slot_kind kind, size_t *local, onnxshape_diag *diag) {
  size_t at = 0;
  name_key key = onnxshape__name_key(m, name);
  if (find_slot_at(g, key, &at) >= 0) {
    return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_MODEL, "the name '{}' is defined twice", ONNXSHAPE__ARGS(ARG_NAME(name)));
  }
  value_slot *s = &g->slots[g->n_slots];
  s->name = name;
  s->hash = key.hash;
  s->kind = kind;
  s->init = NULL;
  s->graph = g;
  s->id = m->n_slots++;
  *local = g->n_slots++;
  g->slot_index[at] = g->n_slots;
  return ONNXSHAPE_OK;
}

onnxshape_status onnxshape__decl_check(const value_decl *d, int32_t type, size_t rank,
                                       const int64_t *dims, const char *as, int model_error,
                                       onnxshape_diag *diag) {
  if (d->has_type && d->elem_type != type) {
    return onnxshape__error(diag, model_error ? ONNXSHAPE_ERR_INVALID_MODEL : ONNXSHAPE_ERR_TYPE_NOT_ALLOWED,
                 "input '{}' is declared {} but {} {}",
                 ONNXSHAPE__ARGS(ARG_NAME(d->name), ARG_STR(onnxshape_type_name(d->elem_type)),
                                 ARG_STR(as), ARG_STR(onnxshape_type_name(type))));
  }
  if (!d->has_shape) return ONNXSHAPE_OK;
  if (d->rank != rank) {
    return onnxshape__error(diag, model_error ? ONNXSHAPE_ERR_INVALID_MODEL : ONNXSHAPE_ERR_INVALID_RANK,
                 "input '{}' is declared with rank {} but {} rank {}",
                 ONNXSHAPE__ARGS(ARG_NAME(d->name), ARG_UINT(d->rank), ARG_STR(as), ARG_UINT(rank)));
  }
  for (size_t i = 0; i < rank; i++) {
    if (d->dims[i].value >= 0 && d->dims[i].value != dims[i]) {
      return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_MODEL, "input '{}' is declared with dim {} = {} but {} {}",
                   ONNXSHAPE__ARGS(ARG_NAME(d->name), ARG_UINT(i), ARG_INT(d->dims[i].value),
                                   ARG_STR(as), ARG_INT(dims[i])));
    }
  }
  return ONNXSHAPE_OK;
}

/* Input `in` of node n: defined earlier in g or a graph around it. */
static onnxshape_status connect_input(const onnxshape_model *m, const model_graph *g,
                                      const graph_node *n, const char *in, size_t *id,
                                      onnxshape_diag *diag) {
  long s = find_slot_key(g, onnxshape__name_key(m, in));
  if (s < 0) {
    return NFAIL(n, ONNXSHAPE_ERR_INVALID_MODEL,
                 "input '{}' is not a {} input, {}or the output of an earlier node",
                 ONNXSHAPE__ARGS(ARG_NAME(in), ARG_STR(graph_kind(g)),
                                 ARG_STR(is_body(g) ? "" : "an initializer ")));
  }
  *id = (size_t)s;
  return ONNXSHAPE_OK;
}

/* Output `out` of node n: a new name. */
static onnxshape_status connect_output(onnxshape_model *m, model_graph *g, graph_node *n,
                                       const char *out, size_t *id, onnxshape_diag *diag) {
  size_t unused;
  name_key key = onnxshape__name_key(m, out);
  if (find_slot_at(g, key, &unused) >= 0 || (g->parent != NULL && find_slot_key(g->parent, key) >= 0)) {
    return NFAIL(n, ONNXSHAPE_ERR_INVALID_MODEL, "output '{}' is already defined",
                 ONNXSHAPE__ARGS(ARG_NAME(out)));
  }
  size_t local;
  onnxshape_status st = add_slot(m, g, out, SLOT_NODE, &local, diag);
  if (st != ONNXSHAPE_OK) return st;
  g->slots[local].producer = n;
  *id = g->slots[local].id;
  return ONNXSHAPE_OK;
}

/* The inputs and outputs of a node that is not checked strictly: any
 * number, "" for one left out; every other input defined earlier, every
 * output a new name. */
static onnxshape_status connect_other(onnxshape_model *m, model_graph *g, graph_node *n,
                                      const Onnx__NodeProto *np, onnxshape_diag *diag) {
  n->inputs = model_alloc(m, np->n_input + 1, sizeof *n->inputs);
  n->outputs = model_alloc(m, np->n_output + 1, sizeof *n->outputs);
  if (n->inputs == NULL || n->outputs == NULL) {
    return out_of_memory(m, diag);
  }
  for (size_t i = 0; i < np->n_input; i++) {
    const char *in = np->input[i];
    n->inputs[i] = NO_SLOT;
    n->n_inputs = i + 1;
    if (in == NULL || in[0] == '\0') continue;
    onnxshape_status st = connect_input(m, g, n, in, &n->inputs[i], diag);
    if (st != ONNXSHAPE_OK) return st;
  }
  for (size_t i = 0; i < np->n_output; i++) {
    const char *out = np->output[i];
    n->outputs[i] = NO_SLOT;
    n->n_outputs = i + 1;
    if (out == NULL || out[0] == '\0') continue;
    onnxshape_status st = connect_output(m, g, n, out, &n->outputs[i], diag);
    if (st != ONNXSHAPE_OK) return st;
  }
  return ONNXSHAPE_OK;
}

/* 1 when `path` is not yet a graph's path in the model, which it then
 * becomes; 0 when it is taken; -1 when out of memory. The set doubles when
 * half full (in the arena, where the old set stays: twice the final size
 * at most). */
static int claim_path(onnxshape_model *m, const char *path) {
  if (2 * (m->n_paths + 1) > m->paths_mask + 1) {
    size_t mask = 0;
    size_t size = index_size(2 * (m->n_paths + 1), &mask);
    const char **set = size != 0 ? model_alloc(m, size, sizeof *set) : NULL;
    if (set == NULL) return -1;
    for (size_t i = 0; m->paths != NULL && i <= m->paths_mask; i++) {
      if (m->paths[i] == NULL) continue;
      size_t at = onnxshape__name_hash(m->paths[i]) & mask;
      while (set[at] != NULL) {
        onnxshape__probes++;
        at = (at + 1) & mask;
      }
      set[at] = m->paths[i];
    }
    m->paths = set;
    m->paths_mask = mask;
  }
  size_t at = onnxshape__name_hash(path) & m->paths_mask;
  for (; m->paths[at] != NULL; at = (at + 1) & m->paths_mask) {
    onnxshape__probes++;
    if (strcmp(m->paths[at], path) == 0) return 0;
  }
  m->paths[at] = path;
  m->n_paths++;
  return 1;
}

/* "BASE#INDEX" in the model's arena, or NULL when out of memory. */
static const char *with_index(onnxshape_model *m, const char *base, size_t index) {
  size_t need = strlen(base) + 24;
  char *made = model_alloc(m, need, 1);
  if (made != NULL) (void)snprintf(made, need, "%s#%zu", base, index);
  return made;
}

/* The path of a graph that node n of g holds: g's path, n's part (its
 * name, or OP#INDEX without one), then `what` (an attribute, "[k]" after it
 * when many; or a function). While the path is taken (a name used twice, a
 * name holding "/", an attribute set twice), "#INDEX" is added to n's part,
 * so that no two graphs share a path. NULL when out of memory. */
const char *onnxshape__graph_path(onnxshape_model *m, model_graph *g, graph_node *n,
                              const char *what, int many, size_t k) {
  size_t index = n->index;
  const char *part = n->path_name;
  if (part == NULL) part = n->name[0] != '\0' ? n->name : with_index(m, n->op_type, index);
  while (part != NULL) {
    size_t need = strlen(g->path) + strlen(part) + strlen(what) + 32;
    char *path = model_alloc(m, need, 1);
    if (path == NULL) return NULL;
    size_t at = 0;
    if (g->path[0] != '\0') at += (size_t)snprintf(path, need, "%s/", g->path);
    at += (size_t)snprintf(path + at, need - at, "%s/%s", part, what);
    if (many) (void)snprintf(path + at, need - at, "[%zu]", k);
    int claimed = claim_path(m, path);
    if (claimed < 0) return NULL;
    if (claimed > 0) {
      n->path_name = part;
      return path;
    }
    part = with_index(m, part, index);
  }
  return NULL;
}

/* The length of the piece of escaped text at s (n > 0 bytes left): a
 * backslash escape (\n, \xNN, ...), a UTF-8 sequence or a byte; never
 * more than n. */
static size_t text_piece(const char *s, size_t n) {
  unsigned char c = (unsigned char)s[0];
  size_t k = c == '\\'              ? (n > 1 && s[1] == 'x' ? 4u : 2u)
             : (c & 0xe0u) == 0xc0u ? 2u
             : (c & 0xf0u) == 0xe0u ? 3u
             : (c & 0xf8u) == 0xf0u ? 4u
                                    : 1u;
  return k < n ? k : n;
}

/* model.h. Made in a buffer of its own, then copied: out may be any of the
 * three. */
void onnxshape__fit_message(char *out, size_t cap, const char *head, const char *body,
                            const char *tail) {
  char text[ONNXSHAPE_DIAG_SIZE];
  if (cap == 0) return;
  if (cap > sizeof text) cap = sizeof text;
  size_t hl = strlen(head), bl = strlen(body), tl = strlen(tail);
  static const size_t marker = 5; /* " ... " at most */
  if (hl + tl + marker >= cap) {
    /* no room for any of the body (no caller's head and tail are this long) */
    size_t n = onnxshape__format(text, cap, "{}...{}",
                                 ONNXSHAPE__ARGS(ARG_TEXT(head), ARG_TEXT(tail)));
    memcpy(out, text, n + 1);
    return;
  }
  size_t room = cap - 1 - hl - tl, at = 0;
  memcpy(text, head, hl);
  at = hl;
  if (bl <= room) {
    memcpy(text + at, body, bl);
    at += bl;
  } else {
    /* Half the room to the body's end, which names the rule, from the start
     * of a word when one starts within the first half of that; the rest to
     * its start (the operator, node, graph), to the end of a word likewise.
     * Else a cut between two pieces of text, never inside an escape or a
     * UTF-8 sequence; "..." says where. */
    size_t avail = room - marker, want = avail / 2, from = bl - want;
    size_t b_any = bl, b_word = bl;
    for (size_t i = 0; i < bl; i += text_piece(body + i, bl - i)) {
      if (i < from) continue; /* from >= 1: want < avail < bl */
      if (b_any == bl) b_any = i;
      if (body[i - 1] == ' ') {
        b_word = i;
        break;
      }
    }
    int word_b = b_word < bl && b_word - b_any <= want / 2;
    size_t b = word_b ? b_word : b_any;
    /* upto < bl: the body's start is read within it */
    size_t upto = avail - (bl - b), a_any = 0, a_word = 0;
    int found = 0;
    for (size_t i = 0; i <= upto; i += text_piece(body + i, bl - i)) {
      a_any = i;
      if (body[i] == ' ') {
        a_word = i;
        found = 1;
      }
    }
    int word_a = found && a_any - a_word <= upto / 2;
    size_t a = word_a ? a_word : a_any;
    int sp_a = word_a, sp_b = word_b;
    memcpy(text + at, body, a);
    at += a;
    if (sp_a) text[at++] = ' ';
    memcpy(text + at, "...", 3);
    at += 3;
    if (sp_b) text[at++] = ' ';
    memcpy(text + at, body + b, bl - b);
    at += bl - b;
  }
  memcpy(text + at, tail, tl);
  at += tl;
  text[at] = '\0';
  memcpy(out, text, at + 1);
}

void onnxshape__in_graph(char *out, size_t cap, const char *path, const char *note,
                         const char *message) {
  char head[ONNXSHAPE_DIAG_SIZE / 2];
  if (path[0] == '\0') {
    head[0] = '\0';
  } else {
    (void)onnxshape__format(head, sizeof head, "in {}{}{}: ",
                            ONNXSHAPE__ARGS(ARG_NAME(path), ARG_STR(note != NULL ? " " : ""),
                                            ARG_STR(note != NULL ? note : "")));
  }
  onnxshape__fit_message(out, cap, head, message, "");
}

/* A load error in graph g (not the main graph) says where, once: "in
 * PATH: ..." with the innermost graph's path, which names the graphs and
 * calls around it. */
static onnxshape_status placed(onnxshape_model *m, const model_graph *g, onnxshape_status st,
                               onnxshape_diag *diag) {
  if (st == ONNXSHAPE_OK || st == ONNXSHAPE_ERR_OUT_OF_MEMORY || m->error_placed) return st;
  m->error_placed = 1;
  onnxshape__in_graph(diag->message, sizeof diag->message, g->path, NULL, diag->message);
  return st;
}

/* Loads gp as graph sub, which node n of g holds and which sees the names
 * of `scope` (g, or for a graph a call passed into a function's body, the
 * caller's graph), then says where an error is. */
onnxshape_status onnxshape__load_held(onnxshape_model *m, model_graph *g, const model_graph *scope,
                                  graph_node *n, model_graph *sub, const Onnx__GraphProto *gp,
                                  onnxshape_diag *diag) {
  sub->owner = n;
  sub->depth = g->depth + 1;
  if (scope != NULL) {
    sub->parent = scope;
    sub->opset = scope->opset;
    sub->call = scope->call;
  }
  const char *node_label = diag->node;
  onnxshape_status st = onnxshape__load_graph(m, sub, gp, diag);
  diag->node = node_label;
  return placed(m, sub, st, diag);
}

onnxshape_status onnxshape__decode_held(onnxshape_model *m, const ProtobufCMessageDescriptor *desc,
                                        const ProtobufCBinaryData *b, ProtobufCMessage **msg,
                                        onnxshape_diag *diag) {
  onnxshape_status st = onnxshape__pb_decode_in(desc, b->data, b->len, m->arena, msg);
  if (st == ONNXSHAPE_OK && m->arena->nul_name != NULL) {
    return onnxshape__pb_nul_name(NULL, m->arena->nul_name, m->arena->nul_name_len,
                                  ONNXSHAPE_ERR_INVALID_MODEL, diag);
  }
  if (st == ONNXSHAPE_OK || st == ONNXSHAPE_ERR_MALFORMED) return st;
  return out_of_memory(m, diag);
}

/* The subgraph in `bytes` of attribute `attr` of node n of g (the k-th of
 * a GRAPHS attribute when many), which sees the names of `scope`. */
static onnxshape_status load_subgraph(onnxshape_model *m, model_graph *g, const model_graph *scope,
                                      graph_node *n, const char *attr,
                                      const ProtobufCBinaryData *bytes, int many, size_t k,
                                      onnxshape_diag *diag) {
  if (g->depth + 1 > MAX_SUBGRAPH_DEPTH) {
    return NFAIL(n, ONNXSHAPE_ERR_INVALID_MODEL,
                 "attribute '{}': subgraphs nest more than {} deep", ONNXSHAPE__ARGS(ARG_NAME(attr), ARG_UINT(MAX_SUBGRAPH_DEPTH)));
  }
  ProtobufCMessage *msg;
  onnxshape_status st = onnxshape__decode_held(m, &onnx__graph_proto__descriptor, bytes, &msg, diag);
  if (st == ONNXSHAPE_ERR_MALFORMED) {
    return NFAIL(n, st, "attribute '{}' is not a valid GraphProto", ONNXSHAPE__ARGS(ARG_NAME(attr)));
  }
  if (st != ONNXSHAPE_OK) return st;
  model_graph *sub = model_alloc(m, 1, sizeof *sub);
  node_subgraph *entry = &n->subgraphs[n->n_subgraphs];
  const char *path = onnxshape__graph_path(m, g, n, attr, many, k);
  if (sub == NULL || path == NULL) {
    return out_of_memory(m, diag);
  }
  sub->path = path;
  entry->attr = attr;
  entry->graph = sub;
  n->n_subgraphs++;
  return onnxshape__load_held(m, g, scope, n, sub, (const Onnx__GraphProto *)msg, diag);
}

/* The attributes of a node that is not checked strictly, as far as analysis
 * needs them: every scalar and list as it is, ConstantOfShape's `value`
 * tensor decoded, every GRAPH and GRAPHS attribute loaded as a subgraph
 * that sees the names of g, or of scopes[i] for the i-th attribute when
 * scopes is given and that is not NULL (a graph a call passed in); for a
 * call, none (its body loads them where its references take them). */
static onnxshape_status load_other_attrs(onnxshape_model *m, model_graph *g, graph_node *n,
                                         const Onnx__NodeProto *np, int call,
                                         const model_graph *const *scopes, onnxshape_diag *diag) {
  size_t graphs = 0;
  for (size_t i = 0; i < np->n_attribute; i++) {
    const Onnx__AttributeProto *ap = np->attribute[i];
    graphs += (ap->has_g ? 1u : 0u) + ap->n_graphs;
  }
  n->attrs = model_alloc(m, np->n_attribute + 1, sizeof *n->attrs);
  n->subgraphs = model_alloc(m, graphs + 1, sizeof *n->subgraphs);
  if (n->attrs == NULL || n->subgraphs == NULL) {
    return out_of_memory(m, diag);
  }
  for (size_t i = 0; i < np->n_attribute; i++) {
    const Onnx__AttributeProto *ap = np->attribute[i];
    node_attr *a = &n->attrs[i];
    n->n_attrs = i + 1;
    a->name = ap->name != NULL ? ap->name : "";
    if (ap->ref_attr_name != NULL) return onnxshape__stray_ref(n, a->name, diag);
    a->type = ap->has_type ? (int)ap->type : 0;
    onnxshape__copy_scalars(a, ap);
    if (call) continue; /* a call's graphs load where its body's references take them */
    const model_graph *scope = scopes != NULL && scopes[i] != NULL ? scopes[i] : g;
    onnxshape_status st = ONNXSHAPE_OK;
    if (a->type == ATTR_TYPE_PROTO && ap->has_tp && n->op == OP_OPTIONAL &&
        strcmp(a->name, "type") == 0) {
      st = load_type_attr(m, n, a, &ap->tp, diag);
    }
    if (st == ONNXSHAPE_OK && ap->has_g) st = load_subgraph(m, g, scope, n, a->name, &ap->g, 0, 0, diag);
    for (size_t k = 0; k < ap->n_graphs && st == ONNXSHAPE_OK; k++) {
      st = load_subgraph(m, g, scope, n, a->name, &ap->graphs[k], 1, k, diag);
    }
    if (st == ONNXSHAPE_OK && n->op == OP_CONSTANT_OF_SHAPE && n->version > 0 &&
        strcmp(a->name, "value") == 0 && ap->t != NULL) {
      if (n->constant != NULL) {
        return NFAIL(n, ONNXSHAPE_ERR_INVALID_ATTRIBUTE, "attribute 'value' is set twice",
                     ONNXSHAPE__NO_ARGS);
      }
      onnxshape_diag inner;
      onnxshape_diag_init(&inner);
      st = onnxshape__tensor_from_proto(ap->t, m->ext, m->arena, &n->constant, &inner);
      if (st != ONNXSHAPE_OK) {
        return NFAIL(n, st, "attribute '{}': {}", ONNXSHAPE__ARGS(ARG_NAME(a->name), ARG_TEXT(inner.message)));
      }
    }
    if (st != ONNXSHAPE_OK) return st;
  }
  return ONNXSHAPE_OK;
}

/* The node's inputs (exactly n_in, each defined before the node) and its one
 * output (a new name). */
static onnxshape_status connect(onnxshape_model *m, model_graph *g, graph_node *n,
                                const Onnx__NodeProto *np, size_t n_in, onnxshape_diag *diag) {
  if (np->n_input != n_in) {
    return NFAIL(n, ONNXSHAPE_ERR_INVALID_MODEL, "takes {} input{}; the node has {}",
                 ONNXSHAPE__ARGS(ARG_UINT(n_in), ARG_STR(n_in == 1 ? "" : "s"),
                                 ARG_UINT(np->n_input)));
  }
  if (np->n_output != 1) {
    return NFAIL(n, ONNXSHAPE_ERR_INVALID_MODEL, "has 1 output; the node has {}",
                 ONNXSHAPE__ARGS(ARG_UINT(np->n_output)));
  }
  n->inputs = model_alloc(m, n_in + 1, sizeof *n->inputs);
  n->outputs = model_alloc(m, 1, sizeof *n->outputs);
  if (n->inputs == NULL || n->outputs == NULL) {
    return out_of_memory(m, diag);
  }
  n->n_inputs = n_in;
  n->n_outputs = 1;
  for (size_t i = 0; i < n_in; i++) {
    const char *in = np->input[i];
    if (in == NULL || in[0] == '\0') {
      return NFAIL(n, ONNXSHAPE_ERR_INVALID_MODEL, "input {} is empty; it is not optional",
                   ONNXSHAPE__ARGS(ARG_UINT(i)));
    }
    onnxshape_status st = connect_input(m, g, n, in, &n->inputs[i], diag);
    if (st != ONNXSHAPE_OK) return st;
  }
  const char *out = np->output[0];
  if (out == NULL || out[0] == '\0') {
    return NFAIL(n, ONNXSHAPE_ERR_INVALID_MODEL, "output 0 is empty", ONNXSHAPE__NO_ARGS);
  }
  return connect_output(m, g, n, out, &n->outputs[0], diag);
}

/* Loads NodeProto np (the index-th of its graph in the file) as g's next
 * node. */
static onnxshape_status load_node(onnxshape_model *m, model_graph *g, const Onnx__NodeProto *np,
                                  size_t index, onnxshape_diag *diag) {
  graph_node *n = &g->nodes[g->n_nodes];
  n->index = index;
  const model_graph **scopes = NULL; /* where a graph a call passed in is loaded */
  if (g->call != NULL) {
    onnxshape_status st = onnxshape__resolve_refs(m, g->call, &np, &scopes, diag);
    if (st != ONNXSHAPE_OK) return st;
  }
  n->name = np->name != NULL ? np->name : "";
  n->op_type = np->op_type != NULL ? np->op_type : "";
  if (n->name[0] != '\0') {
    n->label = n->name; /* messages escape it, and shorten it in the middle */
  } else {
    (void)onnxshape__format(n->unnamed, sizeof n->unnamed, "#{}", ONNXSHAPE__ARGS(ARG_UINT(index)));
    n->label = n->unnamed;
  }
  diag->node = n->label;
  op_attr kernel_specs[2];
  const op_attr *specs = NULL;
  size_t n_specs = 0, n_in = 0;
  n->domain = is_default_domain(np->domain) ? "" : np->domain;
  onnxshape_status st = onnxshape__resolve_operator(g->opset, n, np, kernel_specs, &specs, &n_specs, &n_in, diag);
  if (st != ONNXSHAPE_OK) return st;
  if ((onnxshape__op_flags(n->op) & OPF_STRICT) == 0) {
    size_t unused;
    const model_function *f =
        n->op == OP_OTHER && onnxshape__calls_functions(n->domain)
            ? onnxshape__find_function(m, n->domain, n->op_type, overload_of(np->overload), &unused)
            : NULL;
    st = load_other_attrs(m, g, n, np, f != NULL, scopes, diag);
    diag->node = n->label;
    /* A call's body first: the graphs it passes in see the caller's names
     * before the call, not the call's own outputs. */
    if (st == ONNXSHAPE_OK && f != NULL) st = onnxshape__load_body(m, g, n, np, scopes, f, diag);
    diag->node = n->label;
    if (st == ONNXSHAPE_OK) st = connect_other(m, g, n, np, diag);
    return st;
  }
  st = onnxshape__load_strict_attrs(m, n, np, specs, n_specs, diag);
  if (st == ONNXSHAPE_OK) st = connect(m, g, n, np, n_in, diag);
  return st;
}

/* A sparse initializer: its name, element type and dims, as a declaration
 * (analysis sees its type and dims; nothing runs it). */
static onnxshape_status load_sparse(onnxshape_model *m, model_graph *g, const ProtobufCBinaryData *b,
                                    size_t i, onnxshape_diag *diag) {
  ProtobufCMessage *msg;
  onnxshape_status st =
      onnxshape__decode_held(m, &onnx__sparse_tensor_proto__descriptor, b, &msg, diag);
  if (st == ONNXSHAPE_ERR_MALFORMED) {
    return onnxshape__error(diag, st, "sparse initializer {} is not a valid SparseTensorProto",
                            ONNXSHAPE__ARGS(ARG_UINT(i)));
  }
  if (st != ONNXSHAPE_OK) return st;
  const Onnx__SparseTensorProto *sp = (const Onnx__SparseTensorProto *)msg;
  const char *name = sp->values != NULL && sp->values->name != NULL ? sp->values->name : "";
  if (name[0] == '\0') {
    return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_MODEL, "sparse initializer {} has no name",
                            ONNXSHAPE__ARGS(ARG_UINT(i)));
  }
  value_decl *d = model_alloc(m, 1, sizeof *d);
  decl_dim *dims = model_alloc(m, sp->n_dims + 1, sizeof *dims);
  if (d == NULL || dims == NULL) {
    return out_of_memory(m, diag);
  }
  d->name = name;
  d->has_type = sp->values->has_data_type && onnxshape_type_get(sp->values->data_type) != NULL;
  d->elem_type = d->has_type ? sp->values->data_type : 0;
  d->has_shape = 1;
  d->rank = sp->n_dims;
  d->dims = dims;
  for (size_t k = 0; k < sp->n_dims; k++) {
    if (sp->dims[k] < 0) {
      return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_MODEL,
                              "sparse initializer '{}' has dim {} = {}",
                              ONNXSHAPE__ARGS(ARG_NAME(name), ARG_UINT(k), ARG_INT(sp->dims[k])));
    }
    dims[k].value = sp->dims[k];
  }
  size_t local;
  st = add_slot(m, g, name, SLOT_SPARSE, &local, diag);
  if (st == ONNXSHAPE_OK) g->slots[local].decl = d;
  return st;
}

/* The declaration (value_info, then a graph output) that names each value
 * of g, for values that nothing evaluates. */
static void attach_decls(const onnxshape_model *m, model_graph *g) {
  for (size_t i = 0; i < g->n_value_info; i++) {
    size_t unused;
    long s = find_slot_at(g, onnxshape__name_key(m, g->value_info[i].name), &unused);
    if (s >= 0 && g->slots[s].decl == NULL) g->slots[s].decl = &g->value_info[i];
  }
  for (size_t i = 0; i < g->n_outputs; i++) {
    size_t unused;
    long s = find_slot_at(g, onnxshape__name_key(m, g->outputs[i].name), &unused);
    if (s >= 0 && g->slots[s].decl == NULL) g->slots[s].decl = &g->outputs[i];
  }
}

/* g's arrays, sized for gp (every name gp can define: its inputs,
 * initializers, sparse initializers and node outputs, all bounded by its
 * bytes), and g in the model's list of graphs. */
static onnxshape_status graph_arrays(onnxshape_model *m, model_graph *g, const Onnx__GraphProto *gp,
                                     onnxshape_diag *diag) {
  size_t cap = gp->n_input + gp->n_initializer + gp->n_sparse_initializer + 1;
  for (size_t i = 0; i < gp->n_node; i++) cap += gp->node[i]->n_output;
  g->slot_index = onnxshape__new_index(m, cap, &g->slot_mask);
  g->slots = model_alloc(m, cap, sizeof *g->slots);
  g->inits = model_alloc(m, gp->n_initializer + 1, sizeof *g->inits);
  g->inputs = model_alloc(m, gp->n_input + 1, sizeof *g->inputs);
  g->input_slots = model_alloc(m, gp->n_input + 1, sizeof *g->input_slots);
  g->outputs = model_alloc(m, gp->n_output + 1, sizeof *g->outputs);
  g->output_slots = model_alloc(m, gp->n_output + 1, sizeof *g->output_slots);
  g->value_info = model_alloc(m, gp->n_value_info + 1, sizeof *g->value_info);
  g->nodes = model_alloc(m, gp->n_node + 1, sizeof *g->nodes);
  /* The list of graphs doubles when full (in the arena, where the old list
   * stays: twice the final size at most). */
  if (m->n_graphs == m->cap_graphs) {
    size_t room = m->cap_graphs == 0 ? 8 : 2 * m->cap_graphs;
    model_graph **graphs = room <= SIZE_MAX / 4 / sizeof *graphs
                               ? model_alloc(m, room, sizeof *graphs)
                               : NULL;
    if (graphs != NULL && m->n_graphs > 0) memcpy(graphs, m->graphs, m->n_graphs * sizeof *graphs);
    if (graphs != NULL) {
      m->graphs = graphs;
      m->cap_graphs = room;
    }
  }
  if (!g->slot_index || !g->slots || !g->inits || !g->inputs || !g->input_slots || !g->outputs ||
      !g->output_slots || !g->value_info || !g->nodes || m->n_graphs == m->cap_graphs) {
    return out_of_memory(m, diag);
  }
  m->graphs[m->n_graphs++] = g;
  return ONNXSHAPE_OK;
}

/* The producers of a graph's values, by name: open addressing over the
 * NodeProtos' output names (the first node that names one; the loader
 * reports a name defined twice when it gets there). */
typedef struct producers {
  const char **names;
  size_t *nodes;
  size_t mask;
} producers;

static int index_producers(onnxshape_model *m, const Onnx__GraphProto *gp, producers *p) {
  size_t n = 0;
  for (size_t i = 0; i < gp->n_node; i++) {
    if (gp->node[i]->n_output > SIZE_MAX - n) return 0;
    n += gp->node[i]->n_output;
  }
  size_t size = index_size(n, &p->mask);
  p->names = size != 0 ? model_alloc(m, size, sizeof *p->names) : NULL;
  p->nodes = size != 0 ? model_alloc(m, size, sizeof *p->nodes) : NULL;
  if (p->names == NULL || p->nodes == NULL) return 0;
  for (size_t i = 0; i < gp->n_node; i++) {
    const Onnx__NodeProto *np = gp->node[i];
    for (size_t k = 0; k < np->n_output; k++) {
      const char *out = np->output[k];
      if (out == NULL || out[0] == '\0') continue;
      size_t at = onnxshape__name_hash(out) & p->mask;
      for (; p->names[at] != NULL; at = (at + 1) & p->mask) {
        onnxshape__probes++;
        if (strcmp(p->names[at], out) == 0) break;
      }
      if (p->names[at] != NULL) continue;
      p->names[at] = out;
      p->nodes[at] = i;
    }
  }
  return 1;
}

/* The node of the graph that makes `name`, or SIZE_MAX (a graph input, an
 * initializer, a name of an enclosing graph, or none). */
static size_t producer_of(const producers *p, const char *name) {
  if (name == NULL || name[0] == '\0') return SIZE_MAX;
  for (size_t at = onnxshape__name_hash(name) & p->mask; p->names[at] != NULL;
       at = (at + 1) & p->mask) {
    onnxshape__probes++;
    if (strcmp(p->names[at], name) == 0) return p->nodes[at];
  }
  return SIZE_MAX;
}

/* A NodeProto's label as load_node makes it: its name, or "#INDEX". */
static const char *proto_label(onnxshape_model *m, const Onnx__NodeProto *np, size_t i) {
  if (np->name != NULL && np->name[0] != '\0') return np->name;
  char *made = model_alloc(m, 24, 1);
  if (made != NULL) (void)snprintf(made, 24, "#%zu", i);
  return made;
}

/* A topological order of gp's nodes (depth first from each node in file
 * order, inputs before the node: a node comes as early as its inputs
 * allow), or a cycle. Linear in the nodes and their inputs. */
static onnxshape_status topological(onnxshape_model *m, const Onnx__GraphProto *gp,
                                    const producers *p, size_t *order, onnxshape_diag *diag) {
  size_t n = gp->n_node, done = 0;
  unsigned char *state = model_alloc(m, n, 1); /* 0 new, 1 on the path, 2 placed */
  size_t *stack = model_alloc(m, n, sizeof *stack);
  size_t *next = model_alloc(m, n, sizeof *next); /* the next input to follow */
  if (state == NULL || stack == NULL || next == NULL) return out_of_memory(m, diag);
  for (size_t root = 0; root < n; root++) {
    if (state[root] != 0) continue;
    size_t depth = 0;
    stack[depth++] = root;
    state[root] = 1;
    while (depth > 0) {
      size_t i = stack[depth - 1];
      const Onnx__NodeProto *np = gp->node[i];
      if (next[i] == np->n_input) {
        state[i] = 2;
        order[done++] = i;
        depth--;
        continue;
      }
      const char *in = np->input[next[i]++];
      size_t j = producer_of(p, in);
      if (j == SIZE_MAX || state[j] == 2) continue;
      if (state[j] == 1) {
        diag->node = NULL;
        return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_MODEL,
                                "node '{}' takes '{}', which depends on the node's own outputs: "
                                "the nodes form a cycle",
                                ONNXSHAPE__ARGS(ARG_NAME(proto_label(m, np, i)), ARG_NAME(in)));
      }
      state[j] = 1;
      stack[depth++] = j;
    }
  }
  return ONNXSHAPE_OK;
}

/* The order in which g's nodes load: NULL (the file's) when every node
 * takes values only from earlier nodes, as ONNX requires; else a
 * topological order (onnxruntime runs such a model; analysis follows it,
 * and check reports the order), which g records the first use before the
 * producer of. A node that takes its own output, or a cycle, is an error.
 * A subgraph's reads of the enclosing graph do not count as inputs here:
 * such a value must still come from an earlier node. */
static onnxshape_status node_order(onnxshape_model *m, model_graph *g, const Onnx__GraphProto *gp,
                                   size_t **order, onnxshape_diag *diag) {
  *order = NULL;
  if (gp->n_node < 2) return ONNXSHAPE_OK;
  producers p;
  if (!index_producers(m, gp, &p)) return out_of_memory(m, diag);
  for (size_t i = 0; i < gp->n_node && g->unordered_node == NULL; i++) {
    const Onnx__NodeProto *np = gp->node[i];
    for (size_t k = 0; k < np->n_input; k++) {
      size_t j = producer_of(&p, np->input[k]);
      if (j == SIZE_MAX || j < i) continue;
      g->unordered_node = proto_label(m, np, i);
      g->unordered_input = np->input[k];
      g->unordered_producer = proto_label(m, gp->node[j], j);
      if (g->unordered_node == NULL || g->unordered_producer == NULL) return out_of_memory(m, diag);
      break;
    }
  }
  if (g->unordered_node == NULL) return ONNXSHAPE_OK;
  *order = model_alloc(m, gp->n_node, sizeof **order);
  if (*order == NULL) return out_of_memory(m, diag);
  return topological(m, gp, &p, *order, diag);
}

/* g's inputs: each declared (strictly in the main graph) and a new name. */
static onnxshape_status graph_inputs(onnxshape_model *m, model_graph *g, const Onnx__GraphProto *gp,
                                     onnxshape_diag *diag) {
  for (size_t i = 0; i < gp->n_input; i++) {
    onnxshape_status st = load_decl(m, gp->input[i], &g->inputs[i], "input", g->depth == 0, diag);
    g->n_inputs = i + 1;
    if (st != ONNXSHAPE_OK) return st;
    size_t local;
    st = add_slot(m, g, g->inputs[i].name, SLOT_INPUT, &local, diag);
    if (st != ONNXSHAPE_OK) return st;
    g->slots[local].input_index = i;
    g->slots[local].decl = &g->inputs[i];
    g->input_slots[i] = g->slots[local].id;
  }
  return ONNXSHAPE_OK;
}

/* g's initializers: a new name each, or the default value of a graph input
 * of that name, which must fit its declaration; then its sparse
 * initializers. */
static onnxshape_status graph_initializers(onnxshape_model *m, model_graph *g,
                                           const Onnx__GraphProto *gp, onnxshape_diag *diag) {
  for (size_t i = 0; i < gp->n_initializer; i++) {
    onnxshape_owned_tensor *t;
    onnxshape_status st =
        onnxshape__tensor_from_proto(gp->initializer[i], m->ext, m->arena, &t, diag);
    if (st != ONNXSHAPE_OK) return st;
    g->inits[g->n_inits++] = t;
    if (t->name[0] == '\0') return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_MODEL, "initializer {} has no name", ONNXSHAPE__ARGS(ARG_UINT(i)));
    size_t unused;
    long s = find_slot_at(g, onnxshape__name_key(m, t->name), &unused);
    if (s >= 0 && (g->slots[s].init != NULL || g->slots[s].kind != SLOT_INPUT)) {
      return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_MODEL, "the name '{}' is defined twice", ONNXSHAPE__ARGS(ARG_NAME(t->name)));
    }
    if (s >= 0) { /* a graph input with a default value, which must fit its declaration */
      st = onnxshape__decl_check(&g->inputs[g->slots[s].input_index], t->view.type, t->view.rank,
                                 t->view.dims, "its initializer is", 1, diag);
      if (st != ONNXSHAPE_OK) return st;
      g->slots[s].init = t;
      continue;
    }
    size_t local;
    st = add_slot(m, g, t->name, SLOT_INITIALIZER, &local, diag);
    if (st != ONNXSHAPE_OK) return st;
    g->slots[local].init = t;
  }
  for (size_t i = 0; i < gp->n_sparse_initializer; i++) {
    onnxshape_status st = load_sparse(m, g, &gp->sparse_initializer[i], i, diag);
    if (st != ONNXSHAPE_OK) return st;
  }
  return ONNXSHAPE_OK;
}

/* g's outputs: each declared (strictly in the main graph, which must have
 * one) and a value of g or a graph around it. */
static onnxshape_status graph_outputs(onnxshape_model *m, model_graph *g, const Onnx__GraphProto *gp,
                                      onnxshape_diag *diag) {
  int main_graph = g->depth == 0;
  if (main_graph && gp->n_output == 0) return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_MODEL, "the graph has no outputs", ONNXSHAPE__NO_ARGS);
  for (size_t i = 0; i < gp->n_output; i++) {
    onnxshape_status st = load_decl(m, gp->output[i], &g->outputs[i], "output", main_graph, diag);
    g->n_outputs = i + 1;
    if (st != ONNXSHAPE_OK) return st;
    long s = find_slot_key(g, onnxshape__name_key(m, g->outputs[i].name));
    if (s < 0) {
      return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_MODEL,
                   "{} output '{}' is not produced by any node, input or initializer",
                   ONNXSHAPE__ARGS(ARG_STR(graph_kind(g)), ARG_NAME(g->outputs[i].name)));
    }
    g->output_slots[i] = (size_t)s;
  }
  return ONNXSHAPE_OK;
}

onnxshape_status onnxshape__load_graph(onnxshape_model *m, model_graph *g, const Onnx__GraphProto *gp,
                                       onnxshape_diag *diag) {
  onnxshape_status st = graph_arrays(m, g, gp, diag);
  if (st == ONNXSHAPE_OK) st = graph_inputs(m, g, gp, diag);
  if (st == ONNXSHAPE_OK) st = graph_initializers(m, g, gp, diag);
  for (size_t i = 0; i < gp->n_value_info && st == ONNXSHAPE_OK; i++) {
    st = load_decl(m, gp->value_info[i], &g->value_info[i], "value_info", 0, diag);
    g->n_value_info = i + 1;
  }
  size_t *order = NULL;
  if (st == ONNXSHAPE_OK) st = node_order(m, g, gp, &order, diag);
  for (size_t k = 0; k < gp->n_node && st == ONNXSHAPE_OK; k++) {
    size_t i = order != NULL ? order[k] : k;
    st = load_node(m, g, gp->node[i], i, diag);
    g->n_nodes = k + 1;
  }
  if (st != ONNXSHAPE_OK) return st;
  diag->node = NULL;
  st = graph_outputs(m, g, gp, diag);
  if (st == ONNXSHAPE_OK) attach_decls(m, g);
  return st;
}

/* Every value by id, once all graphs are loaded. */
onnxshape_status onnxshape__index_slots(onnxshape_model *m, onnxshape_diag *diag) {
  m->slot = model_alloc(m, m->n_slots + 1, sizeof *m->slot);
  if (m->slot == NULL) return out_of_memory(m, diag);
  for (size_t k = 0; k < m->n_graphs; k++) {
    model_graph *g = m->graphs[k];
    for (size_t i = 0; i < g->n_slots; i++) m->slot[g->slots[i].id] = &g->slots[i];
  }
  return ONNXSHAPE_OK;
}
