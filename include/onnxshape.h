/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file onnxshape.h
 * @brief The header of the whole onnxshape library: the kernels
 *        (onnxshape_kernels.h, included here) and what works on files and
 *        models beside them: tensor files (TensorProto, NumPy .npy), models
 *        (load, run), static analysis of any model (infer) and the SONNX
 *        profile check.
 *
 * The conventions of onnxshape_kernels.h hold here too (statuses,
 * out-parameters written only on success, @p diag may be NULL). Unlike the
 * kernels, the functions below allocate, and what they return is owned as
 * each says. Lifetimes, in one place:
 * - An ::onnxshape_owned_tensor owns its storage (or the mapping of its
 *   file); onnxshape_owned_tensor_get() borrows from it.
 * - An ::onnxshape_model owns everything decoded from its file, and the
 *   mapping of the file and its external data.
 * - An ::onnxshape_result (onnxshape_model_run()) borrows from the model
 *   and from the bound input tensors: free it before either.
 * - An ::onnxshape_inference (onnxshape_model_infer()) borrows names,
 *   paths and constant values from the model: free it before the model.
 *   It copies nothing from the ::onnxshape_infer_options it was given.
 * - An ::onnxshape_profile_report owns its messages; it borrows nothing.
 */
#ifndef ONNXSHAPE_H
#define ONNXSHAPE_H

