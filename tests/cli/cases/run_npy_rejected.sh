# covers: NPY-FILES CLI-BINDINGS
# What .npy cannot carry is refused with a message that suggests .pb: an
# ONNX type NumPy has no dtype for (bfloat16, int4), on output; a NumPy dtype
# ONNX has no type for (object, datetime64), on input. A model given as a
# tensor is named for what it is. --format needs -o and a known format.
/usr/bin/python3 -c "
import numpy as np
np.save('npy_obj.npy', np.array([1, 'a'], dtype=object), allow_pickle=True)
np.save('npy_dt.npy', np.array(['2026-01-01'], dtype='datetime64[D]'))
"
$ONNXSHAPE run id_bfloat16.onnx -i t_bfloat16.pb -o npy_bad --format npy; echo "exit $?"
test -e npy_bad && echo "npy_bad exists" || echo "no npy_bad"
$ONNXSHAPE run id_int4.onnx -i t_int4.pb -o npy_bad --format npy; echo "exit $?"
$ONNXSHAPE run id_int8.onnx -i npy_obj.npy; echo "exit $?"
$ONNXSHAPE run id_int8.onnx -i npy_dt.npy; echo "exit $?"
$ONNXSHAPE run id_int8.onnx -i demo.onnx; echo "exit $?"
$ONNXSHAPE run id_int8.onnx -i t_int8.pb --format npy; echo "exit $?"
$ONNXSHAPE run id_int8.onnx -i t_int8.pb -o npy_bad --format csv; echo "exit $?"
rm -f npy_obj.npy npy_dt.npy
