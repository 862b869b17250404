# SPDX-License-Identifier: Apache-2.0
"""Shape, Size and Reshape against NumPy for every ONNX type NumPy has, and
on raw buffers for the others; views, versions and hostile arguments."""
import itertools

import numpy as np
import pytest

import onnxshape
from onnxshape import ElemType, RawTensor

NUMPY_TYPES = [t for t in ElemType if t.numpy_dtype is not None]
RAW_TYPES = [t for t in ElemType if t != ElemType.UNDEFINED and t.numpy_dtype is None]
SHAPES = [(), (0,), (5,), (2, 3, 4), (1, 0, 3), (3, 1, 1, 2)]
# Shape, Reshape and Size versions; the newest takes every type.
VERSIONS = {"Shape": [1, 13, 15, 19, 21, 23, 24, 25], "Size": [1, 13, 19, 21, 23, 24, 25],
            "Reshape": [1, 5, 13, 14, 19, 21, 23, 24, 25]}


def sample(t, shape):
    n = int(np.prod(shape, dtype=np.int64))
    if t == ElemType.STRING:
        return np.array([f"s{k}" for k in range(n)], dtype=object).reshape(shape)
    return np.arange(n).astype(t.numpy_dtype).reshape(shape)


def test_type_lists():
    assert len(NUMPY_TYPES) == 15 and len(RAW_TYPES) == 11
    assert [t.onnx_name for t in RAW_TYPES] == [
        "bfloat16", "float8e4m3fn", "float8e4m3fnuz", "float8e5m2", "float8e5m2fnuz", "uint4",
        "int4", "float4e2m1", "float8e8m0", "uint2", "int2"]
    assert [t.bits for t in RAW_TYPES] == [16, 8, 8, 8, 8, 4, 4, 4, 8, 2, 2]


@pytest.mark.parametrize("t", NUMPY_TYPES, ids=lambda t: t.name)
@pytest.mark.parametrize("dims", SHAPES, ids=str)
def test_shape_and_size_match_numpy(t, dims):
    x = sample(t, dims)
    s = onnxshape.shape(x)
    assert s.dtype == np.int64 and s.ndim == 1
    assert s.tolist() == list(np.shape(x))
    n = onnxshape.size(x)
    assert n.dtype == np.int64 and n.shape == ()
    assert int(n) == np.size(x)
    for start, end in itertools.product([None, -5, -1, 0, 1, 7], [None, -7, -1, 0, 2, 9]):
        assert onnxshape.shape(x, start, end).tolist() == list(x.shape[slice(start, end)])


@pytest.mark.parametrize("t", NUMPY_TYPES, ids=lambda t: t.name)
def test_reshape_matches_numpy_and_is_a_view(t):
    x = sample(t, (2, 3, 4))
    for target, want in [([4, -1], (4, 6)), ([24], (24,)), ([0, 12], (2, 12)),
                         ([2, 0, -1], (2, 3, 4)), ([1, 1, 24, 1], (1, 1, 24, 1))]:
        y = onnxshape.reshape(x, target)
        assert y.shape == want and y.dtype == x.dtype
        assert np.array_equal(y, np.reshape(x, want))
        if t != ElemType.STRING:
            assert y.__array_interface__["data"][0] == x.__array_interface__["data"][0]
        assert np.shares_memory(y, x) or t == ElemType.STRING and y.base is not None
    empty = sample(t, (0, 3))
    assert onnxshape.reshape(empty, [3, 0], allowzero=1).shape == (3, 0)
    assert onnxshape.reshape(empty, [0, 3, 1]).shape == (0, 3, 1)  # 0 copies dim 0
    one = sample(t, (1, 1))
    assert onnxshape.reshape(one, []).shape == ()


def test_reshape_view_writes_through():
    x = np.zeros((2, 6), dtype=np.int32)
    y = onnxshape.reshape(x, [3, 4])
    y[2, 3] = 7
    assert x[1, 5] == 7


