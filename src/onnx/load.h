/* SPDX-License-Identifier: Apache-2.0 */
/* The model loader's internal header (like SQLite's whereInt.h): what its
 * phases share. model.c holds the entry points (a file or bytes to a loaded
 * model), graph.c the graphs, their nodes and the name index, attrs.c the
 * attributes (the kernels', Constant's) and the resolution of an operator,
 * functions.c the model-local functions. Nothing outside src/onnx includes
 * it. */
#ifndef ONNXSHAPE_LOAD_H
#define ONNXSHAPE_LOAD_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../core/internal.h"
#include "alloc.h"
#include "arena.h"
#include "hash.h"
#include "model.h"
#include "onnx_subset.pb-c.h"

/* The attributes of an operator version. */
typedef struct op_attr {
  const char *name;
  int type;
  int required;
} op_attr;

/* Errors about one node: "<Op>-<v> (node '<label>'): ..." once the version
 * is known, "node '<label>' (<op_type>): ..." before. */
static inline const char *op_display(const graph_node *n) {
  return n->op_type != NULL ? n->op_type : "?";
}

#define NFAIL(n, st, ...)                                                              \
  ((n)->version > 0 ? onnxshape__fail(diag, st, op_display(n), (n)->version, __VA_ARGS__) \
                    : onnxshape__fail(diag, st, NULL, 0, __VA_ARGS__))

/* Zeroed memory for n items of `size` in the model's arena (whose memory
 * is zeroed), released with the model. */
static inline void *model_alloc(onnxshape_model *m, size_t n, size_t size) {
  if (size != 0 && n > SIZE_MAX / 2 / size) return NULL;
  return onnxshape__arena_alloc(m->arena, n * size);
}

/* A failed allocation while loading: past the memory limit (LIMIT-MEMORY:
 * a hostile model, e.g. function calls that nest to an exponential number
 * of bodies) or out of memory. */
static inline onnxshape_status out_of_memory(const onnxshape_model *m, onnxshape_diag *diag) {
  return onnxshape__out_of_memory(m != NULL ? m->arena : NULL, "loading the model", diag);
}

static inline int is_default_domain(const char *d) {
  return d == NULL || d[0] == '\0' || strcmp(d, "ai.onnx") == 0;
}

/* 1 for the body of a call of a model-local function. */
static inline int is_body(const model_graph *g) { return g->owner != NULL && g->owner->body == g; }

/* What a graph's inputs and outputs are called in messages. */
static inline const char *graph_kind(const model_graph *g) { return is_body(g) ? "function" : "graph"; }

/* An overload as compared: "" when there is none. */
static inline const char *overload_of(const char *overload) { return overload != NULL ? overload : ""; }

/* ---- graphs, nodes and the name index (graph.c) ---- */

/* The open-addressing indexes of slots, graph paths, functions and a
 * call's attributes (linear probing, at most half full) hash names with
 * onnxshape__name_hash (hash.h): keyed, with a key drawn once per process,
 * so that no list of names made offline collides. */
/* A zeroed open-addressing index for n entries in the model's arena (its
 * size - 1 in *mask); NULL when out of memory. */
size_t *onnxshape__new_index(onnxshape_model *m, size_t n, size_t *mask);
/* Loads GraphProto gp as graph g of the model (g's path, parent, depth,
 * opset and call set by the caller): its inputs, initializers, sparse
 * initializers, value_info, nodes (with their subgraphs and calls) and
 * outputs. */
onnxshape_status onnxshape__load_graph(onnxshape_model *m, model_graph *g,
                                       const Onnx__GraphProto *gp, onnxshape_diag *diag);
/* Loads gp as graph sub, which node n of g holds and which sees the names
 * of `scope` (g; for a graph a call passed into a function's body, the
 * caller's graph; NULL: none, a function's body), then says where an error
 * is ("in PATH: ..."). */
onnxshape_status onnxshape__load_held(onnxshape_model *m, model_graph *g, const model_graph *scope,
                                      graph_node *n, model_graph *sub, const Onnx__GraphProto *gp,
                                      onnxshape_diag *diag);
/* The path of a graph that node n of g holds, unique in the model (see
 * graph.c); NULL when out of memory. */
const char *onnxshape__graph_path(onnxshape_model *m, model_graph *g, graph_node *n,
                                  const char *what, int many, size_t k);
