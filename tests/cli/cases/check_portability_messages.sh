# covers: ANALYSIS-FINDINGS DIAG-PINNED
# Each portability finding's whole message: Shape's start outside [-r, r]
# (D6), allowzero=1 with a target computed at run time and with a 0 beside a
# value that may be -1 (D1).
"$ONNXSHAPE" check --select portability portability_risks.onnx; echo "exit $?"
