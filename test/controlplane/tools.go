//go:build tools

// Package tools keeps the Kubernetes commands in go.mod/go.sum so that
// `go mod tidy` does not drop them; build.sh builds them from this module.
package tools

import (
	_ "k8s.io/kubernetes/cmd/kube-apiserver"
	_ "k8s.io/kubernetes/cmd/kube-controller-manager"
	_ "k8s.io/kubernetes/cmd/kube-scheduler"
)
