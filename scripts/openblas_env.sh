# Sourced by the bundle's scripts (and usable by users): OpenBLAS picks its kernels from the CPU's
# model name, and virtual machines that hide it (the H100 node reports "Intel(R) Xeon(R) Processor")
# get the generic Prescott kernels: dgemm 11.6 instead of 52.8 GFLOP/s per core there. Name the
# core type from the instruction sets the CPU reports, unless the user already did.
if [ -z "${OPENBLAS_CORETYPE:-}" ] && [ -r /proc/cpuinfo ]; then
  if grep -qw avx512f /proc/cpuinfo; then
    export OPENBLAS_CORETYPE=SkylakeX
  elif grep -qw avx2 /proc/cpuinfo; then
    export OPENBLAS_CORETYPE=Haswell
  fi
fi
