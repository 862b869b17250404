/* SPDX-License-Identifier: Apache-2.0 */
/* The loaded form of a model: plain C structs, no protobuf types, shared by
 * the loader (src/onnx: model.c, graph.c, attrs.c, functions.c behind
 * load.h) and the runtime (src/runtime: running and analysing it). Names
 * point into the decoded protobuf, which the model keeps alive. */
#ifndef ONNXSHAPE_MODEL_H
#define ONNXSHAPE_MODEL_H

#include <sys/types.h>

#include "../core/operators.h"
#include "fileio.h"
#include "onnxshape.h"
#include "tensor.h"

/* The kernel a node of operator `op` is (OPF_KERNEL rows). */
static inline onnxshape_op node_kernel(operator_id op) {
  return op == OP_SHAPE ? ONNXSHAPE_OP_SHAPE : op == OP_RESHAPE ? ONNXSHAPE_OP_RESHAPE
                                                                 : ONNXSHAPE_OP_SIZE;
}

/* Subgraphs nest at most this deep (LIMIT-SUBGRAPH-DEPTH): each level is
 * decoded from bytes the level above holds, so deeper nesting would cost
 * memory in the depth times the size. Real models nest 2 or 3 deep. */
#define MAX_SUBGRAPH_DEPTH 32u

/* An optional input or output left empty (""). */
#define NO_SLOT ((size_t)-1)

/* AttributeProto.AttributeType, with ONNX's numbers (the public header's
 * onnxshape_attr_type has the two the kernels take, with the same numbers). */
typedef enum attr_type {
  ATTR_UNDEFINED = 0,
  ATTR_FLOAT = 1,
  ATTR_INT = 2,
  ATTR_STRING = 3,
  ATTR_TENSOR = 4,
  ATTR_GRAPH = 5,
  ATTR_FLOATS = 6,
  ATTR_INTS = 7,
  ATTR_STRINGS = 8,
  ATTR_TENSORS = 9,
  ATTR_GRAPHS = 10,
  ATTR_SPARSE_TENSOR = 11,
  ATTR_SPARSE_TENSORS = 12,
  ATTR_TYPE_PROTO = 13,
  ATTR_TYPE_PROTOS = 14
} attr_type;
_Static_assert(ATTR_INT == (int)ONNXSHAPE_ATTR_INT && ATTR_INTS == (int)ONNXSHAPE_ATTR_INTS,
               "one numbering of attribute types");

typedef struct decl_dim {
  int64_t value;     /* >= 0, or -1 when unknown */
  const char *param; /* the symbol (dim_param) when value is -1, or NULL */
} decl_dim;

typedef struct value_decl {
  const char *name;
  const char *not_tensor; /* "a sequence", "a map", "an optional" or "a sparse tensor" for a
                             value of another kind (declared so), else NULL */
  int has_type;      /* 1 for a tensor type with an elem_type */
  int32_t elem_type;
  int has_shape;
  size_t rank;
  decl_dim *dims;
} value_decl;

/* A TYPE_PROTO attribute's type (Optional's `type`), as far as analysis
 * follows it: a tensor (decl: its element type and shape, as a
 * declaration says them), a sequence or an optional of the type `elem`,
 * or TP_OTHER (a map, a sparse tensor, no type set); what nests past
 * TYPE_ATTR_DEPTH is not kept (elem NULL). */
typedef struct attr_type_info {
  int kind; /* TP_TENSOR, TP_SEQUENCE, TP_OPTIONAL or TP_OTHER */
  value_decl decl;
  const struct attr_type_info *elem;
} attr_type_info;
enum { TP_OTHER = 0, TP_TENSOR = 1, TP_SEQUENCE = 2, TP_OPTIONAL = 3 };
#define TYPE_ATTR_DEPTH 4u
/* Types nest at most this deep (protobuf's own limit of nested messages). */
#define TYPE_ATTR_NEST_MAX 100u

typedef struct node_attr {
  const char *name;
  int type;
  int64_t i;
  float f;
  const int64_t *ints;
  size_t n_ints;
  const float *floats;
  size_t n_floats;
  onnxshape_string s;
  onnxshape_string *strings; /* a STRINGS attribute's strings, for the operators that read
                                them (Constant's value_strings); else NULL */
  size_t n_strings;          /* a STRINGS attribute's count, for every operator */
  onnxshape_owned_tensor *t;
  const attr_type_info *tp; /* a TYPE_PROTO attribute's type, loaded for the operators that are
                          not kernels (Optional); else NULL */
} node_attr;

typedef struct model_graph model_graph;

/* A name and its hash (onnxshape__name_hash), as the name indexes take
 * it. */
typedef struct name_key {
  const char *s;
  size_t hash;
} name_key;

