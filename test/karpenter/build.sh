#!/usr/bin/env bash
# Builds the real autoscaler parts of the e2e tests from Go modules pinned in
# ./go.mod, into cache directories keyed by module version:
#
#   ${WHY_PENDING_KARPENTER_CACHE:-$HOME/.cache/why-pending/karpenter}/<karpenter version>/
#       karpenter-kwok   Karpenter's KWOK provider (sigs.k8s.io/karpenter/kwok, its main package)
#       crds/            the karpenter.sh and karpenter.kwok.sh CRDs shipped in that module
#   ${WHY_PENDING_KWOK_CACHE:-$HOME/.cache/why-pending/kwok}/<kwok version>/
#       kwok             kwok's controller (sigs.k8s.io/kwok/cmd/kwok), the kubelets of fake nodes
#       stages.yaml      kwok's default node and pod stages, from the same module
#
# sigs.k8s.io/karpenter v1.15.0 declares go 1.26.9, newer than the machine's Go
# 1.26.8: the go command fetches the approved toolchain go1.27.3 from the Go
# module proxy (GOTOOLCHAIN below), as it would any module.
#
# Binaries already present are skipped. Prints the two cache directories as the
# last two lines of stdout (karpenter, then kwok).
set -euo pipefail

export GOTOOLCHAIN="${GOTOOLCHAIN_KARPENTER:-go1.27.3}"
export CGO_ENABLED="${CGO_ENABLED:-0}"

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here"

karpenter_version="$(go list -m -f '{{.Version}}' sigs.k8s.io/karpenter)"
kwok_version="$(go list -m -f '{{.Version}}' sigs.k8s.io/kwok)"
karpenter_out="${WHY_PENDING_KARPENTER_CACHE:-$HOME/.cache/why-pending/karpenter}/$karpenter_version"
kwok_out="${WHY_PENDING_KWOK_CACHE:-$HOME/.cache/why-pending/kwok}/$kwok_version"
mkdir -p "$karpenter_out" "$kwok_out"

build() { # dir name package [ldflags]
  local dir="$1" name="$2" pkg="$3" ldflags="-s -w ${4:-}"
  if [[ -x "$dir/$name" ]]; then
    echo "$name: cached ($dir/$name)" >&2
    return
  fi
  echo "building $name (first build takes minutes)..." >&2
  local start=$SECONDS tmp="$dir/.$name.tmp.$$"
  go build -trimpath -ldflags="$ldflags" -o "$tmp" "$pkg"
  mv -f "$tmp" "$dir/$name"
  echo "built $name in $((SECONDS - start))s" >&2
}

build "$karpenter_out" karpenter-kwok sigs.k8s.io/karpenter/kwok
build "$kwok_out" kwok sigs.k8s.io/kwok/cmd/kwok

# The CRDs the provider needs, copied from the module so the tests need no Go.
if [[ ! -f "$karpenter_out/crds/.complete" ]]; then
  mod="$(go list -m -f '{{.Dir}}' sigs.k8s.io/karpenter)"
  mkdir -p "$karpenter_out/crds"
  cp -f "$mod"/pkg/apis/crds/karpenter.sh_nodepools.yaml \
        "$mod"/pkg/apis/crds/karpenter.sh_nodeclaims.yaml \
        "$mod"/pkg/apis/crds/karpenter.sh_nodeoverlays.yaml \
        "$mod"/kwok/apis/crds/karpenter.kwok.sh_kwoknodeclasses.yaml \
        "$karpenter_out/crds/"
  chmod 0644 "$karpenter_out"/crds/*.yaml
  touch "$karpenter_out/crds/.complete"
fi

# kwok's own stages (its kustomize/stage folders in the module): nodes become Ready and keep
# their heartbeat; pods become Running and Ready, complete, and are deleted when asked.
if [[ ! -f "$kwok_out/stages.yaml" ]]; then
  mod="$(go list -m -f '{{.Dir}}' sigs.k8s.io/kwok)"
  tmp="$kwok_out/.stages.yaml.tmp.$$"
  : > "$tmp"
  for f in node/fast/node-initialize.yaml node/heartbeat/node-heartbeat.yaml \
           pod/fast/pod-ready.yaml pod/fast/pod-complete.yaml pod/fast/pod-delete.yaml; do
    { echo "---"; cat "$mod/kustomize/stage/$f"; } >> "$tmp"
  done
  mv -f "$tmp" "$kwok_out/stages.yaml"
fi

echo "$karpenter_out"
echo "$kwok_out"
