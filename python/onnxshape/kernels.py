# SPDX-License-Identifier: Apache-2.0
"""Shape, Size and Reshape on NumPy arrays and raw buffers, through the C
kernels (onnxshape_shape_run, onnxshape_size_run, onnxshape_reshape_run_view).
Every rule (versions, attributes, types, the target's -1 and 0) is the
library's; this module only marshals arguments and results."""
import ctypes
import operator
from dataclasses import dataclass
from typing import Tuple, Union

import numpy as np

from . import _lib
from .errors import check
from .types import ElemType, as_elem_type, elem_type_of, type_bits

LATEST_VERSION = 25  #: the newest version of Shape, Reshape and Size

_INT_MAX = 2**31 - 1
_I64 = (-2**63, 2**63 - 1)


@dataclass(frozen=True)
class RawTensor:
    """A tensor NumPy cannot hold (bfloat16, the float8 types, packed 4- and
    2-bit types, or any other type) as ONNX storage: ``data`` holds the
    little-endian, row-major bytes (sub-byte elements packed, the first in the
    low bits), ``dims`` the dims, ``elem_type`` the ONNX type.
    ``RawTensor(data, dims, elem_type)`` takes any contiguous buffer (bytes,
    bytearray, memoryview, a NumPy array) without copying it."""
    data: memoryview
    dims: Tuple[int, ...]
    elem_type: Union[ElemType, int]

    def __init__(self, data, dims, elem_type):
        mv = memoryview(data)
        if not mv.c_contiguous:
            raise ValueError("onnxshape: a RawTensor's data must be a contiguous buffer")
        object.__setattr__(self, "data", mv.cast("B") if mv.format != "B" or mv.ndim != 1
                           else mv)
        object.__setattr__(self, "dims", tuple(_int64(d, "a dim") for d in _seq(dims, "dims")))
        object.__setattr__(self, "elem_type", as_elem_type(elem_type))

    @property
    def nbytes(self):
        return self.data.nbytes

    def tobytes(self):
        return self.data.tobytes()


def _seq(v, what):
    if isinstance(v, (str, bytes)) or not hasattr(v, "__iter__"):
        raise TypeError(f"onnxshape: {what} must be a sequence of integers, "
                        f"not {type(v).__name__}")
    return list(v)


def _int64(v, what):
    if isinstance(v, (bool, np.bool_)):
        raise TypeError(f"onnxshape: {what} must be an integer, not bool")
    try:
        i = operator.index(v)
    except TypeError:
        raise TypeError(f"onnxshape: {what} must be an integer, not {type(v).__name__}") from None
    if not _I64[0] <= i <= _I64[1]:
        raise ValueError(f"onnxshape: {what} {i} does not fit int64")
    return i


def _version(v):
    if isinstance(v, (bool, np.bool_)):
        raise TypeError("onnxshape: version must be an integer, not bool")
    try:
        i = operator.index(v)
    except TypeError:
        raise TypeError(f"onnxshape: version must be an integer, not {type(v).__name__}") from None
    if not -_INT_MAX - 1 <= i <= _INT_MAX:
        raise ValueError(f"onnxshape: version {i} does not fit a C int")
    return i


def _check_strings(a):
    if a.dtype.kind == "O":
        for e in a.flat:
            if not isinstance(e, (str, bytes)):
                raise TypeError("onnxshape: an object array is a string tensor and holds only "
                                f"str or bytes, not {type(e).__name__}")


