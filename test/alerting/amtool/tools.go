//go:build tools

// The program this module builds; the blank import keeps it in go.mod.
package tools

import _ "github.com/prometheus/alertmanager/cmd/amtool"
