/* SPDX-License-Identifier: Apache-2.0 */
/* onnxshape check [--profile sonnx] [--json] [--select RULES] [--ignore RULES]
 * [--strict]: nodes that cannot succeed whatever the data, invalid
 * operators, declarations that contradict the model, portability risks and,
 * with the profile, the SONNX profile's findings; each with the rule id and
 * severity the library gives (docs/cli.md, "Rules"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* Rule patterns of --select and --ignore, as given (comma lists split). */
#define MAX_PATTERNS 64

typedef struct patterns {
  const char *p[MAX_PATTERNS];
  size_t len[MAX_PATTERNS];
  size_t n;
} patterns;

/* 1 when rule `id` is pattern p (len bytes), or in its family: p without a
 * slash, and id "p/...". */
static int rule_matches(const char *id, const char *p, size_t len) {
  if (strncmp(id, p, len) != 0) return 0;
  return id[len] == '\0' || (id[len] == '/' && memchr(p, '/', len) == NULL);
}

static int matches_any(const char *id, const patterns *ps) {
  for (size_t i = 0; i < ps->n; i++) {
    if (rule_matches(id, ps->p[i], ps->len[i])) return 1;
  }
  return 0;
}

/* 1 when findings of rule `id` are reported: selected (all are when no
 * --select is given) and not ignored. */
static int selected(const char *id, const patterns *select, const patterns *ignore) {
  return (select->n == 0 || matches_any(id, select)) && !matches_any(id, ignore);
}

/* Adds the comma-separated rule patterns of `list` (each must match a
 * rule the library knows); EXIT_OK, or a usage error. */
static int add_patterns(patterns *ps, const char *option, const char *list) {
  const char *p = list;
  for (;;) {
    const char *comma = strchr(p, ',');
    size_t len = comma != NULL ? (size_t)(comma - p) : strlen(p);
    int known = 0;
    for (size_t i = 0; onnxshape_check_rule(i, NULL) != NULL && !known; i++) {
      known = len > 0 && rule_matches(onnxshape_check_rule(i, NULL), p, len);
    }
    if (!known) {
      char rules[512] = "", shown[1024];
      for (size_t i = 0; onnxshape_check_rule(i, NULL) != NULL; i++) {
        size_t at = strlen(rules);
        (void)snprintf(rules + at, sizeof rules - at, "%s%s", i > 0 ? ", " : "",
                       onnxshape_check_rule(i, NULL));
      }
      char given[256];
      (void)snprintf(given, sizeof given, "%.*s", (int)(len < 255 ? len : 255), p);
      (void)snprintf(shown, sizeof shown, "%s: unknown rule '%s' (known: %s)", option,
                     cli_shown(given), rules);
      return cli_usage_error("%s", shown);
    }
    if (ps->n == MAX_PATTERNS) return cli_usage_error("%s", "too many rules given");
    ps->p[ps->n] = p;
    ps->len[ps->n++] = len;
    if (comma == NULL) return EXIT_OK;
    p = comma + 1;
  }
}

/* One finding as a JSON line: node, domain, op, version and node_index only when it is about
 * a node (optional keys are left out, never null: docs/cli.md). */
static void put_json_finding(const char *model, const onnxshape_finding *f) {
  fputs("{\"model\":", stdout);
  cli_put_json_string(stdout, model, strlen(model));
  printf(",\"rule\":\"%s\",\"severity\":\"%s\",\"graph\":", f->id,
         f->severity == ONNXSHAPE_SEVERITY_ERROR ? "error" : "warning");
  cli_put_json_string(stdout, f->graph, strlen(f->graph));
  if (f->node != NULL) {
    cli_put_json_node(stdout, f->node, f->domain, f->op, f->version);
    printf(",\"node_index\":%zu", f->node_index);
  }
  fputs(",\"message\":", stdout);
  cli_put_json_string(stdout, f->message, strlen(f->message));
  fputs("}\n", stdout);
}

/* The option's value: the next argument (consumed), or after "=". NULL
 * when this argument is not the option. */
static const char *option_value(int argc, char **argv, int *i, const char *name, int *missing) {
  size_t len = strlen(name);
  if (strncmp(argv[*i], name, len) != 0) return NULL;
  if (argv[*i][len] == '=') return argv[*i] + len + 1;
  if (argv[*i][len] != '\0') return NULL;
  if (*i + 1 >= argc) {
    *missing = 1;
    return NULL;
  }
  return argv[++*i];
}

/* What check reports, from its options. */
typedef struct check_view {
  const char *profile; /* "sonnx" or NULL */
  onnxshape_check_profile which;
  int json, strict;
  patterns select, ignore;
} check_view;

static int check_one(const char *model, const check_view *cv);

