# SPDX-License-Identifier: Apache-2.0
"""The C library through ctypes: loading it, the structs of include/onnxshape.h
and include/onnxshape_kernels.h, and the prototypes of the functions the
package calls. Nothing here knows a rule of an operator: every decision is
the library's."""
import ctypes
import os

_HERE = os.path.dirname(os.path.abspath(__file__))

#: Environment variable naming a libonnxshape.so to load instead of the one
#: inside the package (the build tree's tests use it).
LIBRARY_ENV = "ONNXSHAPE_LIBRARY"


def _library_path():
    given = os.environ.get(LIBRARY_ENV)
    if given:
        return given
    return os.path.join(_HERE, "libonnxshape.so")


def _load():
    path = _library_path()
    if not os.path.isfile(path):
        raise ImportError(
            f"onnxshape: the C library {path} is missing. Install the package with "
            f"`make python` or `pip install ./python` (docs/python.md), or set "
            f"{LIBRARY_ENV} to a built libonnxshape.so")
    try:
        return ctypes.CDLL(path)
    except OSError as e:
        raise ImportError(f"onnxshape: cannot load the C library {path}: {e}") from e


lib = _load()
LIBRARY_PATH = _library_path()

c_int64_p = ctypes.POINTER(ctypes.c_int64)
c_char_p_p = ctypes.POINTER(ctypes.c_char_p)
DIAG_SIZE = 320  # ONNXSHAPE_DIAG_SIZE


class Diag(ctypes.Structure):
    _fields_ = [("node", ctypes.c_char_p), ("message", ctypes.c_char * DIAG_SIZE)]


class Tensor(ctypes.Structure):
    _fields_ = [("type", ctypes.c_int32), ("rank", ctypes.c_size_t), ("dims", c_int64_p),
                ("data", ctypes.c_void_p), ("data_bytes", ctypes.c_size_t)]


class String(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("length", ctypes.c_size_t)]


class TypeInfo(ctypes.Structure):
    _fields_ = [("type", ctypes.c_int32), ("name", ctypes.c_char_p), ("bits", ctypes.c_uint32)]


class ShapeAttrs(ctypes.Structure):
    _fields_ = [("has_start", ctypes.c_int), ("start", ctypes.c_int64),
                ("has_end", ctypes.c_int), ("end", ctypes.c_int64)]


class ReshapeAttrs(ctypes.Structure):
    _fields_ = [("has_allowzero", ctypes.c_int), ("allowzero", ctypes.c_int64)]


class OpVersion(ctypes.Structure):
    _fields_ = [("op", ctypes.c_int), ("op_name", ctypes.c_char_p),
                ("since_version", ctypes.c_int), ("type_mask", ctypes.c_uint32),
                ("num_inputs", ctypes.c_size_t), ("num_attrs", ctypes.c_size_t),
                ("attrs", ctypes.c_void_p)]


class Binding(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("tensor", ctypes.POINTER(Tensor))]


class Elem(ctypes.Structure):
    _fields_ = [("known", ctypes.c_int), ("value", ctypes.c_int64), ("param", ctypes.c_char_p)]


class ValueInfo(ctypes.Structure):
    pass


# Appended members (origin onwards) are read only when `size` covers them.
ValueInfo._fields_ = [
    ("size", ctypes.c_size_t), ("name", ctypes.c_char_p), ("type", ctypes.c_int32),
    ("rank_known", ctypes.c_int), ("rank", ctypes.c_size_t), ("dims", c_int64_p),
    ("params", c_char_p_p), ("value", ctypes.POINTER(Tensor)),
    ("node", ctypes.c_char_p), ("op", ctypes.c_char_p), ("version", ctypes.c_int),
    ("graph", ctypes.c_char_p), ("domain", ctypes.c_char_p),
    ("n_values", ctypes.c_size_t), ("values", ctypes.POINTER(Elem)),
    ("origin", ctypes.c_int), ("declaration_used", ctypes.c_int),
    ("n_inputs", ctypes.c_size_t), ("inputs", ctypes.POINTER(ctypes.c_size_t)),
    ("kind", ctypes.c_int), ("element", ctypes.POINTER(ValueInfo)), ("length", Elem),
    ("holds", ctypes.c_int)]

