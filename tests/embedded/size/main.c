/* SPDX-License-Identifier: Apache-2.0 */
/* One size configuration: a main that calls only the entry points chosen
 * by USE_SHAPE, USE_SIZE and USE_RESHAPE_VIEW (none: the baseline, startup
 * alone), linked with newlib-nano and --gc-sections, so that the image holds
 * what those entry points need and nothing else. Under QEMU it also measures
 * the stack each call used (the stack is painted before each call) and
 * prints "stack <entry> <case> <bytes>" lines; the status is 0 when every
 * call returned the status expected. The _nomsg images link the same main
 * with the kernels built with ONNXSHAPE_NO_MESSAGES (messages compiled out).
 * USE_EVERY links every entry point of the kernels, for the stack report,
 * which make check-cross fails when an entry point is over its target
 * (tests/embedded/stack-report table).
 * covers: KERNEL-STACK */
#include <stddef.h>
#include <stdint.h>

#include "onnxshape.h"
#include "semihost.h"

static int failures;

/* Decimal without the C library. */
__attribute__((unused)) static void put_line(const char *entry, const char *name, size_t bytes) {
  char buf[96];
  size_t n = 0;
  const char *parts[3] = {"stack ", entry, name};
  for (int p = 0; p < 3; p++) {
    for (const char *s = parts[p]; *s != '\0' && n < 60; s++) buf[n++] = *s;
    buf[n++] = ' ';
  }
  char digits[12];
  size_t k = 0;
  do {
    digits[k++] = (char)('0' + bytes % 10u);
    bytes /= 10u;
  } while (bytes > 0 && k < sizeof digits);
  while (k > 0) buf[n++] = digits[--k];
  buf[n++] = '\n';
  buf[n] = '\0';
  semihost_puts(buf);
}

__attribute__((unused)) static void expect(const char *entry, const char *name, onnxshape_status got,
                   onnxshape_status want, size_t used) {
  put_line(entry, name, used);
  if (got != want) {
    semihost_puts("  unexpected status\n");
    failures++;
  }
}

/* Inputs the compiler cannot see through. */
static volatile int64_t in_dims[4] = {2, 3, 4, 5};
static volatile int64_t target[3] = {6, -1, 5};
static volatile int64_t bad_target[3] = {6, -2, 5};
static volatile int version_v = 21;
static volatile int32_t type_v = 1; /* float */
static volatile int32_t bad_type_v = 1000;
static float data[120];

static onnxshape_diag diag;

