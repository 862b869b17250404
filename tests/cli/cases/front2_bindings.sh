# covers: ANALYSIS-BINDINGS
# Bindings are collected before anything is analysed (issue 30): binding b
# fixes the N that a shares, whatever the order; contradictions, unknown
# symbols, symbols bound twice, dims for an input that is not a tensor and
# an input name that is none are usage errors naming what the model has.
"$ONNXSHAPE" infer two_n.onnx --input b=5,4; echo "exit $?"
"$ONNXSHAPE" infer --input a=6,3 two_n.onnx; echo "exit $?"
"$ONNXSHAPE" infer two_n.onnx --input a=6,3 --input b=5,4; echo "exit $?"
"$ONNXSHAPE" infer two_n.onnx --dim N=6 --input b=5,4; echo "exit $?"
"$ONNXSHAPE" infer two_n.onnx --dim n=2; echo "exit $?"
"$ONNXSHAPE" infer two_n.onnx --dim N=2 --dim N=3; echo "exit $?"
"$ONNXSHAPE" infer demo.onnx --dim M=2; echo "exit $?"
"$ONNXSHAPE" infer bad_target.onnx --dim N=2; echo "exit $?"
"$ONNXSHAPE" infer nontensor_io.onnx --input l=2,3; echo "exit $?"
"$ONNXSHAPE" infer nontensor_io.onnx --input o=7; echo "exit $?"
"$ONNXSHAPE" infer two_n.onnx --input aa=2,3; echo "exit $?"
"$ONNXSHAPE" infer two_n.onnx --input inputs=2,3; echo "exit $?"
