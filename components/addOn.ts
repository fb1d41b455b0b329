/**
 * The platform's side of an add-on: what an add-on is given of the platform it joins ({@link PlatformContext}),
 * and what the Platform needs of an add-on to install it ({@link AddOn}). A library user's program adds its own
 * add-ons through `PlatformArgs.addOns` without editing this package; the configuration half (keys validated with
 * the platform's messages, the mapping onto arguments) is `defineAddOn` and `loadAddOns` in program/addOns.ts
 * (docs/library.md, "Your own add-on").
 */
import type * as pulumi from "@pulumi/pulumi";
import { PATTERNS, PlatformFacts, requireMatch } from "../contracts";

/** What an add-on is given of the platform it joins: the cluster's facts and the add-ons' outputs it can depend on. */
export interface PlatformContext {
    /** The Platform's name; name an add-on's resources `<platform>-<add-on>-<role>` so two platforms can share a stack. */
    readonly platformName: string;
    /** What the cluster offers add-ons: log paths, container runtime, load balancer addressing, storage provisioner. */
    readonly cluster: PlatformFacts;
    /** StorageClass of the platform's volumes; undefined: the cluster's default class. */
    readonly storageClassName?: pulumi.Output<string>;
    /** What a component that claims volumes on {@link storageClassName} must depend on (the NFS provisioner, or nothing). */
    readonly storageDependencies: readonly pulumi.Resource[];
    /** The IngressClass of the platform's NGINX Ingress Controller, known once its release is deployed. */
    readonly ingressClassName: pulumi.Output<string>;
    /** The ingress controller, to depend on where an add-on needs it running (not only its class's name). */
    readonly ingressController: pulumi.Resource;
    /** cert-manager's ClusterIssuers: the self-signed one always, the ACME one when the platform was given an account. */
    readonly issuers: { readonly selfSigned: pulumi.Output<string>; readonly acme?: pulumi.Output<string> };
    /** cert-manager, to depend on before creating Certificates or Issuers (its CRDs and webhook come with it). */
    readonly certManager: pulumi.Resource;
    /** The namespace of Prometheus, Grafana and Alertmanager, whose operator reads ServiceMonitors from every namespace. */
    readonly prometheusNamespace: pulumi.Output<string>;
    /** The Prometheus add-on (kube-prometheus-stack), to depend on before creating ServiceMonitors or PrometheusRules (its CRDs come with it). */
    readonly prometheus: pulumi.Resource;
    /** @deprecated Use {@link PlatformContext.prometheusNamespace}, the same namespace under the add-on's one name; read until 1.0.0. */
    readonly metricsNamespace: pulumi.Output<string>;
    /** @deprecated Use {@link PlatformContext.prometheus}, the same add-on under its one name; read until 1.0.0. */
    readonly metrics: pulumi.Resource;
}

/** An add-on the Platform installs after its own: one name, and how it is created from the platform's outputs. */
export interface AddOn {
    /**
     * The add-on's one name: the Platform names it `<platform>-<name>` and lists it under this name in
     * `Platform.addOns`. A DNS label (lower-case letters, digits and '-'), unique on the platform.
     */
    readonly name: string;
    /**
     * Creates the add-on's resources. `opts` carries the Platform as parent (and with it the cluster's Kubernetes
     * provider); pass it to the add-on's component, adding the resources of `platform` it waits for to `dependsOn`.
     */
    create(platform: PlatformContext, opts: pulumi.ComponentResourceOptions): pulumi.Resource;
}

/** The add-ons' names, checked before any of them is created: each a DNS label, none twice. */
export function checkAddOnNames(addOns: readonly AddOn[]): void {
    const seen = new Set<string>();
    for (const a of addOns) {
        requireMatch("Platform", "addOns[].name", a.name, PATTERNS.dnsLabel);
        if (seen.has(a.name)) throw new Error(`Platform: addOns[].name "${a.name}" is given twice; each add-on needs a name of its own (it names its resources).`);
        seen.add(a.name);
    }
}