#include "onnxshape_kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/** @name Tensor files (TensorProto and NumPy .npy)
 * These functions allocate; the kernels above never do.
 * @{ */

/** A tensor with its own storage, decoded from a TensorProto or a .npy file. */
typedef struct onnxshape_owned_tensor onnxshape_owned_tensor;

/**
 * Read a tensor file: a serialized TensorProto or, when the file starts
 * with the NumPy magic `\x93NUMPY`, a .npy file (read as
 * onnxshape_tensor_parse_npy() describes; docs/npy.md). For a TensorProto,
 * every storage form is accepted:
 * raw_data, the typed fields (float_data, double_data, int32_data, int64_data,
 * uint64_data, string_data) and external data (location/offset/length/
 * checksum, each at most once, opened beneath the directory of @p path: no
 * absolute location, `..` or symbolic link; mapped with mmap).
 * Validated before use: known data_type, no negative dims, an element count
 * that fits int64, a payload exactly matching the dims, strings never in
 * raw_data, each typed value in its type's range.
 *
 * @p path must be a regular file (a FIFO or device is refused at once,
 * without blocking). A file under 64 KiB is read into memory; a larger one is
 * mapped and its raw_data used in place, so its data stays backed by the
 * file: see onnxshape_owned_tensor_check_file(). Decoding takes at most 15
 * times the file's size plus 56 MiB of memory (ONNXSHAPE_ERR_OUT_OF_MEMORY
 * past that, with a message naming the limit).
 * A .npy file is read in memory or mapped by the same rule, its data used in
 * place when it needs no conversion.
 * @param[out] out the tensor; free it with onnxshape_owned_tensor_free()
 * @return ONNXSHAPE_OK; ONNXSHAPE_ERR_IO (cannot open or read, not a regular
 *         file, changed while read); ONNXSHAPE_ERR_MALFORMED (not a
 *         TensorProto, or one without a data_type, such as a model file
 *         passed as a tensor; a malformed .npy header);
 *         ONNXSHAPE_ERR_INVALID_TENSOR; ONNXSHAPE_ERR_UNKNOWN_TYPE (a .npy
 *         dtype with no ONNX type); ONNXSHAPE_ERR_OVERFLOW;
 *         ONNXSHAPE_ERR_OUT_OF_MEMORY; ONNXSHAPE_ERR_INVALID_ARGUMENT.
 */
ONNXSHAPE_API onnxshape_status onnxshape_tensor_read_file(const char *path,
                                                         onnxshape_owned_tensor **out,
                                                         onnxshape_diag *diag);

/** As onnxshape_tensor_read_file(), from @p len bytes in memory (.npy bytes
 *  too, recognized by their magic). External data resolves inside
 *  @p base_dir, or is rejected when @p base_dir is NULL. */
ONNXSHAPE_API onnxshape_status onnxshape_tensor_parse(const void *bytes, size_t len,
                                                     const char *base_dir,
                                                     onnxshape_owned_tensor **out,
                                                     onnxshape_diag *diag);

/**
 * Read a NumPy .npy file (format versions 1.0, 2.0 and 3.0) from @p len
 * bytes in memory; what it needs is copied, so @p bytes may be freed once
 * this returns. The header must be the Python dict literal NumPy writes
 * (keys descr, fortran_order and shape, each once, in any order; a shape of
 * non-negative dims such as `()`, `(3,)` or `(2, 3)`); the data must hold
 * exactly the bytes the shape and dtype need. dtypes: b1 (bool, values 0 or
 * 1), i1, u1, i2, u2, i4, u4, i8, u8, f2, f4, f8, c8, c16, in either byte
 * order ('<' or '>'; '|' and none only for one-byte types), `S<n>` (bytes,
 * trailing NULs dropped as NumPy drops them) and `U<n>` (UTF-32, stored as
 * UTF-8), all as a string tensor. Big-endian and Fortran-order data is
 * converted to ONNX's little-endian, row-major storage. The tensor's name is
 * "". Decoding takes at most 15 times @p len plus 56 MiB of memory.
 * @param[out] out the tensor; free it with onnxshape_owned_tensor_free()
 * @return ONNXSHAPE_OK; ONNXSHAPE_ERR_MALFORMED (no .npy magic, an unknown
 *         version, a header that is cut, runs past the data or is not such a
 *         dict, a byte order a file cannot have); ONNXSHAPE_ERR_UNKNOWN_TYPE
 *         (object, datetime, void or structured, long double and any other
 *         dtype without an ONNX type; the message suggests a TensorProto
 *         .pb); ONNXSHAPE_ERR_INVALID_TENSOR (a negative dim, data that is
 *         not the size the header needs, a bool that is not 0 or 1, a
 *         UTF-32 value that is a surrogate or past U+10FFFF);
 *         ONNXSHAPE_ERR_OVERFLOW (a dim or the element count past int64, or
 *         data that cannot fit memory); ONNXSHAPE_ERR_OUT_OF_MEMORY (also past
 *         the limit); ONNXSHAPE_ERR_INVALID_ARGUMENT. Every message names the
 *         file (onnxshape_tensor_read_file()) or says `.npy data`.
 */
ONNXSHAPE_API onnxshape_status onnxshape_tensor_parse_npy(const void *bytes, size_t len,
                                                         onnxshape_owned_tensor **out,
                                                         onnxshape_diag *diag);

/** @return the tensor for the kernels (valid until the owner is freed). */
ONNXSHAPE_API const onnxshape_tensor *onnxshape_owned_tensor_get(const onnxshape_owned_tensor *t);

/** @return the TensorProto's name ("" when it has none). */
ONNXSHAPE_API const char *onnxshape_owned_tensor_name(const onnxshape_owned_tensor *t);

/** Free @p t and everything it owns. NULL is allowed. */
ONNXSHAPE_API void onnxshape_owned_tensor_free(onnxshape_owned_tensor *t);

/**
 * Check that the file @p t maps (a large raw_data used in place, or external
 * data) still has the size and modification time it had when it was
 * mapped. A tensor that maps no file always passes.
 *
 * Mapped data belongs to a file another process can change: if the file
 * shrinks, reading the mapped bytes raises SIGBUS. onnxshape installs no
 * signal handler (the onnxshape command does, around its own reads; see
 * docs/cli.md, "Safety of files and output"); a caller that cannot exclude
 * such changes checks here, after using the data, whether what it read was
 * the file's content.
 * @return ONNXSHAPE_OK; ONNXSHAPE_ERR_IO naming the file when it changed;
 *         ONNXSHAPE_ERR_INVALID_ARGUMENT.
 */
ONNXSHAPE_API onnxshape_status onnxshape_owned_tensor_check_file(const onnxshape_owned_tensor *t,
                                                                onnxshape_diag *diag);

/**
 * Write @p t as a serialized TensorProto named @p name: raw_data for every
 * type but string, string_data for strings. The file is written to a
 * temporary file with a unique name in the same directory and renamed, so it
 * is never seen half-written (a process killed meanwhile leaves the
 * temporary `.onnxshape-XXXXXX` behind; `onnxshape run -o` removes its own
 * on SIGINT and SIGTERM). Data that lies in a mapped file (a tensor read
 * with onnxshape_tensor_read_file()) is copied from the file, not through
 * the mapping; a file that changed meanwhile is ONNXSHAPE_ERR_IO.
 * @return ONNXSHAPE_OK; ONNXSHAPE_ERR_INVALID_ARGUMENT; ONNXSHAPE_ERR_UNKNOWN_TYPE;
 *         ONNXSHAPE_ERR_DATA_SIZE; ONNXSHAPE_ERR_OVERFLOW; ONNXSHAPE_ERR_IO;
 *         ONNXSHAPE_ERR_OUT_OF_MEMORY.
 */
ONNXSHAPE_API onnxshape_status onnxshape_tensor_write_file(const char *path, const char *name,
                                                          const onnxshape_tensor *t,
                                                          onnxshape_diag *diag);

/**
 * As onnxshape_tensor_write_file(), into the open file @p fd (at its current
 * position; the caller creates, names, syncs and closes it): for callers
 * that write several files all or nothing, as `onnxshape run -o` does.
 * @param[in] shown the file's name for messages, or NULL
 * @return as onnxshape_tensor_write_file().
 */
ONNXSHAPE_API onnxshape_status onnxshape_tensor_write_fd(int fd, const char *shown, const char *name,
                                                        const onnxshape_tensor *t,
                                                        onnxshape_diag *diag);

/**
 * Write @p t as a NumPy .npy file into the open file @p fd (at its current
 * position; the caller creates, names, syncs and closes it), byte for byte
 * what NumPy 1.24's np.save writes for the same array: format 1.0 (2.0 when
 * the header passes 65535 bytes), the header padded with spaces to a
 * newline so that the data starts at a multiple of 64 bytes, descr
 * `|b1`, `|i1`, `|u1` or little-endian (`<i2` ... `<c16`), fortran_order
 * False, the shape as Python writes the tuple. A string tensor is written as
 * `|S<n>`, n the longest string (at least 1), each element NUL-padded.
 * Data that lies in a mapped file (a tensor read with
 * onnxshape_tensor_read_file()) is copied from the file, not through the
 * mapping; a file that changed meanwhile is ONNXSHAPE_ERR_IO.
 * @param[in] shown the file's name for messages, or NULL
 * @return ONNXSHAPE_OK; ONNXSHAPE_ERR_UNKNOWN_TYPE (a type NumPy does not
 *         have: bfloat16, the float8 and float4 types, uint4, int4, uint2,
 *         int2, or no known type; the message suggests a TensorProto .pb);
 *         ONNXSHAPE_ERR_INVALID_ARGUMENT (NULL arguments; a bool that is not
 *         0 or 1; a string that ends in a NUL byte, which NumPy would drop;
 *         a string with a length but no data); ONNXSHAPE_ERR_NEGATIVE_DIM;
 *         ONNXSHAPE_ERR_DATA_SIZE; ONNXSHAPE_ERR_OVERFLOW; ONNXSHAPE_ERR_IO;
 *         ONNXSHAPE_ERR_OUT_OF_MEMORY.
 */
ONNXSHAPE_API onnxshape_status onnxshape_tensor_write_npy_fd(int fd, const char *shown,
                                                            const onnxshape_tensor *t,
                                                            onnxshape_diag *diag);

/**
 * As onnxshape_tensor_write_npy_fd(), into @p path, through a temporary file
 * with a unique name in the same directory and a rename, as
 * onnxshape_tensor_write_file() does: the file is never seen half-written,
 * and nothing is created when @p t cannot be written.
 * @return as onnxshape_tensor_write_npy_fd().
 */
ONNXSHAPE_API onnxshape_status onnxshape_tensor_write_npy_file(const char *path,
                                                              const onnxshape_tensor *t,
                                                              onnxshape_diag *diag);
/** @} */

/* ------------------------------------------------------------------------ */
/** @name Models
 * @{ */

/** A loaded and checked ONNX model (ModelProto). */
typedef struct onnxshape_model onnxshape_model;

/**
 * Read and check an ONNX model: the default-domain opset (1 to
 * ONNXSHAPE_MAX_OPSET), initializers, graph inputs and outputs, and every node
 * in file order, with its subgraphs and the bodies of the model-local
 * functions it calls (docs/analysis.md). @p path must be a regular file. A
 * file under 64 KiB is read into memory; a larger one is mapped, and the
 * model holds the mapping and the open file (one descriptor per model) until
 * it is freed: initializers' raw_data is used where it lies in the file, so
 * pages of tensor data that nothing reads are never read. As with mapped
 * tensors, a file cut short by another process meanwhile makes reads of its
 * pages raise SIGBUS; see onnxshape_owned_tensor_check_file() and
 * onnxshape_model_check_files(). External data opens beneath its directory
 * (see onnxshape_tensor_read_file()). Decoding and loading take at most 15
 * times the file's size plus 56 MiB of memory.
 *
 * Any operator of any domain loads: Shape, Reshape, Size, Constant and
 * Identity are checked as strictly as the kernels (attributes defined for
 * the resolved version, of their type, set once, required ones present;
 * exactly the inputs and the one output the version takes); every other
 * node is loaded as far as its names, attributes and subgraphs go, for
 * onnxshape_model_infer() (onnxshape_model_run() executes only the five
 * above: onnxshape_model_check_runnable()). Rejected, with a message naming
 * the node (and the graph, in a subgraph) and the rule: a node input not
 * produced earlier, a name produced twice, a graph output nothing produces,
 * subgraphs or calls nested more than 32 deep, a function that calls itself
 * or is defined twice, and the above for the five operators.
 * @return ONNXSHAPE_OK; ONNXSHAPE_ERR_IO; ONNXSHAPE_ERR_MALFORMED;
 *         ONNXSHAPE_ERR_INVALID_MODEL; ONNXSHAPE_ERR_UNSUPPORTED_OPSET;
 *         ONNXSHAPE_ERR_UNKNOWN_OPERATOR; ONNXSHAPE_ERR_INVALID_ATTRIBUTE;
 *         ONNXSHAPE_ERR_INVALID_TENSOR (an initializer or Constant value);
 *         ONNXSHAPE_ERR_TYPE_NOT_ALLOWED (a Constant value of a type its
 *         version does not allow); ONNXSHAPE_ERR_OUT_OF_MEMORY (also past the
 *         memory limit).
 * An initializer that gives a graph input its default value must have the
 * input's declared type, rank and numeric dims (ONNXSHAPE_ERR_INVALID_MODEL).
 */
ONNXSHAPE_API onnxshape_status onnxshape_model_read_file(const char *path, onnxshape_model **out,
                                                        onnxshape_diag *diag);

/**
 * As onnxshape_model_read_file(), from @p len bytes in memory. External data
 * resolves inside @p base_dir, or is rejected when @p base_dir is NULL. The
 * model does not keep @p bytes.
 */
ONNXSHAPE_API onnxshape_status onnxshape_model_parse(const void *bytes, size_t len,
                                                    const char *base_dir, onnxshape_model **out,
                                                    onnxshape_diag *diag);

/** Free @p model. NULL is allowed. Free first what borrows from it: the
 *  results of onnxshape_model_run() and the analyses of
 *  onnxshape_model_infer(). */
ONNXSHAPE_API void onnxshape_model_free(onnxshape_model *model);

/** As onnxshape_owned_tensor_check_file(), for the model file when it is
 *  mapped (onnxshape_model_read_file()) and every external-data file the
 *  model maps. */
ONNXSHAPE_API onnxshape_status onnxshape_model_check_files(const onnxshape_model *model,
                                                          onnxshape_diag *diag);

/** Number of graph inputs (including those with an initializer). */
ONNXSHAPE_API size_t onnxshape_model_input_count(const onnxshape_model *model);
/** Name of graph input @p i, or NULL when out of range. */
ONNXSHAPE_API const char *onnxshape_model_input_name(const onnxshape_model *model, size_t i);
/** 1 if graph input @p i has an initializer (a default value), else 0. */
ONNXSHAPE_API int onnxshape_model_input_has_default(const onnxshape_model *model, size_t i);
/** Number of graph outputs. */
ONNXSHAPE_API size_t onnxshape_model_output_count(const onnxshape_model *model);
/** Name of graph output @p i, or NULL when out of range. */
ONNXSHAPE_API const char *onnxshape_model_output_name(const onnxshape_model *model, size_t i);
/** The model's default-domain opset. */
ONNXSHAPE_API int64_t onnxshape_model_opset(const onnxshape_model *model);

/** A graph input binding. */
typedef struct onnxshape_binding {
  const char *name;               /**< graph input name */
  const onnxshape_tensor *tensor; /**< borrowed for the lifetime of the result */
} onnxshape_binding;

/** The outputs of one run. */
typedef struct onnxshape_result onnxshape_result;

/**
 * Run the model's nodes in order. Every graph input without an initializer
 * must be bound; a binding overrides an initializer. Reshape and Identity
 * outputs are views of their inputs (nothing is copied), so a result borrows
 * from the model and the bound tensors: keep them alive until it is freed.
 * @return ONNXSHAPE_OK; ONNXSHAPE_ERR_INVALID_ARGUMENT (also an input bound
 *         twice); ONNXSHAPE_ERR_NOT_FOUND (binding to no graph input, or an
 *         input left unbound); for a bound tensor that does not fit its
 *         input's declaration ONNXSHAPE_ERR_TYPE_NOT_ALLOWED (type),
 *         ONNXSHAPE_ERR_INVALID_RANK (rank) or ONNXSHAPE_ERR_INVALID_MODEL (a
 *         numeric dim); any kernel status, with a message naming the node;
 *         ONNXSHAPE_ERR_OUT_OF_MEMORY (also past the memory limit: the
 *         result's values and the dims its nodes make take at most what the
 *         model's limit leaves, as onnxshape_model_infer()'s analysis); and
 *         the refusals of onnxshape_model_check_runnable().
 */
ONNXSHAPE_API onnxshape_status onnxshape_model_run(const onnxshape_model *model,
                                                  const onnxshape_binding *inputs,
                                                  size_t n_inputs, onnxshape_result **out,
                                                  onnxshape_diag *diag);

/**
 * Whether onnxshape_model_run() can execute @p model at all, before any input
 * is read: ONNXSHAPE_OK, or the status and message it would refuse the model
 * with. run executes Shape, Reshape, Size, Constant and Identity on tensors;
 * any model loads (for onnxshape_model_infer()), but one with another
 * operator (ONNXSHAPE_ERR_UNKNOWN_OPERATOR, naming every other operator with
 * its node count), a sparse initializer, or a main-graph input or output
 * that is a sequence, map, optional or sparse tensor
 * (ONNXSHAPE_ERR_INVALID_MODEL) does not run.
 */
ONNXSHAPE_API onnxshape_status onnxshape_model_check_runnable(const onnxshape_model *model,
                                                             onnxshape_diag *diag);

/** Number of outputs (the model's graph outputs, in order). */
ONNXSHAPE_API size_t onnxshape_result_count(const onnxshape_result *result);
/** Output @p i's name, or NULL. */
ONNXSHAPE_API const char *onnxshape_result_name(const onnxshape_result *result, size_t i);
/** Output @p i, or NULL. */
ONNXSHAPE_API const onnxshape_tensor *onnxshape_result_tensor(const onnxshape_result *result,
                                                             size_t i);
/** Free @p result. NULL is allowed. */
ONNXSHAPE_API void onnxshape_result_free(onnxshape_result *result);

/** One element of a value (or one dim): a number, a symbol, or unknown. */
typedef struct onnxshape_elem {
  int known;         /**< 1 when value holds the number */
  int64_t value;     /**< the number, when known */
  const char *param; /**< the symbol (a dim_param, e.g. "N") when not a number, or NULL */
} onnxshape_elem;

/** What is known about one value without input data, owned by the
 *  ::onnxshape_inference (never allocated or copied by a caller): later
 *  versions append fields, and @c size says how many bytes this library's
 *  struct has. Names, paths and constant values are borrowed from the
 *  model. */
typedef struct onnxshape_value_info {
  size_t size;               /**< sizeof(onnxshape_value_info) of the library */
  const char *name;
  int32_t type;              /**< element type, or 0 when unknown */
  int rank_known;            /**< 1 when rank is known */
  size_t rank;
  const int64_t *dims;       /**< rank entries; -1 where the dim is not a known number */
  const char *const *params; /**< rank entries: the symbol of a symbolic dim, else NULL */
  const onnxshape_tensor *value; /**< the value itself when known (constants), else NULL */
  const char *node;          /**< the producing node's name ("" when unnamed), or NULL for a
                                  graph input or initializer */
  const char *op;            /**< the producing node's operator type, or NULL */
  int version;               /**< the producing node's operator version, or 0 (also for an
                                  operator whose versions onnxshape does not know) */
  const char *graph;         /**< "" for the main graph, else the subgraph's path, such as
                                  "If_3/then_branch" (node name or OP#INDEX, then attribute) */
  const char *domain;        /**< the producing node's domain ("" for the default), or NULL */
  size_t n_values;           /**< elements of values, 0 when no element is known */
  const onnxshape_elem *values; /**< the value's elements in row-major order, for integer
                                     and bool tensors of at most 1024 elements */
  /* Appended after 0.2.0 (read them only when size covers them): provenance. */
  int origin;                /**< an ::onnxshape_origin */
  int declaration_used;      /**< 1 when a declaration (value_info, a graph output) filled in
                                  what the evaluation of its node left unknown
                                  (ONNXSHAPE_ORIGIN_EVALUATED only) */
  size_t n_inputs;           /**< the producing node's inputs; 0 for a graph input or
                                  initializer */
  const size_t *inputs;      /**< n_inputs indices of values (onnxshape_inference_get()), in
                                  the node's input order; SIZE_MAX for an optional input left
                                  empty */
  /* Appended after 0.2.0: sequences and optionals (docs/analysis.md). For
   * these type is 0 and rank_known 0; what is known is below. */
  int kind;                  /**< an ::onnxshape_value_kind */
  const struct onnxshape_value_info *element; /**< a sequence: what every element is known to
                                  be; an optional: its element; else NULL (also when nothing
                                  is known of it). Only its type, rank_known, rank, dims,
                                  params, kind, element, length and holds are set. */
  onnxshape_elem length;     /**< a sequence's number of elements (known, a symbol or
                                  expression in param, or neither) */
  int holds;                 /**< an optional: 1 when it holds an element, 0 when empty, -1
                                  when not known; else 0 */
} onnxshape_value_info;

/** What analysis knows a value is (onnxshape_value_info.kind). */
typedef enum onnxshape_value_kind {
  ONNXSHAPE_KIND_TENSOR = 0,   /**< a tensor, or nothing known (type 0, rank not known) */
  ONNXSHAPE_KIND_SEQUENCE = 1, /**< a sequence of tensors */
  ONNXSHAPE_KIND_OPTIONAL = 2  /**< an optional (of a tensor or a sequence) */
} onnxshape_value_kind;

/** Where what onnxshape_value_info knows of a value comes from. */
typedef enum onnxshape_origin {
  ONNXSHAPE_ORIGIN_NOT_ANALYSED = 0, /**< in a graph never analysed (the If branch a known
                                          condition does not take): nothing is known */
  ONNXSHAPE_ORIGIN_INPUT = 1,       /**< a graph input: its declaration, with the bindings of
                                         ::onnxshape_infer_options (a subgraph's input: its
                                         declaration) */
  ONNXSHAPE_ORIGIN_INITIALIZER = 2, /**< an initializer (or sparse initializer) */
  ONNXSHAPE_ORIGIN_EVALUATED = 3,   /**< its node was evaluated (also a call of a model-local
                                         function, through its body) */
  ONNXSHAPE_ORIGIN_DECLARED = 4,    /**< its node is not evaluated: taken from its declaration */
  ONNXSHAPE_ORIGIN_UNDECLARED = 5,  /**< its node is not evaluated and nothing declares it */
  ONNXSHAPE_ORIGIN_BUDGET = 6,      /**< left unknown (or incomplete) where the analysis's work
                                         or memory budget ran out */
  ONNXSHAPE_ORIGIN_FAILED = 7       /**< its node is certain to fail: unknown (see
                                         onnxshape_inference_failure()) */
} onnxshape_origin;

/** A graph input's dims fixed for analysis (`--input NAME=D0,D1,...`). */
typedef struct onnxshape_input_dims {
  const char *name;
  size_t rank;
  const int64_t *dims; /**< rank entries, each >= 0 */
} onnxshape_input_dims;

/** A symbolic dim bound to a number everywhere (`--dim SYMBOL=VALUE`). */
typedef struct onnxshape_dim_binding {
  const char *symbol;
  int64_t value; /**< >= 0 */
} onnxshape_dim_binding;

/**
 * What analysis assumes about the inputs; all may be empty. Start from
 * ::ONNXSHAPE_INFER_OPTIONS_INIT (or onnxshape_infer_options_init()), which
 * sets @c size: later versions of the library may append fields, and read
 * only the @c size bytes a caller was compiled with (fields past them count
 * as unset); a library older than the caller's header refuses options that
 * set fields it does not have (ONNXSHAPE_ERR_INVALID_ARGUMENT).
 */
typedef struct onnxshape_infer_options {
  size_t size;                        /**< sizeof(onnxshape_infer_options) */
  const onnxshape_input_dims *inputs; /**< borrowed for the call only */
  size_t n_inputs;
  const onnxshape_dim_binding *dims;  /**< borrowed for the call only */
  size_t n_dims;
  /** 0: a node certain to fail whatever the data stops the analysis with
   *  its error. 1: it is recorded (onnxshape_inference_failure()), its
   *  outputs are unknown, and the analysis goes on to the end and succeeds,
   *  so that everything else it found is there too. */
  int keep_going;
} onnxshape_infer_options;

/** Options with nothing assumed, for initializing an ::onnxshape_infer_options. */
#define ONNXSHAPE_INFER_OPTIONS_INIT {sizeof(onnxshape_infer_options), NULL, 0, NULL, 0, 0}

/** Set @p opts to ::ONNXSHAPE_INFER_OPTIONS_INIT. NULL is allowed. */
ONNXSHAPE_API void onnxshape_infer_options_init(onnxshape_infer_options *opts);

/** A count of nodes of one operator. */
typedef struct onnxshape_op_count {
  const char *domain; /**< "" for the default domain */
  const char *op;
  size_t count;
} onnxshape_op_count;

/** The totals of one analysis, owned by the ::onnxshape_inference (never
 *  allocated or copied by a caller): later versions append fields, and
 *  @c size says how many bytes this library's struct has. */
typedef struct onnxshape_infer_summary {
  size_t size;     /**< sizeof(onnxshape_infer_summary) of the library */
  size_t shape_nodes, reshape_nodes, size_nodes; /**< in all graphs */
  size_t resolved; /**< Shape/Reshape/Size outputs whose dims (and, for Shape and Size, values)
                        are all numbers */
  size_t partial;  /**< the others of known rank */
  size_t unknown;  /**< those of unknown rank */
  size_t n_not_evaluated;                 /**< operators whose nodes analysis does not evaluate */
  const onnxshape_op_count *not_evaluated; /**< with their node counts, in order of first use */
  size_t not_evaluated_more; /**< nodes of further operators past the first 64 listed */
  uint64_t work_used;  /**< units of work the analysis spent (a unit: one dim, element,
                            input or term looked at or written) */
  uint64_t work_limit; /**< the most it may spend: 2^22 plus 64 per byte of the model file
                            (LIMIT-ANALYSIS-WORK, docs/analysis.md) */
  size_t out_of_work;  /**< nodes (and graph values) whose outputs were left unknown because
                            the work budget ran out: a nonzero count means the analysis is
                            incomplete there */
  size_t failures;     /**< nodes certain to fail, recorded with keep_going
                            (onnxshape_inference_failure()) */
} onnxshape_infer_summary;

/** The values of a model, as onnxshape_model_infer() determined them. It
 *  borrows names, paths and constant values from the model: free it
 *  (onnxshape_inference_free()) before the model. */
typedef struct onnxshape_inference onnxshape_inference;

/**
 * Determine the type and dims of every value without input data, from the
 * declared input shapes, initializers and Constant nodes, through the
 * operators docs/analysis.md lists (Shape, Reshape and Size with the
 * kernels' own rules; the integer operators exporters compute Reshape
 * targets with; If, Loop, Scan and model-local functions entered), every
 * other node's outputs taken from the model's declarations. Symbolic dims
 * (dim_param, such as `N`) stay symbolic where the rules keep them: copied by
 * Identity, by Shape's slice (as dims) and by a Reshape 0 without allowzero.
 * The result borrows from @p model (free it first).
 * @param[out] out the analysis; free it with onnxshape_inference_free()
 * @return ONNXSHAPE_OK, or the error of a node that cannot succeed whatever
 *         the data (for example a constant Reshape target with two -1);
 *         ONNXSHAPE_ERR_OUT_OF_MEMORY (also past the memory limit).
 */
ONNXSHAPE_API onnxshape_status onnxshape_model_infer(const onnxshape_model *model,
                                                    onnxshape_inference **out,
                                                    onnxshape_diag *diag);
/**
 * As onnxshape_model_infer(), with input dims and symbols fixed by @p opts
 * (NULL: none; see ::onnxshape_infer_options, also for keep_going). The
 * model may hold any operator of any domain, and subgraphs:
 * docs/analysis.md says what is evaluated. Every binding is checked before
 * anything is analysed, and applies to every input whatever the order: a
 * symbol an input's binding fixes (a declared `N` bound to 5) takes that
 * value in every declaration.
 * @return also ONNXSHAPE_ERR_NOT_FOUND (an input binding names no graph
 *         input; the message names the graph's inputs and the nearest one)
 *         and ONNXSHAPE_ERR_INVALID_ARGUMENT (a binding that contradicts the
 *         input's declaration or another binding, a negative dim, an input
 *         or symbol bound twice, dims given to an input that is not a tensor
 *         (a sequence, map, optional or sparse tensor), a symbol that no
 *         declaration of the model names; options whose @c size is below
 *         this struct's first version, or more than 256 bytes past this
 *         library's struct, or that set a field past it).
 */
ONNXSHAPE_API onnxshape_status onnxshape_model_infer_with(const onnxshape_model *model,
                                                         const onnxshape_infer_options *opts,
                                                         onnxshape_inference **out,
                                                         onnxshape_diag *diag);
/** The totals of @p inf (never NULL for a result of onnxshape_model_infer()). */
ONNXSHAPE_API const onnxshape_infer_summary *onnxshape_inference_summary(
    const onnxshape_inference *inf);
/** Number of values: per graph (the main graph first, then each subgraph
 *  after the graph that holds it), graph inputs, initializers, then node
 *  outputs in order. */
ONNXSHAPE_API size_t onnxshape_inference_count(const onnxshape_inference *inf);
/** Value @p i, or NULL. */
ONNXSHAPE_API const onnxshape_value_info *onnxshape_inference_get(const onnxshape_inference *inf,
                                                                 size_t i);
/**
 * Failure @p i (below the summary's @c failures) of an analysis run with
 * @c keep_going: the message naming the node (and its graph), as
 * onnxshape_model_infer() would have failed with, and its status in
 * *status (when not NULL). NULL when out of range. Valid until @p inf is
 * freed.
 */
ONNXSHAPE_API const char *onnxshape_inference_failure(const onnxshape_inference *inf, size_t i,
                                                     onnxshape_status *status);
/**
 * The first value (in the order of onnxshape_inference_get()) named @p name.
 * @param[out] index its index
 * @return ONNXSHAPE_OK; ONNXSHAPE_ERR_NOT_FOUND when no value has that name
 *         (the message names the nearest value name when one is close, as
 *         for an input binding); ONNXSHAPE_ERR_INVALID_ARGUMENT for NULL.
 */
ONNXSHAPE_API onnxshape_status onnxshape_inference_find(const onnxshape_inference *inf,
                                                       const char *name, size_t *index,
                                                       onnxshape_diag *diag);
/**
 * Writes @p out_path as the model of @p inf (@p model, read again from
 * @p model_path, the file onnxshape_model_read_file() loaded it from) with
 * what @p inf knows of the main graph's values spliced in (`infer
 * --write-model`, docs/cli.md): each graph input, graph output and
 * value_info entry of a value whose element type or rank is known is
 * rewritten with them (each dim its known number as dim_value, else the
 * declared dim, else its symbol or expression as dim_param, else empty;
 * a computed number or type replaces a declared one that contradicts it),
 * and every other value of a node whose element type is known gets a
 * value_info entry. Only graphs certain to run are written: the main graph
 * and, down from it, the If branch a known condition takes; a subgraph
 * that may not run (an If branch whose condition is not known, a Loop or
 * Scan body) and function bodies are copied as they are, since what
 * analysis knows of them holds only if they run. Every other byte of the file is copied as it is (fields the
 * library does not read included). With input dims or symbols bound in
 * ::onnxshape_infer_options, the graph inputs declare the bound dims, so the
 * model written is the model specialised to them. All or nothing: the file
 * is written under a temporary name beside @p out_path and renamed; on any
 * failure @p out_path is left as it was. @p out_path may be @p model_path.
 * @return ONNXSHAPE_OK; ONNXSHAPE_ERR_IO (cannot read @p model_path or
 *         write @p out_path, or @p model_path no longer holds the model:
 *         another size, or changed while read); ONNXSHAPE_ERR_OVERFLOW (the
 *         graph would pass protobuf's 2 GiB message limit);
 *         ONNXSHAPE_ERR_MALFORMED (the bytes no longer read as a model);
 *         ONNXSHAPE_ERR_OUT_OF_MEMORY; ONNXSHAPE_ERR_INVALID_ARGUMENT (NULL).
 */
ONNXSHAPE_API onnxshape_status onnxshape_inference_write_model(const onnxshape_model *model,
                                                              const onnxshape_inference *inf,
                                                              const char *model_path,
                                                              const char *out_path,
                                                              onnxshape_diag *diag);
/**
 * As onnxshape_inference_write_model(), the model given as the @p len
 * bytes it was parsed from (onnxshape_model_parse()).
 * @return as onnxshape_inference_write_model(); ONNXSHAPE_ERR_INVALID_ARGUMENT
 *         also when @p len is not the length @p model was parsed from.
 */
ONNXSHAPE_API onnxshape_status onnxshape_inference_write_model_bytes(
    const onnxshape_model *model, const onnxshape_inference *inf, const void *bytes, size_t len,
    const char *out_path, onnxshape_diag *diag);
/** Free @p inf. NULL is allowed. */
ONNXSHAPE_API void onnxshape_inference_free(onnxshape_inference *inf);
/** @} */

/* ------------------------------------------------------------------------ */
/** @name SONNX profile check
 * The ONNX safety-related profile (SONNX) forbids relying on attribute
 * defaults and using sparse tensors, and requires every operator's inputs to
 * lie in its valid domain. These functions report, for a model, each place
 * that breaks one of those rules and that can be found without input data.
 * @{ */

/** The kind of a finding. */
typedef enum onnxshape_profile_rule {
  ONNXSHAPE_PROFILE_DEFAULT = 1, /**< an attribute is left to its default */
  ONNXSHAPE_PROFILE_SPARSE = 2,  /**< a sparse tensor is used */
  ONNXSHAPE_PROFILE_DOMAIN = 3,  /**< a node's inputs or attributes are outside its valid
                                      domain, known without running (e.g. a constant Reshape
                                      target with two -1); also in a subgraph that may not run */
  ONNXSHAPE_PROFILE_CONFLICT = 4, /**< a declared type or shape (value_info, graph output)
                                       contradicts the computed one */
  ONNXSHAPE_PROFILE_PORTABILITY = 5, /**< a node whose result depends on a point where the
                                         specification and widely used implementations
                                         disagree (docs/divergences.md) */
  ONNXSHAPE_PROFILE_INCOMPLETE = 6, /**< the analysis ran out of its work budget
                                        (LIMIT-ANALYSIS-WORK) on some nodes: findings there
                                        may be missing */
  ONNXSHAPE_PROFILE_ORDER = 7, /**< a graph's nodes are not in topological order, which ONNX
                                    requires (the model loads, and is analysed and run, in
                                    dependency order) */
  ONNXSHAPE_PROFILE_UNKNOWN_OP = 8, /**< a node of the default domain whose operator ONNX does
                                        not define (at any opset through 28) */
  ONNXSHAPE_PROFILE_OPSET = 9, /**< a node of the default domain whose operator ONNX defines
                                  only from a later opset than the one its graph imports */
  ONNXSHAPE_PROFILE_DEPRECATED = 10 /**< a node of the default domain whose operator ONNX has
                                        deprecated at the opset its graph imports (Upsample
                                        from 10, Scatter from 11) */
} onnxshape_profile_rule;

/** Severities of findings (onnxshape_finding.severity). */
#define ONNXSHAPE_SEVERITY_ERROR 1   /**< the model cannot work as written (or, under the
                                          SONNX profile, does not conform to it) */
