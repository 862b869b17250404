/* SPDX-License-Identifier: Apache-2.0 */
/* Model-local functions (load.h). A node whose (domain, op_type, overload) names a model-local function is a
 * call: each call loads the function's body again, as a graph of its own
 * (graph_node.body) that sees only its own names, at the function's opset,
 * with each attribute reference replaced by the call's attribute (or the
 * function's default). Analysis then runs the body on the call's inputs
 * (docs/analysis.md, "Model-local functions"). */
#include <stdio.h>
#include <string.h>

#include "load.h"
#include "pbfast.h"

static const char *fn_domain(const Onnx__FunctionProto *f) {
  return is_default_domain(f->domain) ? "" : f->domain;
}

/* A function as messages name it, for "'{}{}{}'". */
#define FN_ARGS(f) ONNXSHAPE__OP_ARGS(fn_domain(f), (f)->name)

/* 0 for the domains ONNX defines (the default domain, ai.onnx.*): a node
 * there names ONNX's operator, never a model-local function, as onnx's own
 * shape inference resolves it (the proto leaves the choice to runtimes; a
 * node that names no operator onnxshape knows is then not evaluated). */
int onnxshape__calls_functions(const char *domain) {
  return !is_default_domain(domain) && strncmp(domain, "ai.onnx.", 8) != 0;
}

static size_t fn_hash(const char *domain, const char *name, const char *overload) {
  return onnxshape__name_hash(name) ^ (onnxshape__name_hash(domain) * 31u) ^ (onnxshape__name_hash(overload) * 961u);
}

static int fn_is(const Onnx__FunctionProto *f, const char *domain, const char *name,
                 const char *overload) {
  return strcmp(f->name, name) == 0 && strcmp(fn_domain(f), domain) == 0 &&
         strcmp(overload_of(f->overload), overload) == 0;
}

/* The function a node of domain (normalised: "" for the default domain),
 * op_type and overload calls, or NULL; *free_at is where the index would
 * take it. */
const model_function *onnxshape__find_function(const onnxshape_model *m, const char *domain,
                                               const char *name, const char *overload,
                                               size_t *free_at) {
  if (m->fn_index == NULL) return NULL;
  size_t at = fn_hash(domain, name, overload) & m->fn_mask;
  for (size_t e; (e = m->fn_index[at]) != 0; at = (at + 1) & m->fn_mask) {
    onnxshape__probes++;
    const model_function *fn = &m->functions[e - 1];
    if (fn_is(fn->proto, domain, name, overload)) return fn;
  }
  *free_at = at;
  return NULL;
}

/* The default-domain opset function fn's body resolves at: its own
 * import, else the model's; found once, when the function is indexed (a
 * call then costs nothing in the length of its import list). A second
 * default-domain import, or a version this build does not support, is
 * recorded for the calls to refuse (as the first such import says). */
static void function_opset(const onnxshape_model *m, model_function *fn) {
  const Onnx__FunctionProto *f = fn->proto;
  fn->opset = m->opset;
  int found = 0;
  for (size_t i = 0; i < f->n_opset_import; i++) {
    onnxshape__probes++;
    const Onnx__OperatorSetIdProto *o = f->opset_import[i];
    if (!is_default_domain(o->domain)) continue;
    if (found++) {
      fn->opset_fault = FN_OPSET_TWICE;
      return;
    }
    if (!o->has_version || o->version < 1 || o->version > ONNXSHAPE_MAX_OPSET) {
      fn->opset_fault = FN_OPSET_UNSUPPORTED;
      fn->opset = o->version;
      return;
    }
    fn->opset = o->version;
  }
}

