/* SPDX-License-Identifier: Apache-2.0 */
/* Diagnostics: the library's own small formatter (internal.h explains the
 * `{}` formats and typed arguments) and the escaping of text that came from
 * a file or a caller. Nothing here needs the C library. */
#include "internal.h"

/* A name longer than this, once escaped, is shown as its first and last
 * NAME_PART bytes around "...", so that a message keeps its rule. */
#define NAME_SHOWN 64u
#define NAME_PART 30u
/* The longest escape of one character: a 4-byte sequence as \xNN each. */
#define PIECE_MAX 16u

void onnxshape_diag_init(onnxshape_diag *diag) {
  if (diag != NULL) {
    diag->node = NULL;
    diag->message[0] = '\0';
  }
}

/* ---- escaping -------------------------------------------------------------- */

/* onnxshape_utf8_decode for n > 0 bytes at s: inlined into escape_piece, so
 * that escaping a message's text adds no call (and no stack frame) per
 * character. */
static ONNXSHAPE_INLINE size_t utf8_at(const unsigned char *s, size_t n, uint32_t *cp) {
  unsigned char c = s[0];
  size_t len;
  uint32_t v, min;
  if (c < 0x80u) {
    *cp = c;
    return 1;
  }
  if (c >= 0xc2u && c <= 0xdfu) {
    len = 2;
    v = (uint32_t)c & 0x1fu;
    min = 0x80u;
  } else if (c >= 0xe0u && c <= 0xefu) {
    len = 3;
    v = (uint32_t)c & 0x0fu;
    min = 0x800u;
  } else if (c >= 0xf0u && c <= 0xf4u) {
    len = 4;
    v = (uint32_t)c & 0x07u;
    min = 0x10000u;
  } else {
    return 0;
  }
  if (n < len) {
    return 0;
  }
  for (size_t i = 1; i < len; i++) {
    if ((s[i] & 0xc0u) != 0x80u) {
      return 0;
    }
    v = (v << 6) | (s[i] & 0x3fu);
  }
  if (v < min || v > 0x10ffffu || (v >= 0xd800u && v <= 0xdfffu)) {
    return 0;
  }
  *cp = v;
  return len;
}

size_t onnxshape_utf8_decode(const char *text, size_t n, uint32_t *cp) {
  if (text == NULL || n == 0u || cp == NULL) {
    return 0;
  }
  return utf8_at((const unsigned char *)text, n, cp);
}

/* Code points that are valid but change how text displays or where a line
 * ends: C1 controls, line and paragraph separators, bidirectional controls. */
static int invisible(uint32_t cp) {
  return (cp >= 0x80u && cp <= 0x9fu) || cp == 0x2028u || cp == 0x2029u ||
         (cp >= 0x200eu && cp <= 0x200fu) || (cp >= 0x202au && cp <= 0x202eu) ||
         (cp >= 0x2066u && cp <= 0x2069u);
}

static char hex_digit(unsigned v) {
  return v < 10u ? (char)('0' + v) : (char)('a' + (v - 10u));
}

/* The escaped form of the character at s (n > 0 bytes left) into piece;
 * returns its length and sets *used to the bytes of s it stands for. */
static size_t escape_piece(const unsigned char *s, size_t n, char piece[PIECE_MAX], size_t *used) {
  uint32_t cp = 0;
  size_t len = utf8_at(s, n, &cp);
  if (len == 1u && cp >= 0x20u && cp != 0x7fu && cp != (uint32_t)'\\') {
    piece[0] = (char)cp;
    *used = 1;
    return 1;
  }
  if (len == 1u && (cp == (uint32_t)'\\' || cp == (uint32_t)'\n' || cp == (uint32_t)'\t' ||
                    cp == (uint32_t)'\r')) {
    piece[0] = '\\';
    if (cp == (uint32_t)'\\') {
      piece[1] = '\\';
    } else if (cp == (uint32_t)'\n') {
      piece[1] = 'n';
    } else if (cp == (uint32_t)'\t') {
      piece[1] = 't';
    } else {
      piece[1] = 'r';
    }
    *used = 1;
    return 2;
  }
  if (len > 1u && invisible(cp) == 0) {
    for (size_t i = 0; i < len; i++) {
      piece[i] = (char)s[i];
    }
    *used = len;
    return len;
  }
  /* A control character, an invisible one, or a byte that is not UTF-8:
   * each byte as \xNN. */
  if (len == 0u) {
    len = 1;
  }
  for (size_t i = 0; i < len; i++) {
    piece[4u * i] = '\\';
    piece[4u * i + 1u] = 'x';
    piece[4u * i + 2u] = hex_digit((unsigned)s[i] >> 4);
    piece[4u * i + 3u] = hex_digit((unsigned)s[i] & 0xfu);
  }
  *used = len;
  return 4u * len;
}

