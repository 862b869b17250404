/* SPDX-License-Identifier: Apache-2.0 */
/* The loaded form of a model: plain C structs, no protobuf types, shared by
 * the loader (src/onnx) and the graph runner (src/runtime). Names point into
 * the decoded protobuf, which the model keeps alive. */
#ifndef ONNXSHAPE_MODEL_H
#define ONNXSHAPE_MODEL_H

#include "onnxshape.h"

/* Operators the runner knows besides the three kernels. */
typedef enum os_kind {
  OS_KIND_SHAPE = ONNXSHAPE_OP_SHAPE,
  OS_KIND_RESHAPE = ONNXSHAPE_OP_RESHAPE,
  OS_KIND_SIZE = ONNXSHAPE_OP_SIZE,
  OS_KIND_CONSTANT = 10,
  OS_KIND_IDENTITY = 11
} os_kind;

/* AttributeProto.AttributeType numbers used here. */
enum { OS_ATTR_FLOAT = 1, OS_ATTR_INT = 2, OS_ATTR_STRING = 3, OS_ATTR_TENSOR = 4,
       OS_ATTR_FLOATS = 6, OS_ATTR_INTS = 7, OS_ATTR_STRINGS = 8, OS_ATTR_SPARSE_TENSOR = 11 };

/* A tensor that owns what it points at: one of a heap block, a mapping of an
 * external-data file, or nothing (data inside the model's protobuf). */
struct onnxshape_owned_tensor {
  onnxshape_tensor view; /* what kernels see */
  const char *name;      /* never NULL */
  int64_t *dims;         /* heap copy (protobuf dims are not guaranteed int64-aligned by API) */
  int dims_inline;       /* dims sit in this tensor's own block, not a block of their own */
  int in_arena;          /* the block belongs to a model's arena: not freed on its own */
  void *heap;            /* converted typed-field data or the string array, or NULL */
  void *map;             /* mmap of external data or of the tensor file, or NULL */
  size_t map_len;
  int map_fd;            /* its file, kept open for file-to-file copies (fileio.h) */
  int raw_borrowed;      /* proto's raw_data points into map: not the proto's to free */
  void *proto;           /* a decoded standalone TensorProto to free, or NULL */
  char *name_copy;       /* owned name, or NULL */
};

typedef struct os_dim {
  int64_t value;     /* >= 0, or -1 when unknown */
  const char *param; /* the symbol (dim_param) when value is -1, or NULL */
} os_dim;

typedef struct os_value_decl {
  const char *name;
  int has_type;      /* 1 for a tensor type with an elem_type */
  int32_t elem_type;
  int has_shape;
  size_t rank;
  os_dim *dims;
} os_value_decl;

typedef struct os_attr {
  const char *name;
  int type;
  int64_t i;
  float f;
  const int64_t *ints;
  size_t n_ints;
  const float *floats;
  size_t n_floats;
  onnxshape_string s;
  onnxshape_string *strings;
  size_t n_strings;
  onnxshape_owned_tensor *t;
} os_attr;

typedef struct os_node {
  const char *name;   /* may be "" */
  char label[32];     /* the name quoted in messages: name, or "#<index>" when unnamed */
  const char *op_type;
  os_kind kind;
  int version;        /* resolved since_version */
  size_t n_inputs, n_outputs;
  size_t *inputs;     /* slot indices */
  size_t *outputs;
  size_t n_attrs;
  os_attr *attrs;
  /* Decoded attributes for the kernels. */
  onnxshape_shape_attrs shape_attrs;
  onnxshape_reshape_attrs reshape_attrs;
  const int64_t *reshape1_shape; /* Reshape-1's `shape` attribute */
  size_t reshape1_len;
  onnxshape_owned_tensor *constant; /* Constant's value */
} os_node;

/* Where a slot's value comes from before any node runs. */
typedef enum os_slot_kind { OS_SLOT_INPUT, OS_SLOT_INITIALIZER, OS_SLOT_NODE } os_slot_kind;

typedef struct os_slot {
  const char *name;
  os_slot_kind kind;
  onnxshape_owned_tensor *init; /* initializer, when there is one */
  size_t input_index;           /* index into inputs, for OS_SLOT_INPUT */
} os_slot;

