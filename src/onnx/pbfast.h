/* SPDX-License-Identifier: Apache-2.0 */
/* A fast path in front of protobuf-c's unpack for the plain encodings of
 * the ONNX subset (src/onnx/pbfast.c). */
#ifndef ONNXSHAPE_PBFAST_H
#define ONNXSHAPE_PBFAST_H

#include <protobuf-c/protobuf-c.h>
#include <stddef.h>
#include <stdint.h>

#include "arena.h"

/* Decodes `len` bytes as a message of `desc` (a ModelProto or TensorProto
 * of the subset, or a message they hold) into memory from `arena`. Either
 * the result holds exactly the values protobuf_c_message_unpack gives for
 * the same bytes (unknown fields aside: they are skipped, not kept), or it
 * is NULL and the caller must ask protobuf-c, which decides: NULL for every
 * malformed input, for the encodings left to protobuf-c (a singular field
 * given twice, two members of a oneof, a tag or length prefix longer than 5
 * bytes, a length past INT_MAX, nesting past 16 levels) and when out of
 * memory. On NULL, what was allocated stays in the arena until its release. */
ProtobufCMessage *onnxshape__pb_fast_decode(const ProtobufCMessageDescriptor *desc,
                                            const uint8_t *bytes, size_t len,
                                            onnxshape__arena *arena);

/* Decodes `len` bytes as a message of `desc` into a new arena whose blocks
 * may take `limit` bytes: the fast decoder, else protobuf-c (from a fresh
 * arena, so that nothing is held twice). With `borrow` (the arena's flag,
 * arena.h) the bytes must outlive the arena: the fast decoder's bytes
 * fields, and those of later onnxshape__pb_decode_in calls into the arena,
 * then point into them. A name (a string field naming a value, node,
 * operator, domain, attribute, symbol or external-data key or value) that
 * holds a NUL byte, which C strings would cut there, is recorded in the
 * arena (nul_name, the first one), whichever decoder read it: the caller
 * refuses the message once it has checked what it is (MODEL-NAMES-NUL). On
 * success *arena holds *msg; on failure nothing is held and the status says
 * why: ONNXSHAPE_ERR_MALFORMED, or ONNXSHAPE_ERR_OUT_OF_MEMORY, with *limited
 * set when it was the limit that stopped the decoding (no message is
 * written: the caller names what was decoded). */
#include "onnxshape.h"
onnxshape_status onnxshape__pb_decode(const ProtobufCMessageDescriptor *desc, const uint8_t *bytes,
                                      size_t len, size_t limit, int borrow,
                                      onnxshape__arena **arena, ProtobufCMessage **msg,
                                      int *limited);

/* Decodes `len` bytes as a message of `desc` into `arena` (a model's, for a
 * subgraph, a function or a sparse tensor held as bytes): the fast decoder,
 * else protobuf-c, names holding a NUL byte recorded as above (a name
 * recorded before stays). ONNXSHAPE_OK and *msg; ONNXSHAPE_ERR_MALFORMED; or
 * ONNXSHAPE_ERR_OUT_OF_MEMORY (arena->over_limit says when it was the
 * arena's limit). What a failed attempt allocated stays in the arena. */
onnxshape_status onnxshape__pb_decode_in(const ProtobufCMessageDescriptor *desc,
                                         const uint8_t *bytes, size_t len, onnxshape__arena *arena,
                                         ProtobufCMessage **msg);

/* The error of a name holding a NUL byte (its len bytes at name), status
 * st: "'<file>': the name '<escaped>' holds a NUL byte; ..." (without the
 * file when it is NULL). */
onnxshape_status onnxshape__pb_nul_name(const char *file, const uint8_t *name, size_t len,
                                        onnxshape_status st, onnxshape_diag *diag);

#endif
