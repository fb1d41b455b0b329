/** Builders for the rules' example objects, so each example shows only what the rule is about. */
import type { KubeObject } from "../rule";
import type { Container, PodSpec } from "./workloads";

/** A container that follows every container rule: pinned image, requests and a memory limit, no privileges. */
export const GOOD_CONTAINER: Container = {
    name: "app",
    image: "ghcr.io/example/app:1.4.2",
    resources: { requests: { cpu: "100m", memory: "128Mi" }, limits: { memory: "256Mi" } },
};

/** A Deployment in namespace `team-a` whose pod has the given spec. */
export function deployment(spec: PodSpec, namespace = "team-a"): KubeObject {
    return {
        apiVersion: "apps/v1",
        kind: "Deployment",
        metadata: { name: "app", namespace },
        spec: { replicas: 1, selector: { matchLabels: { app: "app" } }, template: { metadata: { labels: { app: "app" } }, spec } },
    };
}

/** A bare Pod in namespace `team-a`. */
export function pod(spec: PodSpec, namespace = "team-a"): KubeObject {
    return { apiVersion: "v1", kind: "Pod", metadata: { name: "app", namespace }, spec };
}

/** A CronJob in namespace `team-a` running a pod with the given spec. */
export function cronJob(spec: PodSpec, namespace = "team-a"): KubeObject {
    return {
        apiVersion: "batch/v1",
        kind: "CronJob",
        metadata: { name: "nightly", namespace },
        spec: { schedule: "0 3 * * *", jobTemplate: { spec: { template: { spec: { restartPolicy: "OnFailure", ...spec } } } } },
    };
}

/** {@link GOOD_CONTAINER} with some fields replaced. */
export const container = (changes: Partial<Container> & Record<string, unknown>): Container => ({ ...GOOD_CONTAINER, ...changes });