/* Decodes a message the model holds as bytes (a subgraph, a sparse tensor,
 * a function) into its arena: ONNXSHAPE_OK and *msg; ONNXSHAPE_ERR_MALFORMED
 * with no message (the caller says what does not decode); a name holding a
 * NUL byte or memory running out, worded. */
onnxshape_status onnxshape__decode_held(onnxshape_model *m, const ProtobufCMessageDescriptor *desc,
                                        const ProtobufCBinaryData *b, ProtobufCMessage **msg,
                                        onnxshape_diag *diag);
/* m->slot: every value by id, once all graphs are loaded. */
onnxshape_status onnxshape__index_slots(onnxshape_model *m, onnxshape_diag *diag);

/* ---- attributes and operators (attrs.c) ---- */

/* AttributeProto.AttributeType's name ("INT", ...; "UNDEFINED" for others). */
const char *onnxshape__attr_type_name(int t);
/* An attribute's numbers, lists of numbers and string, as they are in the
 * decoded AttributeProto. */
void onnxshape__copy_scalars(node_attr *a, const Onnx__AttributeProto *ap);
/* The error of an attribute reference (ref_attr_name) outside a function's
 * body. */
onnxshape_status onnxshape__stray_ref(const graph_node *n, const char *attr, onnxshape_diag *diag);
/* The operator of node n (op_type, domain set), its version at `opset`, and
 * what that version takes: attributes (into *specs, which may point at
 * kernel_specs) and the number of inputs. */
onnxshape_status onnxshape__resolve_operator(int64_t opset, graph_node *n,
                                             const Onnx__NodeProto *np, op_attr kernel_specs[2],
                                             const op_attr **specs, size_t *n_specs,
                                             size_t *n_in, onnxshape_diag *diag);
/* The attributes of a node checked strictly: each defined for its version,
 * of its type, set once, every required one present; the kernels' decoded
 * into their structs (their values checked by the kernels' own rules), and
 * Constant's value made. */
onnxshape_status onnxshape__load_strict_attrs(onnxshape_model *m, graph_node *n,
                                             const Onnx__NodeProto *np, const op_attr *specs,
                                             size_t n_specs, onnxshape_diag *diag);

/* ---- model-local functions (functions.c) ---- */

/* Each call of a function loads its body again, and looks its names up
 * again. A name of LONG_NAME bytes or more in a function (its body's
 * values, references, the functions and operators its nodes name) is
 * interned when the model loads: equal names become one pointer, whose
 * hash is kept (m->known), so that a call's lookups cost the same whatever
 * the names' lengths (a name shorter than that costs at most LONG_NAME
 * bytes to hash). What is still in proportion to a body (a subgraph in it,
 * decoded again) is counted against LIMIT-MEMORY: each call counts the
 * function's encoded size (model_function.cost). */
#define LONG_NAME 64u
/* The key of name s: its hash, kept when s is a long name of a function
 * (found by its address), else computed. */
name_key onnxshape__name_key(const onnxshape_model *m, const char *s);
/* 1 when names a and b are equal: at once when they are one pointer (an
 * interned name), else compared (the bytes counted in onnxshape__name_bytes). */
int onnxshape__same_name(const char *a, const char *b);

/* 0 for the domains ONNX defines (the default domain, ai.onnx.*), whose
 * nodes never call model-local functions. */
int onnxshape__calls_functions(const char *domain);
/* The function a node of domain (normalised: "" for the default domain),
 * op_type and overload calls, or NULL; *free_at is where the index would
 * take it. */
const model_function *onnxshape__find_function(const onnxshape_model *m, const char *domain,
                                               const char *name, const char *overload,
                                               size_t *free_at);
/* Each of the model's functions decoded, named and indexed, its long names
 * interned. */
onnxshape_status onnxshape__load_functions(onnxshape_model *m, const Onnx__ModelProto *mp,
                                           onnxshape_diag *diag);
/* Node *np of a function's body with its attribute references resolved
 * against call c (a copy when it has any), *scopes saying where each graph
 * value is loaded. */
onnxshape_status onnxshape__resolve_refs(onnxshape_model *m, const model_call *c,
                                         const Onnx__NodeProto **np, const model_graph ***scopes,
                                         onnxshape_diag *diag);
/* Node n of g calls function fn: its body, loaded for this call. */
onnxshape_status onnxshape__load_body(onnxshape_model *m, model_graph *g, graph_node *n,
                                      const Onnx__NodeProto *np, const model_graph *const *scopes,
                                      const model_function *fn, onnxshape_diag *diag);

#endif
