#!/usr/bin/env bash
# Installs the Debian packages that OocGraph needs and that are missing. Idempotent and
# non-interactive; run as root (as CI does) or with sudo available. The CUDA toolkit is not
# installed here: with nvcc on the machine the CUDA backend is built, without it the CPU one.
set -euo pipefail
packages=(build-essential cmake ninja-build pkg-config git time
          libtbb-dev libhwloc-dev libxxhash-dev zlib1g-dev
          libgtest-dev libgmock-dev libbenchmark-dev libcli11-dev nlohmann-json3-dev
          openmpi-bin libopenmpi-dev
          python3 python3-matplotlib clang libclang-rt-14-dev clang-format
          python3-dev pybind11-dev python3-numpy python3-pytest python3-scipy python3-networkx)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo=sudo; fi
  echo "setup: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
echo "setup: all packages present"
