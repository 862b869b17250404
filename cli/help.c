/* SPDX-License-Identifier: Apache-2.0 */
/* The command's help: the usage lines, the overview (onnxshape --help) and
 * one page per command (onnxshape CMD --help, onnxshape help CMD). The man
 * page (docs/onnxshape.1) says the same; tests/cli/cases/help_*.stdout.exact
 * hold every page. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const char usage_text[] =
    "usage: onnxshape run MODEL [-i [NAME=]FILE]... [-o DIR [--format pb|npy]] [--json]\n"
    "       onnxshape test [--json] [--strict] DIR...\n"
    "       onnxshape infer [--input NAME=DIMS]... [--dim SYMBOL=VALUE]... [--ops shape|all]\n"
    "                       [--why NAME] [--json] [--write-model FILE] MODEL...\n"
    "       onnxshape check [--profile sonnx] [--json] [--select R] [--ignore R] [--strict] MODEL...\n"
    "       onnxshape help [COMMAND] | --help | --version\n";

static const char overview_text[] =
    "onnxshape runs and checks ONNX models made of Shape, Reshape, Size, Constant\n"
    "and Identity nodes, in every operator version (opsets 1 to 28) and for every\n"
    "element type.\n"
    "\n"
    "commands:\n"
    "  run      bind inputs from .pb or .npy files, run, print or write the outputs\n"
    "  test     run ONNX backend test directories and compare outputs exactly\n"
    "  infer    print the type, dims and known values of every value\n"
    "  check    report errors and warnings by rule; --profile sonnx: SONNX findings\n"
    "  help     this overview, or one command's page: onnxshape help COMMAND\n"
    "\n"
    "Each command answers --help with its options, exit status and an example.\n"
    "\n"
    "exit status: 0 success; 1 invalid model, invalid input, failed test or a\n"
    "finding; 2 usage or file error.\n";

typedef struct command_help {
  const char *name;
  const char *text;
} command_help;

static const command_help pages[] = {
    {"run",
     "usage: onnxshape run MODEL [-i [NAME=]FILE]... [-o DIR [--format pb|npy]] [--json]\n"
     "\n"
     "Bind graph inputs from tensor files, run the graph and print each output:\n"
     "name, type, dims and values (long tensors abbreviated).\n"
     "\n"
     "options:\n"
     "  -i [NAME=]FILE  bind graph input NAME to FILE, a TensorProto (.pb) or a NumPy\n"
     "                  array (.npy; told apart by content); without NAME=, the next\n"
     "                  graph input that no NAME= binds, in order\n"
     "                  (MODEL or one FILE '-': read from standard input)\n"
     "  -o DIR          also write the k-th output to DIR/output_<k>.pb (or .npy);\n"
     "                  DIR is created when its parent exists; on any error nothing\n"
     "                  is written\n"
     "  --format FMT    format of the -o files: pb (TensorProto, the default) or npy\n"
     "  --json          one JSON object per output, every value (docs/cli.md)\n"
     "  -h, --help      this page\n"
     "\n"
     "exit status: 0 success; 1 invalid model or input; 2 usage or file error.\n"
     "\n"
     "example:\n"
     "  onnxshape run examples/demo.onnx -i examples/demo_input.pb\n"},
    {"test",
     "usage: onnxshape test [--json] [--strict] DIR...\n"
     "\n"
     "Run ONNX backend test directories: each DIR holds model.onnx and\n"
     "test_data_set_*/ directories of input_<k>.pb and output_<k>.pb, or is a suite\n"
     "of such test_* directories (one level, in name order), as ONNX's node/ is.\n"
     "Every output is compared with the expected one: type, dims, then each element\n"
     "bit for bit. Prints 'PASS DIR', 'FAIL DIR: reason' (for elements that differ,\n"
     "the first 5 by index with both values, then how many more) or 'SKIP DIR:\n"
     "reason' (a model with operators onnxshape does not run) for each case, then\n"
     "'N passed, M failed, K skipped'.\n"
     "\n"
     "options:\n"
     "  --json      one JSON object per case, then a summary object (docs/cli.md)\n"
     "  --strict    a skipped case fails\n"
     "  -h, --help  this page\n"
     "\n"
     "exit status: 0 no case failed; 1 a case failed (with --strict, or was\n"
     "skipped); 2 usage error, a DIR that is not a directory or a suite without\n"
     "cases.\n"
     "\n"
     "example:\n"
     "  onnxshape test onnx/backend/test/data/node\n"
     "  onnxshape test --strict onnx-tests/test_reshape_*\n"},
    {"infer",
     "usage: onnxshape infer [--input NAME=DIMS]... [--dim SYMBOL=VALUE]... [--ops shape|all]\n"
     "                       [--why NAME] [--json] [--write-model FILE] MODEL...\n"
     "\n"
     "Print what is known of every value without input data, in every graph\n"
     "(subgraphs after their path): graph inputs, initializers, then node\n"
     "outputs in order, as 'NAME: TYPE [DIMS]', then '= VALUES' for known integer\n"
     "values of up to 16 elements and, for a node's output, 'from OP-VERSION\n"
     "\"NODE\"'. Any operator may appear: 203 standard operators are evaluated\n"
     "(docs/operators.md), others take their value_info. Dims and values are\n"
     "numbers or expressions over the model's symbols ('3*N', 'floor(H/2) + 1').\n"
     "'?' is an unknown type, dim or value, '[...]' an unknown rank. A last line\n"
     "sums up the Shape, Reshape and Size outputs (resolved, partial, unknown)\n"
     "and the operators not evaluated. Several MODELs: each in turn after a line\n"
     "'==> MODEL <==', the same options for each; '-' reads one from standard\n"
     "input.\n"
     "\n"
     "options:\n"
     "  --input NAME=D0,D1,...  fix graph input NAME's dims (and its symbols)\n"
     "  --dim SYMBOL=VALUE      bind a symbolic dim everywhere\n"
     "  --ops shape             only the outputs of Shape, Reshape and Size nodes,\n"
     "                          a table per graph (--ops all, the default: every\n"
     "                          value)\n"
     "  --why NAME              the chain from value NAME back to where knowledge of\n"
     "                          it stops: a node not evaluated, a graph input's\n"
     "                          symbol or undeclared dim (and the binding to give),\n"
     "                          the budget\n"
     "  --json                  one JSON object per value (--why: one for the chain;\n"
     "                          docs/cli.md)\n"
     "  --write-model FILE      also write the model with every type and dims known\n"
     "                          spliced into its graph inputs, outputs and\n"
     "                          value_info, in every graph (bound dims: the model\n"
     "                          specialised to them); all or nothing, one MODEL\n"
     "  -h, --help              this page\n"
     "\n"
     "exit status: 0 analysed; 1 invalid model or a node that cannot succeed\n"
     "whatever the data; 2 usage or file error (the worst of several models).\n"
     "\n"
     "example:\n"
     "  onnxshape infer examples/demo.onnx --input x=2,3,4\n"
     "  onnxshape infer examples/demo.onnx --why count\n"
     "  onnxshape infer model.onnx --input x=1,3,224,224 --write-model model.shapes.onnx\n"},
    {"check",
     "usage: onnxshape check [--profile sonnx] [--json] [--select R] [--ignore R] [--strict] MODEL...\n"
     "\n"
     "Report, without input data, what keeps the model from working as written\n"
     "(errors) and what may make it behave differently elsewhere (warnings). With\n"
     "--profile sonnx, also every place the model breaks the ONNX safety-related\n"
     "profile (SONNX): an attribute left to its default or a sparse tensor. One\n"
     "line per finding, MODEL: MESSAGE [RULE, SEVERITY], then a summary line;\n"
     "several MODELs in turn, the exit status the worst of them; '-' reads one\n"
     "from standard input.\n"
     "\n"
     "options:\n"
     "  --profile sonnx  add the SONNX profile's rules\n"
     "  --json           one JSON object per finding, then a summary (docs/cli.md)\n"
     "  --select R       report only rules R (comma-separated ids, repeatable)\n"
     "  --ignore R       do not report rules R (comma-separated ids, repeatable)\n"
     "  --strict         exit 1 on warnings too\n"
     "  -h, --help       this page\n"
     "\n"
     "rules (a family name such as 'portability' selects all its rules):\n"
     "  domain               error    a node cannot succeed whatever the data\n"
     "  conflict             error    a declared type or shape contradicts the model\n"
     "  validity/order       error    a graph's nodes are not in topological order\n"
     "  validity/unknown-op  error    an operator the default domain does not have\n"
     "  validity/opset       error    an operator newer than the model's opset\n"
     "  validity/deprecated  error    an operator ONNX deprecated at the model's opset\n"
     "  portability/D1, portability/D6, portability/D7, portability/D11\n"
     "                       warning  a result implementations disagree on\n"
     "  incomplete           warning  the analysis stopped at its budget\n"
     "  sonnx/default        error    an attribute left to its default (--profile)\n"
     "  sonnx/sparse         error    a sparse tensor (--profile)\n"
     "\n"
     "exit status: 0 no error among the findings reported (with --strict, no\n"
     "finding); 1 an error (with --strict, any finding) or an invalid model;\n"
     "2 usage or file error.\n"
     "\n"
     "example:\n"
     "  onnxshape check --profile sonnx examples/demo.onnx\n"
     "  onnxshape check --ignore portability --strict examples/findings.onnx\n"},
    {"help",
     "usage: onnxshape help [COMMAND]\n"
     "\n"
     "Print the overview of onnxshape, or the page of COMMAND (run, test, infer,\n"
     "check, help): the same as 'onnxshape COMMAND --help'.\n"
     "\n"
     "exit status: 0 success; 2 unknown COMMAND.\n"
     "\n"
     "example:\n"
     "  onnxshape help run\n"},
};

