/**
 * A hostPath volume reads or writes the node's own files. Only Fluent Bit, which ships the logs, needs any: the container and pod log
 * directories it tails (and, on Docker nodes, Docker's), and its own read positions. Everything else is refused,
 * and so is a path that climbs out of an allowed directory with `..`.
 */
import { celString } from "../celLiteral";
import type { KubernetesRule } from "../rule";
import { deployment, GOOD_CONTAINER, pod } from "./examples";
import { podSpecOf, WORKLOAD_VARIABLES, WORKLOADS } from "./workloads";
import { KUBE_SYSTEM, NODE_EXPORTER } from "./exemptions";

/** Fluent Bit's host paths on every cloud's nodes (container and pod logs, Docker's logs, its state). */
export const FLUENT_BIT_PATHS = ["/var/log/containers", "/var/log/pods", "/var/lib/docker/containers", "/var/lib/fluent-bit"];

/** A `.` or `..` segment: `/var/log/pods/../../etc` is below an allowed path only in its spelling. */
const DOT_SEGMENT = "(^|/)\\.\\.?(/|$)";

/** Whether `path` is one of `allowed` or below one, without dot segments. */
export function hostPathAllowed(path: string, allowed: readonly string[]): boolean {
    return !new RegExp(DOT_SEGMENT).test(path) && allowed.some((a) => path === a || path.startsWith(`${a}/`));
}

export const hostPath: KubernetesRule<{ allowedPaths: string[] }> = {
    kind: "kubernetes",
    id: "host-path-allow-list",
    description: "hostPath volumes mount only the allowed host directories (Fluent Bit's), or below them.",
    level: "mandatory",
    settings: {
        allowedPaths: {
            description: "Host directories a hostPath volume may mount, or mount below. Default: Fluent Bit's.",
            schema: { type: "array", items: { type: "string", pattern: "^/" } },
            default: FLUENT_BIT_PATHS,
        },
    },
    targets: WORKLOADS,
    check: (o, s) =>
        (podSpecOf(o)?.volumes ?? [])
            .filter((v) => v.hostPath !== undefined && !hostPathAllowed(v.hostPath.path ?? "", s.allowedPaths))
            .map((v) => `volume "${v.name}" mounts host path "${v.hostPath!.path}", which is not in the allow-list (${s.allowedPaths.join(", ")})`),
    admission: {
        variables: WORKLOAD_VARIABLES,
        validations: [
            {
                expression: `!has(variables.podSpec.volumes) || variables.podSpec.volumes.all(v, !has(v.hostPath) || (!v.hostPath.path.matches(${celString(DOT_SEGMENT)}) && variables.allowedPaths.exists(p, v.hostPath.path == p || v.hostPath.path.startsWith(p + '/'))))`,
                message: "hostPath volumes may mount only the allowed host directories",
            },
        ],
    },
    exemptions: [KUBE_SYSTEM, NODE_EXPORTER],
    examples: {
        pass: [
            deployment({ containers: [GOOD_CONTAINER], volumes: [{ name: "data", emptyDir: {} } as never] }),
            pod({ containers: [GOOD_CONTAINER], volumes: [{ name: "logs", hostPath: { path: "/var/log/pods" } }, { name: "state", hostPath: { path: "/var/lib/fluent-bit/db" } }] }),
        ],
        fail: [
            deployment({ containers: [GOOD_CONTAINER], volumes: [{ name: "root", hostPath: { path: "/" } }] }),
            pod({ containers: [GOOD_CONTAINER], volumes: [{ name: "escape", hostPath: { path: "/var/log/pods/../../../etc" } }] }),
            pod({ containers: [GOOD_CONTAINER], volumes: [{ name: "prefix", hostPath: { path: "/var/log/podsandmore" } }] }),
        ],
    },
};
