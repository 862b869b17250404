/* SPDX-License-Identifier: Apache-2.0 */
/* Printing tensors: every element type decoded from its packed
 * little-endian storage, read directly from the tensor (no copy). */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define SHOW_HEAD 8
#define SHOW_TAIL 8


/* A small float with ebits exponent bits, mbits mantissa bits and the given
 * bias. `fnuz`: 0x80 is the only NaN and there is no -0 or infinity; `fn`:
 * no infinity, all-ones is NaN; else IEEE-like. */
enum { IEEE, FN, FNUZ };
static double minifloat(uint32_t bits, int ebits, int mbits, int bias, int kind) {
  uint32_t sign = (bits >> (ebits + mbits)) & 1u;
  uint32_t e = (bits >> mbits) & ((1u << ebits) - 1u);
  uint32_t m = bits & ((1u << mbits) - 1u);
  uint32_t emax = (1u << ebits) - 1u;
  if (kind == FNUZ && sign && e == 0 && m == 0) return NAN;
  if (kind == FN && e == emax && m == (1u << mbits) - 1u) return NAN;
  if (kind == IEEE && e == emax) return m != 0 ? NAN : (sign ? -INFINITY : INFINITY);
  double v = e == 0 ? ldexp((double)m, 1 - bias - mbits)
                    : ldexp((double)(m | (1u << mbits)), (int)e - bias - mbits);
  return sign ? -v : v;
}

/* Element i as a double, for the floating types. */
static double float_at(int32_t type, const unsigned char *p, size_t i) {
  switch (type) {
    case ONNXSHAPE_TYPE_FLOAT: {
      uint32_t u = (uint32_t)onnxshape_load_le(p + 4 * i, 4);
      float f;
      memcpy(&f, &u, 4);
      return f;
    }
    case ONNXSHAPE_TYPE_DOUBLE: {
      uint64_t u = onnxshape_load_le(p + 8 * i, 8);
      double d;
      memcpy(&d, &u, 8);
      return d;
    }
    case ONNXSHAPE_TYPE_FLOAT16: return minifloat((uint32_t)onnxshape_load_le(p + 2 * i, 2), 5, 10, 15, IEEE);
    case ONNXSHAPE_TYPE_BFLOAT16: {
      uint32_t u = (uint32_t)onnxshape_load_le(p + 2 * i, 2) << 16;
      float f;
      memcpy(&f, &u, 4);
      return f;
    }
    case ONNXSHAPE_TYPE_FLOAT8E4M3FN: return minifloat(p[i], 4, 3, 7, FN);
    case ONNXSHAPE_TYPE_FLOAT8E4M3FNUZ: return minifloat(p[i], 4, 3, 8, FNUZ);
    case ONNXSHAPE_TYPE_FLOAT8E5M2: return minifloat(p[i], 5, 2, 15, IEEE);
    case ONNXSHAPE_TYPE_FLOAT8E5M2FNUZ: return minifloat(p[i], 5, 2, 16, FNUZ);
    case ONNXSHAPE_TYPE_FLOAT8E8M0: return p[i] == 0xFF ? NAN : ldexp(1.0, (int)p[i] - 127);
    case ONNXSHAPE_TYPE_FLOAT4E2M1: {
      unsigned nib = (p[i / 2] >> (4 * (i % 2))) & 0xFu;
      uint32_t sign = nib >> 3, e = (nib >> 1) & 3u, m = nib & 1u;
      double v = e == 0 ? 0.5 * m : ldexp(1.0 + 0.5 * m, (int)e - 1);
      return sign ? -v : v;
    }
  }
  return 0;
}

static int is_float_type(int32_t t) {
  return t == ONNXSHAPE_TYPE_FLOAT || t == ONNXSHAPE_TYPE_DOUBLE || t == ONNXSHAPE_TYPE_FLOAT16 ||
         t == ONNXSHAPE_TYPE_BFLOAT16 || (t >= ONNXSHAPE_TYPE_FLOAT8E4M3FN &&
                                          t <= ONNXSHAPE_TYPE_FLOAT8E5M2FNUZ) ||
         t == ONNXSHAPE_TYPE_FLOAT4E2M1 || t == ONNXSHAPE_TYPE_FLOAT8E8M0;
}

static void print_double(FILE *f, double v, int json, int digits) {
  if (isnan(v)) fputs(json ? "\"NaN\"" : "nan", f);
  else if (isinf(v)) fputs(v > 0 ? (json ? "\"Infinity\"" : "inf") : (json ? "\"-Infinity\"" : "-inf"), f);
  else fprintf(f, "%.*g", digits, v);
}

