/* SPDX-License-Identifier: Apache-2.0 */
/* ModelProto to the checked, protobuf-free form of model.h: the entry
 * points (a model file or bytes, decoded, loaded), the model's lifetime and
 * its accessors. The loading itself is graph.c, attrs.c and functions.c
 * (load.h). Every static rule is checked while loading, so running a model
 * fails only on data. */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "load.h"
#include "pbfast.h"

void onnxshape_model_free(onnxshape_model *m) {
  if (m == NULL) return;
  for (size_t k = 0; k < m->n_graphs; k++) {
    const model_graph *g = m->graphs[k];
    for (size_t i = 0; i < g->n_inits; i++) onnxshape_owned_tensor_free(g->inits[i]);
    for (size_t i = 0; i < g->n_nodes; i++) {
      graph_node *n = &g->nodes[i];
      for (size_t a = 0; a < n->n_attrs; a++) onnxshape_owned_tensor_free(n->attrs[a].t);
      onnxshape_owned_tensor_free(n->constant);
    }
  }
  if (m->source == NULL) {
    onnxshape__arena_release(m->arena); /* the model, its arrays and the decoded ModelProto */
    return;
  }
  onnxshape__map source = *m->source; /* in the arena */
  onnxshape__arena_release(m->arena);
  onnxshape__unmap(&source);
}

size_t onnxshape_model_input_count(const onnxshape_model *m) { return m ? m->g.n_inputs : 0; }
const char *onnxshape_model_input_name(const onnxshape_model *m, size_t i) {
  return m && i < m->g.n_inputs ? m->g.inputs[i].name : NULL;
}
int onnxshape_model_input_has_default(const onnxshape_model *m, size_t i) {
  return m && i < m->g.n_inputs && m->slot[m->g.input_slots[i]]->init != NULL;
}
size_t onnxshape_model_output_count(const onnxshape_model *m) { return m ? m->g.n_outputs : 0; }
const char *onnxshape_model_output_name(const onnxshape_model *m, size_t i) {
  return m && i < m->g.n_outputs ? m->g.outputs[i].name : NULL;
}
int64_t onnxshape_model_opset(const onnxshape_model *m) { return m ? m->opset : 0; }

static onnxshape_status load_opset(onnxshape_model *m, const Onnx__ModelProto *mp,
                                   onnxshape_diag *diag) {
  int found = 0;
  for (size_t i = 0; i < mp->n_opset_import; i++) {
    const Onnx__OperatorSetIdProto *o = mp->opset_import[i];
    if (!is_default_domain(o->domain)) continue;
    if (found) return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_MODEL, "the default domain is imported twice", ONNXSHAPE__NO_ARGS);
    found = 1;
    if (!o->has_version || o->version < 1 || o->version > ONNXSHAPE_MAX_OPSET) {
      return onnxshape__error(diag, ONNXSHAPE_ERR_UNSUPPORTED_OPSET,
                   "the model imports default-domain opset {}; this build supports 1 to {}", ONNXSHAPE__ARGS(ARG_INT(o->version), ARG_INT(ONNXSHAPE_MAX_OPSET)));
    }
    m->opset = o->version;
  }
  if (!found) return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_MODEL, "the model has no default-domain opset import", ONNXSHAPE__NO_ARGS);
  return ONNXSHAPE_OK;
}

onnxshape_status onnxshape__model_decode(const void *bytes, size_t len, const char *shown,
                                         int borrow, onnxshape__arena **arena, const void **proto,
                                         onnxshape_diag *diag) {
  ProtobufCMessage *msg;
  int limited;
  onnxshape_status st =
      onnxshape__pb_decode(&onnx__model_proto__descriptor, bytes != NULL ? bytes : (const void *)"",
                           len, onnxshape__memory_limit(len), borrow, arena, &msg, &limited);
  if (st == ONNXSHAPE_OK && (*arena)->nul_name != NULL) {
    st = onnxshape__pb_nul_name(NULL, (*arena)->nul_name, (*arena)->nul_name_len,
                                ONNXSHAPE_ERR_INVALID_MODEL, diag);
    onnxshape__arena_release(*arena);
    *arena = NULL;
    return st;
  }
  if (st == ONNXSHAPE_ERR_MALFORMED) {
    if (shown != NULL) {
      return onnxshape__error(diag, st, "'{}' is not a valid ONNX model (protobuf decoding failed)",
                   ONNXSHAPE__ARGS(ARG_NAME(shown)));
    }
    return onnxshape__error(diag, st, "not a valid ONNX model (protobuf decoding failed)", ONNXSHAPE__NO_ARGS);
  }
  if (st != ONNXSHAPE_OK && limited) {
    return onnxshape__error(diag, st,
                 "decoding the model ({} bytes) would take more than {} MiB of memory "
                 "(" ONNXSHAPE__LIMIT_TEXT ")",
                 ONNXSHAPE__ARGS(ARG_UINT(len), ARG_UINT(onnxshape__memory_limit(len) >> 20)));
  }
  if (st != ONNXSHAPE_OK) return onnxshape__out_of_memory(NULL, NULL, diag);
  *proto = msg;
  return ONNXSHAPE_OK;
}

