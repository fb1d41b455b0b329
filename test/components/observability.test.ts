import * as k8s from "@pulumi/kubernetes";
import { beforeAll, describe, expect, it } from "vitest";
import { collectorConfig, CollectorVariant, Observability } from "../../components";
import { CHARTS } from "../../contracts";
import { k8sProviderRef, testProvider, validateKubernetesObjects } from "../support/k8s";
import { find, installMocks, promiseOf, Registration, settle } from "../support/mocks";
import { podSecurityLabels } from "../../components/podSecurity";

const RELEASE = "kubernetes:helm.sh/v3:Release";
const COLLECTOR = "kubernetes:opentelemetry.io/v1beta1:OpenTelemetryCollector";
const NAMESPACE = "kubernetes:core/v1:Namespace";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Config = any;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const inputs = (r: Registration): any => r.inputs;

/**
 * What the collector checks at start-up: every component a pipeline names is defined, every connector is
 * used both as an exporter and as a receiver, and every service extension is defined.
 */
function undefinedReferences(config: Config): string[] {
    const problems: string[] = [];
    const connectors = Object.keys(config.connectors ?? {});
    const asExporter = new Set<string>();
    const asReceiver = new Set<string>();
    for (const [name, p] of Object.entries(config.service.pipelines) as [string, Record<string, string[]>][]) {
        for (const r of p.receivers ?? []) {
            if (connectors.includes(r)) asReceiver.add(r);
            else if (!(r in (config.receivers ?? {}))) problems.push(`${name}: receiver ${r}`);
        }
        for (const x of p.processors ?? []) if (!(x in (config.processors ?? {}))) problems.push(`${name}: processor ${x}`);
        for (const e of p.exporters ?? []) {
            if (connectors.includes(e)) asExporter.add(e);
            else if (!(e in (config.exporters ?? {}))) problems.push(`${name}: exporter ${e}`);
        }
    }
    for (const c of connectors) if (!asExporter.has(c) || !asReceiver.has(c)) problems.push(`connector ${c} is not used on both ends`);
    for (const e of config.service.extensions ?? []) if (!(e in (config.extensions ?? {}))) problems.push(`extension ${e}`);
    return problems;
}

describe("collectorConfig", () => {
    it.each(["basic", "debug", "full"] as const)("%s receives OTLP on 0.0.0.0:9978 (gRPC) and 0.0.0.0:9979 (HTTP)", (variant) => {
        expect(collectorConfig(variant, 9978, 9979).receivers).toMatchObject({
            otlp: { protocols: { grpc: { endpoint: "0.0.0.0:9978" }, http: { endpoint: "0.0.0.0:9979" } } },
        });
    });

    it("listens on other ports when asked", () => {
        expect((collectorConfig("basic", 4317, 4318) as Config).receivers.otlp.protocols).toEqual({
            grpc: { endpoint: "0.0.0.0:4317" },
            http: { endpoint: "0.0.0.0:4318" },
        });
    });

    it("basic batches OTLP traces into a summarising debug exporter", () => {
        expect(collectorConfig("basic", 9978, 9979)).toEqual({
            receivers: { otlp: { protocols: { grpc: { endpoint: "0.0.0.0:9978" }, http: { endpoint: "0.0.0.0:9979" } } } },
            processors: { batch: {} },
            exporters: { debug: { verbosity: "basic" } },
            service: { pipelines: { traces: { receivers: ["otlp"], processors: ["batch"], exporters: ["debug"] } } },
        });
    });

    it("debug is basic with every span logged in detail", () => {
        const debug = collectorConfig("debug", 9978, 9979) as Config;
        expect(debug.exporters).toEqual({ debug: { verbosity: "detailed" } });
        expect({ ...debug, exporters: undefined }).toEqual({ ...(collectorConfig("basic", 9978, 9979) as Config), exporters: undefined });
    });

    it("full adds Zipkin and Jaeger receivers and span metrics for Prometheus", () => {
        const full = collectorConfig("full", 9978, 9979) as Config;
        expect(Object.keys(full.receivers).sort()).toEqual(["jaeger", "otlp", "zipkin"]);
        expect(full.connectors).toHaveProperty("spanmetrics");
        expect(full.exporters).toMatchObject({ debug: { verbosity: "basic" }, prometheus: { endpoint: "0.0.0.0:8889" } });
        expect(full.service.pipelines.traces).toEqual({ receivers: ["otlp", "zipkin", "jaeger"], processors: ["batch"], exporters: ["debug", "spanmetrics"] });
        expect(full.service.pipelines.metrics).toEqual({ receivers: ["spanmetrics"], processors: ["batch"], exporters: ["prometheus"] });
    });

    it.each(["basic", "debug", "full"] as const)("%s pipelines reference only components it defines", (variant) => {
        expect(undefinedReferences(collectorConfig(variant, 9978, 9979))).toEqual([]);
    });

    it("the reference check catches a pipeline naming an undefined component", () => {
        const broken = collectorConfig("basic", 9978, 9979) as Config;
        broken.service.pipelines.traces.receivers.push("zipkin");
        expect(undefinedReferences(broken)).toEqual(["traces: receiver zipkin"]);
    });
});

