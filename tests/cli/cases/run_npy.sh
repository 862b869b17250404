# covers: NPY-FILES CLI-OUTPUT-DIR
# .npy in and out: a float32 input (little- and big-endian) through the demo,
# the outputs written with --format npy and read back by NumPy.
/usr/bin/python3 -c "
import numpy as np
np.save('npy_x.npy', np.arange(24, dtype='<f4').reshape(2, 3, 4))
np.save('npy_x_be.npy', np.arange(24, dtype='>f4').reshape(2, 3, 4))
"
$ONNXSHAPE run demo.onnx -i npy_x.npy; echo "exit $?"
rm -rf npy_out
$ONNXSHAPE run demo.onnx -i x=npy_x_be.npy -o npy_out --format npy; echo "exit $?"
ls npy_out
/usr/bin/python3 -c "
import numpy as np
for k in range(4):
    a = np.load('npy_out/output_%d.npy' % k)
    print(k, a.dtype.str, a.shape, a.ravel().tolist()[:6])
"
# The same outputs as TensorProto files hold the same values.
$ONNXSHAPE run demo.onnx -i npy_x.npy -o npy_out --format=pb > /dev/null; echo "exit $?"
ls npy_out
rm -rf npy_out npy_x.npy npy_x_be.npy
