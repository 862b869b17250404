# SPDX-License-Identifier: Apache-2.0
"""An ONNX backend (onnx.backend.base.Backend) over onnxshape_model_run: it
runs models made of Shape, Reshape, Size, Constant and Identity on the CPU,
so that onnx.backend.test.BackendTest runs ONNX's node tests for Shape,
Reshape and Size against the library. Any other model is not compatible
(is_compatible() is False, so BackendTest skips it; prepare() raises the
library's UnknownOperatorError)."""
import ctypes

import numpy as np
import onnx
from onnx.backend.base import Backend, BackendRep, namedtupledict

from . import _lib
from .errors import check as _check
from .kernels import RawTensor
from .models import infer, load
from .types import ElemType, as_elem_type, elem_type_of

DEVICES = ("CPU",)


def _bind_one(value, keep):
    """An onnxshape_tensor for one input value (an array or a RawTensor);
    `keep` holds the memory it points to for the run's lifetime."""
    if isinstance(value, RawTensor):
        t, dims = value.elem_type, np.array(value.dims, dtype=np.int64)
        data = np.frombuffer(value.data, dtype=np.uint8) if value.nbytes else None
    else:
        a = np.asarray(value)
        t = elem_type_of(a.dtype)
        dims = np.array(a.shape, dtype=np.int64)
        if t == ElemType.STRING:
            enc = [e if isinstance(e, bytes) else str(e).encode("utf-8") for e in a.flat]
            strings = (_lib.String * max(len(enc), 1))()
            for k, e in enumerate(enc):
                buf = ctypes.create_string_buffer(e, len(e))
                keep.append(buf)
                strings[k].data = ctypes.cast(buf, ctypes.c_void_p)
                strings[k].length = len(e)
            data = np.frombuffer(strings, dtype=np.uint8)[:len(enc) * ctypes.sizeof(_lib.String)]
            keep.append(strings)
        else:
            # ONNX storage is little-endian and row-major on every host.
            data = np.ascontiguousarray(a, dtype=a.dtype.newbyteorder("<"))
    keep.extend([dims, data])
    tensor = _lib.Tensor(int(t), len(dims), dims.ctypes.data_as(_lib.c_int64_p),
                         None if data is None else data.ctypes.data,
                         0 if data is None else data.nbytes)
    keep.append(tensor)
    return tensor


def _output(t):
    """A copy of an output tensor: an ndarray, or a RawTensor for the types
    NumPy lacks."""
    et = as_elem_type(t.type)
    dims = tuple(int(t.dims[k]) for k in range(t.rank))
    n = int(np.prod(dims, dtype=np.int64)) if dims else 1
    if et == ElemType.STRING:
        s = ctypes.cast(t.data, ctypes.POINTER(_lib.String)) if n else None
        out = np.empty(n, dtype=object)
        for k in range(n):
            raw = ctypes.string_at(s[k].data, s[k].length) if s[k].length else b""
            try:
                out[k] = raw.decode("utf-8")
            except UnicodeDecodeError:
                out[k] = raw
        return out.reshape(dims)
    raw = ctypes.string_at(t.data, t.data_bytes) if t.data_bytes else b""
    dtype = et.numpy_dtype if isinstance(et, ElemType) else None
    if dtype is None:
        return RawTensor(bytes(raw), dims, et)
    return np.frombuffer(raw, dtype=dtype.newbyteorder("<")).astype(dtype).reshape(dims)