class _In:
    """One data input, ready for the C kernels: its type, dims (an int64
    array) and storage; and the object a Reshape result is a view of."""

    def __init__(self, x, elem_type, need_data):
        self.raw = isinstance(x, RawTensor)
        if self.raw:
            if elem_type is not None:
                raise TypeError("onnxshape: a RawTensor carries its elem_type; do not pass "
                                "elem_type= with it")
            self.type = x.elem_type
            if self.type == ElemType.STRING:
                raise TypeError("onnxshape: a string tensor is a NumPy array of str or bytes "
                                "(dtype object, U or S), not a RawTensor")
            self.dims = np.array(x.dims, dtype=np.int64)
            self.array = None
            self.bytes = np.frombuffer(x.data, dtype=np.uint8) if x.nbytes else None
            self.source = x
        else:
            a = x if isinstance(x, np.ndarray) else np.asarray(x)
            if elem_type is None:
                self.type = elem_type_of(a.dtype)
            else:
                self.type = as_elem_type(elem_type)
                self._check_storage(a)
            if self.type == ElemType.STRING:
                _check_strings(a)
            if need_data and not a.flags.c_contiguous:
                a = np.ascontiguousarray(a)  # as np.reshape does: the result then views a copy
            self.dims = np.array(a.shape, dtype=np.int64)
            self.array = a
            self.bytes = a
            self.source = a
        self.tensor = _lib.Tensor(int(self.type), len(self.dims),
                                  self.dims.ctypes.data_as(_lib.c_int64_p), None, 0)
        if need_data and self.bytes is not None and self.type != ElemType.STRING:
            self.tensor.data = self.bytes.ctypes.data
            self.tensor.data_bytes = self.bytes.nbytes

    def _check_storage(self, a):
        t = self.type
        if a.dtype.kind in "OUS":
            if t != ElemType.STRING:
                raise TypeError(f"onnxshape: a {a.dtype} array is a string tensor, not "
                                f"{_type_name(t)}")
            return
        own = elem_type_of(a.dtype)
        if t == own:
            return
        if isinstance(t, ElemType) and t.numpy_dtype is not None:
            raise TypeError(f"onnxshape: elem_type {t.name} has a NumPy dtype "
                            f"({t.numpy_dtype}); pass the array as that dtype "
                            f"(x.view(np.{t.numpy_dtype}) reinterprets), not as {a.dtype}")
        bits = type_bits(t)
        if bits is not None and bits != 8 * a.dtype.itemsize:
            hint = ("; pack its elements in bytes and pass a RawTensor(data, dims, elem_type)"
                    if bits < 8 else "")
            raise TypeError(f"onnxshape: elem_type {_type_name(t)} has {bits}-bit elements, "
                            f"but the array's dtype {a.dtype} has {8 * a.dtype.itemsize}-bit "
                            f"items{hint}")


def _type_name(t):
    return t.name if isinstance(t, ElemType) else str(t)


def shape(x, start=None, end=None, version=LATEST_VERSION, *, elem_type=None):
    """ONNX Shape: the dims of ``x`` (from ``start`` to ``end``, ONNX's slice,
    Shape-15 and later) as a 1-D int64 array. ``start``/``end`` None means the
    attribute is absent. ``x``: a NumPy array (or array-like), a RawTensor,
    or with ``elem_type=`` an array holding the storage of a type NumPy lacks.
    Raises an onnxshape.Error subclass with the library's message."""
    v = _version(version)
    inp = _In(x, elem_type, need_data=False)
    attrs = _lib.ShapeAttrs(start is not None, 0 if start is None else _int64(start, "start"),
                            end is not None, 0 if end is None else _int64(end, "end"))
    cap = len(inp.dims)
    out = np.empty(cap, dtype=np.int64)
    length = ctypes.c_size_t(0)
    d = _lib.new_diag()
    st = _lib.lib.onnxshape_shape_run(v, ctypes.byref(inp.tensor), ctypes.byref(attrs),
                                      out.ctypes.data_as(_lib.c_int64_p), cap,
                                      ctypes.byref(length), ctypes.byref(d))
    check(st, d)
    return out[:length.value].copy() if length.value < cap else out


def size(x, version=LATEST_VERSION, *, elem_type=None):
    """ONNX Size: the element count of ``x`` as a 0-D int64 array (inputs as
    for shape()). Raises an onnxshape.Error subclass (OverflowError past
    int64)."""
    v = _version(version)
    inp = _In(x, elem_type, need_data=False)
    out = ctypes.c_int64(0)
    d = _lib.new_diag()
    st = _lib.lib.onnxshape_size_run(v, ctypes.byref(inp.tensor), ctypes.byref(out),
                                     ctypes.byref(d))
    check(st, d)
    return np.array(out.value, dtype=np.int64)


