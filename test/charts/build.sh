#!/usr/bin/env bash
# Packages the charts that reach this project as Go modules (test/charts/sources/sources.json) into test/charts/,
# beside the vendored archives, and checks each against SHA256SUMS. Needs Go; an archive already there with the
# recorded digest is left alone, so a second run takes a second. Run by `npm test`, `npm run test:offline` and CI.
set -euo pipefail
cd "$(dirname "$0")/sources"
command -v go >/dev/null || { echo "test/charts/build.sh: Go is needed to package metallb and argo-cd from their Go modules (install Go 1.26, then run it again)" >&2; exit 1; }
exec go run . -out ..
