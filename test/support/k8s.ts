/** Kubernetes helpers for component tests: a provider for a test cluster and offline schema validation. */
import * as k8s from "@pulumi/kubernetes";
import * as models from "kubernetes-models";
import { promiseOf, Registration, sampleKubeconfig, unwrapSecrets } from "./mocks";

/** An explicit Kubernetes provider for a test cluster, as the Kubeconfig component would create it. */
export function testProvider(cluster = "test"): k8s.Provider {
    return new k8s.Provider(cluster === "test" ? "k8s" : `k8s-${cluster}`, { kubeconfig: JSON.stringify(sampleKubeconfig(cluster)) });
}

/** The provider reference string (`<urn>::<id>`) recorded for resources that use `provider`. */
export async function k8sProviderRef(provider: k8s.Provider): Promise<string> {
    const [urn, id] = await Promise.all([promiseOf(provider.urn), promiseOf(provider.id)]);
    return `${urn}::${id}`;
}

/** kubernetes-models namespaces by API group, e.g. "networking.k8s.io" → models.networkingK8sIo. */
function groupModels(group: string): Record<string, Record<string, unknown>> | undefined {
    const key = group === "core" ? "v1" : group.replace(/\.([a-z])/g, (_, c: string) => c.toUpperCase());
    return (models as unknown as Record<string, Record<string, Record<string, unknown>>>)[key];
}

/**
 * Validates every registered built-in Kubernetes object against the OpenAPI schemas bundled in
 * kubernetes-models (Kubernetes 1.36 merged with older, since-removed API versions; the render tier in
 * test/render also rejects API versions the default cluster version, 1.35, no longer serves). Returns the
 * objects checked and the errors found. Helm releases and custom resources have no built-in schema and are skipped.
 */
export function validateKubernetesObjects(regs: Registration[]): { checked: string[]; errors: string[] } {
    const checked: string[] = [];
    const errors: string[] = [];
    for (const r of regs) {
        const m = /^kubernetes:([^/]+)\/([^:]+):(\w+)$/.exec(r.type);
        if (!m || r.read || !r.inputs) continue;
        const [, group, version, kind] = m as unknown as [string, string, string, string];
        const ns = groupModels(group);
        const versionModels = group === "core" ? ns : (ns?.[version] as Record<string, unknown> | undefined);
        const Model = versionModels?.[kind] as (new (data: unknown) => { validate(): void }) | undefined;
        if (!Model) continue;
        const apiVersion = group === "core" ? version : `${group}/${version}`;
        try {
            new Model({ ...(unwrapSecrets(r.inputs) as object), apiVersion, kind }).validate();
            checked.push(`${kind}/${r.name}`);
        } catch (e) {
            errors.push(`${kind}/${r.name}: ${(e as Error).message}`);
        }
    }
    return { checked, errors };
}