onnxshape_status onnxshape__model_load(const void *proto, onnxshape__arena *a,
                                       onnxshape__extdir *ext, size_t len, onnxshape__map *source,
                                       onnxshape_model **out, onnxshape_diag *diag) {
  const Onnx__ModelProto *mp = proto;
  onnxshape_model *m = onnxshape__arena_alloc(a, sizeof *m); /* zeroed */
  if (m == NULL) {
    onnxshape__arena_release(a);
    return out_of_memory(m, diag);
  }
  m->arena = a;
  m->proto = (void *)(uintptr_t)proto;
  m->ext = ext;
  m->source_len = len;
  const char *caller_node = diag->node;
  onnxshape_status st;
  if (mp->ir_version < 3) {
    st = onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_MODEL,
               "ir_version {} is not supported (opset imports need IR version 3 or later)",
               ONNXSHAPE__ARGS(ARG_INT(mp->ir_version)));
  } else if (mp->graph == NULL) {
    st = onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_MODEL, "the model has no graph", ONNXSHAPE__NO_ARGS);
  } else {
    st = load_opset(m, mp, diag);
    m->g.path = "";
    m->g.opset = m->opset;
    if (st == ONNXSHAPE_OK) st = onnxshape__load_functions(m, mp, diag);
    if (st == ONNXSHAPE_OK) st = onnxshape__load_graph(m, &m->g, mp->graph, diag);
    if (st == ONNXSHAPE_OK) st = onnxshape__index_slots(m, diag);
  }
  diag->node = caller_node;
  m->ext = NULL;
  if (st != ONNXSHAPE_OK) {
    onnxshape_model_free(m);
    return st;
  }
  if (source != NULL && source->base != NULL) {
    m->source = model_alloc(m, 1, sizeof *m->source);
    if (m->source == NULL) {
      onnxshape_model_free(m);
      return out_of_memory(m, diag);
    }
    *m->source = *source;
    memset(source, 0, sizeof *source);
    source->fd = -1;
  }
  *out = m;
  return ONNXSHAPE_OK;
}

onnxshape_status onnxshape_model_parse(const void *bytes, size_t len, const char *base_dir,
                                       onnxshape_model **out, onnxshape_diag *diag) {
  if (out == NULL || (bytes == NULL && len > 0)) {
    return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_ARGUMENT, "model_parse: NULL argument", ONNXSHAPE__NO_ARGS);
  }
  onnxshape_diag local;
  if (diag == NULL) {
    onnxshape_diag_init(&local);
    diag = &local;
  }
  onnxshape__arena *a = NULL;
  const void *proto = NULL;
  onnxshape_status st = onnxshape__model_decode(bytes, len, NULL, 0, &a, &proto, diag);
  if (st != ONNXSHAPE_OK) return st;
  onnxshape__extdir ext = {base_dir, -1, NULL, 0, 0};
  st = onnxshape__model_load(proto, a, &ext, len, NULL, out, diag);
  onnxshape__extdir_close(&ext);
  if (st == ONNXSHAPE_OK) onnxshape__diag_clear(diag);
  return st;
}

#ifndef ONNXSHAPE_MODEL_MAP_MIN
#define ONNXSHAPE_MODEL_MAP_MIN (64u << 10)
#endif
size_t onnxshape__model_map_min = ONNXSHAPE_MODEL_MAP_MIN;