class OnnxshapeRep(BackendRep):
    """A loaded model, run on inputs given as a list (the graph inputs
    without a default value, in order) or a dict by name."""

    def __init__(self, model):
        self._model = None
        self._model = load(model)
        try:
            d = _lib.new_diag()
            _check(_lib.lib.onnxshape_model_check_runnable(self._model, ctypes.byref(d)), d)
        except BaseException:
            self.close()
            raise
        m = self._model
        self._inputs = [_lib.text(_lib.lib.onnxshape_model_input_name(m, i))
                        for i in range(_lib.lib.onnxshape_model_input_count(m))
                        if not _lib.lib.onnxshape_model_input_has_default(m, i)]

    def close(self):
        """Free the model (run() then refuses); also done when collected."""
        if getattr(self, "_model", None):
            _lib.lib.onnxshape_model_free(self._model)
            self._model = None

    def __del__(self):
        self.close()

    def run(self, inputs, **kwargs):
        if self._model is None:
            raise ValueError("onnxshape: this model was closed")
        if isinstance(inputs, dict):
            named = list(inputs.items())
        else:
            if isinstance(inputs, (np.ndarray, RawTensor)):
                inputs = [inputs]
            inputs = list(inputs)
            if len(inputs) > len(self._inputs):
                raise ValueError(f"onnxshape: {len(inputs)} inputs given, the model has "
                                 f"{len(self._inputs)} without a default value")
            named = list(zip(self._inputs, inputs))
        keep = []
        bindings = (_lib.Binding * max(len(named), 1))()
        for k, (name, value) in enumerate(named):
            bindings[k].name = str(name).encode("utf-8", "surrogateescape")
            bindings[k].tensor = ctypes.pointer(_bind_one(value, keep))
        result = _lib.Result_p()
        d = _lib.new_diag()
        st = _lib.lib.onnxshape_model_run(self._model, bindings, len(named),
                                          ctypes.byref(result), ctypes.byref(d))
        _check(st, d)
        try:
            n = _lib.lib.onnxshape_result_count(result)
            names = [_lib.text(_lib.lib.onnxshape_result_name(result, i)) for i in range(n)]
            values = [_output(_lib.lib.onnxshape_result_tensor(result, i).contents)
                      for i in range(n)]
        finally:
            _lib.lib.onnxshape_result_free(result)
        return namedtupledict("Outputs", names)(*values)


class OnnxshapeBackend(Backend):
    @classmethod
    def is_compatible(cls, model, device="CPU", **kwargs):
        """Whether onnxshape_model_run can execute the model: it loads and
        holds only Shape, Reshape, Size, Constant and Identity."""
        try:
            OnnxshapeRep(model).close()
        except Exception:  # any refusal: not compatible
            return False
        return cls.supports_device(device)

    @classmethod
    def prepare(cls, model, device="CPU", **kwargs):
        if not cls.supports_device(device):
            raise ValueError(f"onnxshape: device {device!r} is not supported (only CPU)")
        return OnnxshapeRep(model)

    @classmethod
    def run_model(cls, model, inputs, device="CPU", **kwargs):
        rep = cls.prepare(model, device, **kwargs)
        try:
            return rep.run(inputs)
        finally:
            rep.close()

    @classmethod
    def run_node(cls, node, inputs, device="CPU", outputs_info=None, **kwargs):
        """Run one node on ``inputs`` (arrays in the node's input order) in a
        model of opset ``opset_version`` (default: the onnx package's). The
        outputs' types are those of ``outputs_info`` when given, else what the
        library's analysis finds for them."""
        opset = kwargs.get("opset_version", onnx.defs.onnx_opset_version())
        ins = list(inputs.values()) if isinstance(inputs, dict) else list(inputs)
        decls = []
        for name, value in zip(node.input, ins):
            if isinstance(value, RawTensor):
                t, dims = int(value.elem_type), value.dims
            else:
                a = np.asarray(value)
                t, dims = int(elem_type_of(a.dtype)), a.shape
            decls.append(onnx.helper.make_tensor_value_info(name, t, dims))
        opsets = [onnx.helper.make_opsetid("", opset)]
        if outputs_info is not None:
            types = [int(elem_type_of(dtype)) for dtype, _ in outputs_info]
        else:
            # A graph output needs a type: the model without them (the node's
            # inputs as outputs), analysed, gives them.
            # (A node without inputs gets a stand-in: a graph needs an output.)
            ends = decls or [onnx.helper.make_tensor_value_info(
                "onnxshape.run_node.probe", onnx.TensorProto.FLOAT, [])]
            probe = onnx.helper.make_graph([node], "run_node", ends, ends)
            found = {v.name: v for v in infer(onnx.helper.make_model(
                probe, opset_imports=opsets), keep_going=False).values if v.graph == ""}
            types = [found[o].elem_type if o in found and found[o].type else 0
                     for o in node.output]
        outs = [onnx.helper.make_tensor_value_info(o, t, None)
                for o, t in zip(node.output, types)]
        graph = onnx.helper.make_graph([node], "run_node", decls, outs)
        model = onnx.helper.make_model(graph, opset_imports=opsets)
        return cls.run_model(model, ins, device)

    @classmethod
    def supports_device(cls, device):
        return str(device).upper() in DEVICES


is_compatible = OnnxshapeBackend.is_compatible
prepare = OnnxshapeBackend.prepare
run_model = OnnxshapeBackend.run_model
run_node = OnnxshapeBackend.run_node
supports_device = OnnxshapeBackend.supports_device
