#!/usr/bin/env bash
# Run here (Debian 12), from anywhere in the repo, before using the GPU machine: downloads into
# .device/debs the Debian packages that machine lacks (it has no network) and puts env.sh
# beside them. Then name ".device" in the device call's carry list and run, for example,
#   bash scripts/device/run.sh build tests timings      (--help lists the stages)
# or, for a hand-written command, start it with: source .device/env.sh
set -euo pipefail
root=$(git rev-parse --show-toplevel)
cd "$root"
mkdir -p .device/debs
pkgs=(libtbb-dev libtbb12 libtbbmalloc2 libtbbbind-2-5 libcli11-dev nlohmann-json3-dev
      libxxhash-dev libxxhash0 libhwloc-dev libhwloc15 zlib1g-dev zlib1g)
need=()
for p in "${pkgs[@]}"; do ls .device/debs/"${p}"_*.deb >/dev/null 2>&1 || need+=("$p"); done
if ((${#need[@]})); then
  apt-get update -qq >/dev/null 2>&1 || true
  (cd .device/debs && apt-get download -qq "${need[@]}")
fi
cp scripts/device/env.sh .device/env.sh
ls .device/debs