/* A model-local function, as indexed once when the model loads: what
 * every call of it needs, worked out once rather than per call. */
typedef struct model_function {
  const void *proto;  /* the Onnx__FunctionProto */
  int64_t opset;      /* the default-domain opset its body resolves at: its own import, else
                         the model's */
  int opset_fault;    /* FN_OPSET_OK, or why a call of it is refused (an uncalled function
                         is not: its body never loads) */
  size_t hash;        /* of its (domain, name, overload), for the index */
  size_t cost;        /* the bytes each call counts against LIMIT-MEMORY: its encoded size,
                         as if the call decoded the body again */
} model_function;

/* model_function.opset_fault: the function imports the default domain
 * twice, or at a version this build does not support (opset holds it). */
enum { FN_OPSET_OK = 0, FN_OPSET_TWICE = 1, FN_OPSET_UNSUPPORTED = 2 };

/* A call of a model-local function whose body is loading: the body's
 * attribute references resolve against the call's attributes, then the
 * function's defaults. */
typedef struct model_call {
  const void *function;           /* the Onnx__FunctionProto */
  const void *node;               /* the calling Onnx__NodeProto (its own references resolved) */
  const struct model_call *outer; /* the call whose body holds this one, or NULL */
  size_t *attrs;                  /* what a reference can take, by name: open-addressing hash of
                                     k + 1 for the k-th of the call's attributes followed by the
                                     function's defaults; 0 empty */
  name_key *attr_keys;            /* beside each entry of attrs, its name's key (an interned
                                     name's pointer when there is one) */
  size_t attrs_mask;              /* its size - 1 */
  const model_graph **scopes;     /* for each of the call's attributes, the graph whose names a
                                     GRAPH or GRAPHS value of it sees: the caller's (ONNX's
                                     lexical scoping), also when a body passes it on */
} model_call;

/* A GRAPH or GRAPHS attribute's graph (one entry per graph). */
typedef struct node_subgraph {
  const char *attr;
  model_graph *graph;
} node_subgraph;

typedef struct graph_node {
  const char *name;   /* may be "" */
  const char *domain; /* "" for the default domain (also for "ai.onnx") */
  const char *label;  /* the name quoted in messages: name, or "#<index>" when unnamed */
  char unnamed[24];   /* "#<index>" */
  const char *op_type;
  operator_id op;     /* its row in the operator registry (src/core/operators.h): the kernels,
                         Constant and Identity are checked strictly and run by `run`; every
                         other default-domain operator is analysed by its handler; OP_OTHER
                         for any other domain or name (loaded as far as names and scopes go,
                         never evaluated) */
  int version;        /* resolved since_version; 0 when not known (OP_OTHER, or an operator
                         newer than the model's opset) */
  size_t n_inputs, n_outputs;
  size_t *inputs;     /* slot ids (NO_SLOT: an optional input left empty) */
  size_t *outputs;    /* slot ids (NO_SLOT: an optional output left empty) */
  size_t n_subgraphs;
  node_subgraph *subgraphs; /* in attribute order */
  size_t n_attrs;
  node_attr *attrs;
  /* Decoded attributes for the kernels. */
  onnxshape_shape_attrs shape_attrs;
  onnxshape_reshape_attrs reshape_attrs;
  const int64_t *reshape1_shape; /* Reshape-1's `shape` attribute */
  size_t reshape1_len;
  onnxshape_owned_tensor *constant; /* Constant's value; ConstantOfShape's `value` */
  model_graph *body; /* a call of a model-local function: its body, loaded for this call
                        (docs/analysis.md, "Model-local functions"); else NULL */
  size_t index;          /* its place among its graph's NodeProtos (the file's order) */
  const char *path_name; /* for a node that holds graphs, its part of their paths: its name,
                            or OP#INDEX when it has none, with "#INDEX" added while the path
                            it makes is taken (paths are unique in the model) */
} graph_node;

/* Where a slot's value comes from before any node runs. */
typedef enum slot_kind { SLOT_INPUT, SLOT_INITIALIZER, SLOT_SPARSE, SLOT_NODE } slot_kind;

typedef struct value_slot {
  const char *name;
  size_t hash;                  /* of name (the graph's index compares it first) */
  slot_kind kind;
  size_t id;                    /* its number in the model (onnxshape_model.slot) */
  const model_graph *graph;     /* the graph that defines it */
  onnxshape_owned_tensor *init; /* initializer, when there is one */
  size_t input_index;           /* index into the graph's inputs, for SLOT_INPUT */
  const value_decl *decl;       /* what value_info, a graph output declaration or a
                                   sparse initializer says of it, or NULL */
  const graph_node *producer;   /* for SLOT_NODE */
} value_slot;