/* The command being run, once dispatch knows it: a usage error then shows
 * that command's synopsis, not every command's. */
static const char *usage_command;

void cli_set_command(const char *command) { usage_command = command; }

void cli_put_usage(FILE *f) {
  for (size_t i = 0; usage_command != NULL && i < sizeof pages / sizeof pages[0]; i++) {
    if (strcmp(pages[i].name, usage_command) != 0) continue;
    /* A page starts with its synopsis (one or more lines), then a blank line. */
    char line[512];
    const char *end = strstr(pages[i].text, "\n\n");
    (void)snprintf(line, sizeof line, "%.*s\n(onnxshape %s --help: its options and an example)\n",
                   (int)(end - pages[i].text), pages[i].text, usage_command);
    cli_put_checked(f, line);
    return;
  }
  cli_put_checked(f, usage_text);
}

void cli_put_overview(FILE *f) {
  cli_put_checked(f, usage_text);
  cli_put_checked(f, "\n");
  cli_put_checked(f, overview_text);
}

int cli_put_help(FILE *f, const char *command) {
  for (size_t i = 0; i < sizeof pages / sizeof pages[0]; i++) {
    if (strcmp(pages[i].name, command) == 0) {
      cli_put_checked(f, pages[i].text);
      return 1;
    }
  }
  return 0;
}

int cli_asks_help(int argc, char **argv) {
  for (int i = 0; i < argc; i++) {
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) return 1;
    /* The value of an option is not an option. */
    if (strcmp(argv[i], "-i") == 0 || strcmp(argv[i], "-o") == 0 ||
        strcmp(argv[i], "--profile") == 0 || strcmp(argv[i], "--format") == 0 ||
        strcmp(argv[i], "--input") == 0 || strcmp(argv[i], "--dim") == 0 ||
        strcmp(argv[i], "--select") == 0 || strcmp(argv[i], "--ignore") == 0) {
      i++;
    }
  }
  return 0;
}

int cli_help(int argc, char **argv) {
  if (argc == 0) {
    cli_put_overview(stdout);
    return EXIT_OK;
  }
  if (argc > 1) return cli_usage_error("unexpected argument '%s'", cli_shown(argv[1]));
  if (!cli_put_help(stdout, argv[0])) {
    return cli_usage_error("unknown command '%s' (commands: run, test, infer, check, help)",
                           cli_shown(argv[0]));
  }
  return EXIT_OK;
}
