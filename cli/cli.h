/* SPDX-License-Identifier: Apache-2.0 */
/* The onnxshape command: its commands, its output and its safety nets. It
 * uses only the public API (include/onnxshape.h). */
#ifndef ONNXSHAPE_CLI_H
#define ONNXSHAPE_CLI_H

#include <stdio.h>

#include <onnxshape.h>

enum { EXIT_OK = 0, EXIT_INVALID = 1, EXIT_USAGE = 2 };

/* ---- commands (each returns the exit status): cli_main in commands.c,
 * each command in its cmd_*.c, cli_help in help.c ---- */
int cli_main(int argc, char **argv);
int cli_run(int argc, char **argv);
int cli_test(int argc, char **argv);
int cli_infer(int argc, char **argv);
int cli_check(int argc, char **argv);
int cli_help(int argc, char **argv);

/* ---- help (help.c) ---- */
/* The usage lines; the overview (usage and commands) of onnxshape --help. */
void cli_put_usage(FILE *f);
/* Names the command being run (NULL: none), for cli_put_usage. */
void cli_set_command(const char *command);
void cli_put_overview(FILE *f);
/* The page of `command`; 0 when there is no such command. */
int cli_put_help(FILE *f, const char *command);
/* 1 when an argument (not an option's value) is --help or -h. */
int cli_asks_help(int argc, char **argv);

/* ---- messages (commands.c) ---- */
/* "onnxshape: error: " and the text on stderr. The format and its arguments
 * are trusted text (library messages are escaped already); text from the
 * user goes through cli_shown() first. */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* text on f; a failed write to stderr makes the command fail (commands.c). */
void cli_put_checked(FILE *f, const char *text);
/* cli_error, the usage lines, EXIT_USAGE. */
int cli_usage_error(const char *fmt, const char *arg);
/* cli_usage_error about one model of several: "MODEL: " before the
 * message. */
int cli_usage_error_in(const char *model, const char *fmt, const char *arg);
/* File problems (ERR_IO) are exit 2; everything about content is exit 1. */
int cli_exit_for(onnxshape_status st);
/* s escaped for a message (onnxshape_escape), shortened at the end past 400
 * bytes; valid until the fourth call after this one. */
const char *cli_shown(const char *s);
/* "DIR/NAME", or "DIR" + NAME when DIR ends in "/" (malloc; NULL when out
 * of memory). */
char *cli_join_path(const char *dir, const char *name);
/* Loads a model file, reporting a failure; the exit status. */
int cli_load_model(const char *path, onnxshape_model **m);
/* The same; a model read from standard input also leaves its bytes in
 * *kept (malloc, *kept_len bytes) when kept is not NULL. */
int cli_load_model_keep(const char *path, onnxshape_model **m, unsigned char **kept,
                        size_t *kept_len);
/* EXIT_OK when the model's files (the model itself when mapped, mapped
 * external data) are still what was read and no read of a mapped page
 * faulted; else prints why, naming path, and returns EXIT_USAGE. Results
 * computed before a change was seen are not to be trusted. */
int cli_check_model_files(const char *path, const onnxshape_model *m);

/* ---- standard input (stdin.c) ---- */
/* 1 for "-", standard input. */
int cli_is_stdin(const char *path);
/* The name a file goes by in output: "<stdin>" for "-", else path. */
const char *cli_display_name(const char *path);
/* All of standard input (malloc'd; at most 2 GiB - 1 bytes), refused when
 * it is a terminal; reports a failure and returns its exit status. */
int cli_read_stdin(unsigned char **bytes, size_t *len);

/* ---- printing (print.c) ---- */
/* s (len bytes) as one line of human text: escaped by onnxshape_escape(),
 * and with `quote`, inside double quotes with \" for a quote. */
void cli_put_text(FILE *f, const char *s, size_t len, int quote);
void cli_put_name(FILE *f, const char *s);
/* s (len bytes) as a JSON string: valid UTF-8 as it is, `"` `\`, control
 * characters, U+2028 and U+2029 escaped, and each byte that is not UTF-8 as
 * \udcXX (JSON-UTF8). */
void cli_put_json_string(FILE *f, const char *s, size_t len);
/* ,"node":NODE,"domain":DOMAIN,"op":OP,"version":VERSION: the producing
 * node of infer's values and the node of check's findings, in one form
 * (DOMAIN "" for the default domain, OP the plain operator type). */
void cli_put_json_node(FILE *f, const char *node, const char *domain, const char *op,
                       int version);
/* Human form: "NAME: TYPE [d0,d1] = [v0, v1, ...]", long tensors abbreviated
 * to their first and last values. */
void cli_print_tensor(FILE *f, const char *name, const onnxshape_tensor *t);
/* Element i (row-major) of t: the human form of cli_print_tensor (strings
 * quoted and escaped) or, with json, the JSON form of cli_print_json. */
void cli_print_value(FILE *f, const onnxshape_tensor *t, size_t i, int json);
/* One JSON object on one line, with every value. */
void cli_print_json(FILE *f, const char *name, const onnxshape_tensor *t);
/* "[2,3,4]"; symbols by name (escaped) and unknown dims as "?". */
void cli_print_dims(FILE *f, size_t rank, const int64_t *dims, const char *const *params);

/* ---- infer's views (cmd_infer.c, infer_table.c, infer_why.c) ---- */
/* One element of a value: a number, its expression (escaped; a JSON
 * string with json), or ? (null). */
void cli_put_elem(FILE *f, const onnxshape_elem *e, int json);
/* v's known elements as infer prints them: "[1, N, ?]" ("7" for a scalar). */
void cli_put_values(FILE *f, const onnxshape_value_info *v);
/* OP-VERSION of v's producer ("DOMAIN:OP" outside the default domain). */
void cli_put_op(FILE *f, const onnxshape_value_info *v);
/* infer's line of v on stdout, without its newline. */
void cli_put_value(const onnxshape_value_info *v);
/* infer's JSON fields of v ("name":...,...), without braces. */
void cli_put_value_json(const onnxshape_value_info *v);
/* "model":MODEL, (then the object's other keys) when model is not NULL:
 * the JSON objects of infer given several models. */
void cli_put_model_key(const char *model);
/* --ops shape: the values `pick` takes as a table per graph (infer_table.c);
 * 0 when out of memory. */
int cli_put_shape_table(const onnxshape_inference *inf,
                        int (*pick)(const onnxshape_value_info *v));
/* --why: value `at`'s chain back to where knowledge stops (infer_why.c);
 * 0 when out of memory. */
int cli_why(const onnxshape_inference *inf, size_t at, int json, const char *model);

/* ---- safety nets (safety.c) ---- */
/* Installs, once, the handlers of the command (never the library's):
 * SIGBUS from a mapped file cut short is turned into reads of zeros and
 * counted (the command then reports the file as changed), and SIGINT,
 * SIGTERM and SIGHUP remove the temporary files registered below before the
 * process ends by the signal. */
void cli_install_handlers(void);
/* How many SIGBUS faults were absorbed so far. */
unsigned long cli_bus_faults(void);
/* Registers a temporary file to remove if a signal ends the process (the
 * path is copied); 0 when out of memory. */
int cli_temp_add(const char *path);
/* Forgets the registered temporaries (renamed or removed by the caller). */
void cli_temp_clear(void);
/* Blocks (1) or unblocks (0) the signals that remove temporaries, around a
 * step that must not be cut in the middle; blocks nest. */
void cli_block_signals(int block);

#endif
