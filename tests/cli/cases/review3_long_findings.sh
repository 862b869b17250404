# covers: ANALYSIS-FINDINGS TEXT-ESCAPE
# Findings that outgrow a message once check places them (review finding
# 9): the middle gives way, marked "...", cut between words; the start
# (graph, operator, node) and the end (the rule, "known without input
# data") stay. Before, the risk in the branch lost its whole text after
# "in PATH: " and the refusal its " (known without input data)".
"$ONNXSHAPE" check long_risk.onnx; echo "exit $?"
"$ONNXSHAPE" check --profile sonnx long_refusal.onnx; echo "exit $?"
