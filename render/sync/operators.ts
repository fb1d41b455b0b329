/**
 * The operators the platform installs, recognised by the image their workload runs, and the custom kinds each
 * reconciles. The External Secrets Operator is not in a render: the cluster must have it before the first sync.
 */
import { apiGroupOf } from "../kinds";
import { containersOf, podSpecOf } from "./podNeeds";
import type { ObjectIndex, SyncObject } from "./objects";

/** An operator: the image path its workload runs (registry and tag left out), and the API groups it reconciles. */
interface Operator {
    name: string;
    image: RegExp;
    groups: (group: string) => boolean;
}

const OPERATORS: Operator[] = [
    { name: "cert-manager", image: /(^|\/)cert-manager-controller$/, groups: (g) => g === "cert-manager.io" || g === "acme.cert-manager.io" },
    { name: "ECK", image: /(^|\/)eck-operator$/, groups: (g) => g.endsWith(".k8s.elastic.co") },
    { name: "the Prometheus operator", image: /(^|\/)prometheus-operator$/, groups: (g) => g === "monitoring.coreos.com" },
    { name: "the OpenTelemetry operator", image: /(^|\/)opentelemetry-operator$/, groups: (g) => g === "opentelemetry.io" },
];

/** The groups the cluster reconciles before the sync: the External Secrets Operator's. */
export const EXTERNAL_GROUPS = new Set(["external-secrets.io", "generators.external-secrets.io"]);

/**
 * Custom kinds whose Argo CD health check (shipped in Argo CD's resource_customizations) reads a status their
 * operator writes: they are Progressing until the operator has reconciled them. Other custom resources are healthy
 * as soon as they are applied.
 */
export const RECONCILED_HEALTH = new Set([
    "cert-manager.io/Certificate", "cert-manager.io/Issuer", "cert-manager.io/ClusterIssuer",
    "external-secrets.io/ExternalSecret", "external-secrets.io/SecretStore", "external-secrets.io/ClusterSecretStore",
    "elasticsearch.k8s.elastic.co/Elasticsearch", "monitoring.coreos.com/Prometheus", "opentelemetry.io/OpenTelemetryCollector",
]);

/** An image reference without its registry host, tag and digest: `quay.io/jetstack/cert-manager-controller:v1` → `jetstack/cert-manager-controller`. */
export function imagePath(image: string): string {
    const noDigest = image.split("@")[0]!;
    const slash = noDigest.lastIndexOf("/");
    const colon = noDigest.lastIndexOf(":");
    return colon > slash ? noDigest.slice(0, colon) : noDigest;
}

/** Images of an object's containers. */
export function imagesOf(o: SyncObject): string[] {
    const pod = podSpecOf(o.object);
    return pod ? containersOf(pod).map((c) => String(c.image ?? "")) : [];
}

/** The workload of the render that runs an image matching `image`. */
export function workloadRunning(index: ObjectIndex, image: RegExp): SyncObject | undefined {
    return index.objects.find((o) => apiGroupOf(o.object.apiVersion) === "apps" && imagesOf(o).some((i) => image.test(imagePath(i))));
}

/** The workload that reconciles a group, "external" for the External Secrets Operator, undefined when none is known. */
export function operatorOf(index: ObjectIndex, group: string): SyncObject | "external" | undefined {
    if (EXTERNAL_GROUPS.has(group)) return "external";
    const op = OPERATORS.find((x) => x.groups(group));
    return op ? workloadRunning(index, op.image) : undefined;
}
