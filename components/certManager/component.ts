import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import { CHARTS, ChartSettings, DEFAULTS, PATTERNS, requireMatch } from "../../contracts";
import { ACME_ISSUER, SELF_SIGNED_ISSUER } from "../clusterNames";
import { helmRelease, platformNamespace } from "../helmRelease";
import { guardedOptions } from "../ownership/guard";

/** An ACME (Let's Encrypt) issuer solving HTTP-01 challenges through the ingress controller. */
export interface AcmeIssuerArgs {
    /** Account email for expiry notices. Required. */
    email: string;
    /** ACME directory URL. Default `https://acme-v02.api.letsencrypt.org/directory` (Let's Encrypt production). */
    server?: string;
    /** Ingress class that serves the HTTP-01 challenges. Default `nginx`. */
    ingressClassName?: string;
}

/** Arguments of {@link CertManager}. */
export interface CertManagerArgs {
    /** Chart coordinates. Default: the catalogue's cert-manager entry. */
    chart?: ChartSettings;
    /** Namespace for cert-manager. Default `cert-manager`. */
    namespace?: string;
    /** Adds an ACME ClusterIssuer named `letsencrypt` when set. The self-signed issuer is always created. */
    acme?: AcmeIssuerArgs;
}

export { ACME_ISSUER, SELF_SIGNED_ISSUER } from "../clusterNames";

/** Helm release name; the chart names its controller's metrics Service `certmgr-cert-manager` from it. */
export const CERT_MANAGER_RELEASE = "certmgr";
/** The controller's metrics Service (port `http-metrics`, 9402), which a ServiceMonitor scrapes: the chart's fullname. */
export const CERT_MANAGER_METRICS_SERVICE = `${CERT_MANAGER_RELEASE}-cert-manager`;
/**
 * Labels of the controller's metrics Service, which a ServiceMonitor selects. Not `app.kubernetes.io/instance`: Argo CD's
 * label tracking overwrites it on what it syncs (docs/gitops.md), and the chart's other Services (webhook, cainjector)
 * have names of their own.
 */
export const CERT_MANAGER_METRICS_LABELS = { "app.kubernetes.io/name": "cert-manager", "app.kubernetes.io/component": "controller" } as const;

/**
 * cert-manager with its CRDs, a self-signed ClusterIssuer and, optionally, an ACME one. The issuers are
 * created only after the release is complete, and the release completes only when the chart's
 * `startupapicheck` hook has reached the webhook; so the issuers never hit a webhook that is not
 * answering yet (MARA's "run `pulumi up` twice" failure).
 */
export class CertManager extends pulumi.ComponentResource {
    /** Namespace cert-manager runs in. */
    public readonly namespace: pulumi.Output<string>;
    /** Name of the self-signed ClusterIssuer. */
    public readonly selfSignedIssuer: pulumi.Output<string>;
    /** Name of the ACME ClusterIssuer, when one was requested. */
    public readonly acmeIssuer?: pulumi.Output<string>;
    /** Status of the Helm release. */
    public readonly status: pulumi.Output<string>;

    constructor(name: string, args: CertManagerArgs = {}, opts?: pulumi.ComponentResourceOptions) {
        super("mara:addons:CertManager", name, {}, guardedOptions(name, opts));
        if (args.acme) requireMatch("CertManager", "acme.email", args.acme.email, PATTERNS.email);
        const ns = platformNamespace(`${name}-ns`, args.namespace ?? DEFAULTS.certManager.namespace, "restricted", {}, { parent: this, dependsOn: opts?.dependsOn });
        const release = helmRelease(
            `${name}-release`,
            { release: CERT_MANAGER_RELEASE, namespace: ns.metadata.name, chart: args.chart ?? CHARTS.certManager, values: certManagerValues() },
            { parent: this },
        );
        const issuerOpts = { parent: this, dependsOn: [release] };
        const selfSigned = new k8s.apiextensions.CustomResource(
            `${name}-selfsigned`,
            { apiVersion: "cert-manager.io/v1", kind: "ClusterIssuer", metadata: { name: SELF_SIGNED_ISSUER }, spec: { selfSigned: {} } },
            issuerOpts,
        );
        if (args.acme) {
            const acme = new k8s.apiextensions.CustomResource(
                `${name}-acme`,
                { apiVersion: "cert-manager.io/v1", kind: "ClusterIssuer", metadata: { name: ACME_ISSUER }, spec: acmeIssuerSpec(args.acme) },
                issuerOpts,
            );
            this.acmeIssuer = acme.metadata.name;
        }
        this.namespace = ns.metadata.name;
        this.selfSignedIssuer = selfSigned.metadata.name;
        this.status = release.status.status;
        this.registerOutputs({ namespace: this.namespace, selfSignedIssuer: this.selfSignedIssuer, acmeIssuer: this.acmeIssuer, status: this.status });
    }
}

/**
 * Chart values: CRDs installed with the release and kept when it is uninstalled, so a destroy never deletes
 * cert-manager's CRDs — and with them every Certificate and Issuer in the cluster, including other teams' on a
 * cluster the stack did not create. On a cluster the stack created, the destroy drain removes them
 * (`mara:removeCrds`); the startup check gates completion on the webhook.
 */
export function certManagerValues(): Record<string, unknown> {
    return {
        crds: { enabled: true, keep: true },
        // The post-install hook that keeps the release pending until the webhook answers; slow clusters need more than 1m.
        startupapicheck: { enabled: true, timeout: "5m" },
        // The metrics Service, without the chart's ServiceMonitor (its CRD comes with Prometheus, after cert-manager):
        // the Prometheus component scrapes the Service with its own (certManagerMetrics), for the certificate alerts.
        prometheus: { enabled: true, servicemonitor: { enabled: false } },
    };
}

/** Spec of an ACME ClusterIssuer solving HTTP-01 through an ingress class. */
export function acmeIssuerSpec(a: AcmeIssuerArgs): Record<string, unknown> {
    return {
        acme: {
            server: a.server ?? DEFAULTS.certManager.acmeServer,
            email: a.email,
            privateKeySecretRef: { name: `${ACME_ISSUER}-account-key` },
            solvers: [{ http01: { ingress: { ingressClassName: a.ingressClassName ?? DEFAULTS.ingressController.ingressClassName } } }],
        },
    };
}
