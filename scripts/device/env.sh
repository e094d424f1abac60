# Sourced on the GPU machine (bash), from the repository root: unpacks the carried Debian
# packages (.device/debs, made by stage.sh) into /opt/devdeps and points CMake, pkg-config and
# the loader at them. scripts/device/run.sh sources it; stage.sh also copies it to
# .device/env.sh for hand-written device commands.
d=/opt/devdeps
if [ ! -d "$d/usr" ] && ls .device/debs/*.deb >/dev/null 2>&1; then
  for f in .device/debs/*.deb; do dpkg -x "$f" "$d"; done
  # The .pc files say prefix=/usr; make them say where the files are.
  sed -i "s|^prefix=/usr|prefix=$d/usr|" "$d"/usr/lib/x86_64-linux-gnu/pkgconfig/*.pc
fi
# zlib1g-dev's libz.so points at /lib/x86_64-linux-gnu/libz.so.1.2.13, which that machine
# lacks: CMake would take the static libz.a, which cannot go into the Python module.
if [ -e "$d/lib/x86_64-linux-gnu/libz.so.1.2.13" ] && [ ! -e "$d/usr/lib/x86_64-linux-gnu/libz.so" ]; then
  ln -sfn "$d/lib/x86_64-linux-gnu/libz.so.1.2.13" "$d/usr/lib/x86_64-linux-gnu/libz.so"
fi
export CMAKE_PREFIX_PATH=$d/usr${CMAKE_PREFIX_PATH:+:$CMAKE_PREFIX_PATH}
export PKG_CONFIG_PATH=$d/usr/lib/x86_64-linux-gnu/pkgconfig:$d/usr/share/pkgconfig
export LD_LIBRARY_PATH=$d/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export NCCL_NVLS_ENABLE=0
export CMAKE_GENERATOR=Ninja
export PATH=/usr/local/cuda/bin:$PATH
# The Python module (python/CMakeLists.txt) finds pybind11 through the machine's Python, which
# has it as a package there.
if py11=$(python3 -c 'import os, pybind11; print(os.path.dirname(pybind11.__file__))' 2>/dev/null); then
  export pybind11_ROOT=$py11
fi
