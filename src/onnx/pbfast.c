/* SPDX-License-Identifier: Apache-2.0 */
/* A fast protobuf decoder for the plain encodings of the ONNX subset, in
 * front of protobuf-c (see pbfast.h for the contract).
 *
 * protobuf-c's generic unpack spent about 115 instructions per byte of a
 * small model (13,500 of the 23,000 of a whole load and run). This decoder
 * reads the same generated descriptors once, into compact tables (a field
 * number -> field map and each field's kind, offsets and wire type), and
 * decodes each message in one pass over its fields, checking each and
 * storing the singular ones at once; repeated fields are counted and
 * recorded, then each array is allocated once at its final size and filled.
 * All of it comes from an arena (pbfast.h) released with the model.
 *
 * It declines (returns NULL) on anything it does not handle exactly as
 * protobuf-c does, so that protobuf-c, not this code, decides every unusual
 * case (pbfast.h lists them). tests/test_pbfast.c and fuzz/fuzz_pbfast.c
 * check that whatever it accepts, protobuf-c decodes to the same values. */
#include "pbfast.h"

#include "onnx_subset.pb-c.h"

#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FIELDS 32   /* per message; the subset's largest has 20 */
#define MAX_NUMBER 64   /* field numbers mapped directly; the subset's largest is 25 */
#define MAX_MESSAGES 24 /* message types reachable from one root; the subset has 13 */
#define MAX_DEPTH 16    /* nesting; the subset nests 7 deep */
#define MAX_REC 64      /* fields recorded per message by pass 1 */

#if defined(__GNUC__)
#define HOT_INLINE inline __attribute__((always_inline))
#else
#define HOT_INLINE inline
#endif

enum { WIRE_VARINT = 0, WIRE_64 = 1, WIRE_LEN = 2, WIRE_32 = 5 };

/* How a field is stored in the C struct. */
enum { K_I32, K_I64, K_F32, K_F64, K_STRING, K_BYTES, K_MESSAGE };

typedef struct msg_info msg_info;

typedef struct field_info {
  uint8_t kind, wire;   /* storage kind; wire type of one value */
  uint8_t repeated, has_flag;
  uint32_t oneof_bit;   /* the field's oneof, as one bit per oneof of its message; 0: none */
  uint8_t elem;         /* bytes of one array element */
  uint32_t id;
  size_t offset, qoffset;
  const msg_info *sub;  /* for K_MESSAGE */
} field_info;

struct msg_info {
  const ProtobufCMessageDescriptor *desc;
  unsigned n_fields;
  uint8_t by_number[MAX_NUMBER]; /* field index + 1, 0 for none */
  field_info f[MAX_FIELDS];
};

/* ---- the arena ---------------------------------------------------------- */

#define ARENA_HEAD \
  ((sizeof(onnxshape__arena) + ONNXSHAPE__ARENA_ALIGN - 1) / ONNXSHAPE__ARENA_ALIGN * \
   ONNXSHAPE__ARENA_ALIGN)
#define ARENA_FIRST 8192u /* a small model, decoded and loaded, fits */
#define ARENA_BLOCK 16384u

static void *arena_pc_alloc(void *ctx, size_t size) {
  return onnxshape__arena_alloc(ctx, size);
}

static void arena_pc_free(void *ctx, void *p) { /* released with the arena */
  (void)ctx;
  (void)p;
}

/* One released arena (header and first block) kept for the next: loading
 * small models one after another then costs no malloc and free. At most one
 * is held, process-wide, and a destructor frees it at exit (without one,
 * nothing is kept). */
static _Atomic(unsigned char *) spare;

#if defined(__GNUC__)
#define KEEP_SPARE 1
__attribute__((destructor)) static void drop_spare(void) {
  free(atomic_exchange(&spare, NULL));
}
#else
#define KEEP_SPARE 0
#endif

onnxshape__arena *onnxshape__arena_new(void) {
  unsigned char *mem = atomic_exchange(&spare, NULL);
  if (mem == NULL) mem = malloc(ARENA_HEAD + ARENA_FIRST);
  if (mem == NULL) return NULL;
  onnxshape__arena *a = (onnxshape__arena *)(void *)mem;
  a->allocator.alloc = arena_pc_alloc;
  a->allocator.free = arena_pc_free;
  a->allocator.allocator_data = a;
  a->cur = mem + ARENA_HEAD;
  a->end = a->cur + ARENA_FIRST;
  a->blocks = NULL;
  return a;
}

