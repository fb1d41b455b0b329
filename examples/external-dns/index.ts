/**
 * external-dns on the MARA platform, added from outside the mara-platform package: the add-on in one unit (its
 * keys, their rule, the mapping onto its arguments, its component), and a program that installs the platform on an
 * existing cluster with it. external-dns publishes DNS records for the platform's Ingresses and LoadBalancer
 * Services, and for nothing else of the cluster's: it reads only the platform's IngressClass.
 *
 * Pulumi calls the exported function; tests call it under mocks (test/externalDns.test.ts). The chart is fetched
 * from its repository when Helm installs it: no archive of it is vendored here.
 */
import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import { ChartSettings, helmRelease, Kubeconfig, Platform, PlatformContext, platformNamespace } from "mara-platform";
import { addOnKey, addOnSecretKey, fqdn, list, oneOf, text } from "mara-platform/config";
import { defineAddOn, loadAddOns } from "mara-platform/program";
import { EXISTING_CLUSTER_PLATFORM } from "mara-platform/providers";

/** The DNS services this example wires, and the variable each one's external-dns provider reads its token from. */
const TOKEN_VARIABLES = {
    // kubernetes-sigs/external-dns provider/aws/session.go: the SDK's default chain (the node's or the pod's role).
    aws: undefined,
    // provider/cloudflare/cloudflare.go, NewCloudFlareProvider: CF_API_TOKEN.
    cloudflare: "CF_API_TOKEN",
    // provider/digitalocean/digital_ocean.go, NewDigitalOceanProvider: DO_TOKEN.
    digitalocean: "DO_TOKEN",
    // provider/linode/linode.go, NewLinodeProvider: LINODE_TOKEN.
    linode: "LINODE_TOKEN",
} as const;
type DnsProvider = keyof typeof TOKEN_VARIABLES;

/** The external-dns chart of kubernetes-sigs, pinned: 1.17.0, released 2025-06-04 (external-dns v0.17.0). */
const CHART: ChartSettings = { chart: "external-dns", repositoryUrl: "https://kubernetes-sigs.github.io/external-dns/", version: "1.17.0", timeoutSeconds: 300 };

/** Arguments of {@link ExternalDns}. */
interface ExternalDnsArgs {
    /** Chart coordinates. Default: external-dns 1.17.0 from its repository. */
    chart?: ChartSettings;
    /** The DNS service the records are written to. Required. */
    provider: DnsProvider;
    /** The zones external-dns may write to, e.g. `example.com`. Required: without it, every zone the token reaches. */
    domainFilters: string[];
    /** `upsert-only` never deletes a record; `sync` also deletes the records it created that nothing asks for any more. Default `upsert-only`. */
    policy?: "upsert-only" | "sync";
    /** The DNS service's API token (a secret), for the providers that read one. */
    apiToken?: pulumi.Input<string>;
    /** Marks the TXT records that say which records are this cluster's: the platform's name. Required. */
    ownerId: string;
    /** The IngressClass whose Ingresses get records: the platform's. Required. */
    ingressClassName: pulumi.Input<string>;
}

/** external-dns in its own namespace, its token in a Secret, its metrics scraped by the platform's Prometheus. */
class ExternalDns extends pulumi.ComponentResource {
    /** Status of the Helm release. */
    public readonly status: pulumi.Output<string>;

    constructor(name: string, args: ExternalDnsArgs, opts?: pulumi.ComponentResourceOptions) {
        super("example:addons:ExternalDns", name, {}, opts);
        const ns = platformNamespace(`${name}-ns`, "external-dns", "restricted", {}, { parent: this });
        const variable = TOKEN_VARIABLES[args.provider];
        const token =
            variable && args.apiToken
                ? new k8s.core.v1.Secret(`${name}-token`, { metadata: { name: "external-dns-token", namespace: ns.metadata.name }, stringData: { token: args.apiToken } }, { parent: this })
                : undefined;
        const release = helmRelease(
            `${name}-release`,
            {
                release: "external-dns",
                namespace: ns.metadata.name,
                chart: args.chart ?? CHART,
                // kubernetes-sigs/external-dns charts/external-dns/values.yaml (1.17.0): provider.name, sources, policy,
                // registry, txtOwnerId, domainFilters, extraArgs, env, serviceMonitor.
                values: {
                    provider: { name: args.provider },
                    sources: ["service", "ingress"],
                    policy: args.policy ?? "upsert-only",
                    registry: "txt",
                    txtOwnerId: args.ownerId,
                    domainFilters: args.domainFilters,
                    // Only the platform's Ingresses (external-dns --ingress-class, source/ingress.go).
                    extraArgs: [pulumi.interpolate`--ingress-class=${args.ingressClassName}`],
                    env: token && variable ? [{ name: variable, valueFrom: { secretKeyRef: { name: token.metadata.name, key: "token" } } }] : [],
                    serviceMonitor: { enabled: true },
                },
            },
            { parent: this, dependsOn: opts?.dependsOn },
        );
        this.status = release.status.status;
        this.registerOutputs({ status: this.status });
    }
}