#define ONNXSHAPE_SEVERITY_WARNING 2 /**< advice: portability, an incomplete analysis */

/**
 * One finding, as fields. Appended to (never reordered) by later versions:
 * read a field only when @c size covers it. Strings are the report's, valid
 * until it is freed; names (graph, node, op) are as the model spells them,
 * not escaped: escape them to print them (the message is escaped already).
 */
typedef struct onnxshape_finding {
  size_t size;                /**< sizeof(onnxshape_finding) of the library */
  onnxshape_profile_rule rule; /**< as onnxshape_profile_rule_of() */
  const char *id;             /**< its stable rule id, e.g. "portability/D7"
                                   (onnxshape_check_rule()) */
  int severity;               /**< ONNXSHAPE_SEVERITY_ERROR or ONNXSHAPE_SEVERITY_WARNING */
  const char *graph;          /**< "" for the main graph, else the subgraph's or function
                                   call's path, e.g. "if_flag/then_branch" */
  const char *node;           /**< the node's name as the model spells it, "" when it has
                                   none (as onnxshape_value_info.node; @c node_index tells it
                                   apart); NULL when the finding is not about a node (a sparse
                                   initializer or graph value, a graph's order, the analysis's
                                   budget) */
  const char *op;             /**< the node's operator type, e.g. "Reshape" (its domain is
                                   @c domain); NULL when @c node is */
  int version;                /**< the operator's resolved since_version; 0 when not known
                                   (another domain, a function call) or not a node */
  const char *message;        /**< as onnxshape_profile_message() */
  const char *domain;         /**< the node's domain, "" for the default one (whether the
                                   model spells it "" or "ai.onnx"); NULL when @c node is */
  size_t node_index;          /**< the node's place among its graph's nodes (the file's order,
                                   from 0; the "#INDEX" of messages about an unnamed node);
                                   0 when @c node is NULL */
} onnxshape_finding;