void *onnxshape__arena_grow(onnxshape__arena *a, size_t size) {
  size_t cap = size > ARENA_BLOCK ? size : ARENA_BLOCK;
  onnxshape__arena_block *b = malloc(sizeof *b + cap);
  if (b == NULL) return NULL;
  b->next = a->blocks;
  a->blocks = b;
  a->cur = b->data + size;
  a->end = b->data + cap;
  return b->data;
}

void onnxshape__arena_release(onnxshape__arena *a) {
  if (a == NULL) return;
  for (onnxshape__arena_block *b = a->blocks, *next; b != NULL; b = next) {
    next = b->next;
    free(b);
  }
  unsigned char *none = NULL;
  if (KEEP_SPARE && atomic_compare_exchange_strong(&spare, &none, (unsigned char *)a)) return;
  free(a);
}

/* ---- tables ---------------------------------------------------------- */

typedef struct tables {
  int ok; /* 0: some message is outside what the tables describe */
  unsigned n;
  msg_info msgs[MAX_MESSAGES];
} tables;

static tables the_tables;

static int field_kind(const ProtobufCFieldDescriptor *fd, field_info *fi) {
  switch (fd->type) {
    case PROTOBUF_C_TYPE_INT32:
    case PROTOBUF_C_TYPE_ENUM:
      fi->kind = K_I32, fi->wire = WIRE_VARINT, fi->elem = 4;
      return 1;
    case PROTOBUF_C_TYPE_INT64:
    case PROTOBUF_C_TYPE_UINT64:
      fi->kind = K_I64, fi->wire = WIRE_VARINT, fi->elem = 8;
      return 1;
    case PROTOBUF_C_TYPE_FLOAT:
      fi->kind = K_F32, fi->wire = WIRE_32, fi->elem = 4;
      return 1;
    case PROTOBUF_C_TYPE_DOUBLE:
      fi->kind = K_F64, fi->wire = WIRE_64, fi->elem = 8;
      return 1;
    case PROTOBUF_C_TYPE_STRING:
      fi->kind = K_STRING, fi->wire = WIRE_LEN, fi->elem = sizeof(char *);
      return 1;
    case PROTOBUF_C_TYPE_BYTES:
      fi->kind = K_BYTES, fi->wire = WIRE_LEN, fi->elem = sizeof(ProtobufCBinaryData);
      return 1;
    case PROTOBUF_C_TYPE_MESSAGE:
      fi->kind = K_MESSAGE, fi->wire = WIRE_LEN, fi->elem = sizeof(void *);
      return 1;
    default:
      return 0; /* sint, fixed, bool, uint32: not in the subset */
  }
}

/* The table of descriptor d, built (with those of its message fields) on
 * first sight; NULL when d is outside what the tables can describe. */
static const msg_info *build(tables *t, const ProtobufCMessageDescriptor *d) {
  for (unsigned k = 0; k < t->n; k++) {
    if (t->msgs[k].desc == d) return &t->msgs[k];
  }
  if (t->n == MAX_MESSAGES || d->n_fields > MAX_FIELDS) return NULL;
  msg_info *mi = &t->msgs[t->n++];
  mi->desc = d;
  mi->n_fields = d->n_fields;
  for (unsigned i = 0; i < d->n_fields; i++) {
    const ProtobufCFieldDescriptor *fd = &d->fields[i];
    field_info *fi = &mi->f[i];
    if (!field_kind(fd, fi) || fd->id == 0 || fd->id >= MAX_NUMBER ||
        mi->by_number[fd->id] != 0 || fd->label == PROTOBUF_C_LABEL_NONE) {
      return NULL;
    }
    mi->by_number[fd->id] = (uint8_t)(i + 1);
    fi->id = fd->id;
    fi->repeated = fd->label == PROTOBUF_C_LABEL_REPEATED;
    fi->oneof_bit = 0;
    if (fd->flags & PROTOBUF_C_FIELD_FLAG_ONEOF) {
      /* Members of one oneof share its case field (quantifier_offset): the
       * first member met gives the group its bit. */
      for (unsigned k = 0; k < i && fi->oneof_bit == 0; k++) {
        if (mi->f[k].oneof_bit != 0 && d->fields[k].quantifier_offset == fd->quantifier_offset) {
          fi->oneof_bit = mi->f[k].oneof_bit;
        }
      }
      if (fi->oneof_bit == 0) fi->oneof_bit = (uint32_t)1u << i;
    }
    fi->has_flag = !fi->repeated && fi->oneof_bit == 0 && fd->quantifier_offset != 0;
    fi->offset = fd->offset;
    fi->qoffset = fd->quantifier_offset;
  }
  for (unsigned i = 0; i < d->n_fields; i++) {
    if (mi->f[i].kind != K_MESSAGE) continue;
    mi->f[i].sub = build(t, d->fields[i].descriptor);
    if (mi->f[i].sub == NULL) return NULL;
  }
  return mi;
}