/* The bytes text written so far: buf holds len of them (cap > len). */
typedef struct sink {
  char *buf;
  size_t cap, len;
  size_t need; /* what the whole text would take */
} sink;

/* Appends n bytes, unless they do not all fit (an escape is never cut). */
static void put(sink *o, const char *p, size_t n) {
  o->need += n;
  if (o->cap == 0u || o->len + n >= o->cap) {
    o->cap = o->len + 1u; /* full: later, shorter pieces must not follow */
  } else {
    for (size_t i = 0; i < n; i++) {
      o->buf[o->len + i] = p[i];
    }
    o->len += n;
  }
}

static void put_str(sink *o, const char *s) {
  size_t n = 0;
  while (s[n] != '\0') {
    n++;
  }
  put(o, s, n);
}

/* The escaped length of the n bytes at s. */
static size_t escaped_length(const unsigned char *s, size_t n) {
  size_t total = 0, used;
  char piece[PIECE_MAX];
  for (size_t i = 0; i < n; i += used) {
    total += escape_piece(s + i, n - i, piece, &used);
  }
  return total;
}

/* Writes the n bytes at s escaped; with shorten, a result longer than
 * NAME_SHOWN bytes keeps its first and last NAME_PART bytes (whole escapes
 * only) around "...". */
static void put_escaped(sink *o, const unsigned char *s, size_t n, int shorten) {
  char piece[PIECE_MAX];
  size_t used, i = 0;
  size_t total = (shorten != 0) ? escaped_length(s, n) : 0u;
  if (shorten == 0 || total <= NAME_SHOWN) {
    for (; i < n; i += used) {
      put(o, piece, escape_piece(s + i, n - i, piece, &used));
    }
  } else {
    size_t shown = 0, k;
    for (; i < n; i += used) { /* the head */
      k = escape_piece(s + i, n - i, piece, &used);
      if (shown + k > NAME_PART) {
        break;
      }
      put(o, piece, k);
      shown += k;
    }
    put(o, "...", 3);
    /* The tail: from the first character after which at most NAME_PART
     * escaped bytes remain. */
    size_t before = shown;
    for (; i < n; i += used) {
      k = escape_piece(s + i, n - i, piece, &used);
      if (total - before <= NAME_PART) {
        break;
      }
      before += k;
    }
    for (; i < n; i += used) {
      put(o, piece, escape_piece(s + i, n - i, piece, &used));
    }
  }
}

size_t onnxshape_escape(char *dst, size_t cap, const char *src, size_t len) {
  sink o = {dst, cap, 0, 0};
  if (src != NULL) {
    put_escaped(&o, (const unsigned char *)src, len, 0);
  }
  if (dst != NULL && cap > 0u) {
    dst[o.len] = '\0';
  }
  return o.need;
}

/* ---- formatting ------------------------------------------------------------- */

/* v in decimal. A digit is the remainder of v divided by 10, taken as four
 * 16-bit limbs from the top, each step a 32-bit division (the remainder
 * carried in is below 10, so r * 65536 + limb fits in 32 bits): no 64-bit
 * division, which a 32-bit core would take from its C library. */
static void put_uint(sink *o, uint64_t v) {
  char digits[20];
  size_t n = 0;
  uint32_t limb[4] = {(uint32_t)(v >> 48), (uint32_t)(v >> 32) & 0xffffu,
                      (uint32_t)(v >> 16) & 0xffffu, (uint32_t)v & 0xffffu};
  uint32_t rest;
  do {
    uint32_t r = 0;
    rest = 0;
    for (size_t k = 0; k < 4u; k++) {
      uint32_t x = (r << 16) | limb[k];
      limb[k] = x / 10u;
      r = x % 10u;
      rest |= limb[k];
    }
    digits[sizeof digits - 1u - n] = (char)('0' + r);
    n++;
  } while (rest != 0u);
  put(o, digits + sizeof digits - n, n);
}

