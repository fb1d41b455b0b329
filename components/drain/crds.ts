/**
 * Removes the CustomResourceDefinitions this platform's Helm releases installed and Helm leaves behind
 * (ECK's, marked `helm.sh/resource-policy: keep`; cert-manager's when kept), on a cluster the stack
 * created, at destroy, after every resource using them is gone (MARA issues #83 and #173).
 *
 * A CRD is this platform's only when Helm's own ownership marks say so: the label
 * `app.kubernetes.io/managed-by: Helm` and the annotations `meta.helm.sh/release-name` and
 * `meta.helm.sh/release-namespace` naming one of the platform's releases in its namespace. Never by
 * API group: another team's ECK or Prometheus operator on the same cluster uses the same groups, and
 * deleting a CRD deletes every object of its kind. CRDs that charts ship in their `crds/` directory
 * (kube-prometheus-stack's, the NGINX Ingress Controller's) carry no such marks, so they stay: the program
 * applies those itself and never deletes them (components/chartCrds.ts); they go with the cluster.
 */
import type { ClusterClient, CrdRecord } from "./records";

/** A Helm release of the platform: its name and namespace. */
export interface HelmReleaseRef {
    readonly name: string;
    readonly namespace: string;
}

/** The release whose Helm ownership marks `crd` carries, if it is one of `releases`. */
export function installedBy(crd: CrdRecord, releases: readonly HelmReleaseRef[]): HelmReleaseRef | undefined {
    if (crd.labels["app.kubernetes.io/managed-by"] !== "Helm") return undefined;
    const name = crd.annotations["meta.helm.sh/release-name"];
    const namespace = crd.annotations["meta.helm.sh/release-namespace"];
    return releases.find((r) => r.name === name && r.namespace === namespace);
}

/** What CRD cleanup did. */
export interface CrdCleanup {
    readonly removed: readonly string[];
    /** CRDs left in place, with the reason, for those that look like a platform release's but are not. */
    readonly kept: readonly { name: string; reason: string }[];
}

/** Deletes the CRDs installed by `releases`; reports those another Helm release of the same name installed elsewhere. */
export async function removePlatformCrds(client: ClusterClient, releases: readonly HelmReleaseRef[], log: (m: string) => void = () => undefined): Promise<CrdCleanup> {
    const crds = await client.customResourceDefinitions();
    const removed: string[] = [];
    const kept: { name: string; reason: string }[] = [];
    for (const crd of crds) {
        const release = installedBy(crd, releases);
        if (release) {
            await client.deleteCustomResourceDefinition(crd.name);
            removed.push(crd.name);
            log(`deleted CustomResourceDefinition ${crd.name} (installed by Helm release ${release.namespace}/${release.name})`);
            continue;
        }
        const name = crd.annotations["meta.helm.sh/release-name"];
        const namespace = crd.annotations["meta.helm.sh/release-namespace"] ?? "?";
        if (name && releases.some((r) => r.name === name)) {
            const reason =
                crd.labels["app.kubernetes.io/managed-by"] !== "Helm"
                    ? `names release ${namespace}/${name} but lacks Helm's app.kubernetes.io/managed-by label`
                    : `installed by Helm release ${namespace}/${name}, not this platform's`;
            kept.push({ name: crd.name, reason });
            log(`kept CustomResourceDefinition ${crd.name}: ${reason}`);
        }
    }
    const others = crds.length - removed.length - kept.length;
    if (others > 0) log(`kept ${others} other CustomResourceDefinition(s): no Helm marks of this platform's releases (they go with the cluster)`);
    return { removed, kept };
}