/* Refuses a call (node n) of a function whose opset imports are faulty. */
static onnxshape_status opset_fault(const graph_node *n, const model_function *fn,
                                    onnxshape_diag *diag) {
  const Onnx__FunctionProto *f = fn->proto;
  if (fn->opset_fault == FN_OPSET_TWICE) {
    return NFAIL(n, ONNXSHAPE_ERR_INVALID_MODEL,
                 "function '{}{}{}' imports the default domain twice",
                 ONNXSHAPE__ARGS(FN_ARGS(f)));
  }
  return NFAIL(n, ONNXSHAPE_ERR_UNSUPPORTED_OPSET,
               "function '{}{}{}' imports default-domain opset {}; this build supports 1 to {}",
               ONNXSHAPE__ARGS(FN_ARGS(f), ARG_INT(fn->opset), ARG_INT(ONNXSHAPE_MAX_OPSET)));
}

/* Each function decoded, named, and indexed by (domain, name, overload),
 * which must be unique; its opset found. */
onnxshape_status onnxshape__load_functions(onnxshape_model *m, const Onnx__ModelProto *mp,
                                       onnxshape_diag *diag) {
  if (mp->n_functions == 0) return ONNXSHAPE_OK;
  m->functions = model_alloc(m, mp->n_functions, sizeof *m->functions);
  m->fn_index = onnxshape__new_index(m, mp->n_functions, &m->fn_mask);
  if (m->functions == NULL || m->fn_index == NULL) {
    m->fn_index = NULL;
    return out_of_memory(m, diag);
  }
  for (size_t i = 0; i < mp->n_functions; i++) {
    ProtobufCMessage *msg;
    onnxshape_status st = onnxshape__decode_held(m, &onnx__function_proto__descriptor,
                                                 &mp->functions[i], &msg, diag);
    if (st == ONNXSHAPE_ERR_MALFORMED) {
      return onnxshape__error(diag, st, "function {} is not a valid FunctionProto",
                              ONNXSHAPE__ARGS(ARG_UINT(i)));
    }
    if (st != ONNXSHAPE_OK) return st;
    const Onnx__FunctionProto *f = (const Onnx__FunctionProto *)msg;
    if (f->name == NULL || f->name[0] == '\0') {
      return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_MODEL, "function {} has no name",
                              ONNXSHAPE__ARGS(ARG_UINT(i)));
    }
    size_t at = 0;
    if (onnxshape__find_function(m, fn_domain(f), f->name, overload_of(f->overload), &at) != NULL) {
      return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_MODEL, "function '{}{}{}' is defined twice",
                              ONNXSHAPE__ARGS(FN_ARGS(f)));
    }
    m->functions[i].proto = f;
    function_opset(m, &m->functions[i]);
    m->fn_index[at] = i + 1;
    m->n_functions = i + 1;
  }
  return ONNXSHAPE_OK;
}

/* The k-th of call c's attributes followed by its function's defaults. */
static const Onnx__AttributeProto *call_attr(const model_call *c, size_t k) {
  const Onnx__NodeProto *call = c->node;
  const Onnx__FunctionProto *f = c->function;
  return k < call->n_attribute ? call->attribute[k] : f->attribute_proto[k - call->n_attribute];
}

/* k + 1 for the attribute named `ref` in call c's index (call_attr(c, k)),
 * or 0; *free_at is where the index would take it. */
static size_t attr_at(const model_call *c, const char *ref, size_t *free_at) {
  size_t at = onnxshape__name_hash(ref) & c->attrs_mask;
  for (size_t e; (e = c->attrs[at]) != 0; at = (at + 1) & c->attrs_mask) {
    onnxshape__probes++;
    if (strcmp(call_attr(c, e - 1)->name, ref) == 0) return e;
  }
  *free_at = at;
  return 0;
}

/* Indexes, by name, what the references in c's body can take: the call's
 * attributes, then the function's defaults for names the call does not
 * give (the first of a name wins), so that resolving takes time in the
 * number of references, not in references times attributes. */