void cli_put_text(FILE *f, const char *s, size_t len, int quote) {
  char small[256];
  size_t need = onnxshape_escape(NULL, 0, s, len) + 1;
  char *buf = need <= sizeof small ? small : malloc(need);
  if (buf == NULL) { /* out of memory: the text, byte by byte in \xNN form */
    for (size_t i = 0; i < len; i++) fprintf(f, "\\x%02x", (unsigned char)s[i]);
    return;
  }
  (void)onnxshape_escape(buf, need, s, len);
  if (quote) fputc('"', f);
  for (const char *p = buf; *p != '\0'; p++) {
    if (quote && *p == '"') fputc('\\', f);
    fputc(*p, f);
  }
  if (quote) fputc('"', f);
  if (buf != small) free(buf);
}

void cli_put_name(FILE *f, const char *s) { cli_put_text(f, s, strlen(s), 0); }

void cli_put_json_string(FILE *f, const char *s, size_t len) {
  fputc('"', f);
  for (size_t i = 0; i < len;) {
    uint32_t cp;
    size_t n = onnxshape_utf8_decode(s + i, len - i, &cp);
    unsigned char c = (unsigned char)s[i];
    if (n == 0) { /* not UTF-8: the byte as a lone surrogate, U+DC80..U+DCFF */
      fprintf(f, "\\u%04x", 0xdc00u + c);
      i++;
    } else if (c == '"' || c == '\\') {
      fputc('\\', f);
      fputc(c, f);
      i++;
    } else if (c < 0x20) {
      if (c == '\n') fputs("\\n", f);
      else if (c == '\t') fputs("\\t", f);
      else fprintf(f, "\\u%04x", c);
      i++;
    } else if (cp == 0x2028u || cp == 0x2029u) { /* line breaks to some readers */
      fprintf(f, "\\u%04x", (unsigned)cp);
      i += n;
    } else {
      fwrite(s + i, 1, n, f);
      i += n;
    }
  }
  fputc('"', f);
}

/* A string element: quoted human text, or a JSON string. */
static void print_string(FILE *f, const onnxshape_string *s, int json) {
  if (json) cli_put_json_string(f, s->data, s->length);
  else cli_put_text(f, s->data, s->length, 1);
}

/* Integer element i, sign-extended for signed packed types. */
static int64_t int_at(int32_t type, const unsigned char *p, size_t i, int *is_unsigned,
                      uint64_t *u) {
  *is_unsigned = 0;
  switch (type) {
    case ONNXSHAPE_TYPE_INT8: return (int8_t)p[i];
    case ONNXSHAPE_TYPE_INT16: return (int16_t)onnxshape_load_le(p + 2 * i, 2);
    case ONNXSHAPE_TYPE_INT32: return (int32_t)onnxshape_load_le(p + 4 * i, 4);
    case ONNXSHAPE_TYPE_INT64: return (int64_t)onnxshape_load_le(p + 8 * i, 8);
    case ONNXSHAPE_TYPE_INT4: {
      int v = (p[i / 2] >> (4 * (i % 2))) & 0xF;
      return v >= 8 ? v - 16 : v;
    }
    case ONNXSHAPE_TYPE_INT2: {
      int v = (p[i / 4] >> (2 * (i % 4))) & 0x3;
      return v >= 2 ? v - 4 : v;
    }
  }
  *is_unsigned = 1;
  switch (type) {
    case ONNXSHAPE_TYPE_UINT8: *u = p[i]; break;
    case ONNXSHAPE_TYPE_UINT16: *u = onnxshape_load_le(p + 2 * i, 2); break;
    case ONNXSHAPE_TYPE_UINT32: *u = onnxshape_load_le(p + 4 * i, 4); break;
    case ONNXSHAPE_TYPE_UINT64: *u = onnxshape_load_le(p + 8 * i, 8); break;
    case ONNXSHAPE_TYPE_UINT4: *u = (p[i / 2] >> (4 * (i % 2))) & 0xFu; break;
    case ONNXSHAPE_TYPE_UINT2: *u = (p[i / 4] >> (2 * (i % 4))) & 0x3u; break;
    default: *u = 0;
  }
  return 0;
}

