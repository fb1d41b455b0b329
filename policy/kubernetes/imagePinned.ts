/**
 * An image named by `latest`, or by no tag at all (which means `latest`), changes under a running workload: two
 * replicas can run different code, and a rollback returns to nothing in particular. A tag other than `latest`, or
 * a digest, names one image.
 */
import { celString } from "../celLiteral";
import type { KubernetesRule } from "../rule";
import { container, deployment, GOOD_CONTAINER, pod } from "./examples";
import { containerName, containersOf, WORKLOAD_VARIABLES, WORKLOADS } from "./workloads";
import { KUBE_SYSTEM } from "./exemptions";

/** `@<algorithm>:<hex>` at the end: pinned by digest. Valid in RE2 (CEL) and JavaScript alike. */
export const DIGEST = "@[a-z0-9]+([+._-][a-z0-9]+)*:[a-fA-F0-9]{32,}$";
/** `:<tag>` after the last `/`: a registry's port (`host:5000/app`) is followed by a `/`, so it never matches. */
export const TAG = ":[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$";

/** Whether an image reference names one image: a digest, or a tag other than `latest`. */
export function isPinned(image: string): boolean {
    return new RegExp(DIGEST).test(image) || (new RegExp(TAG).test(image) && !image.endsWith(":latest"));
}

export const imagePinned: KubernetesRule = {
    kind: "kubernetes",
    id: "image-pinned",
    description: "Every container image is pinned by a tag other than `latest`, or by digest.",
    level: "mandatory",
    settings: {},
    targets: WORKLOADS,
    check: (o) =>
        containersOf(o)
            .filter((c) => c.image !== undefined && !isPinned(c.image))
            .map((c) => `container ${containerName(c)} runs "${c.image}", which names no fixed image: give it a tag other than latest, or a digest`),
    admission: {
        variables: WORKLOAD_VARIABLES,
        validations: [
            {
                expression: `variables.containers.all(c, !has(c.image) || c.image.matches(${celString(DIGEST)}) || (c.image.matches(${celString(TAG)}) && !c.image.endsWith(':latest')))`,
                message: "every container image must be pinned by a tag other than latest, or by digest",
            },
        ],
    },
    exemptions: [KUBE_SYSTEM],
    examples: {
        pass: [
            deployment({ containers: [GOOD_CONTAINER, container({ name: "proxy", image: "registry.example.com:5000/proxy:v2" })] }),
            pod({ containers: [container({ image: `nginx@sha256:${"a".repeat(64)}` })] }),
            pod({ containers: [container({ image: `nginx:1.27@sha256:${"b".repeat(64)}` })] }),
        ],
        fail: [
            deployment({ containers: [container({ image: "nginx" })] }),
            pod({ containers: [container({ image: "nginx:latest" })] }),
            deployment({ containers: [GOOD_CONTAINER], initContainers: [container({ name: "init", image: "registry.example.com:5000/tools" })] }),
        ],
    },
};
