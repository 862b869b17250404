/* SPDX-License-Identifier: Apache-2.0 */
/* Printing tensors: every element type decoded from its packed
 * little-endian storage, read directly from the tensor (no copy). */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "cli.h"

#define SHOW_HEAD 8
#define SHOW_TAIL 8

static uint64_t load_le(const unsigned char *p, unsigned bytes) {
  uint64_t v = 0;
  for (unsigned i = 0; i < bytes; i++) v |= (uint64_t)p[i] << (8 * i);
  return v;
}

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
      uint32_t u = (uint32_t)load_le(p + 4 * i, 4);
      float f;
      memcpy(&f, &u, 4);
      return f;
    }
    case ONNXSHAPE_TYPE_DOUBLE: {
      uint64_t u = load_le(p + 8 * i, 8);
      double d;
      memcpy(&d, &u, 8);
      return d;
    }
    case ONNXSHAPE_TYPE_FLOAT16: return minifloat((uint32_t)load_le(p + 2 * i, 2), 5, 10, 15, IEEE);
    case ONNXSHAPE_TYPE_BFLOAT16: {
      uint32_t u = (uint32_t)load_le(p + 2 * i, 2) << 16;
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

static void print_string(FILE *f, const onnxshape_string *s) {
  fputc('"', f);
  for (size_t i = 0; i < s->length; i++) {
    unsigned char c = (unsigned char)s->data[i];
    if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
    else if (c == '\n') fputs("\\n", f);
    else if (c == '\t') fputs("\\t", f);
    else if (c < 0x20 || c == 0x7f) fprintf(f, "\\u%04x", c);
    else fputc(c, f);
  }
  fputc('"', f);
}

/* Integer element i, sign-extended for signed packed types. */
static int64_t int_at(int32_t type, const unsigned char *p, size_t i, int *is_unsigned,
                      uint64_t *u) {
  *is_unsigned = 0;
  switch (type) {
    case ONNXSHAPE_TYPE_INT8: return (int8_t)p[i];
    case ONNXSHAPE_TYPE_INT16: return (int16_t)load_le(p + 2 * i, 2);
    case ONNXSHAPE_TYPE_INT32: return (int32_t)load_le(p + 4 * i, 4);
    case ONNXSHAPE_TYPE_INT64: return (int64_t)load_le(p + 8 * i, 8);
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
    case ONNXSHAPE_TYPE_UINT16: *u = load_le(p + 2 * i, 2); break;
    case ONNXSHAPE_TYPE_UINT32: *u = load_le(p + 4 * i, 4); break;
    case ONNXSHAPE_TYPE_UINT64: *u = load_le(p + 8 * i, 8); break;
    case ONNXSHAPE_TYPE_UINT4: *u = (p[i / 2] >> (4 * (i % 2))) & 0xFu; break;
    case ONNXSHAPE_TYPE_UINT2: *u = (p[i / 4] >> (2 * (i % 4))) & 0x3u; break;
    default: *u = 0;
  }
  return 0;
}

static void print_value(FILE *f, const onnxshape_tensor *t, size_t i, int json) {
  const unsigned char *p = t->data;
  int32_t type = t->type;
  if (type == ONNXSHAPE_TYPE_STRING) {
    print_string(f, (const onnxshape_string *)t->data + i);
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
    else if (params != NULL && params[i] != NULL) fputs(params[i], f);
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
  fprintf(f, "%s: %s ", name, onnxshape_type_name(t->type));
  cli_print_dims(f, t->rank, t->dims, NULL);
  fputs(" = ", f);
  if (t->rank == 0) {
    print_value(f, t, 0, 0);
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
    print_value(f, t, i, 0);
  }
  fputc(']', f);
  if (n > SHOW_HEAD + SHOW_TAIL) fprintf(f, " (%zu values)", n);
  fputc('\n', f);
}

void cli_print_json(FILE *f, const char *name, const onnxshape_tensor *t) {
  size_t n = count_of(t);
  onnxshape_string s = {name, strlen(name)};
  fputs("{\"name\":", f);
  print_string(f, &s);
  fprintf(f, ",\"type\":\"%s\",\"dims\":[", onnxshape_type_name(t->type));
  for (size_t i = 0; i < t->rank; i++) fprintf(f, "%s%" PRId64, i ? "," : "", t->dims[i]);
  fputs("],\"values\":[", f);
  for (size_t i = 0; i < n; i++) {
    if (i > 0) fputc(',', f);
    print_value(f, t, i, 1);
  }
  fputs("]}\n", f);
}