static int index_call_attrs(onnxshape_model *m, model_call *c) {
  const Onnx__NodeProto *call = c->node;
  const Onnx__FunctionProto *f = c->function;
  size_t n = call->n_attribute + f->n_attribute_proto;
  c->attrs = onnxshape__new_index(m, n, &c->attrs_mask);
  if (c->attrs == NULL) return 0;
  for (size_t i = 0; i < n; i++) {
    const Onnx__AttributeProto *a = call_attr(c, i);
    size_t at = 0;
    if (a->name != NULL && attr_at(c, a->name, &at) == 0) c->attrs[at] = i + 1;
  }
  return 1;
}

/* Node *np of a function's body (or of a subgraph in it) with its
 * attribute references resolved against call c: *np itself when it has
 * none, else a copy, with *scopes saying for each of its attributes where a
 * graph value is loaded (the scope of the call's attribute it took; NULL:
 * where the node is). A reference must take an attribute of its own type. */
onnxshape_status onnxshape__resolve_refs(onnxshape_model *m, const model_call *c,
                                     const Onnx__NodeProto **np, const model_graph ***scopes,
                                     onnxshape_diag *diag) {
  const Onnx__NodeProto *node = *np;
  size_t refs = 0;
  for (size_t i = 0; i < node->n_attribute; i++) refs += node->attribute[i]->ref_attr_name != NULL;
  if (refs == 0) return ONNXSHAPE_OK;
  Onnx__NodeProto *copy = model_alloc(m, 1, sizeof *copy);
  Onnx__AttributeProto **attrs = model_alloc(m, node->n_attribute + 1, sizeof *attrs);
  Onnx__AttributeProto *made = model_alloc(m, refs, sizeof *made);
  const model_graph **where = model_alloc(m, node->n_attribute + 1, sizeof *where);
  if (copy == NULL || attrs == NULL || made == NULL || where == NULL) return out_of_memory(m, diag);
  *copy = *node;
  copy->attribute = attrs;
  copy->n_attribute = 0;
  for (size_t i = 0; i < node->n_attribute; i++) {
    Onnx__AttributeProto *a = node->attribute[i];
    if (a->ref_attr_name == NULL) {
      attrs[copy->n_attribute++] = a;
      continue;
    }
    /* The call's attribute of that name, else the function's default, else
     * none: the attribute is then absent, as ONNX says. */
    size_t unused;
    size_t e = attr_at(c, a->ref_attr_name, &unused);
    if (e == 0) continue;
    size_t k = e - 1;
    const Onnx__NodeProto *call = c->node;
    const Onnx__AttributeProto *value = call_attr(c, k);
    if (a->has_type && value->has_type && a->type != value->type) {
      diag->node = node->name != NULL && node->name[0] != '\0' ? node->name : NULL;
      return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_MODEL,
                              "attribute '{}' refers to '{}', which is {}; the reference is {}",
                              ONNXSHAPE__ARGS(ARG_NAME(a->name != NULL ? a->name : ""),
                                              ARG_NAME(a->ref_attr_name),
                                              ARG_STR(onnxshape__attr_type_name((int)value->type)),
                                              ARG_STR(onnxshape__attr_type_name((int)a->type))));
    }
    *made = *value;
    made->name = a->name;
    made->ref_attr_name = NULL;
    where[copy->n_attribute] = k < call->n_attribute ? c->scopes[k] : NULL;
    attrs[copy->n_attribute++] = made++;
  }
  *np = copy;
  *scopes = where;
  return ONNXSHAPE_OK;
}

/* ValueInfoProtos that only name values (a function's inputs and outputs
 * have names alone); NULL when out of memory. */
static Onnx__ValueInfoProto **named_values(onnxshape_model *m, char **names, size_t n) {
  Onnx__ValueInfoProto **list = model_alloc(m, n + 1, sizeof *list);
  Onnx__ValueInfoProto *v = model_alloc(m, n + 1, sizeof *v);
  if (list == NULL || v == NULL) return NULL;
  for (size_t i = 0; i < n; i++) {
    Onnx__ValueInfoProto init = ONNX__VALUE_INFO_PROTO__INIT;
    v[i] = init;
    v[i].name = names[i];
    list[i] = &v[i];
  }
  return list;
}

