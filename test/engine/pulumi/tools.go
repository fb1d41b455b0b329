//go:build tools

// The programs this module builds; the blank import keeps the CLI in go.mod.
package tools

import _ "github.com/pulumi/pulumi/pkg/v3/cmd/pulumi"