/* The names of the types in mask (bit t for type t), comma-separated; built
 * as it is written, so that no list is held on the stack. */
static void put_types(sink *o, uint64_t mask) {
  const char *sep = "";
  for (int32_t t = 1; t <= ONNXSHAPE_TYPE_LAST; t++) {
    if (((mask >> (uint32_t)t) & 1u) == 0u) {
      continue;
    }
    put_str(o, sep);
    put_str(o, onnxshape_type_name(t));
    sep = ", ";
  }
}

static void put_arg(sink *o, const onnxshape__arg *a) {
  switch (a->kind) {
    case ONNXSHAPE__ARG_INT:
      if (a->v.i < 0) {
        put(o, "-", 1);
        put_uint(o, 0u - (uint64_t)a->v.i); /* INT64_MIN too */
      } else {
        put_uint(o, (uint64_t)a->v.i);
      }
      return;
    case ONNXSHAPE__ARG_UINT:
      put_uint(o, a->v.u);
      return;
    case ONNXSHAPE__ARG_TYPES:
      put_types(o, a->v.u);
      return;
    default:
      break;
  }
  const char *s = a->v.s != NULL ? a->v.s : "(null)";
  if (a->kind == ONNXSHAPE__ARG_TEXT) {
    put_str(o, s);
    return;
  }
  size_t n = 0;
  while (s[n] != '\0') {
    n++;
  }
  put_escaped(o, (const unsigned char *)s, n, (a->kind == ONNXSHAPE__ARG_NAME) ? 1 : 0);
}

/* Appends fmt, each `{}` replaced by the next argument ("{?}" once they run
 * out). Inlined into its two callers: on a failure's path, one stack frame
 * fewer. */
static ONNXSHAPE_INLINE void put_format(sink *o, const char *fmt, const onnxshape__arg *args,
                                         size_t n_args) {
  size_t next = 0;
  size_t run = 0; /* fmt[run] starts the text not yet written */
  size_t i = 0;
  while (fmt[i] != '\0') {
    if (fmt[i] == '{' && fmt[i + 1u] == '}') {
      put(o, &fmt[run], i - run);
      if (next < n_args) {
        put_arg(o, &args[next++]);
      } else {
        put(o, "{?}", 3);
      }
      i += 2u;
      run = i;
    } else {
      i++;
    }
  }
  put_str(o, &fmt[run]);
}

size_t onnxshape__format(char *buf, size_t cap, const char *fmt, const onnxshape__arg *args,
                         size_t n_args) {
  sink o = {buf, cap, 0, 0};
  if (cap == 0u) {
    return 0;
  }
  put_format(&o, fmt, args, n_args);
  buf[o.len] = '\0';
  return o.len;
}