describe("Observability", () => {
    let regs: Registration[];
    let obs: Observability;
    let provider: string;

    beforeAll(async () => {
        ({ registrations: regs } = await installMocks());
        const cluster = testProvider();
        obs = new Observability("observability", {}, { providers: [cluster] });
        await settle();
        provider = await k8sProviderRef(cluster);
    });

    it("creates the observability namespace, marked as this stack's", () => {
        expect(inputs(find(regs, NAMESPACE, "observability-ns")).metadata).toEqual({
            name: "observability",
            labels: { "app.kubernetes.io/part-of": "mara", ...podSecurityLabels("baseline") },
            annotations: { "mara.nginx.com/stack": "mara/dev" },
        });
    });

    it("installs the catalogue's operator chart in it, with webhook certificates from cert-manager", () => {
        const release = find(regs, RELEASE, "observability-operator");
        expect(release.inputs).toMatchObject({
            name: "opentelemetry-operator",
            namespace: "observability",
            chart: CHARTS.otelOperator.chart,
            version: CHARTS.otelOperator.version,
            repositoryOpts: { repo: CHARTS.otelOperator.repositoryUrl },
            timeout: CHARTS.otelOperator.timeoutSeconds,
            values: { admissionWebhooks: { certManager: { enabled: true } } },
        });
        expect(release.dependencies).toContain(find(regs, NAMESPACE, "observability-ns").urn);
    });

    it("creates the simplest collector as a v1beta1 deployment, after the operator", () => {
        const collector = find(regs, COLLECTOR, "observability-collector");
        expect(collector.inputs).toMatchObject({
            apiVersion: "opentelemetry.io/v1beta1",
            kind: "OpenTelemetryCollector",
            metadata: { name: "simplest", namespace: "observability" },
            spec: { mode: "deployment", config: collectorConfig("basic", 9978, 9979) },
        });
        expect(inputs(collector).spec).not.toHaveProperty("image");
        expect(collector.dependencies).toContain(find(regs, RELEASE, "observability-operator").urn);
    });

    it("puts everything on the cluster's provider and passes schema validation", () => {
        const objects = regs.filter((x) => x.type.startsWith("kubernetes:"));
        expect(objects.map((r) => r.name).sort()).toEqual(["observability-collector", "observability-ns", "observability-operator"]);
        for (const r of objects) expect(r.provider, r.name).toBe(provider);
        const { checked, errors } = validateKubernetesObjects(regs);
        expect(errors).toEqual([]);
        expect(checked).toEqual(["Namespace/observability-ns"]);
    });

    it("exports the collector's OTLP endpoints inside the cluster", async () => {
        expect(await promiseOf(obs.otlpGrpcEndpoint)).toBe("simplest-collector.observability.svc.cluster.local:9978");
        expect(await promiseOf(obs.otlpHttpEndpoint)).toBe("http://simplest-collector.observability.svc.cluster.local:9979");
        expect(await promiseOf(obs.namespace)).toBe("observability");
        expect(await promiseOf(obs.status)).toBe("deployed");
    });
});