def _target(shape_arg, v):
    """Reshape's target as a contiguous native int64 array, after the
    library's check of the `shape` input (int64, 1-D) where the version has
    that input; Reshape-1's target is its `shape` attribute (integers)."""
    if isinstance(shape_arg, np.ndarray):
        t = shape_arg
    else:
        t = np.asarray(shape_arg)
        if t.size == 0 and t.dtype.kind == "f":
            t = t.astype(np.int64)  # np.asarray([]) is float64
        elif t.dtype.kind in "uO" and all(isinstance(e, (int, np.integer))
                                         and not isinstance(e, (bool, np.bool_))
                                         for e in t.flat):
            for e in t.flat:
                _int64(e, "a target value")
            t = t.astype(np.int64)
    info = _lib.lib.onnxshape_op_version_get(2, v) if v > 0 else None
    has_input = bool(info) and info.contents.num_inputs == 2
    if has_input:
        try:
            tt = elem_type_of(t.dtype)
        except TypeError:
            raise TypeError(f"onnxshape: Reshape's shape must be an int64 tensor, not {t.dtype}") \
                from None
        d = _lib.new_diag()
        check(_lib.lib.onnxshape_reshape_check_shape_input(v, int(tt), t.ndim, ctypes.byref(d)),
              d)
    elif t.dtype.kind not in "iu" or t.ndim != 1:
        raise TypeError(f"onnxshape: Reshape's target must be a 1-D sequence of integers, "
                        f"not {t.ndim}-D {t.dtype}")
    elif t.dtype.kind == "u" and t.size and t.max() > _I64[1]:
        raise ValueError("onnxshape: a target value does not fit int64")
    return np.ascontiguousarray(t, dtype=np.int64)


def reshape(x, shape, allowzero=None, version=LATEST_VERSION, *, elem_type=None):
    """ONNX Reshape: ``x`` with the dims that ``shape`` resolves to (-1
    inferred, 0 copying the input's dim unless ``allowzero`` is 1; None means
    the attribute is absent). The result is a view sharing x's memory, as the
    kernel's is: an ndarray for an array input (a C-contiguous one; any other
    is first made contiguous, as np.reshape copies it), a RawTensor for a
    RawTensor. Raises an onnxshape.Error subclass with the library's
    message."""
    v = _version(version)
    inp = _In(x, elem_type, need_data=True)
    target = _target(shape, v)
    attrs = _lib.ReshapeAttrs(allowzero is not None,
                              0 if allowzero is None else _int64(allowzero, "allowzero"))
    n = len(target)
    out_dims = np.empty(n, dtype=np.int64)
    d = _lib.new_diag()
    tp = target.ctypes.data_as(_lib.c_int64_p)
    op = out_dims.ctypes.data_as(_lib.c_int64_p)
    if inp.type == ElemType.STRING:
        # Strings have no byte storage here (Python objects): the kernel's
        # rules on the dims alone, then NumPy's view of the same objects.
        st = _lib.lib.onnxshape_reshape_infer(v, int(inp.type),
                                              inp.dims.ctypes.data_as(_lib.c_int64_p),
                                              len(inp.dims), tp, n, ctypes.byref(attrs), op, n,
                                              ctypes.byref(d))
        check(st, d)
        return _view(inp.array, out_dims)
    out = _lib.Tensor()
    st = _lib.lib.onnxshape_reshape_run_view(v, ctypes.byref(inp.tensor), tp, n,
                                             ctypes.byref(attrs), op, n, ctypes.byref(out),
                                             ctypes.byref(d))
    check(st, d)
    if (out.data or 0) != (inp.tensor.data or 0):
        raise AssertionError("onnxshape: the kernel's view does not share the input's data")
    if inp.raw:
        return RawTensor(inp.source.data[:out.data_bytes], tuple(int(k) for k in out_dims),
                         inp.type)
    return _view(inp.array, out_dims)


def _view(a, dims):
    r = a.view()
    r.shape = tuple(int(k) for k in dims)  # a view, never a copy: `a` is C-contiguous
    return r
