/* SPDX-License-Identifier: Apache-2.0 */
/* The onnxshape side of the differential test against onnxruntime
 * (tests/diff/ort_diff.js): reads a batch file of cases, each a 4-byte
 * little-endian length and a ModelProto, then a 4-byte length and a
 * TensorProto to bind to the model's one graph input (length 0: the model has
 * no graph input; its data are initializers). Runs each case through the
 * public API and prints one JSON line per case:
 *   {"ok":true,"type":T,"dims":["2","3"],"hex":"0a0b..."}      numeric output
 *   {"ok":true,"type":8,"dims":["2"],"strings":["a","b"]}     string output
 *   {"ok":false,"status":"ONNXSHAPE_ERR_...","message":"..."} rejected
 * Dims are strings so that int64 values survive JSON.
 * Usage: diff_runner BATCH_FILE */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "onnxshape.h"

static void print_json_string(const char *s, size_t n) {
  putchar('"');
  if (s == NULL) n = 0;
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c == '"' || c == '\\') {
      printf("\\%c", c);
    } else if (c < 0x20 || c >= 0x7f) {
      printf("\\u%04x", c);
    } else {
      putchar(c);
    }
  }
  putchar('"');
}

static void print_result(const onnxshape_tensor *t) {
  printf("{\"ok\":true,\"type\":%d,\"dims\":[", (int)t->type);
  for (size_t i = 0; i < t->rank; i++) printf("%s\"%" PRId64 "\"", i ? "," : "", t->dims[i]);
  printf("],");
  if (t->type == ONNXSHAPE_TYPE_STRING) {
    const onnxshape_string *s = t->data;
    size_t n = t->data_bytes / sizeof *s;
    printf("\"strings\":[");
    for (size_t i = 0; i < n; i++) {
      if (i) putchar(',');
      print_json_string(s[i].data, s[i].length);
    }
    printf("]}\n");
    return;
  }
  printf("\"hex\":\"");
  const unsigned char *b = t->data;
  for (size_t i = 0; i < t->data_bytes; i++) printf("%02x", b[i]);
  printf("\"}\n");
}

static void run_one(const unsigned char *bytes, size_t len, const unsigned char *in,
                    size_t in_len) {
  onnxshape_diag diag;
  onnxshape_diag_init(&diag);
  onnxshape_model *model = NULL;
  onnxshape_result *result = NULL;
  onnxshape_owned_tensor *input = NULL;
  onnxshape_status st = onnxshape_model_parse(bytes, len, NULL, &model, &diag);
  onnxshape_binding binding = {NULL, NULL};
  if (st == ONNXSHAPE_OK && in_len > 0) {
    st = onnxshape_tensor_parse(in, in_len, NULL, &input, &diag);
    if (st == ONNXSHAPE_OK) {
      binding.name = onnxshape_owned_tensor_name(input);
      binding.tensor = onnxshape_owned_tensor_get(input);
    }
  }
  if (st == ONNXSHAPE_OK) {
    st = onnxshape_model_run(model, &binding, in_len > 0 ? 1 : 0, &result, &diag);
  }
  if (st == ONNXSHAPE_OK && onnxshape_result_count(result) == 1) {
    print_result(onnxshape_result_tensor(result, 0));
  } else {
    printf("{\"ok\":false,\"status\":\"%s\",\"message\":", onnxshape_status_name(st));
    print_json_string(diag.message, strlen(diag.message));
    printf("}\n");
  }
  onnxshape_result_free(result);
  onnxshape_owned_tensor_free(input);
  onnxshape_model_free(model);
}

/* Reads a 4-byte little-endian length and that many bytes into *buf. */
static int read_chunk(FILE *f, unsigned char **buf, size_t *cap, size_t *len) {
  unsigned char hdr[4];
  if (fread(hdr, 1, 4, f) != 4) return 0;
  *len = (size_t)hdr[0] | (size_t)hdr[1] << 8 | (size_t)hdr[2] << 16 | (size_t)hdr[3] << 24;
  if (*len > *cap) {
    unsigned char *nb = realloc(*buf, *len);
    if (nb == NULL) return -1;
    *buf = nb;
    *cap = *len;
  }
  return fread(*buf, 1, *len, f) == *len ? 1 : -1;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: diff_runner BATCH_FILE\n");
    return 2;
  }
  FILE *f = fopen(argv[1], "rb");
  if (f == NULL) {
    perror(argv[1]);
    return 2;
  }
  unsigned char *model = NULL, *input = NULL;
  size_t model_cap = 0, input_cap = 0, model_len = 0, input_len = 0;
  int rc = 0, got;
  while ((got = read_chunk(f, &model, &model_cap, &model_len)) == 1) {
    if (read_chunk(f, &input, &input_cap, &input_len) != 1) {
      got = -1;
      break;
    }
    run_one(model, model_len, input, input_len);
  }
  if (got < 0) {
    fprintf(stderr, "diff_runner: %s is truncated, or out of memory\n", argv[1]);
    rc = 2;
  }
  free(model);
  free(input);
  fclose(f);
  return rc;
}
