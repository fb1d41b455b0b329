#!/usr/bin/env bash
# Builds the tools the alerting tests run, from Go modules pinned in this folder's go.mod/go.sum files, at the releases
# kube-prometheus-stack's pinned chart deploys (its prometheus and alertmanager image tags):
#   promtool/  promtool (github.com/prometheus/prometheus/cmd/promtool): `check rules`, `test rules`
#   amtool/    amtool (github.com/prometheus/alertmanager/cmd/amtool): `check-config`, `config routes test`
# into $MARA_ALERTING_DIR/bin (default: .cache/alerting/bin in the repository, ignored by git). Go's own module and
# build caches make a rebuild after a fresh clone a matter of linking; a stamp of the inputs skips even that when
# nothing changed. Nothing is downloaded but Go modules through the module proxy.
#
# promtool is built with Prometheus's documented build tag remove_all_sd (README.md, "Service discovery plugins"):
# it leaves out the optional service discoveries (AWS, Azure, GCE, ...), which neither `check rules` nor `test rules`
# uses, and most of the module's dependencies with them; the rule parser and the evaluation engine are the same.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="${MARA_ALERTING_DIR:-$root/.cache/alerting}/bin"
# The versions in go.mod and go.sum are the ones built: a missing go.sum line is fetched through the proxy and checked
# against the checksum database, never an upgrade.
export GOFLAGS="${GOFLAGS:+$GOFLAGS }-mod=mod"

if ! command -v go >/dev/null 2>&1; then
    echo "test/alerting/build.sh: the alerting tests need Go 1.25 or later (the go command was not found on PATH); install it (Debian: apt-get install golang, or https://go.dev/dl) and run this again" >&2
    exit 1
fi
mkdir -p "$out"

required() { grep -oE "(^|[[:space:]])$1 v[^[:space:]]+" "$2" | awk '{ print $2 }' | head -1; }
PROMETHEUS_MODULE=$(required github.com/prometheus/prometheus "$here/promtool/go.mod")
ALERTMANAGER_MODULE=$(required github.com/prometheus/alertmanager "$here/amtool/go.mod")
if [ -z "$PROMETHEUS_MODULE" ] || [ -z "$ALERTMANAGER_MODULE" ]; then
    echo "test/alerting/build.sh: cannot read the pinned versions from promtool/go.mod and amtool/go.mod" >&2
    exit 1
fi
# Prometheus 3's module versions are v0.<major><minor>.<patch> (v0.314.0 is Prometheus 3.14.0); Alertmanager's are its releases.
field=${PROMETHEUS_MODULE#v0.}
PROMETHEUS_VERSION="${field:0:1}.${field:1}"
ALERTMANAGER_VERSION=${ALERTMANAGER_MODULE#v}
# What `promtool --version` and `amtool --version` report (github.com/prometheus/common/version).
stamp_flags() { echo "-s -w -X github.com/prometheus/common/version.Version=$1 -X github.com/prometheus/common/version.Branch=module -X github.com/prometheus/common/version.Revision=$2"; }

stamp() {
    cat "$here/build.sh" "$here/$1/go.mod" "$here/$1/go.sum" "$here/$1/tools.go" | sha256sum | cut -d' ' -f1
}

build_promtool() {
    (cd "$here/promtool" && go build -trimpath -tags remove_all_sd -ldflags="$(stamp_flags "$PROMETHEUS_VERSION" "$PROMETHEUS_MODULE")" \
        -o "$out/" github.com/prometheus/prometheus/cmd/promtool)
}

build_amtool() {
    (cd "$here/amtool" && go build -trimpath -ldflags="$(stamp_flags "$ALERTMANAGER_VERSION" "$ALERTMANAGER_MODULE")" \
        -o "$out/" github.com/prometheus/alertmanager/cmd/amtool)
}

for part in promtool amtool; do
    want=$(stamp "$part")
    if [ -x "$out/$part" ] && [ -f "$out/.$part.stamp" ] && [ "$(cat "$out/.$part.stamp")" = "$want" ]; then
        echo "test/alerting/build.sh: $part is up to date"
        continue
    fi
    start=$(date +%s)
    echo "test/alerting/build.sh: building $part (a first build downloads its modules and compiles for minutes on two cores; later ones reuse Go's caches)"
    "build_$part"
    echo "$want" >"$out/.$part.stamp"
    echo "test/alerting/build.sh: built $part in $(($(date +%s) - start)) s"
done