int cli_check(int argc, char **argv) {
  const char *profile = NULL;
  int json = 0, strict = 0;
  patterns select = {{NULL}, {0}, 0}, ignore = {{NULL}, {0}, 0};
  /* the models, in order: argv's own entries */
  char **models = argv;
  size_t n_models = 0;
  for (int i = 0; i < argc; i++) {
    int missing = 0, rc = EXIT_OK;
    const char *v;
    if (strcmp(argv[i], "--json") == 0) {
      json = 1;
    } else if (strcmp(argv[i], "--strict") == 0) {
      strict = 1;
    } else if ((v = option_value(argc, argv, &i, "--profile", &missing)) != NULL) {
      profile = v;
    } else if ((v = option_value(argc, argv, &i, "--select", &missing)) != NULL) {
      rc = add_patterns(&select, "--select", v);
    } else if ((v = option_value(argc, argv, &i, "--ignore", &missing)) != NULL) {
      rc = add_patterns(&ignore, "--ignore", v);
    } else if (missing) {
      return cli_usage_error("%s needs an argument", cli_shown(argv[i]));
    } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
      return cli_usage_error("unknown option '%s'", cli_shown(argv[i]));
    } else {
      models[n_models++] = argv[i]; /* never past i: argv[i] is read already */
    }
    if (rc != EXIT_OK) return rc;
  }
  onnxshape_check_profile which = ONNXSHAPE_CHECK_CORE;
  if (profile != NULL) {
    if (strcmp(profile, "sonnx") != 0) {
      return cli_usage_error("unknown profile '%s' (known: sonnx)", cli_shown(profile));
    }
    which = ONNXSHAPE_CHECK_SONNX;
  }
  if (n_models == 0) return cli_usage_error("%s", "check needs a MODEL");
  size_t from_stdin = 0;
  for (size_t k = 0; k < n_models; k++) from_stdin += cli_is_stdin(models[k]);
  if (from_stdin > 1) {
    return cli_usage_error("%s", "standard input ('-') can be read once per call");
  }
  check_view cv = {profile, which, json, strict, select, ignore};
  /* Each model in turn, every line naming it; the exit status is the
   * worst (2 over 1 over 0). */
  int worst = EXIT_OK;
  for (size_t k = 0; k < n_models; k++) {
    int rc = check_one(models[k], &cv);
    if (rc > worst) worst = rc;
  }
  return worst;
}

/* The findings and summary of one model; its exit status. */
static int check_one(const char *model, const check_view *cv) {
  const char *profile = cv->profile;
  onnxshape_check_profile which = cv->which;
  int json = cv->json, strict = cv->strict;
  const patterns *select = &cv->select, *ignore = &cv->ignore;
  onnxshape_profile_report *r = NULL;
  onnxshape_diag d;
  onnxshape_diag_init(&d);
  onnxshape_status st;
  if (cli_is_stdin(model)) {
    /* read whole, then checked as a file's bytes (no external data) */
    unsigned char *bytes = NULL;
    size_t len = 0;
    int rc = cli_read_stdin(&bytes, &len);
    if (rc != EXIT_OK) return rc;
    st = onnxshape_model_check(bytes, len, NULL, which, &r, &d);
    free(bytes);
    model = cli_display_name(model);
    if (st != ONNXSHAPE_OK) {
      cli_error("%s: %s", model, d.message);
      return cli_exit_for(st);
    }
  } else {
    st = onnxshape_model_check_file(model, which, &r, &d);
    if (st != ONNXSHAPE_OK) {
      if (st == ONNXSHAPE_ERR_IO || st == ONNXSHAPE_ERR_MALFORMED) cli_error("%s", d.message);
      else cli_error("%s: %s", cli_shown(model), d.message);
      return cli_exit_for(st);
    }
  }
  size_t errors = 0, warnings = 0, sparse_left_out = 0, incomplete = 0;
  for (size_t i = 0; i < onnxshape_profile_count(r); i++) {
    const onnxshape_finding *f = onnxshape_profile_finding(r, i);
    incomplete += f->rule == ONNXSHAPE_PROFILE_INCOMPLETE;
    if (!selected(f->id, select, ignore)) {
      sparse_left_out += f->rule == ONNXSHAPE_PROFILE_SPARSE;
      continue;
    }
    int error = f->severity == ONNXSHAPE_SEVERITY_ERROR;
    errors += error;
    warnings += !error;
    if (json) {
      put_json_finding(model, f);
    } else {
      cli_put_name(stdout, model);
      printf(": %s [%s, %s]\n", f->message, f->id, error ? "error" : "warning");
    }
  }
  if (sparse_left_out > 0) {
    /* A model with sparse tensors is not loaded: no other rule ran, so
     * leaving those findings out must not pass it. */
    onnxshape_profile_free(r);
    cli_error("%s: the model holds sparse tensors (sonnx/sparse, left out here), so it was not "
              "loaded and no other rule ran",
              cli_shown(model));
    return EXIT_INVALID;
  }
  if (json) {
    printf("{\"summary\":{\"model\":");
    cli_put_json_string(stdout, model, strlen(model));
    printf(",\"profile\":%s,\"findings\":%zu,\"errors\":%zu,\"warnings\":%zu}}\n",
           profile != NULL ? "\"sonnx\"" : "null", errors + warnings, errors, warnings);
  } else {
    cli_put_name(stdout, model);
    if (errors + warnings == 0) printf(": no findings");
    else printf(": %zu error%s, %zu warning%s", errors, errors == 1 ? "" : "s", warnings,
                warnings == 1 ? "" : "s");
    /* What the profile checks: the attribute defaults of Shape and
     * Reshape, the valid domains the analysis knows, sparse tensors. A
     * verdict of conformance needs every one of those rules selected. */
    int all_rules = selected("sonnx/default", select, ignore) &&
                    selected("sonnx/sparse", select, ignore) &&
                    selected("domain", select, ignore);
    if (profile != NULL && errors == 0 && incomplete > 0) {
      printf("; no SONNX verdict: the analysis ran out of its work budget (incomplete)");
    } else if (profile != NULL && errors == 0 && !all_rules) {
      printf("; no SONNX verdict: not every rule of the profile was selected");
    } else if (profile != NULL && errors == 0) {
      printf("; the Shape, Reshape and Size nodes conform to the SONNX profile");
    } else if (profile != NULL) {
      printf("; the model does not conform to the SONNX profile");
    }
    putchar('\n');
  }
  onnxshape_profile_free(r);
  return errors > 0 || (strict && warnings > 0) ? EXIT_INVALID : EXIT_OK;
}