/** The findings of one check. */
typedef struct onnxshape_profile_report onnxshape_profile_report;

/**
 * Check the ONNX model in @p len bytes against the SONNX profile. Sparse
 * tensors are looked for in the whole ModelProto (initializers, node
 * attributes, graph inputs, outputs and value_info). When there are none,
 * the model is loaded as onnxshape_model_parse() does (an invalid model is an
 * error, not a finding), every Shape-15+ node without `start` or `end` and
 * every Reshape-14+ node without `allowzero` is a DEFAULT finding, and
 * static inference (onnxshape_model_infer()) reports, as DOMAIN findings,
 * every node that cannot succeed whatever the input data; the other rules
 * (CONFLICT, PORTABILITY, INCOMPLETE, ORDER, UNKNOWN_OP, OPSET) are reported
 * as by ONNXSHAPE_CHECK_CORE. Each finding's rule id and severity:
 * onnxshape_profile_finding().
 * @param[in]  base_dir  where external data resolves, or NULL (none allowed)
 * @param[out] out       the report (free with onnxshape_profile_free()),
 *                       also when it holds no finding
 * @return ONNXSHAPE_OK (the report may hold findings); ONNXSHAPE_ERR_MALFORMED,
 *         ONNXSHAPE_ERR_INVALID_MODEL and the other statuses of
 *         onnxshape_model_parse() when the model cannot be loaded;
 *         ONNXSHAPE_ERR_INVALID_ARGUMENT; ONNXSHAPE_ERR_OUT_OF_MEMORY.
 */