/** external-dns as an add-on unit: the `externalDns:*` keys, their rule, the mapping, and how it joins the platform. */
const externalDns = defineAddOn({
    name: "external-dns",
    keys: {
        provider: addOnKey({
            key: "externalDns:provider",
            type: oneOf<DnsProvider>(Object.keys(TOKEN_VARIABLES) as DnsProvider[]),
            description: "The DNS service external-dns writes records to.",
            example: "cloudflare",
        }),
        domainFilters: addOnKey({
            key: "externalDns:domainFilters",
            type: list(fqdn()),
            description: "The zones external-dns may write records in.",
            example: '["example.com"]',
        }),
        policy: addOnKey({
            key: "externalDns:policy",
            type: oneOf<"upsert-only" | "sync">(["upsert-only", "sync"]),
            default: "upsert-only",
            description: "upsert-only never deletes a record; sync deletes the records it created that nothing asks for.",
        }),
        apiToken: addOnSecretKey({
            key: "externalDns:apiToken",
            type: text({ allowed: "the DNS service's API token (stored encrypted)" }),
            description: "API token of the DNS service (Cloudflare, DigitalOcean, Linode).",
        }),
    },
    check(values, keyOf, findings) {
        const provider = values.provider;
        if (provider === undefined) {
            findings.problem({ key: keyOf("provider"), problem: "is not set", allowed: Object.keys(TOKEN_VARIABLES).join(", "), fix: "pulumi config set externalDns:provider cloudflare" });
        } else if (TOKEN_VARIABLES[provider] && values.apiToken === undefined) {
            findings.problem({
                key: keyOf("provider"),
                value: provider,
                problem: `needs an API token, and ${keyOf("apiToken")} is not set`,
                allowed: `aws (which uses the nodes' or the pod's role), or ${provider} together with ${keyOf("apiToken")}`,
                fix: `pulumi config set --secret ${keyOf("apiToken")} <token>`,
            });
        }
        if (values.domainFilters === undefined || values.domainFilters.length === 0) {
            findings.problem({ key: keyOf("domainFilters"), problem: "is not set: external-dns would write to every zone the token reaches", allowed: "a list of zones", fix: `pulumi config set ${keyOf("domainFilters")} '["example.com"]'` });
        }
    },
    args: (values) => ({ provider: values.provider!, domainFilters: values.domainFilters ?? [], policy: values.policy, apiToken: values.apiToken }),
    create: (platform: PlatformContext, args, opts) =>
        new ExternalDns(
            `${platform.platformName}-external-dns`,
            { ...args, ownerId: platform.platformName, ingressClassName: platform.ingressClassName },
            // Its ServiceMonitor needs the Prometheus operator's CRDs, which come with the platform's Prometheus.
            { ...opts, dependsOn: [platform.prometheus] },
        ),
});

function externalDnsExample(): Record<string, pulumi.Input<unknown>> {
    // Every key of the add-on is checked here, before anything is created: a bad value stops the program with its message.
    const addOns = loadAddOns([externalDns]);
    const config = new pulumi.Config();
    const cluster = new Kubeconfig("cluster", { kubeconfig: config.requireSecret("kubeconfig"), clusterName: config.get("clusterName") ?? "existing" });
    const platform = new Platform("platform", { cluster: EXISTING_CLUSTER_PLATFORM, addOns }, { providers: [cluster.provider] });
    return { ingressClass: platform.ingressController.ingressClassName, externalDnsStatus: (platform.addOns["external-dns"] as ExternalDns).status };
}

// Pulumi calls the function; the add-on and its component ride along for a program (or a test) that imports them.
export = Object.assign(externalDnsExample, { externalDns, ExternalDns });