/* A graph: the model's main graph, a subgraph (an attribute of a node),
 * which sees the names of the graphs around it, or the body of a model-local
 * function as one call loads it. */
struct model_graph {
  const char *path;          /* "" for the main graph; else the enclosing path, "/", the
                                node's name (or OP#INDEX), "/", the attribute (and "[k]"
                                for the k-th of a GRAPHS attribute) or, for a function's
                                body, the function as "DOMAIN:NAME" */
  const model_graph *parent; /* the graph whose names it sees: NULL for the main graph and for
                                a function's body (which sees only its own) */
  const graph_node *owner;   /* the node whose attribute (or function's body) it is, or NULL */
  size_t depth;              /* 0 for the main graph, else the owner's graph's + 1 */
  int64_t opset;             /* the default-domain opset its nodes resolve at: the model's, or
                                a function's own */
  const model_call *call;    /* inside a function's body (or a subgraph of one): the call */
  size_t n_inputs;           /* graph inputs, in file order */
  value_decl *inputs;
  size_t *input_slots;       /* slot ids */
  size_t n_outputs;
  value_decl *outputs;
  size_t *output_slots;
  size_t n_value_info;
  value_decl *value_info;
  size_t n_slots;
  value_slot *slots;         /* the names this graph defines */
  size_t *slot_index;        /* open-addressing hash of their names: local index + 1, 0 empty */
  size_t slot_mask;          /* its size - 1 (a power of two, at least twice the slots) */
  size_t n_inits;
  onnxshape_owned_tensor **inits;
  size_t n_nodes;
  graph_node *nodes;         /* in an order where every node follows the nodes it takes
                                values from: the file's, or a topological order when the
                                file's is not one (each node keeps its file index) */
  const char *unordered_node; /* when the file's order is not topological: the first node
                                (its label) that takes a value of a later node... */
  const char *unordered_input; /* ...that value's name... */
  const char *unordered_producer; /* ...and the later node's label; else all NULL */
};

struct onnxshape_model {
  int64_t opset;        /* default-domain opset */
  onnxshape__extdir *ext; /* where external data resolves, while loading (else NULL) */
  size_t source_len;    /* bytes of the encoded model (LIMIT-MEMORY) */
  void *proto;          /* the decoded ModelProto, allocated in arena */
  struct onnxshape__arena *arena; /* the model's memory, released as a whole */
  onnxshape__map *source; /* the mapped model file, which bytes fields of proto (raw_data,
                             subgraphs held as bytes) point into (in arena), or NULL */
  model_graph g;        /* the main graph */
  size_t n_graphs;      /* every graph, the main graph first, then subgraphs in the order
                           they are met (an enclosing graph's node before its subgraphs) */
  model_graph **graphs;
  size_t cap_graphs;    /* room in graphs */
  size_t n_slots;       /* the values of all graphs */
  value_slot **slot;    /* by id */
  size_t n_functions;   /* model-local functions (FunctionProto), decoded and named; each
                           call loads the body again, as a graph of its own */
  model_function *functions; /* each, in file order */
  size_t *fn_index;     /* open-addressing hash of (domain, name, overload): index + 1, 0 empty */
  size_t fn_mask;       /* its size - 1 */
  name_key *known;      /* the long names of functions (LONG_NAME bytes or more, load.h),
                           each content once: open-addressing hash by address, s NULL empty;
                           NULL when there are none */
  name_key *names;      /* the same names, by content (by their hashes) */
  size_t names_mask;    /* the size of each - 1 */
  int error_placed;     /* while loading: the error's message already names its graph */
  const char **paths;   /* every graph's path: open-addressing hash set (NULL empty) */
  size_t n_paths;       /* paths in it */
  size_t paths_mask;    /* its size - 1 (at least twice n_paths) */
};

/* A tensor of type, rank and dims given for the graph input declared d:
 * ERR_TYPE_NOT_ALLOWED, ERR_INVALID_RANK or ERR_INVALID_MODEL (a numeric dim
 * that differs; with model_error, every mismatch), the message saying
 * "input 'x' is declared ... but <as> ...". */
onnxshape_status onnxshape__decl_check(const value_decl *d, int32_t type, size_t rank,
                                       const int64_t *dims, const char *as, int model_error,
                                       onnxshape_diag *diag);

/* The id of the value named `name` (graph input, initializer or node
 * output) in graph g or the graphs around it (the innermost first), or -1: a
 * hash lookup per graph, in time independent of the graph's size. */
long onnxshape__graph_find_slot(const model_graph *g, const char *name);

