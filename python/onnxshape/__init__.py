# SPDX-License-Identifier: Apache-2.0
"""onnxshape: ONNX Shape, Reshape and Size exactly as the standard defines
them (every version, every element type), and static shape analysis of ONNX
models, through the C library libonnxshape (docs/python.md)."""
from ._lib import LIBRARY_PATH
from .errors import (Error, Status, InvalidArgumentError, UnknownTypeError,
                     TypeNotAllowedError, UnknownOperatorError, UnsupportedOpsetError,
                     UnknownVersionError, InvalidAttributeError, NegativeDimError,
                     OverflowError, DimBelowMinusOneError, MultipleInferredError,
                     ZeroOutOfRangeError, ZeroWithInferredError, InferredFromZeroError,
                     NotDivisibleError, CountMismatchError, InvalidRankError,
                     BufferTooSmallError, DataSizeError, MalformedError, InvalidTensorError,
                     InvalidModelError, IoError, OutOfMemoryError, NotFoundError)
from .types import ElemType
from .kernels import LATEST_VERSION, RawTensor, shape, size, reshape
from .models import (infer, check, Value, Element, InferSummary, Failure, InferResult,
                     Finding, CheckSummary, CheckResult)

__version__ = "0.2.0"

# `from onnxshape import *` leaves out OverflowError, which would shadow the
# builtin (it subclasses it, so `except OverflowError` catches it anyway).
__all__ = ["LIBRARY_PATH", "Error", "Status", "ElemType", "LATEST_VERSION", "RawTensor",
           "shape", "size", "reshape", "infer", "check", "Value", "Element", "InferSummary", "Failure",
           "InferResult", "Finding", "CheckSummary", "CheckResult"] + [
    name for name in dir() if name.endswith("Error") and name not in ("Error", "OverflowError")]
