//go:build tools

// Package tools keeps the two commands in go.mod/go.sum so that `go mod tidy`
// does not drop them; build.sh builds them from this module.
package tools

import (
	_ "sigs.k8s.io/karpenter/kwok"
	_ "sigs.k8s.io/kwok/cmd/kwok"
)