int main(void) {
  int64_t dims[4];
  for (int i = 0; i < 4; i++) dims[i] = in_dims[i];
  onnxshape_tensor t = {type_v, 4, dims, data, sizeof data};
  onnxshape_tensor bad = {bad_type_v, 4, dims, data, sizeof data};
  int version = version_v;
  (void)t, (void)bad, (void)version;
  uintptr_t sp0 = 0;
  (void)sp0;
  diag.node = "node \x01 with a long name to escape and shorten in the middle of it";
#if defined(USE_SHAPE)
  {
    int64_t out[4];
    size_t len;
    onnxshape_shape_attrs a = {1, -3, 1, 99};
    stack_paint();
    sp0 = current_sp();
    onnxshape_status st = onnxshape_shape_run(version, &t, &a, out, 4, &len, &diag);
    expect("shape_run", "ok", st, ONNXSHAPE_OK, stack_used_below(sp0));
    stack_paint();
    sp0 = current_sp();
    st = onnxshape_shape_run(version, &bad, &a, out, 4, &len, &diag);
    expect("shape_run", "unknown_type", st, ONNXSHAPE_ERR_UNKNOWN_TYPE, stack_used_below(sp0));
    stack_paint();
    sp0 = current_sp();
    st = onnxshape_shape_run(version, &t, &a, out, 1, &len, &diag);
    expect("shape_run", "small_buffer", st, ONNXSHAPE_ERR_BUFFER_TOO_SMALL, stack_used_below(sp0));
  }
#endif
#if defined(USE_SIZE)
  {
    int64_t n;
    stack_paint();
    sp0 = current_sp();
    onnxshape_status st = onnxshape_size_run(version, &t, &n, &diag);
    expect("size_run", "ok", st, ONNXSHAPE_OK, stack_used_below(sp0));
    stack_paint();
    sp0 = current_sp();
    st = onnxshape_size_run(version, &bad, &n, &diag);
    expect("size_run", "unknown_type", st, ONNXSHAPE_ERR_UNKNOWN_TYPE, stack_used_below(sp0));
  }
#endif
#if defined(USE_RESHAPE_VIEW)
  {
    int64_t shape[3], shape_bad[3], out_dims[3];
    for (int i = 0; i < 3; i++) shape[i] = target[i], shape_bad[i] = bad_target[i];
    onnxshape_reshape_attrs a = {1, 0};
    onnxshape_tensor out;
    stack_paint();
    sp0 = current_sp();
    onnxshape_status st =
        onnxshape_reshape_run_view(version, &t, shape, 3, &a, out_dims, 3, &out, &diag);
    expect("reshape_run_view", "ok", st, ONNXSHAPE_OK, stack_used_below(sp0));
    stack_paint();
    sp0 = current_sp();
    st = onnxshape_reshape_run_view(version, &t, shape_bad, 3, &a, out_dims, 3, &out, &diag);
    expect("reshape_run_view", "below_minus_one", st, ONNXSHAPE_ERR_DIM_BELOW_MINUS_ONE,
           stack_used_below(sp0));
    stack_paint();
    sp0 = current_sp();
    st = onnxshape_reshape_run_view(version, &bad, shape, 3, &a, out_dims, 3, &out, &diag);
    expect("reshape_run_view", "unknown_type", st, ONNXSHAPE_ERR_UNKNOWN_TYPE, stack_used_below(sp0));
    /* uint4 is not a type of Reshape-13: the message lists the ones that are. */
    onnxshape_tensor u4 = {21 /* uint4 */, 4, dims, data, sizeof data};
    stack_paint();
    sp0 = current_sp();
    onnxshape_reshape_attrs none = {0, 0};
    st = onnxshape_reshape_run_view(13, &u4, shape, 3, &none, out_dims, 3, &out, &diag);
    expect("reshape_run_view", "type_not_allowed", st, ONNXSHAPE_ERR_TYPE_NOT_ALLOWED,
           stack_used_below(sp0));
  }
#endif
#if defined(USE_EVERY)
  {
    /* Every entry point of the kernels' archive, linked so that the stack
     * report bounds each of them (scripts/check-cross); the painted runs
     * above cover the three operators' run entry points. */
    typedef void (*entry_fn)(void);
    static const volatile entry_fn every[] = {
        (entry_fn)onnxshape_check_type, (entry_fn)onnxshape_diag_init,
        (entry_fn)onnxshape_dims_count, (entry_fn)onnxshape_escape,
        (entry_fn)onnxshape_load_le, (entry_fn)onnxshape_op_from_name,
        (entry_fn)onnxshape_op_name, (entry_fn)onnxshape_op_version_get,
        (entry_fn)onnxshape_op_versions, (entry_fn)onnxshape_reshape_check_shape_input,
        (entry_fn)onnxshape_reshape_infer, (entry_fn)onnxshape_reshape_run_copy,
        (entry_fn)onnxshape_reshape_run_view, (entry_fn)onnxshape_resolve_version,
        (entry_fn)onnxshape_shape_infer, (entry_fn)onnxshape_shape_run,
        (entry_fn)onnxshape_size_infer, (entry_fn)onnxshape_size_run,
        (entry_fn)onnxshape_status_name, (entry_fn)onnxshape_status_text,
        (entry_fn)onnxshape_store_le, (entry_fn)onnxshape_type_get,
        (entry_fn)onnxshape_type_name, (entry_fn)onnxshape_type_storage_bytes,
        (entry_fn)onnxshape_utf8_decode};
    for (size_t i = 0; i < sizeof every / sizeof every[0]; i++) {
      if (every[i] == NULL) failures++;
    }
  }
#endif
  return failures == 0 ? 0 : 1;
}
