/**
 * Pure builders of the Bank of Sirius pod specs from the workload data: labels, environment, probes,
 * volumes, and the NetworkPolicy that admits each database's clients.
 */
import type * as k8s from "@pulumi/kubernetes";
import type * as pulumi from "@pulumi/pulumi";
import { EnvSource, ProbeSpec, SIRIUS_CONFIG as C, WorkloadSpec } from "./workloadSpecs";

/** Labels of a workload's pods: `app`, the database it may reach, and whether Prometheus scrapes it. */
export function workloadLabels(w: WorkloadSpec): Record<string, string> {
    return {
        app: w.name,
        "app.kubernetes.io/part-of": "bank-of-sirius",
        ...(w.databaseClient ? { [`${w.databaseClient}-client`]: "true" } : {}),
        ...(w.prometheusMetrics ? { "metrics.mara/prometheus": "true" } : {}),
    };
}

/** One container environment variable from its source: a literal, a pod field, a Secret key or a ConfigMap key. */
function envVar(name: string, source: EnvSource): k8s.types.input.core.v1.EnvVar {
    if ("value" in source) return { name, value: source.value };
    if ("field" in source) return { name, valueFrom: { fieldRef: { fieldPath: source.field } } };
    if ("secret" in source) return { name, valueFrom: { secretKeyRef: { name: source.secret, key: source.key } } };
    return { name, valueFrom: { configMapKeyRef: { name: source.configMap, key: source.key, ...(source.optional ? { optional: true } : {}) } } };
}

/** Readiness and liveness probes: HTTP `/z/health/*` on the service port, or `pg_isready` for a database; none when unset. */
function probes(p: ProbeSpec | undefined, port: number): Pick<k8s.types.input.core.v1.Container, "readinessProbe" | "livenessProbe"> {
    if (!p) return {};
    if ("postgres" in p) {
        const exec = { command: ["sh", "-c", 'pg_isready -U "$POSTGRES_USER" -d "$POSTGRES_DB" -h 127.0.0.1'] };
        return {
            readinessProbe: { exec, initialDelaySeconds: 5, periodSeconds: 10, timeoutSeconds: 5 },
            livenessProbe: { exec, initialDelaySeconds: 30, periodSeconds: 15, timeoutSeconds: 5 },
        };
    }
    return {
        readinessProbe: { httpGet: { path: "/z/health/readiness", port }, initialDelaySeconds: p.readinessDelay, periodSeconds: p.period, timeoutSeconds: p.timeout },
        livenessProbe: { httpGet: { path: "/z/health/liveness", port }, initialDelaySeconds: p.livenessDelay, periodSeconds: p.period, timeoutSeconds: p.timeout },
    };
}

/** The pod spec of one workload. */
export function podSpecFor(w: WorkloadSpec, image: string): k8s.types.input.core.v1.PodSpec {
    const mounts: k8s.types.input.core.v1.VolumeMount[] = [];
    const volumes: k8s.types.input.core.v1.Volume[] = [];
    if (w.jwt) {
        const items = [{ key: "jwtRS256.key.pub", path: "publickey" }, ...(w.jwt === "both" ? [{ key: "jwtRS256.key", path: "privatekey" }] : [])];
        volumes.push({ name: "jwt", secret: { secretName: C.jwtSecret, items } });
        mounts.push({ name: "jwt", mountPath: "/root/.ssh", readOnly: true });
    }
    if (w.kind === "StatefulSet") {
        mounts.push({ name: "data", mountPath: "/var/lib/postgresql/data", subPath: "postgres" });
    }
    if (w.name === "accounts-db") {
        // Runs after the image's own schema and demo-data scripts, when the volume is first initialised.
        volumes.push({ name: "demo-login", configMap: { name: C.accountsDbInit, defaultMode: 0o755 } });
        mounts.push({ name: "demo-login", mountPath: "/docker-entrypoint-initdb.d/2-demo-login.sh", subPath: "2-demo-login.sh", readOnly: true });
    }
    return {
        terminationGracePeriodSeconds: w.kind === "StatefulSet" ? 30 : 5,
        containers: [
            {
                name: w.container,
                image,
                imagePullPolicy: "IfNotPresent",
                ...(w.command ? { command: [...w.command] } : {}),
                ports: [{ name: w.service.name, containerPort: w.containerPort, protocol: "TCP" }],
                env: Object.entries(w.env).map(([k, v]) => envVar(k, v)),
                envFrom: w.envFrom.map((name) => ({ configMapRef: { name } })),
                resources: { requests: { cpu: w.resources.cpu[0], memory: w.resources.memory[0] }, limits: { cpu: w.resources.cpu[1], memory: w.resources.memory[1] } },
                volumeMounts: mounts,
                ...probes(w.probes, w.containerPort),
            },
        ],
        volumes,
    };
}

/** The persistent volume claim template of a database: `data`, ReadWriteOnce, in the given StorageClass or the cluster default. */
export function databaseClaim(size: string, storageClassName?: pulumi.Input<string>): k8s.types.input.core.v1.PersistentVolumeClaim {
    return {
        metadata: { name: "data" },
        spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: size } }, ...(storageClassName ? { storageClassName } : {}) },
    };
}

/** NetworkPolicy admitting to a database only its client services and its metrics exporter, on 5432. */
export function databasePolicySpec(db: "accounts-db" | "ledger-db", workloads: WorkloadSpec[]): k8s.types.input.networking.v1.NetworkPolicySpec {
    const clients = workloads.filter((w) => w.databaseClient === db).map((w) => w.name);
    return {
        podSelector: { matchLabels: { app: db } },
        policyTypes: ["Ingress"],
        ingress: [
            {
                from: [
                    ...clients.map((app) => ({ podSelector: { matchLabels: { app, [`${db}-client`]: "true" } } })),
                    { podSelector: { matchLabels: { [`${db}-client`]: "true", "app.kubernetes.io/component": "postgres-exporter" } } },
                ],
                ports: [{ port: 5432, protocol: "TCP" }],
            },
        ],
    };
}

