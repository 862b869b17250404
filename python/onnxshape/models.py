# SPDX-License-Identifier: Apache-2.0
"""Static analysis (infer) and the model check (check) of whole models, with
the content of `onnxshape infer --json` and `onnxshape check --json`
(docs/cli.md, "JSON output") as dataclasses."""
import ctypes
import os
from dataclasses import dataclass, field, fields
from typing import Dict, List, Optional, Tuple, Union

import numpy as np

from . import _lib
from .errors import Status, check as _check, error_for
from .kernels import _int64
from .types import ElemType

Dim = Union[int, str, None]


@dataclass(frozen=True)
class Element:
    """What every element of a sequence (or an optional's element) is known
    to be: the `"element"` object of `infer --json`. ``kind``, ``element``,
    ``length`` and ``holds`` as in Value."""
    type: Optional[str]
    dims: Optional[Tuple[Dim, ...]]
    kind: str = "tensor"
    element: Optional["Element"] = None
    length: Dim = None
    holds: Optional[bool] = None


@dataclass(frozen=True)
class Value:
    """What is known of one value without input data (one line of `infer
    --json`). ``type`` is the ONNX type's name ("float") or None when
    unknown; ``dims`` None for an unknown rank, else each dim a number, an
    expression over the model's symbols ("N", "3*N") or None; ``values`` the
    known elements of an integer or bool value of up to 1024 elements (a
    number, an expression or None each), else None; ``node`` (its name, ""
    when unnamed), ``op``, ``version`` and ``domain`` ("" for the default)
    only for node outputs, else None. ``kind`` is "tensor" (also when
    nothing is known), "sequence" or "optional"; for the last two ``type``
    and ``dims`` are None, ``element`` is what the elements are known to be
    (an Element, or None), a sequence's ``length`` is its number of elements
    (a number, an expression or None) and an optional's ``holds`` True when
    it holds an element, False when empty, None when not known (docs/cli.md,
    "infer")."""
    name: str
    graph: str
    type: Optional[str]
    dims: Optional[Tuple[Dim, ...]]
    values: Optional[Tuple[Dim, ...]] = None
    node: Optional[str] = None
    op: Optional[str] = None
    version: Optional[int] = None
    domain: Optional[str] = None
    kind: str = "tensor"
    element: Optional[Element] = None
    length: Dim = None
    holds: Optional[bool] = None

    def __repr__(self):
        # A tensor's repr leaves out what only sequences and optionals have.
        names = [f.name for f in fields(self)]
        if self.kind == "tensor":
            names = names[:names.index("kind")]
        return "Value(" + ", ".join(f"{n}={getattr(self, n)!r}" for n in names) + ")"

    @property
    def elem_type(self):
        """The type as an ElemType, or None when unknown."""
        return None if self.type is None else ElemType[self.type.upper()]


@dataclass(frozen=True)
class InferSummary:
    """The `{"summary": ...}` line of `infer --json`, and the budget."""
    nodes: Dict[str, int]          #: {"Shape": n, "Reshape": n, "Size": n}
    resolved: int
    partial: int
    unknown: int
    not_evaluated: Dict[str, int]  #: operator ("DOMAIN:OP" outside the default domain): nodes
    failures: int
    out_of_work: int
    not_evaluated_more: int = 0    #: nodes of operators past the first 64 listed
    work_used: int = 0
    work_limit: int = 0


@dataclass(frozen=True)
class Failure:
    """A node certain to fail whatever the data: the status and the message
    its error would have (`infer` prints these on stderr)."""
    status: Union[Status, int]
    message: str

    def error(self):
        """The onnxshape.Error this failure is."""
        return error_for(self.status, self.message)


@dataclass(frozen=True)
class InferResult:
    values: List[Value]
    summary: InferSummary
    failures: List[Failure] = field(default_factory=list)

    def get(self, name, graph=""):
        """The value named ``name`` in ``graph`` ("" the main graph); KeyError
        when there is none."""
        for v in self.values:
            if v.name == name and v.graph == graph:
                return v
        raise KeyError(name if graph == "" else f"{graph}: {name}")


@dataclass(frozen=True)
class Finding:
    """One line of `check --json` but its model. ``node`` (the node's name,
    "" when it has none), ``op`` (the operator type), ``version``,
    ``domain`` ("" for the default domain) and ``node_index`` (the node's
    place in its graph) are None when the finding is not about a node."""
    rule: str
    severity: str
    graph: str
    node: Optional[str]
    op: Optional[str]
    version: Optional[int]
    message: str
    domain: Optional[str] = None
    node_index: Optional[int] = None


