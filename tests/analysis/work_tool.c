/* SPDX-License-Identifier: Apache-2.0 */
/* The C side of tests/analysis/work.py: analyses a model (keep_going) and
 * prints, as one JSON object, the work the analysis spent and its limit,
 * the nodes left unknown for the budget, the certain failures, and the rank
 * of each value named on the command line (null: unknown). With
 * --fixed-key first, the name hash's key is fixed (it is random per
 * process, LIMIT-HASH), so that probes, and the work they are charged,
 * are the same on every run and on every host with a 64-bit size_t (the
 * name hash is folded to size_t; work.py's ledger). size_bits says which.
 * --key K0 K1 (hexadecimal) sets another key: the analysis's work must not
 * depend on it (its symbols hash under a fixed key of their own).
 * Usage: work_tool [--fixed-key | --key K0 K1] MODEL [NAME...] */
#include <onnxshape.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/onnx/hash.h"

int main(int argc, char **argv) {
  if (argc >= 2 && strcmp(argv[1], "--fixed-key") == 0) {
    onnxshape__hash_set_key(0x0123456789abcdefu, 0xfedcba9876543210u);
    argv++;
    argc--;
  } else if (argc >= 4 && strcmp(argv[1], "--key") == 0) {
    onnxshape__hash_set_key(strtoull(argv[2], NULL, 16), strtoull(argv[3], NULL, 16));
    argv += 3;
    argc -= 3;
  }
  if (argc < 2) {
    fprintf(stderr, "usage: work_tool MODEL [NAME...]\n");
    return 2;
  }
  onnxshape_diag d;
  onnxshape_diag_init(&d);
  onnxshape_model *m = NULL;
  onnxshape_status st = onnxshape_model_read_file(argv[1], &m, &d);
  onnxshape_inference *inf = NULL;
  onnxshape_infer_options opts = ONNXSHAPE_INFER_OPTIONS_INIT;
  opts.keep_going = 1;
  if (st == ONNXSHAPE_OK) st = onnxshape_model_infer_with(m, &opts, &inf, &d);
  if (st != ONNXSHAPE_OK) {
    fprintf(stderr, "work_tool: %s: %s\n", onnxshape_status_name(st), d.message);
    onnxshape_model_free(m);
    return 1;
  }
  const onnxshape_infer_summary *s = onnxshape_inference_summary(inf);
  printf("{\"work_used\": %llu, \"work_limit\": %llu, \"out_of_work\": %zu, \"failures\": %zu, "
         "\"size_bits\": %u, \"ranks\": {",
         (unsigned long long)s->work_used, (unsigned long long)s->work_limit, s->out_of_work,
         s->failures, (unsigned)(sizeof(size_t) * 8));
  for (int a = 2; a < argc; a++) {
    const onnxshape_value_info *found = NULL;
    for (size_t i = 0; i < onnxshape_inference_count(inf); i++) {
      const onnxshape_value_info *v = onnxshape_inference_get(inf, i);
      if (v->graph[0] == '\0' && strcmp(v->name, argv[a]) == 0) found = v;
    }
    printf("%s\"%s\": ", a > 2 ? ", " : "", argv[a]);
    if (found != NULL && found->rank_known) printf("%zu", found->rank);
    else printf("null");
  }
  printf("}}\n");
  onnxshape_inference_free(inf);
  onnxshape_model_free(m);
  return 0;
}