void cli_print_value(FILE *f, const onnxshape_tensor *t, size_t i, int json) {
  const unsigned char *p = t->data;
  int32_t type = t->type;
  if (type == ONNXSHAPE_TYPE_STRING) {
    print_string(f, (const onnxshape_string *)t->data + i, json);
  } else if (type == ONNXSHAPE_TYPE_BOOL) {
    fputs(p[i] ? "true" : "false", f);
  } else if (type == ONNXSHAPE_TYPE_COMPLEX64 || type == ONNXSHAPE_TYPE_COMPLEX128) {
    int32_t part = type == ONNXSHAPE_TYPE_COMPLEX64 ? ONNXSHAPE_TYPE_FLOAT : ONNXSHAPE_TYPE_DOUBLE;
    int digits = part == ONNXSHAPE_TYPE_FLOAT ? 9 : 17;
    double re = float_at(part, p, 2 * i), im = float_at(part, p, 2 * i + 1);
    if (json) {
      fputc('[', f);
      print_double(f, re, 1, digits);
      fputc(',', f);
      print_double(f, im, 1, digits);
      fputc(']', f);
    } else {
      print_double(f, re, 0, digits);
      fputs(im < 0 || (im == 0 && signbit(im)) ? "-" : "+", f);
      print_double(f, fabs(im), 0, digits);
      fputc('i', f);
    }
  } else if (is_float_type(type)) {
    print_double(f, float_at(type, p, i), json, type == ONNXSHAPE_TYPE_DOUBLE ? 17 : 9);
  } else {
    int is_unsigned;
    uint64_t u;
    int64_t v = int_at(type, p, i, &is_unsigned, &u);
    if (is_unsigned) fprintf(f, "%" PRIu64, u);
    else fprintf(f, "%" PRId64, v);
  }
}

void cli_print_dims(FILE *f, size_t rank, const int64_t *dims, const char *const *params) {
  fputc('[', f);
  for (size_t i = 0; i < rank; i++) {
    if (i > 0) fputc(',', f);
    if (dims[i] >= 0) fprintf(f, "%" PRId64, dims[i]);
    else if (params != NULL && params[i] != NULL) cli_put_name(f, params[i]);
    else fputc('?', f);
  }
  fputc(']', f);
}

static size_t count_of(const onnxshape_tensor *t) {
  int64_t n = 0;
  return onnxshape_dims_count(t->dims, t->rank, &n) == ONNXSHAPE_OK ? (size_t)n : 0;
}

void cli_print_tensor(FILE *f, const char *name, const onnxshape_tensor *t) {
  size_t n = count_of(t);
  cli_put_name(f, name);
  fprintf(f, ": %s ", onnxshape_type_name(t->type));
  cli_print_dims(f, t->rank, t->dims, NULL);
  fputs(" = ", f);
  if (t->rank == 0) {
    cli_print_value(f, t, 0, 0);
    fputc('\n', f);
    return;
  }
  fputc('[', f);
  for (size_t i = 0; i < n; i++) {
    if (n > SHOW_HEAD + SHOW_TAIL && i == SHOW_HEAD) {
      fputs(", ...", f);
      i = n - SHOW_TAIL;
    }
    if (i > 0) fputs(", ", f);
    cli_print_value(f, t, i, 0);
  }
  fputc(']', f);
  if (n > SHOW_HEAD + SHOW_TAIL) fprintf(f, " (%zu values)", n);
  fputc('\n', f);
}

void cli_print_json(FILE *f, const char *name, const onnxshape_tensor *t) {
  size_t n = count_of(t);
  fputs("{\"name\":", f);
  cli_put_json_string(f, name, strlen(name));
  fprintf(f, ",\"type\":\"%s\",\"dims\":[", onnxshape_type_name(t->type));
  for (size_t i = 0; i < t->rank; i++) fprintf(f, "%s%" PRId64, i ? "," : "", t->dims[i]);
  fputs("],\"values\":[", f);
  for (size_t i = 0; i < n; i++) {
    if (i > 0) fputc(',', f);
    cli_print_value(f, t, i, 1);
  }
  fputs("]}\n", f);
}

void cli_put_json_node(FILE *f, const char *node, const char *domain, const char *op,
                       int version) {
  fputs(",\"node\":", f);
  cli_put_json_string(f, node, strlen(node));
  fputs(",\"domain\":", f);
  cli_put_json_string(f, domain, strlen(domain));
  fputs(",\"op\":", f);
  cli_put_json_string(f, op, strlen(op));
  fprintf(f, ",\"version\":%d", version);
}