@pytest.mark.parametrize("version", VERSIONS["Reshape"])
def test_every_reshape_version(version):
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    assert onnxshape.reshape(x, [3, -1], version=version).shape == (3, 2)


@pytest.mark.parametrize("op", ["Shape", "Size"])
def test_every_shape_and_size_version(op):
    x = np.zeros((2, 5), dtype=np.int8)
    for v in VERSIONS[op]:
        got = onnxshape.shape(x, version=v).tolist() if op == "Shape" else int(onnxshape.size(x, version=v))
        assert got == ([2, 5] if op == "Shape" else 10)
    for v in set(range(0, 27)) - set(VERSIONS[op]):
        with pytest.raises(onnxshape.UnknownVersionError):
            (onnxshape.shape if op == "Shape" else onnxshape.size)(x, version=v)


def test_types_a_version_refuses_come_from_the_library():
    # Shape-1 and Size-1 have no bfloat16; Shape-21 has int4 but not int2.
    bf = np.zeros(3, dtype=np.uint16)
    with pytest.raises(onnxshape.TypeNotAllowedError):
        onnxshape.size(bf, version=1, elem_type=ElemType.BFLOAT16)
    assert int(onnxshape.size(bf, version=13, elem_type=ElemType.BFLOAT16)) == 3
    two = RawTensor(b"\0", (4,), ElemType.INT2)
    with pytest.raises(onnxshape.TypeNotAllowedError):
        onnxshape.shape(two, version=23)
    assert onnxshape.shape(two, version=25).tolist() == [4]


@pytest.mark.parametrize("t", [t for t in RAW_TYPES if t.bits >= 8], ids=lambda t: t.name)
def test_raw_types_as_arrays_of_their_storage(t):
    storage = np.dtype(f"u{t.bits // 8}")
    x = np.arange(24, dtype=storage).reshape(2, 3, 4)
    assert onnxshape.shape(x, elem_type=t).tolist() == [2, 3, 4]
    assert int(onnxshape.size(x, elem_type=t.name.lower())) == 24
    y = onnxshape.reshape(x, [6, -1], elem_type=int(t))
    assert y.shape == (6, 4) and y.dtype == storage and np.shares_memory(x, y)
    assert np.array_equal(y.ravel(), x.ravel())


@pytest.mark.parametrize("t", RAW_TYPES, ids=lambda t: t.name)
def test_raw_types_as_raw_tensors(t):
    nbytes = (24 * t.bits + 7) // 8
    buf = bytearray(range(nbytes))
    x = RawTensor(buf, (2, 3, 4), t)
    assert onnxshape.shape(x).tolist() == [2, 3, 4]
    assert onnxshape.shape(x, start=-2).tolist() == [3, 4]
    assert int(onnxshape.size(x)) == 24
    y = onnxshape.reshape(x, [4, 0, -1], allowzero=0)
    assert y.dims == (4, 3, 2) and y.elem_type == t and y.nbytes == nbytes
    assert y.tobytes() == bytes(buf)
    buf[0] = 0xFF
    assert y.data[0] == 0xFF  # the same memory
    with pytest.raises(onnxshape.DataSizeError):
        onnxshape.reshape(RawTensor(buf[:nbytes - 1], (2, 3, 4), t), [24])


def test_non_contiguous_arrays():
    x = np.arange(24, dtype=np.int64).reshape(4, 6)[:, ::2]
    assert onnxshape.shape(x).tolist() == [4, 3] and int(onnxshape.size(x)) == 12
    y = onnxshape.reshape(x, [-1])
    assert np.array_equal(y, x.reshape(-1)) and not np.shares_memory(x, y)
    t = np.arange(6, dtype=np.float64).reshape(2, 3).T
    assert np.array_equal(onnxshape.reshape(t, [6]), t.reshape(6))
    with pytest.raises(ValueError, match="contiguous"):
        RawTensor(memoryview(bytearray(8))[::2], (4,), "int8")


