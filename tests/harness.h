/* SPDX-License-Identifier: Apache-2.0 */
/* A minimal test harness: CHECK macros count checks, the runner counts test
 * functions, and the last line is "N passed, M failed". */
#ifndef ONNXSHAPE_HARNESS_H
#define ONNXSHAPE_HARNESS_H

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "onnxshape.h"

static int h_failed_checks;
static int h_case_failed;
/* The status CHECK_STATUS saw last (for CHECK_MESSAGE without messages). */
#if defined(__GNUC__)
__attribute__((unused))
#endif
static onnxshape_status h_last_status;

static inline void h_fail(void) {
  h_failed_checks++;
  h_case_failed = 1;
}

#define CHECK(cond)                                                              \
  do {                                                                           \
    if (!(cond)) {                                                               \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);  \
      h_fail(); \
    }                                                                            \
  } while (0)

#define CHECK_I64(actual, expected)                                                    \
  do {                                                                                 \
    int64_t a_ = (int64_t)(actual), e_ = (int64_t)(expected);                         \
    if (a_ != e_) {                                                                    \
      fprintf(stderr, "%s:%d: %s = %" PRId64 ", expected %" PRId64 "\n", __FILE__,    \
              __LINE__, #actual, a_, e_);                                              \
      h_fail(); \
    }                                                                                  \
  } while (0)

#define CHECK_STATUS(expr, expected)                                                   \
  do {                                                                                 \
    onnxshape_status s_ = (expr);                                                      \
    h_last_status = s_;                                                                \
    if (s_ != (expected)) {                                                            \
      fprintf(stderr, "%s:%d: %s returned %s, expected %s\n", __FILE__, __LINE__,      \
              #expr, onnxshape_status_name(s_), onnxshape_status_name(expected));      \
      h_fail(); \
    }                                                                                  \
  } while (0)

#define CHECK_STR(actual, expected)                                                    \
  do {                                                                                 \
    const char *a_ = (actual), *e_ = (expected);                                       \
    if (a_ == NULL || strcmp(a_, e_) != 0) {                                           \
      fprintf(stderr, "%s:%d: %s = \"%s\", expected \"%s\"\n", __FILE__, __LINE__,     \
              #actual, a_ ? a_ : "(null)", e_);                                        \
      h_fail(); \
    }                                                                                  \
  } while (0)

/* A kernel's message. In a build with messages compiled out
 * (ONNXSHAPE_NO_MESSAGES, CMake -DONNXSHAPE_MESSAGES=OFF) every failure's
 * message is "error <status number>" of the status CHECK_STATUS saw last,
 * and a success's is empty; CHECK_MESSAGE then expects exactly that, and
 * CHECK_MESSAGE_PREFIX (a message whose beginning is checked) too. */
#if defined(ONNXSHAPE_NO_MESSAGES)
static inline const char *h_expected_message(const char *text) {
  static char buf[32];
  if (text[0] == '\0') return "";
  snprintf(buf, sizeof buf, "error %d", (int)h_last_status);
  return buf;
}
#define CHECK_MESSAGE(actual, expected) CHECK_STR(actual, h_expected_message(expected))
#define CHECK_MESSAGE_PREFIX(actual, prefix) CHECK_STR(actual, h_expected_message(prefix))
#else
#define CHECK_MESSAGE(actual, expected) CHECK_STR(actual, expected)
#define CHECK_MESSAGE_PREFIX(actual, prefix)                                           \
  do {                                                                                 \
    const char *a_ = (actual), *p_ = (prefix);                                         \
    if (a_ == NULL || strncmp(a_, p_, strlen(p_)) != 0 || a_[strlen(p_)] == '\0') {    \
      fprintf(stderr, "%s:%d: %s = \"%s\", expected \"%s...\"\n", __FILE__, __LINE__,  \
              #actual, a_ ? a_ : "(null)", p_);                                        \
      h_fail();                                                                        \
    }                                                                                  \
  } while (0)
#endif

#define CHECK_DIMS(actual, len, ...)                                                   \
  do {                                                                                 \
    const int64_t e_[] = {__VA_ARGS__};                                                \
    size_t n_ = sizeof e_ / sizeof e_[0];                                              \
    if ((size_t)(len) != n_ || memcmp((actual), e_, n_ * sizeof(int64_t)) != 0) {      \
      fprintf(stderr, "%s:%d: %s differs from {%s} (length %zu, expected %zu)\n",      \
              __FILE__, __LINE__, #actual, #__VA_ARGS__, (size_t)(len), n_);           \
      h_fail(); \
    }                                                                                  \
  } while (0)

typedef void (*h_test_fn)(void);
typedef struct {
  const char *name;
  h_test_fn fn;
} h_test;

#define TEST_ENTRY(fn) {#fn, fn}

static inline int h_run(const h_test *tests, size_t n) {
  int passed = 0, failed = 0;
  for (size_t i = 0; i < n; i++) {
    h_case_failed = 0;
    tests[i].fn();
    if (h_case_failed) {
      fprintf(stderr, "FAIL %s\n", tests[i].name);
      failed++;
    } else {
      passed++;
    }
  }
  printf("%d passed, %d failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}

#define RUN_TESTS(...)                                                   \
  int main(void) {                                                       \
    static const h_test tests_[] = {__VA_ARGS__};                        \
    return h_run(tests_, sizeof tests_ / sizeof tests_[0]);              \
  }

#endif
