# covers: ANALYSIS-WHY ANALYSIS-DECLARED
# infer --why NAME: the value, then each input of its node that is not fully
# known, depth first, to where knowledge stops: a node not evaluated with a
# declaration (cs, t2) or without (m), a graph input with a symbol (x) or a
# dim not declared (y), an evaluated node whose inputs are all known (nz), a
# declaration that filled in what evaluation left unknown (r2). A value
# whose inputs are all known up to symbols (r1) shows them one level, not
# followed; one with an input known less (xm: m) follows only that. No
# summary.
for v in r1 size_m nz_shape flat_y r2 xm; do "$ONNXSHAPE" infer --why $v why.onnx; done
# Fully known: the one line. Bound: no chain left.
"$ONNXSHAPE" infer --why inner_dims demo.onnx
"$ONNXSHAPE" infer --why count demo.onnx --input x=2,3,4
# Symbols the bindings leave: bound N is a number, the rest stays.
"$ONNXSHAPE" infer --why count demo.onnx
