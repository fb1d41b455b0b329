/**
 * The application's mapping from its validated settings (`MaraConfig.application`) and the Platform onto its
 * {@link ApplicationArgs}: the one place where its `mara:*` settings become arguments, so the program (index.ts) and
 * anything that deploys more instances (the scaling benchmark) wire the application identically. Exported by the
 * `mara-platform/program` entry point (program/index.ts).
 */
import type * as pulumi from "@pulumi/pulumi";
import type { ApplicationArgs } from "./componentArgs";
import { collectorGrpcEndpoint } from "../observability";
import type { Platform } from "../platform";
import type { MaraConfig } from "../../config/model";

/**
 * Application arguments from its settings (the `Bank of Sirius` keys) and the platform: its issuer, ingress class,
 * generated secrets, storage class, tracing collector and Prometheus.
 *
 * @param namespace where this instance goes.
 * @param hostname the instance's public host name.
 */
export function applicationArgsFromPlatform(cfg: MaraConfig, platform: Platform, namespace: string, hostname: pulumi.Input<string>): ApplicationArgs {
    const s = cfg.application;
    return {
        namespace,
        hostname,
        clusterIssuer: clusterIssuerInUse(cfg, platform),
        ingressClassName: platform.ingressController.ingressClassName,
        routing: s.routing,
        imageRegistry: s.imageRegistry,
        imageTag: s.imageTag,
        accountsDb: { database: s.accountsDb, user: s.accountsAdmin, password: platform.secrets.accountsDbPassword },
        ledgerDb: { database: s.ledgerDb, user: s.ledgerAdmin, password: platform.secrets.ledgerDbPassword },
        demoLogin: { username: platform.secrets.demoUser, password: platform.secrets.demoPassword },
        dbStorageSize: s.dbStorageSize,
        storageClassName: platform.storageClassName,
        // A plain address, not the collector's Output: the application needs only where to send spans,
        // and waiting for the collector would put the OpenTelemetry operator on its path.
        tracingEndpoint: collectorGrpcEndpoint(),
        prometheus: platform.prometheus,
        alertRunbookUrl: cfg.alerting.runbookUrl,
        postgresExporterChart: s.postgresExporterChart,
    };
}

/**
 * The ClusterIssuer the application's certificate comes from: the ACME issuer when `mara:tlsIssuer` is `acme`,
 * else the self-signed one. The platform creates the ACME issuer whenever an ACME email is set, so its
 * existence alone does not mean it is in use (the stack output `cluster_issuer` reports this one).
 */
export function clusterIssuerInUse(cfg: MaraConfig, platform: Platform): pulumi.Output<string> {
    const issuers = platform.certManager;
    // Validation makes `acme` require an ACME email, and the platform creates the ACME issuer from it.
    return cfg.certManager.issuer === "acme" && issuers.acmeIssuer ? issuers.acmeIssuer : issuers.selfSignedIssuer;
}

/**
 * The mapping under its name before 0.2.0: the same function as {@link applicationArgsFromPlatform}.
 * @deprecated Use `applicationArgsFromPlatform`.
 */
export const siriusArgsFromPlatform = applicationArgsFromPlatform;
