// Command pulumi-resource-kubernetes serves Pulumi's Kubernetes provider. The upstream main embeds a schema that
// its build generates; test/engine/build.sh copies the module's schema.json and terraform-mapping.json beside this
// file (ignored by git) before `go build`, so that the provider can be built from the module proxy alone.
package main

import (
	_ "embed"

	"github.com/pulumi/pulumi-kubernetes/provider/v4/pkg/provider"
	"github.com/pulumi/pulumi-kubernetes/provider/v4/pkg/version"
)

//go:embed schema.json
var schema []byte

//go:embed terraform-mapping.json
var terraformMapping []byte

func main() {
	provider.Serve("kubernetes", version.Version, schema, terraformMapping)
}
