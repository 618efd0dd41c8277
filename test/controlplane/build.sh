#!/usr/bin/env bash
# Builds the test control plane (kube-apiserver, kube-scheduler,
# kube-controller-manager from k8s.io/kubernetes, plus the embedded-etcd
# wrapper in ./cmd/etcd) into a cache directory keyed by Kubernetes version:
#
#   ${WHY_PENDING_CP_CACHE:-$HOME/.cache/why-pending/controlplane}/<k8s version>/
#
# Binaries already present are skipped. Prints the cache directory as the
# last line of stdout, so callers can do: dir=$(test/controlplane/build.sh | tail -1)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here"

version="$(go list -m -f '{{.Version}}' k8s.io/kubernetes)"
cache_root="${WHY_PENDING_CP_CACHE:-$HOME/.cache/why-pending/controlplane}"
out="$cache_root/$version"
mkdir -p "$out"

major="${version#v}"; major="${major%%.*}"
minor="${version#v*.}"; minor="${minor%%.*}"
ldflags="-s -w"
for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
  ldflags+=" -X $pkg.gitVersion=$version -X $pkg.gitMajor=$major -X $pkg.gitMinor=$minor"
  ldflags+=" -X $pkg.gitTreeState=clean -X $pkg.buildDate=1970-01-01T00:00:00Z"
done

export CGO_ENABLED="${CGO_ENABLED:-0}"

build() { # name package
  local name="$1" pkg="$2"
  if [[ -x "$out/$name" ]]; then
    echo "$name: cached ($out/$name)" >&2
    return
  fi
  echo "building $name (first build takes minutes)..." >&2
  local start=$SECONDS tmp="$out/.$name.tmp.$$"
  go build -trimpath -ldflags="$ldflags" -o "$tmp" "$pkg"
  mv -f "$tmp" "$out/$name"
  echo "built $name in $((SECONDS - start))s" >&2
}

build etcd ./cmd/etcd
build kube-apiserver k8s.io/kubernetes/cmd/kube-apiserver
build kube-scheduler k8s.io/kubernetes/cmd/kube-scheduler
build kube-controller-manager k8s.io/kubernetes/cmd/kube-controller-manager

echo "$out"
