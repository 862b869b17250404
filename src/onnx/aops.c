/* SPDX-License-Identifier: Apache-2.0 */
/* The table of ANALYSIS-OPS (aops.h). */
#include "aops.h"

#include <stddef.h>
#include <string.h>

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

#define AOP_SINCE(id, name, ...) static const int since_##id[] = {__VA_ARGS__};
ONNXSHAPE__ANALYSIS_OPS(AOP_SINCE)
#undef AOP_SINCE

typedef struct aop_entry {
  const char *name;
  const int *since;
  size_t n;
} aop_entry;

#define AOP_ENTRY(id, name, ...) {name, since_##id, COUNT(since_##id)},
static const aop_entry table[] = {ONNXSHAPE__ANALYSIS_OPS(AOP_ENTRY)};
#undef AOP_ENTRY

int onnxshape__aop_find(const char *name, int64_t opset, aop *op, int *version) {
  for (size_t i = 0; i < COUNT(table); i++) {
    /* The first letter first: most names differ there (a model's
     * operators are looked up once per node). */
    if (table[i].name[0] != name[0] || strcmp(table[i].name, name) != 0) continue;
    int v = 0;
    for (size_t k = 0; k < table[i].n && table[i].since[k] <= opset; k++) v = table[i].since[k];
    *op = (aop)i;
    *version = v;
    return 1;
  }
  return 0;
}

const char *onnxshape__aop_name(aop op) {
  return (size_t)op < COUNT(table) ? table[op].name : "?";
}