ONNXSHAPE_API onnxshape_status onnxshape_profile_check_sonnx(const void *bytes, size_t len,
                                                            const char *base_dir,
                                                            onnxshape_profile_report **out,
                                                            onnxshape_diag *diag);
/** As onnxshape_profile_check_sonnx(), for the model file @p path (external
 *  data resolves in its directory). Also ONNXSHAPE_ERR_IO. */
ONNXSHAPE_API onnxshape_status onnxshape_profile_check_sonnx_file(const char *path,
                                                                 onnxshape_profile_report **out,
                                                                 onnxshape_diag *diag);
/** What onnxshape_model_check_file() looks for. */
typedef enum onnxshape_check_profile {
  ONNXSHAPE_CHECK_CORE = 0, /**< every rule but the profile's: DOMAIN (nodes that cannot
                                 succeed whatever the input data), CONFLICT, PORTABILITY,
                                 INCOMPLETE, ORDER, UNKNOWN_OP and OPSET (a sparse tensor is
                                 then a load error) */
  ONNXSHAPE_CHECK_SONNX = 1 /**< those and the SONNX profile's DEFAULT and SPARSE rules, as
                                 onnxshape_profile_check_sonnx() */
} onnxshape_check_profile;
/**
 * Check the ONNX model in @p len bytes (read whole into memory, as from a
 * pipe) for the findings of @p profile: the same findings, in the same
 * order, as onnxshape_model_check_file() gives for a file holding those
 * bytes. The library copies what it keeps; @p bytes may be freed on return.
 * @param[in]  base_dir  where external data resolves, or NULL (a model
 *                       naming external data is then an error)
 * @param[out] out       the report (free with onnxshape_profile_free()),
 *                       also when it holds no finding
 * @return as onnxshape_profile_check_sonnx(); ONNXSHAPE_ERR_INVALID_ARGUMENT
 *         also for a @p profile that is not an onnxshape_check_profile.
 */