static pthread_once_t once = PTHREAD_ONCE_INIT;

/* The messages decoded from files: models and tensors (and all they hold);
 * message_init() leaves every field at its default, which the decoder then
 * overwrites only where the wire has a value. */
static void build_all(void) {
  the_tables.ok = build(&the_tables, &onnx__model_proto__descriptor) != NULL &&
                  build(&the_tables, &onnx__tensor_proto__descriptor) != NULL;
}

/* ---- wire ------------------------------------------------------------ */

/* Reads a varint of at most 10 bytes; 0 when it is cut off or longer. */
static HOT_INLINE int read_varint(const uint8_t **p, const uint8_t *end, uint64_t *v) {
  const uint8_t *q = *p;
  if (q < end && *q < 0x80) { /* one byte: most tags, lengths and values */
    *v = *q;
    *p = q + 1;
    return 1;
  }
  uint64_t r = 0;
  for (unsigned shift = 0; shift < 64; shift += 7) {
    if (q >= end) return 0;
    uint8_t c = *q++;
    if (shift == 63 && c > 1) return 0; /* bits past 64 */
    r |= (uint64_t)(c & 0x7fu) << shift;
    if (c < 0x80) {
      *v = r;
      *p = q;
      return 1;
    }
  }
  return 0;
}

/* Where pass 1 found a value: its field, wire type and either the varint
 * or the bytes [at, at + len). */
typedef struct rec {
  const uint8_t *at;
  uint64_t v; /* the varint, or the length */
  uint8_t field, wire;
} rec;

/* Counts the values of a packed payload; 0 when it does not divide into
 * whole values (protobuf-c decides those). */
static int packed_count(unsigned wire, const uint8_t *b, size_t len, size_t *count) {
  if (wire != WIRE_VARINT) {
    size_t size = wire == WIRE_32 ? 4u : 8u;
    if (len % size != 0) return 0;
    *count = len / size;
    return 1;
  }
  size_t n = 0;
  const uint8_t *p = b, *end = b + len;
  while (p < end) {
    uint64_t v;
    if (!read_varint(&p, end, &v)) return 0;
    n++;
  }
  *count = n;
  return 1;
}

/* Reads the field at *p into *r (field index in info, or 0xff when the
 * number is unknown). 0 when malformed or a group (wire 3, 4). */
/* protobuf-c reads a tag, and the length of a length-delimited value, in
 * at most 5 bytes, and takes no length past INT_MAX: longer ones are left
 * to it. */
#define MAX_PREFIX_BYTES 5

/* A varint prefix (tag or length) of at most MAX_PREFIX_BYTES. */
static inline int read_prefix(const uint8_t **p, const uint8_t *end, uint64_t *v) {
  const uint8_t *start = *p;
  return read_varint(p, end, v) && *p - start <= MAX_PREFIX_BYTES;
}

static HOT_INLINE int next_field(const msg_info *mi, const uint8_t **p, const uint8_t *end, rec *r) {
  uint64_t tag;
  const uint8_t *q = *p;
  if (q < end && *q < 0x80) { /* a one-byte tag: fields 1 to 15 */
    tag = *q++;
  } else if (!read_prefix(&q, end, &tag)) {
    return 0;
  }
  /* At most 5 bytes: the number fits 32 bits, as protobuf-c reads it. */
  uint64_t number = tag >> 3;
  if (number == 0) return 0;
  unsigned idx = number < MAX_NUMBER ? mi->by_number[number] : 0;
  r->field = (uint8_t)(idx - 1u); /* 0xff when unknown */
  r->wire = (uint8_t)(tag & 7u);
  switch (r->wire) {
    case WIRE_VARINT:
      r->at = q;
      if (q < end && *q < 0x80) {
        r->v = *q++;
      } else if (!read_varint(&q, end, &r->v)) {
        return 0;
      }
      break;
    case WIRE_64:
    case WIRE_32: {
      size_t size = r->wire == WIRE_32 ? 4u : 8u;
      if ((size_t)(end - q) < size) return 0;
      r->at = q;
      r->v = size;
      q += size;
      break;
    }
    case WIRE_LEN:
      if (q < end && *q < 0x80) {
        r->v = *q++;
      } else if (!read_prefix(&q, end, &r->v) || r->v > INT_MAX) {
        return 0;
      }
      if (r->v > (uint64_t)(end - q)) return 0;
      r->at = q;
      q += r->v;
      break;
    default:
      return 0; /* groups (3, 4) and wire types 6, 7 */
  }
  *p = q;
  return 1;
}