KIND_TENSOR, KIND_SEQUENCE, KIND_OPTIONAL = 0, 1, 2  # onnxshape_value_kind


class InputDims(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("rank", ctypes.c_size_t), ("dims", c_int64_p)]


class DimBinding(ctypes.Structure):
    _fields_ = [("symbol", ctypes.c_char_p), ("value", ctypes.c_int64)]


class InferOptions(ctypes.Structure):
    _fields_ = [("size", ctypes.c_size_t), ("inputs", ctypes.POINTER(InputDims)),
                ("n_inputs", ctypes.c_size_t), ("dims", ctypes.POINTER(DimBinding)),
                ("n_dims", ctypes.c_size_t), ("keep_going", ctypes.c_int)]


class OpCount(ctypes.Structure):
    _fields_ = [("domain", ctypes.c_char_p), ("op", ctypes.c_char_p), ("count", ctypes.c_size_t)]


class InferSummary(ctypes.Structure):
    _fields_ = [("size", ctypes.c_size_t), ("shape_nodes", ctypes.c_size_t),
                ("reshape_nodes", ctypes.c_size_t), ("size_nodes", ctypes.c_size_t),
                ("resolved", ctypes.c_size_t), ("partial", ctypes.c_size_t),
                ("unknown", ctypes.c_size_t), ("n_not_evaluated", ctypes.c_size_t),
                ("not_evaluated", ctypes.POINTER(OpCount)),
                ("not_evaluated_more", ctypes.c_size_t), ("work_used", ctypes.c_uint64),
                ("work_limit", ctypes.c_uint64), ("out_of_work", ctypes.c_size_t),
                ("failures", ctypes.c_size_t)]


class Finding(ctypes.Structure):
    # domain and node_index are appended by a later version of the library:
    # they are read only when the library's `size` covers them.
    _fields_ = [("size", ctypes.c_size_t), ("rule", ctypes.c_int), ("id", ctypes.c_char_p),
                ("severity", ctypes.c_int), ("graph", ctypes.c_char_p),
                ("node", ctypes.c_char_p), ("op", ctypes.c_char_p), ("version", ctypes.c_int),
                ("message", ctypes.c_char_p), ("domain", ctypes.c_char_p),
                ("node_index", ctypes.c_size_t)]


def covers(struct, field):
    """1 when the library's struct (its leading `size` member) holds `field`:
    the header's rule for structs that later versions append to."""
    desc = getattr(type(struct), field)
    return struct.size >= desc.offset + desc.size


# Opaque handles.
Model_p = ctypes.c_void_p
Inference_p = ctypes.c_void_p
Report_p = ctypes.c_void_p
Result_p = ctypes.c_void_p

S = ctypes.c_int  # onnxshape_status
_P = ctypes.POINTER


def _proto(name, restype, *argtypes):
    f = getattr(lib, name)
    f.restype = restype
    f.argtypes = list(argtypes)


_proto("onnxshape_status_name", ctypes.c_char_p, ctypes.c_int)
_proto("onnxshape_status_text", ctypes.c_char_p, ctypes.c_int)
_proto("onnxshape_diag_init", None, _P(Diag))
_proto("onnxshape_type_get", _P(TypeInfo), ctypes.c_int32)
_proto("onnxshape_type_name", ctypes.c_char_p, ctypes.c_int32)
_proto("onnxshape_type_storage_bytes", S, ctypes.c_int32, ctypes.c_int64, _P(ctypes.c_size_t))
_proto("onnxshape_op_version_get", _P(OpVersion), ctypes.c_int, ctypes.c_int)
_proto("onnxshape_shape_run", S, ctypes.c_int, _P(Tensor), _P(ShapeAttrs), c_int64_p,
       ctypes.c_size_t, _P(ctypes.c_size_t), _P(Diag))
_proto("onnxshape_shape_infer", S, ctypes.c_int, ctypes.c_int32, ctypes.c_size_t,
       _P(ShapeAttrs), _P(ctypes.c_size_t), _P(Diag))