def test_big_endian_and_array_likes():
    x = np.arange(6, dtype=">i4")
    y = onnxshape.reshape(x, [2, 3])
    assert y.dtype == np.dtype(">i4") and y.tolist() == [[0, 1, 2], [3, 4, 5]]
    assert onnxshape.shape([[1, 2, 3]]).tolist() == [1, 3]
    assert onnxshape.reshape([1, 2, 3, 4], (2, 2)).tolist() == [[1, 2], [3, 4]]
    assert onnxshape.reshape(np.zeros(4), np.array([2, 2], dtype=">i8")).shape == (2, 2)
    s = np.array(["a", "bc", "def", "g"])
    assert onnxshape.reshape(s, [2, 2]).tolist() == [["a", "bc"], ["def", "g"]]
    assert onnxshape.shape(np.array([b"x", b"y"])).tolist() == [2]


def test_hostile_arguments_raise_clear_errors():
    x = np.zeros((2, 3))
    with pytest.raises(TypeError, match="datetime64|has no ONNX element type"):
        onnxshape.shape(np.zeros(2, dtype="datetime64[s]"))
    with pytest.raises(TypeError, match="has no ONNX element type"):
        onnxshape.size(np.zeros(2, dtype=np.longdouble))
    with pytest.raises(TypeError, match="holds only str or bytes"):
        onnxshape.shape(np.array([1, "a"], dtype=object))
    with pytest.raises(TypeError, match="has a NumPy dtype"):
        onnxshape.shape(np.zeros(2, dtype=np.uint32), elem_type=ElemType.FLOAT)
    with pytest.raises(TypeError, match="16-bit elements"):
        onnxshape.shape(np.zeros(2, dtype=np.uint8), elem_type="bfloat16")
    with pytest.raises(TypeError, match="RawTensor"):
        onnxshape.shape(np.zeros(2, dtype=np.uint8), elem_type="uint4")
    with pytest.raises(ValueError, match="unknown element type name"):
        onnxshape.shape(x, elem_type="float9")
    with pytest.raises(TypeError, match="version must be an integer"):
        onnxshape.size(x, version="25")
    with pytest.raises(TypeError, match="version must be an integer"):
        onnxshape.size(x, version=25.0)
    with pytest.raises(ValueError, match="does not fit a C int"):
        onnxshape.size(x, version=2**40)
    with pytest.raises(ValueError, match="start 9223372036854775808 does not fit int64"):
        onnxshape.shape(x, start=2**63)
    with pytest.raises(ValueError, match="does not fit int64"):
        onnxshape.reshape(x, [2**64, 1])
    with pytest.raises(onnxshape.TypeNotAllowedError,
                       match=r"^Reshape-25: the 'shape' input is string; it must be int64$"):
        onnxshape.reshape(x, ["a", "b"])
    with pytest.raises(TypeError, match="must be an int64 tensor, not datetime64"):
        onnxshape.reshape(x, np.zeros(1, dtype="datetime64[s]"))
    with pytest.raises(TypeError, match="integers"):
        onnxshape.reshape(x, [6.0], version=1)
    with pytest.raises(TypeError, match="not a RawTensor"):
        onnxshape.shape(RawTensor(b"", (0,), "string"))


def test_huge_and_negative_dims():
    huge = RawTensor(b"", (2**40, 2**40), ElemType.FLOAT)
    assert onnxshape.shape(huge).tolist() == [2**40, 2**40]
    with pytest.raises(onnxshape.OverflowError) as info:
        onnxshape.size(huge)
    assert info.value.message == ("Size-25: data element count overflows int64 at "
                                  "dims[1] = 1099511627776")
    with pytest.raises(onnxshape.Error):
        onnxshape.reshape(huge, [-1])
    with pytest.raises(onnxshape.NegativeDimError):
        onnxshape.size(RawTensor(b"", (2, -3), "int8"))
    with pytest.raises(onnxshape.CountMismatchError):
        onnxshape.reshape(np.zeros(6), [2**31, 2**31])
