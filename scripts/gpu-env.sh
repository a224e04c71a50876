# scripts/gpu-env.sh - sourced (from the repository's root) by the scripts
# that run on the GPU machine (scripts/gpu-run.sh, bench/gpu-multi.sh,
# bench/gpu-sgemm-small.sh; docs/gpu.md): NVIDIA's OpenCL driver registered
# with the ICD loader (needs root), the .deb files of .deps/ unpacked into
# /tmp/deps (uthash; CLBlast and OpenBLAS for the baselines), and what a
# build and a run there need:
#   deps, inc, lib   the unpacked tree, its headers and its libraries
#   cuda             the CMake argument that finds CUDA, where it is there
#   LD_LIBRARY_PATH  the unpacked libraries first (OpenBLAS lives in a
#                    directory of its own, beside the Fortran runtime)
#   AMP_DEVICE       NVIDIA, unless set
icd=/etc/OpenCL/vendors/nvidia.icd
if [ ! -f "$icd" ]; then
  for nvidia_lib in /usr/lib/libnvidia-opencl.so.1 /usr/lib/x86_64-linux-gnu/libnvidia-opencl.so.1; do
    if [ -f "$nvidia_lib" ]; then
      mkdir -p /etc/OpenCL/vendors && echo "$nvidia_lib" >"$icd"
      break
    fi
  done
fi
deps=/tmp/deps
if [ -d .deps ]; then
  for f in .deps/*.deb; do dpkg -x "$f" "$deps"; done
fi
inc="$deps/usr/include"
lib="$deps/usr/lib/x86_64-linux-gnu"
export LD_LIBRARY_PATH="$lib:$lib/openblas-pthread${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export AMP_DEVICE="${AMP_DEVICE:-NVIDIA}"
# (an if, not a test and &&: a file sourced under set -e must end with 0)
cuda=()
if [ -d /usr/local/cuda ]; then
  cuda=(-DCUDAToolkit_ROOT=/usr/local/cuda)
fi