@dataclass(frozen=True)
class CheckSummary:
    model: Optional[str]    #: the path given, None for bytes or a ModelProto
    profile: Optional[str]  #: "sonnx" or None
    findings: int
    errors: int
    warnings: int


@dataclass(frozen=True)
class CheckResult:
    findings: List[Finding]
    summary: CheckSummary


def _model_source(model):
    """("path", str) or ("bytes", bytes) for a path, bytes or a ModelProto."""
    if isinstance(model, (str, os.PathLike)):
        return "path", os.fsdecode(model)
    if isinstance(model, (bytes, bytearray, memoryview)):
        return "bytes", bytes(model)
    if hasattr(model, "SerializeToString"):
        return "bytes", model.SerializeToString()
    raise TypeError(f"onnxshape: a model is a path, bytes or an onnx.ModelProto, "
                    f"not {type(model).__name__}")


def _path_arg(path):
    b = os.fsencode(path)
    if b"\0" in b:
        raise ValueError("onnxshape: a path cannot hold a NUL byte")
    return b


def load(model):
    """A loaded model handle (ctypes void pointer); free with _lib.lib.onnxshape_model_free."""
    kind, src = _model_source(model)
    m = _lib.Model_p()
    d = _lib.new_diag()
    if kind == "path":
        st = _lib.lib.onnxshape_model_read_file(_path_arg(src), ctypes.byref(m), ctypes.byref(d))
    else:
        buf = src  # bytes: passed in place (the library copies what it keeps)
        st = _lib.lib.onnxshape_model_parse(buf, len(src), None, ctypes.byref(m), ctypes.byref(d))
    _check(st, d)
    return m


def _name(s, what):
    if not isinstance(s, str):
        raise TypeError(f"onnxshape: {what} must be a str, not {type(s).__name__}")
    b = s.encode("utf-8", "surrogateescape")
    if b"\0" in b:
        raise ValueError(f"onnxshape: {what} {s!r} holds a NUL byte")
    return b


def _options(inputs, dims, keep_going, keep):
    """The onnxshape_infer_options of infer()'s arguments; `keep` holds what
    the options point to."""
    opts = _lib.InferOptions()
    _lib.lib.onnxshape_infer_options_init(ctypes.byref(opts))
    opts.keep_going = 1 if keep_going else 0
    dims = dict(dims or {})
    bound = {}
    for sym, val in dims.items():
        bound[sym] = _int64(val, f"dims[{sym!r}]")
    db = (_lib.DimBinding * max(len(bound), 1))()
    for k, (sym, val) in enumerate(bound.items()):
        db[k].symbol = _name(sym, "a symbol")
        db[k].value = val
    ins = dict(inputs or {})
    ib = (_lib.InputDims * max(len(ins), 1))()
    for k, (name, shape) in enumerate(ins.items()):
        numeric = []
        for j, dim in enumerate(_dims_of(shape, name)):
            if isinstance(dim, str):
                if dim not in bound:
                    raise ValueError(
                        f"onnxshape: inputs[{name!r}] dim {j} is the symbol {dim!r}, which "
                        f"dims= does not bind: the library fixes an input's dims only all "
                        f"numeric. Bind it (dims={{{dim!r}: ...}}), or leave {name!r} out of "
                        f"inputs to keep its declared dims")
                numeric.append(bound[dim])
            else:
                numeric.append(_int64(dim, f"inputs[{name!r}] dim {j}"))
        arr = np.array(numeric, dtype=np.int64)
        keep.append(arr)
        ib[k].name = _name(name, "an input name")
        ib[k].rank = len(numeric)
        ib[k].dims = arr.ctypes.data_as(_lib.c_int64_p)
    keep.extend([db, ib])
    opts.inputs = ctypes.cast(ib, ctypes.POINTER(_lib.InputDims))
    opts.n_inputs = len(ins)
    opts.dims = ctypes.cast(db, ctypes.POINTER(_lib.DimBinding))
    opts.n_dims = len(bound)
    return opts


def _dims_of(shape, name):
    if isinstance(shape, (str, bytes)) or not hasattr(shape, "__iter__"):
        raise TypeError(f"onnxshape: inputs[{name!r}] must be a sequence of dims "
                        f"(numbers or symbols), not {type(shape).__name__}")
    return list(shape)


def _elem(e):
    if e.known:
        return int(e.value)
    return _lib.text(e.param)