/* Decodes the ModelProto in `len` bytes into a new arena (*arena, holding
 * *proto), within the memory limit of LIMIT-MEMORY; `shown` names the file in
 * messages, or NULL for bytes in memory. With `borrow`, bytes fields point
 * into `bytes`, which must then outlive the arena (a mapped file). */
onnxshape_status onnxshape__model_decode(const void *bytes, size_t len, const char *shown,
                                         int borrow, struct onnxshape__arena **arena,
                                         const void **proto, onnxshape_diag *diag);
/* Loads the decoded ModelProto proto (in arena, which the model then owns,
 * or releases on failure); external data resolves in ext. `source`, when
 * not NULL, is the mapping proto borrows from: the model takes it on
 * success (source is left empty), the caller keeps it on failure. */
onnxshape_status onnxshape__model_load(const void *proto, struct onnxshape__arena *arena,
                                       onnxshape__extdir *ext, size_t len, onnxshape__map *source,
                                       onnxshape_model **out, onnxshape_diag *diag);

/* A model file's bytes: read into memory (bytes, to free with onnxshape__free)
 * or, from onnxshape__model_map_min bytes on, mapped (map.base not NULL;
 * data is map.data, and decoding borrows from it). */
extern size_t onnxshape__model_map_min;
typedef struct onnxshape__model_source {
  const unsigned char *data;
  size_t len;
  unsigned char *bytes;
  onnxshape__map map;
} onnxshape__model_source;
/* Reads or maps the model file at path into *src and sets up *ext for its
 * external data (ext->path, to free; the directory itself is opened at the
 * first external tensor, ext->fd, and must still hold the model file). */
onnxshape_status onnxshape__model_file(const char *path, onnxshape__model_source *src,
                                       onnxshape__extdir *ext, onnxshape_diag *diag);

/* Writes path, through a temporary file and a rename, as model m encoded
 * in bytes[0, len) with the types and dims of the n values (distinct names
 * in each graph) spliced into the graph inputs, outputs and value_info of
 * the main graph and its subgraphs (model_write.c;
 * onnxshape_inference_write_model()). source: the mapping the bytes lie
 * in (checked before the rename), or NULL. sure: the n_sure graphs,
 * sorted by address, analysed as certain to run; every other subgraph is
 * copied as it is (what analysis knows of it holds only if it runs). */
onnxshape_status onnxshape__model_write_values(const onnxshape_model *m, const uint8_t *bytes,
                                               size_t len, const onnxshape__map *source,
                                               const onnxshape_value_info *const *vals, size_t n,
                                               const model_graph *const *sure, size_t n_sure,
                                               const char *path, onnxshape_diag *diag);

/* What to do with a decoded ModelProto: proto lives in arena, which the
 * callee then owns (or releases on failure); external data resolves in ext;
 * len is the encoded size; source is the mapping proto borrows from (its
 * map.base NULL when there is none), which a loaded model may take
 * (onnxshape__model_load). */
typedef onnxshape_status (*onnxshape__decoded_fn)(const void *proto, struct onnxshape__arena *arena,
                                                  onnxshape__extdir *ext, size_t len,
                                                  onnxshape__map *source, void *ctx,
                                                  onnxshape_diag *diag);
/* The one way from a model file to its ModelProto (loading, the profile
 * check): reads the file at path (named in messages), decodes it and hands
 * the result to use(ctx), then closes the directory of its external data.
 * diag may be NULL. */
onnxshape_status onnxshape__model_file_decoded(const char *path, onnxshape__decoded_fn use,
                                               void *ctx, onnxshape_diag *diag);

/* head, body and tail (escaped text) into out (cap bytes, at most
 * ONNXSHAPE_DIAG_SIZE; out may be any of them): whole when they fit, else
 * head and tail whole and the body without its middle, cut where a word
 * ends and where one starts (else between two characters, never inside an
 * escape) and marked "...": the start of a finding (its operator and node)
 * and its end (the rule) stay. (src/onnx/graph.c) */
void onnxshape__fit_message(char *out, size_t cap, const char *head, const char *body,
                            const char *tail);

/* A message about graph `path` (a model_graph's path): "in PATH: message",
 * or "in PATH NOTE: message" with a note (not NULL), or the message alone
 * for the main graph (path ""), into out (cap bytes), fitted as
 * onnxshape__fit_message fits a body. out may be message. (src/onnx/graph.c) */
void onnxshape__in_graph(char *out, size_t cap, const char *path, const char *note,
                         const char *message);

/* An operator (or function) as messages name it, for "{}{}{}": DOMAIN:OP,
 * or OP in the default domain (domain ""). */
#define ONNXSHAPE__OP_ARGS(domain, op) \
  ARG_NAME(domain), ARG_STR((domain)[0] != '\0' ? ":" : ""), ARG_NAME(op)

#endif