struct onnxshape_model {
  int64_t ir_version;
  int64_t opset;        /* default-domain opset */
  char *dir;            /* directory external data resolves in */
  void *proto;          /* the decoded ModelProto, allocated in arena */
  struct onnxshape__arena *arena; /* the model's memory, released as a whole */
  void *file_map;       /* the mapped model file */
  size_t file_len;
  size_t n_inputs;      /* graph inputs, in file order */
  os_value_decl *inputs;
  size_t *input_slots;
  size_t n_outputs;
  os_value_decl *outputs;
  size_t *output_slots;
  size_t n_slots;
  os_slot *slots;
  size_t *slot_index; /* open-addressing hash of the slot names: slot + 1, 0 empty */
  size_t slot_mask;   /* its size - 1 (a power of two, at least twice the slots) */
  size_t n_inits;
  onnxshape_owned_tensor **inits;
  size_t n_nodes;
  os_node *nodes;
};

/* Tensor decoding, shared by the model and tensor-file loaders. `msg` is an
 * Onnx__TensorProto; base_dir is where external data may live (NULL: none
 * allowed). The result points into msg, which must outlive it. */
onnxshape_status onnxshape__tensor_from_proto(const void *msg, const char *base_dir,
                                              onnxshape_owned_tensor **out,
                                              onnxshape_diag *diag);
/* The same, the tensor itself allocated in `arena` (a model's): freeing it
 * releases what it holds (heap data, mappings), not its own block. */
struct onnxshape__arena;
onnxshape_status onnxshape__tensor_from_proto_in(const void *msg, const char *base_dir,
                                                 struct onnxshape__arena *arena,
                                                 onnxshape_owned_tensor **out,
                                                 onnxshape_diag *diag);
/* The defaults that are not zero, on a tensor whose memory is zeroed. */
void onnxshape__owned_tensor_init(onnxshape_owned_tensor *t);

/* The slot of the value named `name` (graph input, initializer or node
 * output), or -1: a hash lookup, in time independent of the graph's size. */
long onnxshape__model_find_slot(const onnxshape_model *m, const char *name);

/* One top-level protobuf field of a message in memory: its bytes are
 * [start, end); for a length-delimited field (wire 2) the payload is
 * [payload, payload + payload_len). */
typedef struct onnxshape__pb_field {
  uint64_t number;
  unsigned wire;
  size_t start, end, payload, payload_len;
} onnxshape__pb_field;

/* Reads the field at *i (< len) into *f and moves *i past it; 0 when it is
 * malformed or of a wire type other than 0, 1, 2 and 5. (src/onnx/tensor.c) */
int onnxshape__pb_next(const uint8_t *b, size_t len, size_t *i, onnxshape__pb_field *f);

/* onnxshape_tensor_read_file uses a raw_data of at least this many bytes in
 * place, in the mapped file (default 64 KiB; the fuzz target lowers it). */
extern size_t onnxshape__inplace_min;

/* Maps the model file at `path` and calls fn(bytes, len, dir, ctx, diag),
 * dir being the file's directory (where external data resolves); a
 * MALFORMED result gets a message naming the file. (src/onnx/model.c) */
onnxshape_status onnxshape__with_model_file(const char *path,
                                            onnxshape_status (*fn)(const void *bytes, size_t len,
                                                                   const char *dir, void *ctx,
                                                                   onnxshape_diag *diag),
                                            void *ctx, onnxshape_diag *diag);

/* Calls report(ctx, what) for each use of a sparse tensor in the ModelProto
 * `bytes` (sparse initializers, sparse attributes, graph inputs, outputs and
 * value_info of a sparse type), `what` naming the place. MALFORMED when the
 * bytes are not a ModelProto; OUT_OF_MEMORY. (src/onnx/model.c) */
onnxshape_status onnxshape__sparse_uses(const void *bytes, size_t len,
                                        void (*report)(void *ctx, const char *what), void *ctx,
                                        onnxshape_diag *diag);

/* Static inference (onnxshape_model_infer) that goes on after a node that
 * cannot succeed whatever the data, calling report(ctx, message) for each.
 * (src/runtime/infer.c) */
onnxshape_status onnxshape__model_infer_all(const onnxshape_model *m,
                                            void (*report)(void *ctx, const char *message),
                                            void *ctx, onnxshape_diag *diag);

#endif