/* ---- pass 2 ------------------------------------------------------------ */

static uint32_t le32(const uint8_t *b) {
  return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static uint64_t le64(const uint8_t *b) {
  return (uint64_t)le32(b) | (uint64_t)le32(b + 4) << 32;
}

static inline void *alloc(onnxshape__arena *a, size_t n) {
  return onnxshape__arena_alloc(a, n > 0 ? n : 1);
}

static ProtobufCMessage *decode(const msg_info *mi, const uint8_t *b, size_t len,
                                onnxshape__arena *a, unsigned depth);

/* Stores one value of kind fi->kind (the varint v, or the bytes at) at dst;
 * 0 when out of memory or a sub-message declines. */
static HOT_INLINE int store(const field_info *fi, const uint8_t *at, uint64_t v,
                            onnxshape__arena *a, unsigned depth, char *dst) {
  switch (fi->kind) {
    case K_I32: {
      int32_t x = (int32_t)(uint32_t)(v & 0xffffffffu); /* protobuf-c keeps the low 32 bits */
      memcpy(dst, &x, sizeof x);
      return 1;
    }
    case K_I64:
      memcpy(dst, &v, sizeof v);
      return 1;
    case K_F32: {
      uint32_t x = le32(at);
      memcpy(dst, &x, sizeof x);
      return 1;
    }
    case K_F64: {
      uint64_t x = le64(at);
      memcpy(dst, &x, sizeof x);
      return 1;
    }
    case K_STRING: { /* a NUL-terminated copy, as protobuf-c makes */
      char *s = alloc(a, (size_t)v + 1);
      if (s == NULL) return 0;
      memcpy(s, at, (size_t)v);
      s[v] = '\0';
      memcpy(dst, &s, sizeof s);
      return 1;
    }
    case K_BYTES: { /* a copy; empty bytes get no buffer */
      ProtobufCBinaryData bd = {(size_t)v, NULL};
      if (v > 0) {
        bd.data = alloc(a, (size_t)v);
        if (bd.data == NULL) return 0;
        memcpy(bd.data, at, (size_t)v);
      }
      memcpy(dst, &bd, sizeof bd);
      return 1;
    }
    default: {
      ProtobufCMessage *m = decode(fi->sub, at, (size_t)v, a, depth + 1);
      if (m == NULL) return 0;
      memcpy(dst, &m, sizeof m);
      return 1;
    }
  }
}

/* Stores the value(s) of a repeated field found at r, from index *filled
 * of its array on. */
static int store_repeated(const field_info *fi, const rec *r, char *base, size_t *filled,
                          onnxshape__arena *a, unsigned depth) {
  char *arr;
  memcpy(&arr, base + fi->offset, sizeof arr);
  if (r->wire == fi->wire) return store(fi, r->at, r->v, a, depth, arr + (*filled)++ * fi->elem);
  /* A packed run of scalars (pass 1 checked it divides into whole values). */
  const uint8_t *q = r->at, *end = r->at + r->v;
  while (q < end) {
    uint64_t v = 0;
    const uint8_t *at = q;
    if (fi->wire == WIRE_VARINT) {
      (void)read_varint(&q, end, &v);
    } else {
      q += fi->wire == WIRE_32 ? 4 : 8;
    }
    (void)store(fi, at, v, a, depth, arr + (*filled)++ * fi->elem);
  }
  return 1;
}

/* ---- messages ---------------------------------------------------------- */

static ProtobufCMessage *decode(const msg_info *mi, const uint8_t *b, size_t len,
                                onnxshape__arena *a, unsigned depth) {
  if (depth > MAX_DEPTH) return NULL;
  const ProtobufCMessageDescriptor *d = mi->desc;
  ProtobufCMessage *m = alloc(a, d->sizeof_message);
  if (m == NULL) return NULL;
  d->message_init(m);
  char *base = (char *)m;
  /* Pass 1: every field is well formed and of its wire type (or a packed
   * run of a repeated scalar), no singular field or oneof comes twice.
   * Singular fields are stored at once; repeated ones are counted, and
   * recorded for pass 2. */
  uint32_t seen = 0, repeated = 0, oneofs = 0;
  size_t counts[MAX_FIELDS];
  rec recs[MAX_REC];
  size_t n_rec = 0;
  const uint8_t *p = b, *end = b + len;
  while (p < end) {
    rec r;
    if (!next_field(mi, &p, end, &r)) return NULL;
    if (r.field == 0xff) continue; /* unknown: skipped (protobuf-c keeps it aside) */
    const field_info *fi = &mi->f[r.field];
    uint32_t bit = (uint32_t)1u << r.field;
    if (!fi->repeated) {
      if ((seen & bit) != 0 || r.wire != fi->wire) return NULL;
      seen |= bit;
      if (fi->oneof_bit != 0) {
        if ((oneofs & fi->oneof_bit) != 0) return NULL; /* a second member */
        oneofs |= fi->oneof_bit;
        uint32_t id = fi->id;
        memcpy(base + fi->qoffset, &id, sizeof id);
      } else if (fi->has_flag) {
        protobuf_c_boolean yes = 1;
        memcpy(base + fi->qoffset, &yes, sizeof yes);
      }
      if (!store(fi, r.at, r.v, a, depth, base + fi->offset)) return NULL;
      continue;
    }
    if ((repeated & bit) == 0) {
      repeated |= bit;
      counts[r.field] = 0;
    }
    if (r.wire == fi->wire) {
      counts[r.field]++;
    } else if (r.wire == WIRE_LEN && fi->kind <= K_F64) {
      size_t n;
      if (!packed_count(fi->wire, r.at, (size_t)r.v, &n)) return NULL;
      counts[r.field] += n;
    } else {
      return NULL;
    }
    if (n_rec < MAX_REC) recs[n_rec] = r;
    n_rec++;
  }
  if (repeated == 0) return m;
  /* Each repeated field's array, allocated once at its final size. */
  size_t filled[MAX_FIELDS];
  for (unsigned i = 0, bits = repeated; bits != 0; i++, bits >>= 1) {
    if ((bits & 1u) == 0) continue;
    filled[i] = 0;
    if (counts[i] == 0) continue;
    const field_info *fi = &mi->f[i];
    if (counts[i] > SIZE_MAX / 64) return NULL;
    void *arr = alloc(a, counts[i] * fi->elem);
    if (arr == NULL) return NULL;
    memcpy(base + fi->qoffset, &counts[i], sizeof counts[i]);
    memcpy(base + fi->offset, &arr, sizeof arr);
  }
  /* Pass 2: the repeated values, from the record of pass 1 or, for a
   * message with more of them than it holds, from the bytes again. */
  if (n_rec <= MAX_REC) {
    for (size_t k = 0; k < n_rec; k++) {
      const rec *r = &recs[k];
      if (!store_repeated(&mi->f[r->field], r, base, &filled[r->field], a, depth)) return NULL;
    }
    return m;
  }
  p = b;
  while (p < end) {
    rec r;
    if (!next_field(mi, &p, end, &r)) return NULL; /* pass 1 accepted every field */
    if (r.field == 0xff || !mi->f[r.field].repeated) continue;
    if (!store_repeated(&mi->f[r.field], &r, base, &filled[r.field], a, depth)) return NULL;
  }
  return m;
}

ProtobufCMessage *onnxshape__pb_fast_decode(const ProtobufCMessageDescriptor *desc,
                                            const uint8_t *bytes, size_t len,
                                            onnxshape__arena *allocator) {
  if (desc == NULL || allocator == NULL || (bytes == NULL && len > 0)) return NULL;
  if (pthread_once(&once, build_all) != 0 || !the_tables.ok) return NULL;
  for (unsigned k = 0; k < the_tables.n; k++) {
    if (the_tables.msgs[k].desc == desc) {
      return decode(&the_tables.msgs[k], bytes != NULL ? bytes : (const uint8_t *)"", len,
                    allocator, 0);
    }
  }
  return NULL;
}