_proto("onnxshape_size_run", S, ctypes.c_int, _P(Tensor), c_int64_p, _P(Diag))
_proto("onnxshape_reshape_check_shape_input", S, ctypes.c_int, ctypes.c_int32, ctypes.c_size_t,
       _P(Diag))
_proto("onnxshape_reshape_infer", S, ctypes.c_int, ctypes.c_int32, c_int64_p, ctypes.c_size_t,
       c_int64_p, ctypes.c_size_t, _P(ReshapeAttrs), c_int64_p, ctypes.c_size_t, _P(Diag))
_proto("onnxshape_reshape_run_view", S, ctypes.c_int, _P(Tensor), c_int64_p, ctypes.c_size_t,
       _P(ReshapeAttrs), c_int64_p, ctypes.c_size_t, _P(Tensor), _P(Diag))

_proto("onnxshape_model_read_file", S, ctypes.c_char_p, _P(Model_p), _P(Diag))
_proto("onnxshape_model_parse", S, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_char_p,
       _P(Model_p), _P(Diag))
_proto("onnxshape_model_free", None, Model_p)
_proto("onnxshape_model_input_count", ctypes.c_size_t, Model_p)
_proto("onnxshape_model_input_name", ctypes.c_char_p, Model_p, ctypes.c_size_t)
_proto("onnxshape_model_input_has_default", ctypes.c_int, Model_p, ctypes.c_size_t)
_proto("onnxshape_model_check_runnable", S, Model_p, _P(Diag))
_proto("onnxshape_model_run", S, Model_p, _P(Binding), ctypes.c_size_t, _P(Result_p), _P(Diag))
_proto("onnxshape_result_count", ctypes.c_size_t, Result_p)
_proto("onnxshape_result_name", ctypes.c_char_p, Result_p, ctypes.c_size_t)
_proto("onnxshape_result_tensor", _P(Tensor), Result_p, ctypes.c_size_t)
_proto("onnxshape_result_free", None, Result_p)

_proto("onnxshape_infer_options_init", None, _P(InferOptions))
_proto("onnxshape_model_infer_with", S, Model_p, _P(InferOptions), _P(Inference_p), _P(Diag))
_proto("onnxshape_inference_summary", _P(InferSummary), Inference_p)
_proto("onnxshape_inference_count", ctypes.c_size_t, Inference_p)
_proto("onnxshape_inference_get", _P(ValueInfo), Inference_p, ctypes.c_size_t)
_proto("onnxshape_inference_failure", ctypes.c_char_p, Inference_p, ctypes.c_size_t, _P(S))
_proto("onnxshape_inference_free", None, Inference_p)
_proto("onnxshape_inference_write_model", S, Model_p, Inference_p, ctypes.c_char_p, ctypes.c_char_p,
       _P(Diag))
_proto("onnxshape_inference_write_model_bytes", S, Model_p, Inference_p, ctypes.c_void_p,
       ctypes.c_size_t, ctypes.c_char_p, _P(Diag))

_proto("onnxshape_model_check_file", S, ctypes.c_char_p, ctypes.c_int, _P(Report_p), _P(Diag))
_proto("onnxshape_model_check", S, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_int,
       _P(Report_p), _P(Diag))
_proto("onnxshape_profile_count", ctypes.c_size_t, Report_p)
_proto("onnxshape_profile_finding", _P(Finding), Report_p, ctypes.c_size_t)
_proto("onnxshape_profile_free", None, Report_p)
_proto("onnxshape_check_rule", ctypes.c_char_p, ctypes.c_size_t, _P(ctypes.c_int))


def new_diag():
    d = Diag()
    lib.onnxshape_diag_init(ctypes.byref(d))
    return d


def text(b):
    """A C string as Python str (None stays None). Names that are not UTF-8
    keep their bytes as surrogate escapes, so nothing is lost."""
    if b is None:
        return None
    return b.decode("utf-8", "surrogateescape")


def diag_message(d):
    return text(d.message)
