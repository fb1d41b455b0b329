/**
 * Removes the CustomResourceDefinitions the platform's charts install and Helm never deletes (those in
 * a chart's crds/ directory, or marked "keep"): kube-prometheus-stack's, the NGINX Ingress Controller's
 * and ECK's (MARA issues #83 and #173). Runs only at destroy, after every resource using them is gone.
 */

/** API groups of the CRDs the platform installs. */
export const PLATFORM_CRD_GROUPS = [
    "monitoring.coreos.com",
    "k8s.nginx.org",
    "externaldns.nginx.org",
    "appprotect.f5.com",
    "appprotectdos.f5.com",
    "elasticsearch.k8s.elastic.co",
    "kibana.k8s.elastic.co",
    "apm.k8s.elastic.co",
    "beat.k8s.elastic.co",
    "agent.k8s.elastic.co",
    "enterprisesearch.k8s.elastic.co",
    "maps.k8s.elastic.co",
    "logstash.k8s.elastic.co",
    "stackconfigpolicy.k8s.elastic.co",
    "autoops.k8s.elastic.co",
    "packageregistry.k8s.elastic.co",
] as const;

/** The calls CRD cleanup makes (a fake implements them in tests). */
export interface CrdClient {
    list(): Promise<{ name: string; group: string }[]>;
    remove(name: string): Promise<void>;
}

/** Deletes every CRD in `groups`; returns the names deleted. */
export async function removeCrds(client: CrdClient, groups: readonly string[], log: (m: string) => void = () => undefined): Promise<string[]> {
    const doomed = (await client.list()).filter((c) => groups.includes(c.group));
    for (const crd of doomed) {
        await client.remove(crd.name);
        log(`deleted CustomResourceDefinition ${crd.name}`);
    }
    return doomed.map((c) => c.name);
}

/** A {@link CrdClient} for the cluster of a kubeconfig, with the official Kubernetes client. */
export async function kubernetesCrdClient(kubeconfig: string, context?: string): Promise<CrdClient> {
    // require (Node 20.19+ loads this ES module synchronously): the dynamic-provider host cannot import().
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const k8s = require("@kubernetes/client-node") as typeof import("@kubernetes/client-node");
    const kc = new k8s.KubeConfig();
    kc.loadFromString(kubeconfig);
    if (context) kc.setCurrentContext(context);
    const api = kc.makeApiClient(k8s.ApiextensionsV1Api);
    return {
        list: async () => (await api.listCustomResourceDefinition()).items.map((c) => ({ name: c.metadata?.name ?? "", group: c.spec.group })),
        remove: async (name) => void (await api.deleteCustomResourceDefinition({ name })),
    };
}
