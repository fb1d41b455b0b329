#!/usr/bin/env bash
# Builds what the real-engine test tier runs, from Go modules pinned in this folder's go.mod/go.sum files:
#   kube/      kube-apiserver, kube-controller-manager, kube-scheduler and kubectl (k8s.io/kubernetes v1.35.x),
#              and etcd (go.etcd.io/etcd/server/v3)
#   kwok/      kwok (sigs.k8s.io/kwok), which plays the kubelet of nodes that run no containers
#   pulumi/    the Pulumi CLI (github.com/pulumi/pulumi/pkg/v3/cmd/pulumi)
#   provider/  Pulumi's Kubernetes resource provider (github.com/pulumi/pulumi-kubernetes/provider/v4)
#   actionlint/ actionlint (github.com/rhysd/actionlint), which checks the GitHub workflows `mara init --ci` writes
# into $MARA_ENGINE_DIR/bin (default: .cache/engine/bin in the repository, ignored by git). Go's own module and
# build caches make a rebuild after a fresh clone a matter of linking; a stamp of the inputs skips even that when
# nothing changed. Nothing is downloaded but Go modules through the module proxy.
# Arguments name the parts to build (`bash test/engine/build.sh actionlint`); none builds them all.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="${MARA_ENGINE_DIR:-$root/.cache/engine}/bin"

if ! command -v go >/dev/null 2>&1; then
    echo "test/engine/build.sh: the real-engine tier needs Go 1.26 or later (the go command was not found on PATH); install it (Debian: apt-get install golang, or https://go.dev/dl) and run this again" >&2
    exit 1
fi
mkdir -p "$out"

# Version stamps the binaries report: Kubernetes' /version and `pulumi version` must say what was built, because
# Helm and the Kubernetes provider check the server version, and mara checks the CLI's.
required() { grep -oE "(^|[[:space:]])$1 v[^[:space:]]+" "$2" | awk '{ print $2 }' | head -1; }
K8S_VERSION=$(required k8s.io/kubernetes "$here/kube/go.mod")
PULUMI_VERSION=$(required github.com/pulumi/pulumi/pkg/v3 "$here/pulumi/go.mod")
if [ -z "$K8S_VERSION" ] || [ -z "$PULUMI_VERSION" ]; then
    echo "test/engine/build.sh: cannot read the pinned versions from kube/go.mod and pulumi/go.mod" >&2
    exit 1
fi
K8S_MINOR=$(echo "$K8S_VERSION" | cut -d. -f2)
# The provider module is served as a pseudo-version of an untagged commit; PROVIDER_VERSION names the release line
# it belongs to (docs/testing.md says which).
PROVIDER_VERSION=4.25.0

stamp() {
    cat "$here/build.sh" "$here/$1/go.mod" "$here/$1/go.sum" $(find "$here/$1" -name '*.go' | sort) | sha256sum | cut -d' ' -f1
}

build_kube() {
    local v=k8s.io/component-base/version cv=k8s.io/client-go/pkg/version
    local ld="-s -w -X $v.gitVersion=$K8S_VERSION -X $v.gitMajor=1 -X $v.gitMinor=$K8S_MINOR -X $v.gitTreeState=clean"
    ld="$ld -X $cv.gitVersion=$K8S_VERSION -X $cv.gitMajor=1 -X $cv.gitMinor=$K8S_MINOR -X $cv.gitTreeState=clean"
    (cd "$here/kube" && go build -trimpath -ldflags="$ld" -o "$out/" \
        k8s.io/kubernetes/cmd/kube-apiserver k8s.io/kubernetes/cmd/kube-controller-manager \
        k8s.io/kubernetes/cmd/kube-scheduler k8s.io/kubernetes/cmd/kubectl)
    (cd "$here/kube" && go build -trimpath -ldflags="-s -w" -o "$out/etcd" go.etcd.io/etcd/server/v3)
}

