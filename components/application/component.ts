import * as pulumi from "@pulumi/pulumi";
import { DEFAULTS, PATTERNS, requireMatch } from "../../contracts";
import { platformNamespace } from "../helmRelease";
import { statsdHostIn } from "../prometheus";
import { siriusMonitoring } from "./monitoring";
import { siriusRoute } from "./routing";
import type { SiriusScope } from "./scope";
import { siriusSettings } from "./settingsObjects";
import { siriusWorkloadResources } from "./workloads";
import { guardedOptions } from "../ownership/guard";
import type { ApplicationArgs, DatabaseArgs, ResolvedApplicationArgs } from "./componentArgs";

// The arguments live beside the builders that read them (componentArgs.ts), so neither side imports the other.
export type { ApplicationArgs, DatabaseArgs, ResolvedApplicationArgs };

/**
 * Bank of Sirius, the nine-service banking demo, as typed Kubernetes objects: non-secret settings in
 * ConfigMaps, passwords and the demo login in Secrets read through `secretKeyRef`, a JWT key pair from a
 * `tls.PrivateKey` (stable across runs, unlike MARA's), Postgres as StatefulSets on persistent volumes,
 * NetworkPolicies that admit only each database's clients, Postgres exporters, and HTTPS through
 * cert-manager on an Ingress or an NGINX VirtualServer. Each concern is one builder beside it in this folder.
 */
export class Application extends pulumi.ComponentResource {
    /** Namespace of the application. */
    public readonly namespace: pulumi.Output<string>;
    /** Host name the application is served on. */
    public readonly hostname: pulumi.Output<string>;
    /** `https://<hostname>`. */
    public readonly url: pulumi.Output<string>;
    /** Status of the accounts database exporter release (MARA swapped the two names). */
    public readonly accountsDbMonitorStatus: pulumi.Output<string>;
    /** Status of the ledger database exporter release. */
    public readonly ledgerDbMonitorStatus: pulumi.Output<string>;

    constructor(name: string, args: ApplicationArgs, opts?: pulumi.ComponentResourceOptions) {
        super("mara:app:Application", name, {}, guardedOptions(name, opts));
        const a = validateApplicationArgs(args);
        // Baseline, not restricted: the Bank of Sirius images set no securityContext (docs/policy.md).
        const ns = platformNamespace(`${name}-ns`, a.namespace, "baseline", { "app.kubernetes.io/name": "bank-of-sirius" }, { parent: this, dependsOn: opts?.dependsOn });
        const scope: SiriusScope = { name, parent: this, namespace: ns.metadata.name };

        const settings = siriusSettings(scope, a);
        siriusWorkloadResources(scope, a, settings);
        const hostname = pulumi.output(a.hostname);
        siriusRoute(scope, a, hostname);
        const monitoring = siriusMonitoring(scope, a, settings);

        this.namespace = scope.namespace;
        this.hostname = hostname;
        this.url = pulumi.interpolate`https://${hostname}`;
        this.accountsDbMonitorStatus = monitoring.accountsDbMonitorStatus;
        this.ledgerDbMonitorStatus = monitoring.ledgerDbMonitorStatus;
        this.registerOutputs({
            namespace: this.namespace,
            hostname: this.hostname,
            url: this.url,
            accountsDbMonitorStatus: this.accountsDbMonitorStatus,
            ledgerDbMonitorStatus: this.ledgerDbMonitorStatus,
        });
    }
}

/** Applies defaults and checks the arguments that shape the application; throws naming the argument. */
export function validateApplicationArgs(args: ApplicationArgs): ResolvedApplicationArgs {
    const d = DEFAULTS.application;
    const db = (given: DatabaseArgs, which: string): Required<DatabaseArgs> => {
        const r = { database: given.database ?? d.database, user: given.user ?? d.user, password: given.password };
        for (const k of ["database", "user"] as const) requireMatch("Application", `${which}.${k}`, r[k], PATTERNS.postgresIdentifier);
        return r;
    };
    const resolved: ResolvedApplicationArgs = {
        ...args,
        namespace: args.namespace ?? d.namespace,
        routing: args.routing ?? d.routing,
        imageRegistry: args.imageRegistry ?? d.imageRegistry,
        imageTag: args.imageTag ?? d.imageTag,
        dbStorageSize: args.dbStorageSize ?? d.dbStorageSize,
        ingressClassName: args.ingressClassName ?? DEFAULTS.ingressController.ingressClassName,
        statsdHost: args.statsdHost ?? statsdHostIn(DEFAULTS.prometheus.namespace),
        accountsDb: db(args.accountsDb, "accountsDb"),
        ledgerDb: db(args.ledgerDb, "ledgerDb"),
    };
    requireMatch("Application", "namespace", resolved.namespace, PATTERNS.dnsLabel);
    requireMatch("Application", "routing", resolved.routing, { pattern: /^(ingress|virtualserver)$/, allowed: '"ingress" or "virtualserver"' });
    requireMatch("Application", "dbStorageSize", resolved.dbStorageSize, PATTERNS.volumeSize);
    return resolved;
}
