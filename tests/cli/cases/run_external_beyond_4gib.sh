# covers: EXTERNAL-KEYS
# External data at an offset beyond 4 GiB (a sparse file): 64-bit file
# offsets on every host, 32-bit ones included (check-cross runs it on i686).
# Under qemu-i386 (check-cross, where the kernel does not run i386 programs)
# QEMU's 32-bit mmap truncates the offset: the data would read as zeros.
if [ -n "${ONNXSHAPE_QEMU_I386:-}" ]; then
  echo "SKIP: qemu-i386 user mode maps 32-bit offsets only" >&2; exit 77
fi
$ONNXSHAPE run far/model.onnx
