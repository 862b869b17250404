# SPDX-License-Identifier: Apache-2.0
"""Element types: the ONNX TensorProto.DataType numbers, their names and bits
as the library gives them, and how NumPy dtypes map to them."""
import enum

import numpy as np

from . import _lib


class ElemType(enum.IntEnum):
    """ONNX element types (TensorProto.DataType), as onnxshape_type."""
    UNDEFINED = 0
    FLOAT = 1
    UINT8 = 2
    INT8 = 3
    UINT16 = 4
    INT16 = 5
    INT32 = 6
    INT64 = 7
    STRING = 8
    BOOL = 9
    FLOAT16 = 10
    DOUBLE = 11
    UINT32 = 12
    UINT64 = 13
    COMPLEX64 = 14
    COMPLEX128 = 15
    BFLOAT16 = 16
    FLOAT8E4M3FN = 17
    FLOAT8E4M3FNUZ = 18
    FLOAT8E5M2 = 19
    FLOAT8E5M2FNUZ = 20
    UINT4 = 21
    INT4 = 22
    FLOAT4E2M1 = 23
    FLOAT8E8M0 = 24
    UINT2 = 25
    INT2 = 26

    @property
    def onnx_name(self):
        """The library's lower-case name, e.g. "float8e4m3fn"."""
        return _lib.text(_lib.lib.onnxshape_type_name(int(self)))

    @property
    def bits(self):
        """Bits per element in ONNX storage, as the library gives them."""
        info = _lib.lib.onnxshape_type_get(int(self))
        if not info:
            raise ValueError(f"{self.name} has no storage")
        return int(info.contents.bits)

    @property
    def numpy_dtype(self):
        """The NumPy dtype of this type, or None for the types NumPy lacks
        (bfloat16, the float8, float4, 4-bit and 2-bit types: pass those as raw
        buffers with elem_type=)."""
        return _TO_NUMPY.get(self)


# The ONNX type of each NumPy dtype (by kind and item size; any byte order).
_FROM_NUMPY = {
    ("b", 1): ElemType.BOOL,
    ("i", 1): ElemType.INT8, ("u", 1): ElemType.UINT8,
    ("i", 2): ElemType.INT16, ("u", 2): ElemType.UINT16,
    ("i", 4): ElemType.INT32, ("u", 4): ElemType.UINT32,
    ("i", 8): ElemType.INT64, ("u", 8): ElemType.UINT64,
    ("f", 2): ElemType.FLOAT16, ("f", 4): ElemType.FLOAT, ("f", 8): ElemType.DOUBLE,
    ("c", 8): ElemType.COMPLEX64, ("c", 16): ElemType.COMPLEX128,
}
_TO_NUMPY = {t: np.dtype(k + str(n)) if k != "b" else np.dtype(np.bool_)
             for (k, n), t in _FROM_NUMPY.items()}
_TO_NUMPY[ElemType.STRING] = np.dtype(object)


def elem_type_of(dtype):
    """The ONNX type of a NumPy dtype: STRING for object, str (U) and bytes
    (S) arrays; TypeError for a dtype ONNX has no type for."""
    dtype = np.dtype(dtype)
    if dtype.kind in "OUS":
        return ElemType.STRING
    t = _FROM_NUMPY.get((dtype.kind, dtype.itemsize))
    if t is None:
        raise TypeError(f"onnxshape: NumPy dtype {dtype} has no ONNX element type "
                        f"(docs/python.md, \"Types\")")
    return t


def as_elem_type(value):
    """The element type number of an ElemType, a number or a name ("bfloat16"
    or "BFLOAT16"): an ElemType when ONNX has the number, else the int as
    given, which the library then refuses with its own error
    (UnknownTypeError)."""
    if isinstance(value, ElemType):
        return value
    if isinstance(value, str):
        try:
            return ElemType[value.upper()]
        except KeyError:
            raise ValueError(f"onnxshape: unknown element type name {value!r}") from None
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"onnxshape: elem_type must be an ElemType, a number or a name, "
                        f"not {type(value).__name__}")
    value = int(value)
    if not -2**31 <= value < 2**31:
        raise ValueError(f"onnxshape: element type {value} does not fit int32")
    try:
        return ElemType(value)
    except ValueError:
        return value


def type_bits(t):
    """Bits per element of type number t as the library gives them, or None
    for a number that is no type."""
    info = _lib.lib.onnxshape_type_get(int(t))
    return int(info.contents.bits) if info else None
