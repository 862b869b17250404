# covers: ANALYSIS-DECLARED ANALYSIS-FINDINGS TEXT-ESCAPE
# A computed element type is not overwritten by a declaration of unknown
# rank (the Cast's int64 stays; the declared float is a conflict), and a
# conflict on a call whose four names are long still ends with the
# computed value (the function's name is given without its domain).
"$ONNXSHAPE" infer decl_type.onnx; echo "exit $?"
"$ONNXSHAPE" check decl_type.onnx; echo "exit $?"
"$ONNXSHAPE" check long_conflict.onnx; echo "exit $?"
