import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import type { ChartSettings } from "../contracts";
import { urlCredentials } from "../contracts/urlCredentials";
import { PLATFORM_LABELS } from "./ownership/marks";

/** What {@link helmRelease} needs besides the chart coordinates. */
export interface HelmReleaseArgs {
    /** Helm release name (fixed, because Service names derive from it). */
    release: string;
    /** Namespace to install into; it must exist (components create their own, with labels). */
    namespace: pulumi.Input<string>;
    /** Chart, version, repository and timeout, normally from the catalogue in config/. */
    chart: ChartSettings;
    /** Chart values. Never put secrets here: reference Kubernetes Secrets from the values instead. */
    values: pulumi.Input<Record<string, unknown>>;
    /** Skip the chart's `crds/` directories because the CRDs are applied as resources (see chartCrds.ts). Default false. */
    skipCrds?: boolean;
}

/**
 * A real Helm release (`helm list` shows it; hooks and CRDs work), waiting for its workloads to become
 * ready within the chart's timeout and cleaning up what a failed install created. `helm.v3.Release` is
 * used rather than `helm.v4.Chart`, which renders on the provider side and fails on a fresh stack whose
 * kubeconfig is still unknown at preview.
 */
export function helmRelease(name: string, a: HelmReleaseArgs, opts: pulumi.CustomResourceOptions): k8s.helm.v3.Release {
    const oci = a.chart.repositoryUrl.startsWith("oci://");
    // A local archive is installed as it is: Helm reads chart and version from it, and no repository is contacted.
    const source = a.chart.archive
        ? { chart: a.chart.archive }
        : { chart: oci ? `${a.chart.repositoryUrl}/${a.chart.chart}` : a.chart.chart, version: a.chart.version, repositoryOpts: oci ? undefined : repositoryOptions(a.chart.repositoryUrl) };
    return new k8s.helm.v3.Release(
        name,
        {
            name: a.release,
            namespace: a.namespace,
            ...source,
            values: a.values,
            timeout: a.chart.timeoutSeconds,
            cleanupOnFail: true,
            createNamespace: false,
            ...(a.skipCrds ? { skipCrds: true } : {}),
        },
        opts,
    );
}

/** `scheme://`, the user information up to the authority's last `@`, and the rest of the URL. */
const USER_INFO = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*)@(.*)$/is;

/**
 * Where Helm fetches the chart from, with a mirror's credential kept out of the state in plain text. `user:password@`
 * becomes Helm's own basic-auth options (`helm install --username --password`; the provider's schema marks the
 * password secret, and it is wrapped here too, so the state holds it encrypted and no diff shows it). Any other
 * credential in the URL (a token as the user alone, which Helm's getter would not send as separate options since
 * it needs both; a token in the query) stays in the URL as Helm reads it, and the whole URL is a secret.
 */
export function repositoryOptions(url: string): k8s.types.input.helm.v3.RepositoryOpts {
    const m = USER_INFO.exec(url);
    const colon = m ? m[2]!.indexOf(":") : -1;
    if (m && colon > 0) {
        return { repo: `${m[1]}${m[3]}`, username: decoded(m[2]!.slice(0, colon)), password: pulumi.secret(decoded(m[2]!.slice(colon + 1))) };
    }
    return { repo: m || urlCredentials(url).length > 0 ? pulumi.secret(url) : url };
}

/** Percent-decoded user information, as a URL parser reads it; as written when it is not valid percent-encoding. */
function decoded(part: string): string {
    try {
        return decodeURIComponent(part);
    } catch {
        return part;
    }
}

export { PLATFORM_LABELS } from "./ownership/marks";
import { PodSecurityLevel, podSecurityLabels } from "./podSecurity";

/**
 * A namespace with the platform's labels, the Pod Security Standards labels of `podSecurity` (the highest level every
 * workload in it meets, see components/podSecurity.ts), plus `labels`. Its name is fixed: other components address
 * Services in it.
 */
export function platformNamespace(
    name: string,
    namespace: string,
    podSecurity: PodSecurityLevel,
    labels: Record<string, string>,
    opts: pulumi.CustomResourceOptions,
): k8s.core.v1.Namespace {
    return new k8s.core.v1.Namespace(name, { metadata: { name: namespace, labels: { ...PLATFORM_LABELS, ...podSecurityLabels(podSecurity), ...labels } } }, opts);
}
