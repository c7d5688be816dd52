#!/usr/bin/env bash
# Gradescope's set-up (run once, as root, in /autograder/source of its Ubuntu 22.04 image, which has no GPU):
# installs what the CPU backend and the grader need, then builds the CPU backend once, so that each
# grading only compiles the student's code.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# g++/make: the CPU backend; bubblewrap: the sandbox; patch, jq, zip, unzip, git: the grader's unpacking and
# outputs; python3: the seal of each result (grader/class/seal.py) and, with g++'s binutils, the policy on lesson
# code (grader/policy/). Bats comes in the zip (tools/bats): the image's 1.2 is older than the 1.8.2 the grader needs.
apt-get install -y -qq --no-install-recommends g++ make bubblewrap python3 patch jq zip unzip git ca-certificates >/dev/null
workbook/cpu/bin/nvcc-cpu --ensure-runtime
echo "setup: the CPU backend is built; Bats $(tools/bats/bin/bats --version)"