ONNXSHAPE_API onnxshape_status onnxshape_model_check(const void *bytes, size_t len,
                                                    const char *base_dir,
                                                    onnxshape_check_profile profile,
                                                    onnxshape_profile_report **out,
                                                    onnxshape_diag *diag);
/** Check the model file @p path (external data resolves in its directory)
 *  for the findings of @p profile; statuses as
 *  onnxshape_profile_check_sonnx_file(). */
ONNXSHAPE_API onnxshape_status onnxshape_model_check_file(const char *path,
                                                         onnxshape_check_profile profile,
                                                         onnxshape_profile_report **out,
                                                         onnxshape_diag *diag);
/** Number of findings; 0 means the model conforms (as far as can be known
 *  without input data). */
ONNXSHAPE_API size_t onnxshape_profile_count(const onnxshape_profile_report *r);
/** The rule finding @p i breaks, or 0 when out of range. */
ONNXSHAPE_API onnxshape_profile_rule onnxshape_profile_rule_of(const onnxshape_profile_report *r,
                                                              size_t i);
/** Finding @p i, a sentence naming the node (or initializer, or graph value)
 *  and the rule; NULL when out of range. Valid until the report is freed. */
ONNXSHAPE_API const char *onnxshape_profile_message(const onnxshape_profile_report *r, size_t i);
/** Finding @p i as fields; NULL when out of range. Valid until the report
 *  is freed. */
ONNXSHAPE_API const onnxshape_finding *onnxshape_profile_finding(const onnxshape_profile_report *r,
                                                                size_t i);
/**
 * The @p i-th rule id a finding can carry, in a stable order, and its
 * severity in *severity (when not NULL); NULL past the last. The ids:
 * "domain", "conflict", "validity/order", "validity/unknown-op",
 * "validity/opset" (errors); "portability/D1", "portability/D6",
 * "portability/D7", "portability/D11", "incomplete" (warnings);
 * "sonnx/default", "sonnx/sparse" (errors, reported only with
 * ONNXSHAPE_CHECK_SONNX); "validity/deprecated" (error). Ids are never
 * renamed; new ones are appended.
 */
ONNXSHAPE_API const char *onnxshape_check_rule(size_t i, int *severity);
/** Free @p r. NULL is allowed. */
ONNXSHAPE_API void onnxshape_profile_free(onnxshape_profile_report *r);
/** @} */

#ifdef __cplusplus
}
#endif

#endif /* ONNXSHAPE_H */