#define ONNXSHAPE_X_SMALL(name, value, text) \
  _Static_assert((value) >= 0 && (value) < 100, "status " #name " has more than two digits");
ONNXSHAPE_STATUS_LIST(ONNXSHAPE_X_SMALL)
#undef ONNXSHAPE_X_SMALL

/* "error <status number>" at m: the message of a failure when messages are
 * compiled out, and of one whose text would be empty. The status numbers
 * are below 100: two digits at most, in 32-bit arithmetic (put_uint's
 * 64-bit division would pull libgcc's into the build without messages). */
static size_t put_error_number(char *m, onnxshape_status status) {
  unsigned v = (unsigned)status % 100u;
  size_t n = 0;
  for (const char *p = "error "; *p != '\0'; p++) {
    m[n++] = *p;
  }
  if (v >= 10u) {
    m[n++] = (char)('0' + (v / 10u));
  }
  m[n++] = (char)('0' + (v % 10u));
  m[n] = '\0';
  return n;
}

#if defined(ONNXSHAPE_NO_MESSAGES)
onnxshape_status onnxshape__failed(onnxshape_diag *diag, onnxshape_status status) {
  if (diag != NULL) {
    (void)put_error_number(diag->message, status);
  }
  return status;
}
#else
/* "node '<name>'", the name escaped and shortened as ARG_NAME is. */
static void put_node(sink *o, const char *node) {
  size_t n = 0;
  while (node[n] != '\0') {
    n++;
  }
  put(o, "node '", 6);
  put_escaped(o, (const unsigned char *)node, n, 1);
  put(o, "'", 1);
}

onnxshape_status onnxshape__fail(onnxshape_diag *diag, onnxshape_status status,
                                 const char *op_name, int version, const char *fmt,
                                 const onnxshape__arg *args, size_t n_args) {
  if (diag != NULL) {
    sink o = {diag->message, sizeof diag->message, 0, 0};
    const char *node = diag->node;
    if (node != NULL && node[0] == '\0') {
      node = NULL; /* an empty name names no node */
    }
    if (op_name != NULL) {
      put_str(&o, op_name);
      put(&o, "-", 1);
      put_uint(&o, (uint64_t)(version < 0 ? 0 : version));
      if (node != NULL) {
        put_str(&o, " (");
        put_node(&o, node);
        put(&o, ")", 1);
      }
      put(&o, ": ", 2);
    } else if (node != NULL) {
      put_node(&o, node);
      put(&o, ": ", 2);
    } else {
      /* Neither an operator nor a node: the message alone. */
    }
    put_format(&o, fmt, args, n_args);
    /* A failure always has a message (ERROR-MESSAGE): never empty, even for
     * an empty format (not the status's name: the table of names would cost
     * a bare-metal image 1.6 KB of flash). */
    if (o.len == 0u) {
      o.len = put_error_number(diag->message, status);
    }
    diag->message[o.len] = '\0';
  }
  return status;
}
#endif

#if !defined(ONNXSHAPE_NO_MESSAGES)
/* A failure that onnxshape__record keeps in diag->message until
 * onnxshape__finish words it: this header, then the three values, each
 * copied in and out on its own (the message is a char array), so that
 * neither function holds the whole record in its frame: onnxshape__record
 * runs under every rule's frame. */
typedef struct pending {
  unsigned char mark; /* ONNXSHAPE__PENDING */
  onnxshape_status status;
  int version;
  uint32_t kinds;
  const char *op_name;
  const char *fmt;
} pending;
#define VALUE_AT(k) \
  ((((sizeof(pending) + (size_t)7) / (size_t)8) * (size_t)8) + ((k) * sizeof(onnxshape__argval)))
_Static_assert(VALUE_AT((size_t)3) <= (size_t)ONNXSHAPE_DIAG_SIZE,
               "a recorded failure fits in diag->message");

/* Copies n bytes between a field of the record and the message. */
static void copy_bytes(unsigned char *dst, const unsigned char *src, size_t n) {
  for (size_t i = 0; i < n; i++) {
    dst[i] = src[i];
  }
}

onnxshape_status onnxshape__record(onnxshape_diag *diag, onnxshape_status status, uint32_t kinds,
                                   const char *op_name, int version, const char *fmt,
                                   onnxshape__argval a, onnxshape__argval b, onnxshape__argval c) {
  if (diag != NULL) {
    unsigned char *m = (unsigned char *)diag->message;
    const pending p = {ONNXSHAPE__PENDING, status, version, kinds, op_name, fmt};
    copy_bytes(m, (const unsigned char *)&p, sizeof p);
    copy_bytes(&m[VALUE_AT((size_t)0)], (const unsigned char *)&a, sizeof a);
    copy_bytes(&m[VALUE_AT((size_t)1)], (const unsigned char *)&b, sizeof b);
    copy_bytes(&m[VALUE_AT((size_t)2)], (const unsigned char *)&c, sizeof c);
  }
  return status;
}

onnxshape_status onnxshape__finish(onnxshape_diag *diag, onnxshape_status status) {
  if (status == ONNXSHAPE_OK || diag == NULL) {
    return status;
  }
  const unsigned char *m = (const unsigned char *)diag->message;
  if (m[0] == ONNXSHAPE__PENDING) {
    pending p;
    onnxshape__arg args[3];
    size_t n = 0;
    copy_bytes((unsigned char *)&p, m, sizeof p);
    for (; n < 3u; n++) {
      uint32_t kind = (p.kinds >> (4u * n)) & 15u;
      if (kind == (uint32_t)ONNXSHAPE__NO_KIND) {
        break;
      }
      args[n].kind = (onnxshape__arg_kind)kind;
      copy_bytes((unsigned char *)&args[n].v, &m[VALUE_AT(n)], sizeof args[n].v);
    }
    (void)onnxshape__fail(diag, p.status, p.op_name, p.version, p.fmt, args, n);
  } else if (m[0] == 0u) {
    (void)put_error_number(diag->message, status); /* a failure always has a message */
  } else {
    /* worded already */
  }
  return status;
}
#endif
