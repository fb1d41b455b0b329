/**
 * The Bank of Sirius arguments the program derives from its configuration and the platform, in one
 * place so the program and anything that deploys more instances (the scaling benchmark) wire the
 * application identically.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { MaraConfig } from "../config";
import type { ClusterInfrastructure } from "../providers/types";
import type { ApplicationArgs } from "./application";
import { collectorGrpcEndpoint } from "./observability";
import type { Platform } from "./platform";

/**
 * Application arguments from the `sirius:*` keys and the platform: its issuer, ingress class,
 * generated secrets, storage class, tracing collector and Prometheus.
 *
 * @param namespace where this instance goes.
 * @param hostname the instance's public host name.
 */
export function siriusArgsFromPlatform(
    cfg: MaraConfig,
    platform: Platform,
    cluster: ClusterInfrastructure,
    namespace: string,
    hostname: pulumi.Input<string>,
): ApplicationArgs {
    const s = cfg.sirius;
    return {
        namespace,
        hostname,
        clusterIssuer: cfg.certManager.issuer === "acme" ? platform.certManager.acmeIssuer! : platform.certManager.selfSignedIssuer,
        ingressClassName: platform.ingressController.ingressClassName,
        routing: s.routing,
        imageRegistry: s.imageRegistry,
        imageTag: s.imageTag,
        accountsDb: { database: s.accountsDb, user: s.accountsAdmin, password: platform.secrets.accountsDbPassword },
        ledgerDb: { database: s.ledgerDb, user: s.ledgerAdmin, password: platform.secrets.ledgerDbPassword },
        demoLogin: { username: platform.secrets.demoUser, password: platform.secrets.demoPassword },
        dbStorageSize: s.dbStorageSize,
        storageClassName: cfg.storageClass ?? platform.storageClassName ?? cluster.platform.storageClass,
        // A plain address, not the collector's Output: the application needs only where to send spans,
        // and waiting for the collector would put the OpenTelemetry operator on its path.
        tracingEndpoint: collectorGrpcEndpoint(),
        prometheus: platform.prometheus,
        postgresExporterChart: s.postgresExporterChart,
    };
}
