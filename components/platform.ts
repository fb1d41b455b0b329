import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import { DEFAULTS, PlatformFacts } from "../contracts";
import { checkAddOnNames, PlatformContext } from "./addOn";
import { PLATFORM_STORAGE_CLASS } from "./clusterNames";
import { guardedOptions } from "./ownership/guard";
import type { PlatformAddOns, PlatformArgs, PlatformUnit, UnitContext } from "./platformUnit";
import { PLATFORM_UNITS } from "./platformUnits";
import { Secrets } from "./secrets";

// The Platform's arguments and members: the platform's own here, each built-in add-on's in its unit.
export type { PlatformAddOns, PlatformArgs, PlatformStorageArgs, PlatformUnit, UnitContext } from "./platformUnit";
export type { PlatformAdmissionPoliciesArgs, PlatformGuardrailsArgs } from "./admissionPolicies/platformUnit";
export type { PlatformCertificatesArgs, PlatformCertManagerArgs } from "./certManager/platformUnit";
export type { PlatformImageArgs, PlatformIngressArgs, PlatformIngressControllerArgs } from "./ingressController/platformUnit";
export type { PlatformLogAgentArgs, PlatformLogsArgs } from "./logAgent/platformUnit";
export type { PlatformLogstoreArgs } from "./logstore/platformUnit";
export type { PlatformObservabilityArgs, PlatformTracingArgs } from "./observability/platformUnit";
export type { PlatformMetricsArgs, PlatformPrometheusArgs } from "./prometheus/platformUnit";

/**
 * Every add-on of the platform on one cluster, wired by their real dependencies rather than MARA's fixed
 * order: the log agent waits for the log store, the OpenTelemetry operator for cert-manager, the ingress
 * controller for its image; everything else installs in parallel. Pass the cluster's Kubernetes provider
 * (and, when the image is copied to a registry, a Docker provider whose `registryAuth` holds that registry's
 * credentials and, for NGINX Plus images, the JWT for private-registry.nginx.com) in `opts.providers`. Children are named
 * `<name>-<add-on>`, so several platforms can share a stack.
 *
 * The built-in add-ons are the units of components/platformUnits.ts; each declares its member here (`certManager`,
 * `prometheus`, ...) and its group of {@link PlatformArgs} in its own folder.
 */
export class Platform extends pulumi.ComponentResource {
    /** The platform's credentials, configured or generated. */
    public readonly secrets: Secrets;
    /** StorageClass of the platform's volumes (created by the platform where it knows the provisioner); undefined: the cluster default. */
    public readonly storageClassName?: pulumi.Output<string>;
    /**
     * What a component holding claims on {@link storageClassName} must depend on (pass it in `dependsOn`): the
     * NFS provisioner, when the platform installs it, else nothing. Its namespace is then deleted, and its claims'
     * volumes released, while the provisioner still runs to delete (or archive) them; without it the engine may
     * remove the provisioner first and leave the volumes behind.
     */
    public readonly storageDependencies: pulumi.Resource[];
    /** The add-ons of {@link PlatformArgs.addOns}, by name. */
    public readonly addOns: Readonly<Record<string, pulumi.Resource>>;

