# SPDX-License-Identifier: Apache-2.0
"""The library's statuses as Python: the Status enum and one exception class
per error status, each carrying the status and the library's own message."""
import builtins
import enum

from . import _lib


class Status(enum.IntEnum):
    """onnxshape_status: the pinned numbers of include/onnxshape_kernels.h
    (ONNXSHAPE_STATUS_LIST). The C name of a member is
    ``"ONNXSHAPE_" + member.name``; tests/test_errors.py checks the two lists
    against each other."""
    OK = 0
    ERR_INVALID_ARGUMENT = 1
    ERR_UNKNOWN_TYPE = 2
    ERR_TYPE_NOT_ALLOWED = 3
    ERR_UNKNOWN_OPERATOR = 4
    ERR_UNSUPPORTED_OPSET = 5
    ERR_UNKNOWN_VERSION = 6
    ERR_INVALID_ATTRIBUTE = 7
    ERR_NEGATIVE_DIM = 8
    ERR_OVERFLOW = 9
    ERR_DIM_BELOW_MINUS_ONE = 10
    ERR_MULTIPLE_INFERRED = 11
    ERR_ZERO_OUT_OF_RANGE = 12
    ERR_ZERO_WITH_INFERRED = 13
    ERR_INFERRED_FROM_ZERO = 14
    ERR_NOT_DIVISIBLE = 15
    ERR_COUNT_MISMATCH = 16
    ERR_INVALID_RANK = 17
    ERR_BUFFER_TOO_SMALL = 18
    ERR_DATA_SIZE = 19
    ERR_MALFORMED = 20
    ERR_INVALID_TENSOR = 21
    ERR_INVALID_MODEL = 22
    ERR_IO = 23
    ERR_OUT_OF_MEMORY = 24
    ERR_NOT_FOUND = 25

    @property
    def c_name(self):
        """The library's name for the status, e.g. ONNXSHAPE_ERR_OVERFLOW."""
        return _lib.text(_lib.lib.onnxshape_status_name(int(self)))

    @property
    def text(self):
        """The library's one-line description of the status."""
        return _lib.text(_lib.lib.onnxshape_status_text(int(self)))


class Error(Exception):
    """An error status of the C library. ``status`` is the Status (an int),
    ``status_name`` its C name, ``message`` the library's message (the
    onnxshape_diag text, naming operator, version, node and rule), which is
    also ``str(error)``."""

    def __init__(self, status, message):
        super().__init__(message)
        try:
            self.status = Status(status)
        except ValueError:  # a status a newer library added
            self.status = int(status)
        self.status_name = _lib.text(_lib.lib.onnxshape_status_name(int(status)))
        self.message = message

    def __str__(self):
        return self.message

    def __repr__(self):
        return f"{type(self).__name__}({self.status_name}, {self.message!r})"


def _cls(status, name, bases=(Error,)):
    c = type(name, bases, {"__doc__": f"Status {status.name}: "
                           f"{_lib.text(_lib.lib.onnxshape_status_text(int(status)))}.",
                           "__module__": "onnxshape"})
    c.STATUS = status
    return c


InvalidArgumentError = _cls(Status.ERR_INVALID_ARGUMENT, "InvalidArgumentError")
UnknownTypeError = _cls(Status.ERR_UNKNOWN_TYPE, "UnknownTypeError")
TypeNotAllowedError = _cls(Status.ERR_TYPE_NOT_ALLOWED, "TypeNotAllowedError")
UnknownOperatorError = _cls(Status.ERR_UNKNOWN_OPERATOR, "UnknownOperatorError")
UnsupportedOpsetError = _cls(Status.ERR_UNSUPPORTED_OPSET, "UnsupportedOpsetError")
UnknownVersionError = _cls(Status.ERR_UNKNOWN_VERSION, "UnknownVersionError")
InvalidAttributeError = _cls(Status.ERR_INVALID_ATTRIBUTE, "InvalidAttributeError")
NegativeDimError = _cls(Status.ERR_NEGATIVE_DIM, "NegativeDimError")
# Also a builtins.OverflowError, so that `except OverflowError` catches it
# whichever of the two names is in scope.
OverflowError = _cls(Status.ERR_OVERFLOW, "OverflowError", (Error, builtins.OverflowError))
DimBelowMinusOneError = _cls(Status.ERR_DIM_BELOW_MINUS_ONE, "DimBelowMinusOneError")
MultipleInferredError = _cls(Status.ERR_MULTIPLE_INFERRED, "MultipleInferredError")
ZeroOutOfRangeError = _cls(Status.ERR_ZERO_OUT_OF_RANGE, "ZeroOutOfRangeError")
ZeroWithInferredError = _cls(Status.ERR_ZERO_WITH_INFERRED, "ZeroWithInferredError")
InferredFromZeroError = _cls(Status.ERR_INFERRED_FROM_ZERO, "InferredFromZeroError")
NotDivisibleError = _cls(Status.ERR_NOT_DIVISIBLE, "NotDivisibleError")
CountMismatchError = _cls(Status.ERR_COUNT_MISMATCH, "CountMismatchError")
InvalidRankError = _cls(Status.ERR_INVALID_RANK, "InvalidRankError")
BufferTooSmallError = _cls(Status.ERR_BUFFER_TOO_SMALL, "BufferTooSmallError")
DataSizeError = _cls(Status.ERR_DATA_SIZE, "DataSizeError")
MalformedError = _cls(Status.ERR_MALFORMED, "MalformedError")
InvalidTensorError = _cls(Status.ERR_INVALID_TENSOR, "InvalidTensorError")
InvalidModelError = _cls(Status.ERR_INVALID_MODEL, "InvalidModelError")
IoError = _cls(Status.ERR_IO, "IoError")
OutOfMemoryError = _cls(Status.ERR_OUT_OF_MEMORY, "OutOfMemoryError", (Error, MemoryError))
NotFoundError = _cls(Status.ERR_NOT_FOUND, "NotFoundError")

ERROR_CLASSES = {c.STATUS: c for c in (
    InvalidArgumentError, UnknownTypeError, TypeNotAllowedError, UnknownOperatorError,
    UnsupportedOpsetError, UnknownVersionError, InvalidAttributeError, NegativeDimError,
    OverflowError, DimBelowMinusOneError, MultipleInferredError, ZeroOutOfRangeError,
    ZeroWithInferredError, InferredFromZeroError, NotDivisibleError, CountMismatchError,
    InvalidRankError, BufferTooSmallError, DataSizeError, MalformedError, InvalidTensorError,
    InvalidModelError, IoError, OutOfMemoryError, NotFoundError)}


def error_for(status, message):
    """The exception for a status the library returned, with its message."""
    cls = ERROR_CLASSES.get(status, Error)
    return cls(status, message)


def check(status, diag):
    """Raise the error of a status other than OK, with the diag's message."""
    if status != 0:
        raise error_for(status, _lib.diag_message(diag))