_KINDS = {_lib.KIND_TENSOR: "tensor", _lib.KIND_SEQUENCE: "sequence",
          _lib.KIND_OPTIONAL: "optional"}


def _type_dims(v):
    """(type, dims) of a ValueInfo."""
    dims = None
    if v.rank_known:
        dims = tuple(int(v.dims[k]) if v.dims[k] >= 0
                     else (_lib.text(v.params[k]) if v.params and v.params[k] else None)
                     for k in range(v.rank))
    return (_lib.text(_lib.lib.onnxshape_type_name(v.type)) if v.type else None), dims


def _kind(v):
    """{kind, element, length, holds} of a ValueInfo whose struct holds them
    (else {}), its element an Element."""
    if not _lib.covers(v, "holds") or v.kind == _lib.KIND_TENSOR:
        return {}
    kind = _KINDS.get(v.kind)
    if kind is None:
        raise ValueError(f"onnxshape: the library gave an unknown value kind {v.kind}")
    element = None
    if v.element:
        e = v.element.contents
        t, d = _type_dims(e)
        element = Element(t, d, **_kind(e))
    out = {"kind": kind, "element": element}
    if kind == "sequence":
        out["length"] = _elem(v.length) if v.length.known or v.length.param else None
    else:
        out["holds"] = None if v.holds < 0 else bool(v.holds)
    return out


def _value(v):
    has = lambda f: _lib.covers(v, f)  # noqa: E731
    typ, dims = _type_dims(v)
    values = None
    if has("values") and v.n_values > 0:
        values = tuple(_elem(v.values[k]) for k in range(v.n_values))
    node = op = version = domain = None
    if has("op") and v.op is not None:
        node, op, version = _lib.text(v.node), _lib.text(v.op), int(v.version)
        domain = _lib.text(v.domain) if has("domain") and v.domain is not None else None
    return Value(name=_lib.text(v.name), graph=_lib.text(v.graph) if has("graph") else "",
                 type=typ, dims=dims, values=values, node=node, op=op, version=version,
                 domain=domain, **_kind(v))


def _summary(s):
    has = lambda f: _lib.covers(s, f)  # noqa: E731
    ne = {}
    for k in range(s.n_not_evaluated):
        c = s.not_evaluated[k]
        dom, op = _lib.text(c.domain), _lib.text(c.op)
        ne[f"{dom}:{op}" if dom else op] = int(c.count)
    return InferSummary(
        nodes={"Shape": int(s.shape_nodes), "Reshape": int(s.reshape_nodes),
               "Size": int(s.size_nodes)},
        resolved=int(s.resolved), partial=int(s.partial), unknown=int(s.unknown),
        not_evaluated=ne, failures=int(s.failures) if has("failures") else 0,
        out_of_work=int(s.out_of_work) if has("out_of_work") else 0,
        not_evaluated_more=int(s.not_evaluated_more),
        work_used=int(s.work_used) if has("work_used") else 0,
        work_limit=int(s.work_limit) if has("work_limit") else 0)


def infer(model, inputs=None, dims=None, *, keep_going=True, write_model=None):
    """What can be known of every value of ``model`` (a path, bytes or an
    onnx.ModelProto) without input data, as `onnxshape infer --json`.

    ``inputs`` fixes graph inputs' dims: {"x": (1, 3, 224, 224)}; a dim may
    be a symbol that ``dims`` binds ({"x": (1, 3, "N")} with dims={"N": 8}
    fixes x to (1, 3, 8)). ``dims`` binds symbols everywhere: {"N": 8}.

    With ``keep_going`` (the default, as the command), nodes certain to fail
    are listed in ``result.failures`` and the analysis goes on; without it,
    the first one raises its onnxshape.Error. Errors of loading and of the
    bindings raise onnxshape.Error subclasses with the library's message.

    ``write_model`` (a path) also writes the model with what is known
    spliced into its graphs, as `onnxshape infer --write-model` does (the
    same bytes; all or nothing): a model with nodes certain to fail raises
    onnxshape.InvalidModelError and writes nothing."""
    keep = []
    opts = _options(inputs, dims, keep_going, keep)
    kind, src = _model_source(model)
    out = None if write_model is None else _path_arg(write_model)
    m = load(src if kind == "bytes" else model)
    inf = _lib.Inference_p()
    try:
        d = _lib.new_diag()
        st = _lib.lib.onnxshape_model_infer_with(m, ctypes.byref(opts), ctypes.byref(inf),
                                                 ctypes.byref(d))
        _check(st, d)
        try:
            values = [_value(_lib.lib.onnxshape_inference_get(inf, i).contents)
                      for i in range(_lib.lib.onnxshape_inference_count(inf))]
            summary = _summary(_lib.lib.onnxshape_inference_summary(inf).contents)
            failures = []
            for i in range(summary.failures):
                fst = ctypes.c_int(0)
                msg = _lib.lib.onnxshape_inference_failure(inf, i, ctypes.byref(fst))
                try:
                    status = Status(fst.value)
                except ValueError:
                    status = fst.value
                failures.append(Failure(status, _lib.text(msg)))
            if out is not None:
                _write_model(m, inf, kind, src, out, failures)
        finally:
            _lib.lib.onnxshape_inference_free(inf)
    finally:
        _lib.lib.onnxshape_model_free(m)
    return InferResult(values, summary, failures)


