# covers: RUN-UNSUPPORTED
# run's refusal of a model of 40 operators with long names (issue 30): the
# list ends with how many it left out, and the message ends as a sentence.
"$ONNXSHAPE" run many_ops.onnx -i x2.pb; echo "exit $?"