    constructor(name: string, args: PlatformArgs, opts?: pulumi.ComponentResourceOptions) {
        super("mara:platform:Platform", name, {}, guardedOptions(name, opts));
        // Before any resource: a bad name would otherwise stop the program halfway through registering the platform.
        checkAddOnNames(args.addOns ?? []);
        const facts = args.cluster;
        const created: Partial<PlatformAddOns> = {};
        // Children were named without the platform's name before; the aliases let those stacks update in place.
        const child = (was: string) => ({ parent: this, aliases: [{ name: was }] });
        const context = (): UnitContext => ({
            name,
            platform: this,
            args,
            facts,
            created,
            secrets: this.secrets,
            storageClassName: this.storageClassName,
            storageDependencies: this.storageDependencies,
            namespaces: platformNamespaces(args),
            child,
            // Stateful add-ons can be protected from `pulumi destroy` (their children inherit the flag), and outlive
            // nothing their volumes need.
            stateful: (was: string) => ({ ...child(was), ...(args.protectData ? { protect: true } : {}), ...(created.nfsStorage ? { dependsOn: this.storageDependencies } : {}) }),
        });
        const install = (units: readonly PlatformUnit[]) => {
            for (const unit of units) Object.assign(created, unit.create(context()));
        };
        this.secrets = new Secrets(`${name}-secrets`, args.secrets ?? {}, child("secrets"));
        // Created before the platform's storage, which they stand on: their context has none yet.
        this.storageDependencies = [];
        install(PLATFORM_UNITS.cluster);
        const ownClass = args.storage?.className !== undefined ? undefined : (created.nfsStorage?.storageClassName ?? this.storageClass(name, facts, args.storage?.retainVolumes));
        const className = args.storage?.className ?? facts.storageClass;
        // The class's name taken from the resource, so every claim made with it waits for the class to exist.
        this.storageClassName = ownClass ?? (className === undefined ? undefined : pulumi.output(className));
        this.storageDependencies = created.nfsStorage ? [created.nfsStorage] : [];
        install(PLATFORM_UNITS.addOns);
        Object.assign(this, created);
        const { ingressController, certManager, prometheus } = this;
        const addOnContext: PlatformContext = {
            platformName: name,
            cluster: facts,
            storageClassName: this.storageClassName,
            storageDependencies: this.storageDependencies,
            ingressClassName: ingressController.ingressClassName,
            ingressController,
            issuers: { selfSigned: certManager.selfSignedIssuer, acme: certManager.acmeIssuer },
            certManager,
            prometheusNamespace: prometheus.namespace,
            prometheus,
            metricsNamespace: prometheus.namespace,
            metrics: prometheus,
        };
        // Children of the platform, so they take its providers and its ownership guard (components/ownership/).
        this.addOns = Object.fromEntries((args.addOns ?? []).map((a) => [a.name, a.create(addOnContext, { parent: this })]));
        install(PLATFORM_UNITS.guards);
        Object.assign(this, created);
        this.registerOutputs({});
    }

    /**
     * The platform's own StorageClass, where the cluster facts name its provisioner: volumes deleted with
     * their claims (or retained), tagged for this cluster, expandable. Returns its name, taken from the
     * resource so that volumes claimed with it wait for it.
     */
    private storageClass(name: string, facts: PlatformFacts, retainVolumes: boolean = DEFAULTS.platform.retainVolumes): pulumi.Output<string> | undefined {
        const p = facts.storageProvisioner;
        if (!p) return undefined;
        const sc = new k8s.storage.v1.StorageClass(
            `${name}-storage-class`,
            {
                metadata: { name: PLATFORM_STORAGE_CLASS, labels: { "app.kubernetes.io/part-of": "mara" } },
                provisioner: p.provisioner,
                parameters: { ...p.parameters },
                reclaimPolicy: retainVolumes ? "Retain" : "Delete",
                volumeBindingMode: "WaitForFirstConsumer",
                allowVolumeExpansion: true,
            },
            { parent: this, aliases: [{ name: "storage-class" }] },
        );
        return sc.metadata.name;
    }
}

/** The Platform's built-in add-ons as its members, each declared by its unit ({@link PlatformAddOns}); the constructor assigns them. */
export interface Platform extends PlatformAddOns {}

/** The namespaces the Platform's add-ons run in, from each unit: the platform scope of its admission policies. */
export function platformNamespaces(args: PlatformArgs): string[] {
    return [...PLATFORM_UNITS.addOns, ...PLATFORM_UNITS.cluster, ...PLATFORM_UNITS.guards].flatMap((u) => u.namespaces(args));
}

export { PLATFORM_STORAGE_CLASS } from "./clusterNames";
