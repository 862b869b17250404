# SPDX-License-Identifier: Apache-2.0
"""Statuses and errors: the Python lists are the library's, and invalid
calls raise the class of their status with the library's exact message."""
import os
import re

import numpy as np
import pytest

import onnxshape
from onnxshape import Status, errors

HEADER = os.path.join(os.path.dirname(__file__), "..", "..", "include", "onnxshape_kernels.h")


def test_uses_the_library_named_by_the_environment():
    given = os.environ.get("ONNXSHAPE_LIBRARY")
    if given:
        assert onnxshape.LIBRARY_PATH == given
    else:
        assert onnxshape.LIBRARY_PATH == os.path.join(os.path.dirname(onnxshape.__file__),
                                                      "libonnxshape.so")


def test_status_enum_is_the_header_list():
    with open(HEADER) as f:
        listed = re.findall(r"^\s*X\((\w+), (\d+), \"", f.read(), re.M)
    assert len(listed) == 26
    assert [(m.name, int(m)) for m in Status] == [(n, int(v)) for n, v in listed]
    for m in Status:
        assert m.c_name == "ONNXSHAPE_" + m.name


def test_one_class_per_error_status():
    assert sorted(errors.ERROR_CLASSES) == [s for s in Status if s != Status.OK]
    for status, cls in errors.ERROR_CLASSES.items():
        assert issubclass(cls, onnxshape.Error)
        assert cls.STATUS == status
        camel = "".join(w.capitalize() for w in status.name[4:].split("_")) + "Error"
        assert cls.__name__ == camel
        assert getattr(onnxshape, camel) is cls
    assert issubclass(onnxshape.OverflowError, OverflowError)
    assert issubclass(onnxshape.OutOfMemoryError, MemoryError)
    assert Status.ERR_NOT_DIVISIBLE.text == "-1 cannot be inferred: element count not divisible"


X = np.arange(24, dtype=np.float32).reshape(2, 3, 4)

CASES = [
    (lambda: onnxshape.reshape(X, [-1, -1]), onnxshape.MultipleInferredError,
     "Reshape-25: shape[0] and shape[1] are both -1; at most one dimension can be inferred"),
    (lambda: onnxshape.reshape(X, [0, -1], allowzero=1), onnxshape.ZeroWithInferredError,
     "Reshape-25: with allowzero=1, shape[0] = 0 and shape[1] = -1 cannot be combined"),
    (lambda: onnxshape.reshape(X, [2, -2, 6], version=14), onnxshape.DimBelowMinusOneError,
     "Reshape-14: shape[1] = -2; a dimension cannot be below -1"),
    (lambda: onnxshape.reshape(X, [5, -1]), onnxshape.NotDivisibleError,
     "Reshape-25: shape[1] = -1 cannot be inferred: 24 elements do not divide by 5"),
    (lambda: onnxshape.reshape(X, [4, 6], allowzero=0, version=13),
     onnxshape.InvalidAttributeError,
     "Reshape-13: attribute 'allowzero' is not defined before Reshape-14"),
    (lambda: onnxshape.reshape(X, np.array([4, 6], dtype=np.int32)),
     onnxshape.TypeNotAllowedError, None),
    (lambda: onnxshape.reshape(X, np.array([[4, 6]])), onnxshape.InvalidRankError, None),
    (lambda: onnxshape.size(X, version=0), onnxshape.UnknownVersionError,
     "Size has no version 0 (use onnxshape_resolve_version for an opset)"),
    (lambda: onnxshape.size(X, version=26), onnxshape.UnknownVersionError,
     "Size has no version 26 (use onnxshape_resolve_version for an opset)"),
    (lambda: onnxshape.shape(X, version=26), onnxshape.UnknownVersionError,
     "Shape has no version 26 (use onnxshape_resolve_version for an opset)"),
    (lambda: onnxshape.shape(X, start=1, version=13), onnxshape.InvalidAttributeError,
     "Shape-13: attribute 'start' is not defined before Shape-15"),
    (lambda: onnxshape.shape(X, elem_type=77), onnxshape.UnknownTypeError, None),
]


@pytest.mark.parametrize("call,cls,message", CASES)
def test_error_class_status_and_message(call, cls, message):
    with pytest.raises(onnxshape.Error) as info:
        call()
    e = info.value
    assert type(e) is cls
    assert e.status == cls.STATUS and isinstance(e.status, Status)
    assert e.status_name == "ONNXSHAPE_" + cls.STATUS.name
    assert str(e) == e.message and e.message
    if message is not None:
        assert e.message == message