describe("Observability, full variant after cert-manager", () => {
    let regs: Registration[];
    let obs: Observability;
    let certManager: k8s.helm.v3.Release;

    beforeAll(async () => {
        ({ registrations: regs } = await installMocks());
        const cluster = testProvider();
        certManager = new k8s.helm.v3.Release("cert-manager", { chart: "cert-manager" }, { provider: cluster });
        obs = new Observability("observability", { collectorVariant: "full", grpcPort: 4317, httpPort: 4318 }, { providers: [cluster], dependsOn: [certManager] });
        await settle();
    });

    it("creates the namespace, and so the operator, only after what the component depends on", async () => {
        expect(find(regs, NAMESPACE, "observability-ns").dependencies).toContain(await promiseOf(certManager.urn));
        expect(find(regs, RELEASE, "observability-operator").dependencies).toContain(find(regs, NAMESPACE, "observability-ns").urn);
    });

    it("runs the contrib collector image, which has the Zipkin and Jaeger receivers", () => {
        const spec = inputs(find(regs, COLLECTOR, "observability-collector")).spec;
        expect(spec.image).toMatch(/^ghcr\.io\/open-telemetry\/opentelemetry-collector-releases\/opentelemetry-collector-contrib:\d+\.\d+\.\d+$/);
        expect(spec.config).toEqual(collectorConfig("full", 4317, 4318));
    });

    it("exports endpoints on the given ports", async () => {
        expect(await promiseOf(obs.otlpGrpcEndpoint)).toBe("simplest-collector.observability.svc.cluster.local:4317");
        expect(await promiseOf(obs.otlpHttpEndpoint)).toBe("http://simplest-collector.observability.svc.cluster.local:4318");
    });
});

describe("Observability collector image", () => {
    it.each(["basic", "debug"] as const)("%s runs the operator's default (core) collector image with its own pipeline", async (collectorVariant) => {
        const { registrations } = await installMocks();
        new Observability("observability", { collectorVariant }, { providers: [testProvider()] });
        await settle();
        const spec = inputs(find(registrations, COLLECTOR, "observability-collector")).spec;
        expect(spec).not.toHaveProperty("image");
        expect(spec.config).toEqual(collectorConfig(collectorVariant, 9978, 9979));
    });
});

describe("Observability argument checks", () => {
    it.each([
        [{ collectorVariant: "verbose" as CollectorVariant }, 'Observability: collectorVariant "verbose" is not one of basic, debug, full.'],
        [{ grpcPort: 80 }, "Observability: grpcPort must be a port from 1024 to 65535; got 80."],
        [{ httpPort: 1023 }, "Observability: httpPort must be a port from 1024 to 65535; got 1023."],
        [{ httpPort: 65536 }, "Observability: httpPort must be a port from 1024 to 65535; got 65536."],
    ])("rejects %j before creating anything", async (args, message) => {
        const { registrations } = await installMocks();
        expect(() => new Observability("bad", args)).toThrow(message);
        await settle();
        expect(registrations.filter((r) => r.custom)).toEqual([]);
    });

    // A clash would install fine and then fail at collector start-up with "address already in use".
    it.each([
        [{ grpcPort: 4317, httpPort: 4317 }, "Observability: grpcPort and httpPort must differ; both are 4317."],
        [{ collectorVariant: "full" as const, grpcPort: 9411 }, "Observability: grpcPort 9411 is the collector's Zipkin port; choose another."],
        [{ httpPort: 8888 }, "Observability: httpPort 8888 is the collector's own metrics port; choose another."],
    ])("rejects OTLP ports that clash with another listener of the collector: %j", async (args, message) => {
        await installMocks();
        expect(() => new Observability("bad", args)).toThrow(message);
        await settle();
    });
});
