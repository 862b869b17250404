/* SPDX-License-Identifier: Apache-2.0 */
/* onnxshape check --profile sonnx: the SONNX profile's findings. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

int cli_check(int argc, char **argv) {
  const char *profile = NULL, *model = NULL;
  for (int i = 0; i < argc; i++) {
    if (strcmp(argv[i], "--profile") == 0) {
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
  if (profile == NULL) return cli_usage_error("%s", "check needs --profile sonnx");
  if (strcmp(profile, "sonnx") != 0) {
    return cli_usage_error("unknown profile '%s' (known: sonnx)", cli_shown(profile));
  }
  if (model == NULL) return cli_usage_error("%s", "check needs a MODEL");
  onnxshape_profile_report *r = NULL;
  onnxshape_diag d;
  onnxshape_diag_init(&d);
  onnxshape_status st = onnxshape_profile_check_sonnx_file(model, &r, &d);
  if (st != ONNXSHAPE_OK) {
    if (st == ONNXSHAPE_ERR_IO || st == ONNXSHAPE_ERR_MALFORMED) cli_error("%s", d.message);
    else cli_error("%s: %s", cli_shown(model), d.message);
    return cli_exit_for(st);
  }
  size_t n = onnxshape_profile_count(r);
  static const char *const tags[] = {"", "default", "sparse", "domain"};
  for (size_t i = 0; i < n; i++) {
    cli_put_name(stdout, model);
    printf(": %s [sonnx-%s]\n", onnxshape_profile_message(r, i),
           tags[onnxshape_profile_rule_of(r, i)]);
  }
  cli_put_name(stdout, model);
  if (n == 0) printf(": conforms to the SONNX profile\n");
  else printf(": %zu finding%s; the model does not conform to the SONNX profile\n", n,
              n == 1 ? "" : "s");
  onnxshape_profile_free(r);
  return n == 0 ? EXIT_OK : EXIT_INVALID;
}