build_kwok() {
    (cd "$here/kwok" && go build -trimpath -ldflags="-s -w" -o "$out/" sigs.k8s.io/kwok/cmd/kwok)
    # kwok does nothing without stages (how nodes and pods move through their lifecycle). Its module ships the ones
    # kwokctl installs by default; the tier uses those: nodes initialise and keep their lease, pods are created,
    # run their init containers, become ready, complete when they belong to a Job, and go away when deleted.
    local dir
    dir=$(cd "$here/kwok" && go list -m -f '{{.Dir}}' sigs.k8s.io/kwok)
    local stages=(node/fast/node-initialize node/heartbeat-with-lease/node-heartbeat-with-lease
        pod/general/pod-create pod/general/pod-init-container-running pod/general/pod-init-container-completed
        pod/general/pod-ready pod/general/pod-complete pod/general/pod-delete)
    : >"$out/kwok-stages.yaml"
    for s in "${stages[@]}"; do
        { echo "---"; cat "$dir/kustomize/stage/$s.yaml"; } >>"$out/kwok-stages.yaml"
    done
    # One change to those stages: a deleted pod goes away a second after its deletion, as a container that stops
    # on SIGTERM does. kwok's default draws the delay at random from up to the whole grace period (30 s unless
    # the pod says otherwise), and the namespace controller deletes a namespace's pods before anything else and
    # waits for them, so every namespace deletion, and every destroy, took a random half minute more.
    local mark="expressionFrom: '.metadata.deletionTimestamp'"
    if [ "$(grep -cF "$mark" "$out/kwok-stages.yaml")" != 1 ]; then
        echo "test/engine/build.sh: kwok's stages no longer draw the pod-delete delay from the deletion timestamp (once); review the change to them here" >&2
        exit 1
    fi
    sed -i "/^    jitterDurationFrom:\$/{N;/expressionFrom: '\.metadata\.deletionTimestamp'/d}" "$out/kwok-stages.yaml"
    if grep -qF "$mark" "$out/kwok-stages.yaml"; then
        echo "test/engine/build.sh: could not take the random delay out of kwok's pod-delete stage" >&2
        exit 1
    fi
}

build_pulumi() {
    (cd "$here/pulumi" && go build -trimpath -ldflags="-s -w -X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=$PULUMI_VERSION" \
        -o "$out/" github.com/pulumi/pulumi/pkg/v3/cmd/pulumi)
}

build_provider() {
    # The provider's main embeds its schema, which upstream generates at build time; copy the module's files.
    local dir main="$here/provider/cmd/pulumi-resource-kubernetes"
    (cd "$here/provider" && go mod download github.com/pulumi/pulumi-kubernetes/provider/v4)
    dir=$(cd "$here/provider" && go list -m -f '{{.Dir}}' github.com/pulumi/pulumi-kubernetes/provider/v4)
    install -m 0644 "$dir/cmd/pulumi-resource-kubernetes/schema.json" "$dir/cmd/pulumi-resource-kubernetes/terraform-mapping.json" "$main/"
    (cd "$here/provider" && go build -trimpath -ldflags="-s -w -X github.com/pulumi/pulumi-kubernetes/provider/v4/pkg/version.Version=$PROVIDER_VERSION" \
        -o "$out/" ./cmd/pulumi-resource-kubernetes)
}

build_actionlint() {
    (cd "$here/actionlint" && go build -trimpath -ldflags="-s -w" -o "$out/" github.com/rhysd/actionlint/cmd/actionlint)
}

all=(kube kwok pulumi provider actionlint)
parts=("$@")
[ ${#parts[@]} -gt 0 ] || parts=("${all[@]}")
for part in "${parts[@]}"; do
    if [[ ! " ${all[*]} " =~ " $part " ]]; then
        echo "test/engine/build.sh: no part named \"$part\"; the parts are: ${all[*]}" >&2
        exit 2
    fi
done

for part in "${parts[@]}"; do
    want=$(stamp "$part")
    if [ -f "$out/.$part.stamp" ] && [ "$(cat "$out/.$part.stamp")" = "$want" ]; then
        echo "test/engine/build.sh: $part binaries are up to date"
        continue
    fi
    start=$(date +%s)
    echo "test/engine/build.sh: building $part (a first build takes many minutes on two cores; later ones reuse Go's build cache)"
    "build_$part"
    echo "$want" >"$out/.$part.stamp"
    echo "test/engine/build.sh: built $part in $(($(date +%s) - start)) s"
done