/* Node n of g (decoded from np; scopes as onnxshape__resolve_refs gave them, or NULL)
 * calls function fn: its body, loaded for this call. */
onnxshape_status onnxshape__load_body(onnxshape_model *m, model_graph *g, graph_node *n,
                                  const Onnx__NodeProto *np, const model_graph *const *scopes,
                                  const model_function *fn, onnxshape_diag *diag) {
  const Onnx__FunctionProto *f = fn->proto;
  for (const model_call *c = g->call; c != NULL; c = c->outer) {
    if (c->function == f) {
      return NFAIL(n, ONNXSHAPE_ERR_INVALID_MODEL,
                   "calls function '{}{}{}' inside its own body (a function cannot call itself)",
                   ONNXSHAPE__ARGS(FN_ARGS(f)));
    }
  }
  if (g->depth + 1 > MAX_SUBGRAPH_DEPTH) {
    return NFAIL(n, ONNXSHAPE_ERR_INVALID_MODEL, "function calls and subgraphs nest more than {} deep",
                 ONNXSHAPE__ARGS(ARG_UINT(MAX_SUBGRAPH_DEPTH)));
  }
  if (np->n_input > f->n_input || np->n_output > f->n_output) {
    return NFAIL(n, ONNXSHAPE_ERR_INVALID_MODEL,
                 "calls function '{}{}{}' with {} input(s) and {} output(s); it has {} and {}",
                 ONNXSHAPE__ARGS(FN_ARGS(f), ARG_UINT(np->n_input),
                                 ARG_UINT(np->n_output), ARG_UINT(f->n_input), ARG_UINT(f->n_output)));
  }
  model_graph *body = model_alloc(m, 1, sizeof *body);
  model_call *call = model_alloc(m, 1, sizeof *call);
  Onnx__GraphProto *gp = model_alloc(m, 1, sizeof *gp);
  size_t need = strlen(fn_domain(f)) + strlen(f->name) + 2;
  char *what = model_alloc(m, need, 1);
  const model_graph **attr_scopes = model_alloc(m, np->n_attribute + 1, sizeof *attr_scopes);
  if (body == NULL || call == NULL || gp == NULL || what == NULL || attr_scopes == NULL) {
    return out_of_memory(m, diag);
  }
  (void)snprintf(what, need, "%s%s%s", fn_domain(f), fn_domain(f)[0] != '\0' ? ":" : "", f->name);
  for (size_t k = 0; k < np->n_attribute; k++) {
    attr_scopes[k] = scopes != NULL && scopes[k] != NULL ? scopes[k] : g;
  }
  Onnx__GraphProto init = ONNX__GRAPH_PROTO__INIT;
  *gp = init;
  gp->n_node = f->n_node;
  gp->node = f->node;
  gp->n_input = f->n_input;
  gp->input = named_values(m, f->input, f->n_input);
  gp->n_output = f->n_output;
  gp->output = named_values(m, f->output, f->n_output);
  gp->n_value_info = f->n_value_info;
  gp->value_info = f->value_info;
  body->path = onnxshape__graph_path(m, g, n, what, 0, 0);
  if (gp->input == NULL || gp->output == NULL || body->path == NULL) {
    return out_of_memory(m, diag);
  }
  if (fn->opset_fault != FN_OPSET_OK) return opset_fault(n, fn, diag);
  body->opset = fn->opset;
  *call = (model_call){f, np, g->call, NULL, 0, attr_scopes};
  if (!index_call_attrs(m, call)) return out_of_memory(m, diag);
  body->call = call;
  n->body = body;
  return onnxshape__load_held(m, g, NULL, n, body, gp, diag);
}
