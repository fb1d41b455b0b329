/**
 * The nine workloads as Kubernetes objects: Deployments, the databases as StatefulSets on persistent
 * volumes, a Service each, and NetworkPolicies that admit only each database's clients.
 */
import * as k8s from "@pulumi/kubernetes";
import type { ResolvedApplicationArgs } from "./componentArgs";
import { SOLE_OWNER_IGNORE_CHANGES, soleOwnerAnnotations, stableManagerAnnotations } from "../ownership/fieldManager";
import { secretsReadBy, secretsRevision, withCredentialsContainer } from "../passwordRotation";
import { databaseClaim, databasePolicySpec, podSpecFor, workloadLabels } from "./podSpec";
import { metadata, SiriusScope } from "./scope";
import type { SiriusSettings } from "./settingsObjects";
import { siriusWorkloads, WorkloadSpec } from "./workloadSpecs";

/** Creates the workloads; they wait for `settings` (the ConfigMaps and Secrets they read). */
export function siriusWorkloadResources(scope: SiriusScope, a: ResolvedApplicationArgs, settings: SiriusSettings): void {
    const workloads = siriusWorkloads(a.statsdHost);
    const after = { parent: scope.parent, dependsOn: [...settings.configMaps, ...settings.secrets] };
    for (const w of workloads) {
        const labels = workloadLabels(w);
        const podSpec = podSpecFor(w, `${a.imageRegistry}/${w.image}:${a.imageTag}`);
        // Databases re-apply their passwords on every start; every pod restarts when a Secret it reads changes.
        const template = {
            metadata: { labels, annotations: secretsRevision(secretsReadBy(w), settings.secretsByName) },
            spec: w.kind === "StatefulSet" ? withCredentialsContainer(podSpec, w) : podSpec,
        };
        const selector = { matchLabels: { app: w.name } };
        if (w.kind === "StatefulSet") {
            // A database's StatefulSet is applied as a manager of its own name, with force, so that a run after one
            // interrupted during its create takes it over instead of conflicting on its claim templates, and its
            // claims (the data) stay (../ownership/fieldManager.ts).
            const resourceName = `${scope.name}-${w.name}`;
            new k8s.apps.v1.StatefulSet(
                resourceName,
                {
                    metadata: { ...metadata(scope, w.name, labels), annotations: soleOwnerAnnotations(resourceName) },
                    spec: { serviceName: w.name, replicas: 1, selector, template, volumeClaimTemplates: [databaseClaim(a.dbStorageSize, a.storageClassName)] },
                },
                { ...after, ignoreChanges: [...SOLE_OWNER_IGNORE_CHANGES] },
            );
        } else {
            // A Deployment is applied as a manager of its own name too, without force: the run after one interrupted
            // during its create applies as the killed run's manager, where a new random one conflicted on the fields the
            // API server defaulted in its pod template (`env[].valueFrom.fieldRef`).
            const resourceName = `${scope.name}-${w.name}`;
            new k8s.apps.v1.Deployment(
                resourceName,
                { metadata: { ...metadata(scope, w.name, labels), annotations: stableManagerAnnotations(resourceName) }, spec: { replicas: 1, selector, template } },
                { ...after, ignoreChanges: [...SOLE_OWNER_IGNORE_CHANGES] },
            );
        }
        new k8s.core.v1.Service(`${scope.name}-${w.name}-service`, { metadata: metadata(scope, w.name, labels), spec: serviceSpec(w) }, { parent: scope.parent });
    }
    for (const db of ["accounts-db", "ledger-db"] as const) {
        new k8s.networking.v1.NetworkPolicy(
            `${scope.name}-${db}-policy`,
            { metadata: metadata(scope, `${db}-clients`), spec: databasePolicySpec(db, workloads) },
            { parent: scope.parent },
        );
    }
}

/** The ClusterIP Service in front of a workload. */
function serviceSpec(w: WorkloadSpec): k8s.types.input.core.v1.ServiceSpec {
    return {
        type: "ClusterIP",
        selector: { app: w.name },
        ports: [{ name: w.service.name, port: w.service.port, targetPort: w.containerPort, protocol: "TCP" }],
    };
}