onnxshape_status onnxshape__model_file(const char *path, onnxshape__model_source *src,
                                       onnxshape__extdir *ext, onnxshape_diag *diag) {
  const char *base;
  char *dir;
  memset(src, 0, sizeof *src);
  src->map.fd = -1;
  memset(ext, 0, sizeof *ext);
  ext->fd = -1;
  onnxshape_status st = onnxshape__parent_name(path, &base, &dir, diag);
  if (st != ONNXSHAPE_OK) return st;
  ext->path = dir;
  int fd;
  struct stat sb;
  /* By its path; the directory is opened only for external data, and must
   * then still hold this file (onnxshape__extdir). */
  st = onnxshape__open_file(AT_FDCWD, path, path, &fd, &sb, diag);
  if (st == ONNXSHAPE_OK) {
    ext->file = base;
    ext->dev = sb.st_dev;
    ext->ino = sb.st_ino;
  }
  if (st == ONNXSHAPE_OK && (uint64_t)sb.st_size >= onnxshape__model_map_min &&
      (uint64_t)sb.st_size <= SIZE_MAX) {
    /* Mapped: decoding then reads only the pages that hold message fields,
     * never those of tensor data (docs/performance.md). */
    st = onnxshape__map_region(fd, &sb, 0, (size_t)sb.st_size, path, &src->map, diag);
    src->data = src->map.data;
    src->len = (size_t)sb.st_size;
  } else if (st == ONNXSHAPE_OK) {
    st = onnxshape__read_all(fd, &sb, path, &src->bytes, &src->len, diag);
    src->data = src->bytes;
    close(fd);
  }
  if (st != ONNXSHAPE_OK) {
    onnxshape__extdir_close(ext);
    onnxshape__free(dir);
    ext->path = NULL;
  }
  return st;
}

onnxshape_status onnxshape__model_file_decoded(const char *path, onnxshape__decoded_fn use,
                                               void *ctx, onnxshape_diag *diag) {
  onnxshape_diag local;
  if (diag == NULL) {
    onnxshape_diag_init(&local);
    diag = &local;
  }
  onnxshape__model_source src;
  onnxshape__extdir ext;
  onnxshape_status st = onnxshape__model_file(path, &src, &ext, diag);
  if (st != ONNXSHAPE_OK) return st;
  onnxshape__arena *a;
  const void *proto;
  int mapped = src.map.base != NULL;
  st = onnxshape__model_decode(src.data, src.len, path, mapped, &a, &proto, diag);
  /* A mapped file cut short while it was decoded reads as zeros (or raises
   * SIGBUS): that is this error, not a decoding error or a wrong model. */
  onnxshape_status now = onnxshape__map_check(&src.map, diag);
  if (now != ONNXSHAPE_OK && st == ONNXSHAPE_OK) onnxshape__arena_release(a);
  if (now != ONNXSHAPE_OK) st = now;
  onnxshape__free(src.bytes); /* a model read into memory holds copies of what it needs */
  if (st == ONNXSHAPE_OK) {
    st = use(proto, a, &ext, src.len, &src.map, ctx, diag);
    /* Loading reads the mapping too (subgraphs, functions and sparse
     * tensors held as bytes): a failure there may be the file's change. */
    if (st != ONNXSHAPE_OK && onnxshape__map_check(&src.map, diag) != ONNXSHAPE_OK) {
      st = ONNXSHAPE_ERR_IO;
    }
  }
  onnxshape__unmap(&src.map); /* unless a loaded model took it */
  onnxshape__extdir_close(&ext);
  onnxshape__free((void *)(uintptr_t)ext.path);
  return st;
}

static onnxshape_status load_decoded(const void *proto, onnxshape__arena *a,
                                     onnxshape__extdir *ext, size_t len, onnxshape__map *source,
                                     void *out, onnxshape_diag *diag) {
  return onnxshape__model_load(proto, a, ext, len, source, (onnxshape_model **)out, diag);
}

onnxshape_status onnxshape_model_read_file(const char *path, onnxshape_model **out,
                                           onnxshape_diag *diag) {
  if (path == NULL || out == NULL) {
    return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_ARGUMENT, "model_read_file: NULL argument", ONNXSHAPE__NO_ARGS);
  }
  onnxshape_status st = onnxshape__model_file_decoded(path, load_decoded, out, diag);
  if (st == ONNXSHAPE_OK) onnxshape__diag_clear(diag);
  return st;
}

onnxshape_status onnxshape_model_check_files(const onnxshape_model *m, onnxshape_diag *diag) {
  if (m == NULL) {
    return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_ARGUMENT, "model_check_files: NULL argument", ONNXSHAPE__NO_ARGS);
  }
  if (m->source != NULL) {
    onnxshape_status st = onnxshape__map_check(m->source, diag);
    if (st != ONNXSHAPE_OK) return st;
  }
  for (size_t k = 0; k < m->n_graphs; k++) {
    const model_graph *g = m->graphs[k];
    for (size_t i = 0; i < g->n_inits; i++) {
      onnxshape_status st = onnxshape__map_check(&g->inits[i]->map, diag);
      if (st != ONNXSHAPE_OK) return st;
    }
    for (size_t i = 0; i < g->n_nodes; i++) {
      const graph_node *n = &g->nodes[i];
      if (n->constant == NULL) continue;
      onnxshape_status st = onnxshape__map_check(&n->constant->map, diag);
      if (st != ONNXSHAPE_OK) return st;
    }
  }
  onnxshape__diag_clear(diag);
  return ONNXSHAPE_OK;
}
