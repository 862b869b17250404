/* SPDX-License-Identifier: Apache-2.0 */
/* onnxshape check [--profile sonnx] [--json]: nodes that cannot succeed
 * whatever the data, and with the profile, the SONNX profile's findings. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

int cli_check(int argc, char **argv) {
  const char *profile = NULL, *model = NULL;
  int json = 0;
  for (int i = 0; i < argc; i++) {
    if (strcmp(argv[i], "--json") == 0) {
      json = 1;
    } else if (strcmp(argv[i], "--profile") == 0) {
      if (i + 1 >= argc) return cli_usage_error("%s", "--profile needs an argument");
      profile = argv[++i];
    } else if (strncmp(argv[i], "--profile=", 10) == 0) {
      profile = argv[i] + 10;
    } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
      return cli_usage_error("unknown option '%s'", cli_shown(argv[i]));
    } else if (model != NULL) {
      return cli_usage_error("unexpected argument '%s'", cli_shown(argv[i]));
    } else {
      model = argv[i];
    }
  }
  onnxshape_check_profile which = ONNXSHAPE_CHECK_CORE;
  if (profile != NULL) {
    if (strcmp(profile, "sonnx") != 0) {
      return cli_usage_error("unknown profile '%s' (known: sonnx)", cli_shown(profile));
    }
    which = ONNXSHAPE_CHECK_SONNX;
  }
  if (model == NULL) return cli_usage_error("%s", "check needs a MODEL");
  onnxshape_profile_report *r = NULL;
  onnxshape_diag d;
  onnxshape_diag_init(&d);
  onnxshape_status st = onnxshape_model_check_file(model, which, &r, &d);
  if (st != ONNXSHAPE_OK) {
    if (st == ONNXSHAPE_ERR_IO || st == ONNXSHAPE_ERR_MALFORMED) cli_error("%s", d.message);
    else cli_error("%s: %s", cli_shown(model), d.message);
    return cli_exit_for(st);
  }
  size_t n = onnxshape_profile_count(r);
  /* Rule names: JSON's "rule"; the human tag adds "sonnx-" under the profile. */
  static const char *const rules[] = {"", "default", "sparse", "domain", "conflict",
                                      "portability", "incomplete", "order"};
  for (size_t i = 0; i < n; i++) {
    const char *msg = onnxshape_profile_message(r, i);
    unsigned k = (unsigned)onnxshape_profile_rule_of(r, i);
    const char *rule = k < sizeof rules / sizeof rules[0] ? rules[k] : "?";
    if (json) {
      fputs("{\"model\":", stdout);
      cli_put_json_string(stdout, model, strlen(model));
      printf(",\"rule\":\"%s\",\"message\":", rule);
      cli_put_json_string(stdout, msg, strlen(msg));
      fputs("}\n", stdout);
    } else {
      cli_put_name(stdout, model);
      int sonnx_rule = k <= ONNXSHAPE_PROFILE_DOMAIN;
      printf(": %s [%s%s]\n", msg, profile != NULL && sonnx_rule ? "sonnx-" : "", rule);
    }
  }
  if (json) {
    printf("{\"summary\":{\"model\":");
    cli_put_json_string(stdout, model, strlen(model));
    printf(",\"profile\":%s,\"findings\":%zu}}\n", profile != NULL ? "\"sonnx\"" : "null", n);
  } else {
    cli_put_name(stdout, model);
    if (n == 0 && profile != NULL) printf(": conforms to the SONNX profile\n");
    else if (n == 0) printf(": no findings\n");
    else printf(": %zu finding%s%s\n", n, n == 1 ? "" : "s",
                profile != NULL ? "; the model does not conform to the SONNX profile" : "");
  }
  onnxshape_profile_free(r);
  return n == 0 ? EXIT_OK : EXIT_INVALID;
}
