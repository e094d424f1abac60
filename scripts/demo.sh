#!/usr/bin/env bash
# README command 1: set up, build, and run the main job.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
source scripts/env.sh
cmake --preset default >/dev/null
cmake --build --preset default
./build/default/examples/hello-ooc
