# covers: TEST-SUITE LIMIT-TEST-ENTRIES FILE-REGULAR TEXT-ESCAPE
# A FIFO named test_* is not a case and is never opened; a case whose
# model.onnx is a FIFO is refused at once. A name that would forge a line is
# escaped. A suite of more than 65536 test_* entries (directories or not)
# is refused before any case runs.
rm -rf "$OUT/s" && mkdir -p "$OUT/s/test_fifo_model" "$OUT/s/test_ok
PASS forged" && cp -r bt_ok/* "$OUT/s/test_ok
PASS forged/" && mkfifo "$OUT/s/test_fifo" "$OUT/s/test_fifo_model/model.onnx"
cd "$OUT"
timeout 20 $ONNXSHAPE test s; echo "exit $?"
/usr/bin/python3 -c '
import os
os.mkdir("big")
for i in range(65537):
    open(os.path.join("big", "test_%05d" % i), "w").close()'
$ONNXSHAPE test s big; echo "exit $?"
rm -rf big s