def _write_model(m, inf, kind, src, out, failures):
    """infer(write_model=out): the model of inf, read again from its path or
    its bytes, with what inf knows spliced in."""
    if failures:
        raise error_for(Status.ERR_INVALID_MODEL,
                        f"'{os.fsdecode(out)}' not written (the model has nodes certain to fail)")
    d = _lib.new_diag()
    if kind == "path":
        st = _lib.lib.onnxshape_inference_write_model(m, inf, _path_arg(src), out, ctypes.byref(d))
    else:
        st = _lib.lib.onnxshape_inference_write_model_bytes(m, inf, src, len(src), out,
                                                             ctypes.byref(d))
    _check(st, d)


_PROFILES = {None: 0, "sonnx": 1}  # ONNXSHAPE_CHECK_CORE, ONNXSHAPE_CHECK_SONNX


def _finding(f):
    has = lambda n: _lib.covers(f, n)  # noqa: E731
    about_node = f.node is not None
    return Finding(
        rule=_lib.text(f.id), severity="error" if f.severity == 1 else "warning",
        graph=_lib.text(f.graph), node=_lib.text(f.node) if about_node else None,
        op=_lib.text(f.op) if about_node else None,
        version=int(f.version) if about_node else None, message=_lib.text(f.message),
        domain=_lib.text(f.domain) if has("domain") and f.domain is not None else None,
        node_index=int(f.node_index) if has("node_index") and about_node else None)


def check(model, profile=None):
    """Every finding of `onnxshape check` (profile None) or `onnxshape check
    --profile sonnx` (profile "sonnx") for ``model`` (a path, bytes or an
    onnx.ModelProto), as `check --json`. A model that cannot be loaded
    raises its onnxshape.Error. External data resolves beside a path; bytes
    and ModelProtos must hold their data inline."""
    if profile not in _PROFILES:
        raise ValueError(f"onnxshape: unknown profile {profile!r} (known: 'sonnx', or None)")
    kind, src = _model_source(model)
    if kind == "path":
        findings = _report(_lib.lib.onnxshape_model_check_file, _path_arg(src),
                           _PROFILES[profile])
        shown = src
    else:
        # bytes: passed in place (the library copies what it keeps)
        findings = _report(_lib.lib.onnxshape_model_check, src, len(src), None,
                           _PROFILES[profile])
        shown = None
    errors = sum(f.severity == "error" for f in findings)
    return CheckResult(findings, CheckSummary(model=shown, profile=profile,
                                              findings=len(findings), errors=errors,
                                              warnings=len(findings) - errors))


def _report(fn, *args):
    """The findings of a check function of the library (its report freed)."""
    r = _lib.Report_p()
    d = _lib.new_diag()
    st = fn(*args, ctypes.byref(r), ctypes.byref(d))
    if st != 0:
        _lib.lib.onnxshape_profile_free(r)
        _check(st, d)
    try:
        return [_finding(_lib.lib.onnxshape_profile_finding(r, i).contents)
                for i in range(_lib.lib.onnxshape_profile_count(r))]
    finally:
        _lib.lib.onnxshape_profile_free(r)


def check_rules():
    """Every rule id a finding can carry, with its severity, in the library's
    stable order: [("domain", "error"), ...]."""
    out = []
    i = 0
    while True:
        sev = ctypes.c_int(0)
        rid = _lib.lib.onnxshape_check_rule(i, ctypes.byref(sev))
        if rid is None:
            return out
        out.append((_lib.text(rid), "error" if sev.value == 1 else "warning"))
        i += 1
