/**
 * The Platform as a library user builds it: from literal arguments, with no configuration object and no
 * infrastructure provider, on a Kubernetes provider of their own. Two platforms share one stack.
 */
import * as pulumi from "@pulumi/pulumi";
import { beforeAll, describe, expect, it } from "vitest";
import { CHARTS, Platform, PlatformContext } from "../../components";
import { createdBefore } from "../../components/platformUnit";
import { EKS_PLATFORM, EXISTING_CLUSTER_PLATFORM } from "../../providers/platformFacts";
import { testProvider } from "../support/k8s";
import { find, installMocks, ofType, Registration, settle, unwrapSecrets } from "../support/mocks";

describe("Platform from literals", () => {
    let regs: Registration[];

    beforeAll(async () => {
        ({ registrations: regs } = await installMocks());
        new Platform(
            "edge",
            {
                cluster: EKS_PLATFORM,
                ingressController: { replicas: 2, fqdn: "edge.example.com", image: { imageName: "registry.example.com/nginx/nginx-ingress:5.5.4" } },
                certManager: { acme: { email: "ops@example.com" } },
                logstore: { storageSize: "20Gi", replicas: { data: 3 } },
                prometheus: { storageSize: "30Gi" },
                observability: { collectorVariant: "debug" },
                storage: { retainVolumes: true },
                secrets: { grafanaAdminPassword: pulumi.secret("grafana-literal") },
                protectData: true,
            },
            { providers: [testProvider()] },
        );
        await settle();
    }, 300_000);

    it("names every add-on after the platform", () => {
        const children = regs.filter((r) => r.type.startsWith("mara:") && r.type !== "mara:platform:Platform").map((r) => r.name);
        expect(children.sort()).toEqual(
            ["edge-cert-manager", "edge-ingress-controller", "edge-log-agent", "edge-logstore", "edge-observability", "edge-prometheus", "edge-secrets"].sort(),
        );
    });

    it("makes every volume claim wait for the platform's StorageClass: its name is taken from the class resource", () => {
        const sc = find(regs, "kubernetes:storage.k8s.io/v1:StorageClass", "edge-storage-class");
        // Elasticsearch's claims (its node sets) and Prometheus's, Alertmanager's and Grafana's (the release).
        for (const [type, name] of [
            ["kubernetes:elasticsearch.k8s.elastic.co/v1:Elasticsearch", "edge-logstore-elasticsearch"],
            ["kubernetes:helm.sh/v3:Release", "edge-prometheus-release"],
        ]) {
            const r = find(regs, type!, name!);
            expect(r.dependencies, name).toContain(sc.urn);
        }
        const es = find(regs, "kubernetes:elasticsearch.k8s.elastic.co/v1:Elasticsearch", "edge-logstore-elasticsearch").inputs!.spec as { nodeSets: { volumeClaimTemplates: { spec: { storageClassName: string } }[] }[] };
        expect(es.nodeSets.map((n) => n.volumeClaimTemplates[0]!.spec.storageClassName)).toEqual(["mara-volumes", "mara-volumes", "mara-volumes", "mara-volumes"]);
    });

    it("pulls the given image directly when there is no registry", () => {
        expect(ofType(regs, "mara:registry:IngressControllerImage")).toEqual([]);
        expect(find(regs, "kubernetes:helm.sh/v3:Release", "edge-ingress-controller-release").inputs!.values).toMatchObject({
            controller: { image: { repository: "registry.example.com/nginx/nginx-ingress", tag: "5.5.4" }, replicaCount: 2 },
        });
    });

    it("passes each group of arguments to its add-on, and the cluster facts to the ones that need them", () => {
        expect(find(regs, "kubernetes:core/v1:Service", "edge-ingress-controller-service").inputs!.metadata).toMatchObject({
            annotations: { "service.beta.kubernetes.io/aws-load-balancer-type": "nlb" },
        });
        expect(find(regs, "kubernetes:cert-manager.io/v1:ClusterIssuer", "edge-cert-manager-acme").inputs!.spec).toMatchObject({ acme: { email: "ops@example.com" } });
        expect(find(regs, "kubernetes:opentelemetry.io/v1beta1:OpenTelemetryCollector", "edge-observability-collector").inputs).toBeDefined();
        const es = find(regs, "kubernetes:elasticsearch.k8s.elastic.co/v1:Elasticsearch", "edge-logstore-elasticsearch").inputs!.spec as { nodeSets: { name: string; count: number }[] };
        expect(es.nodeSets.find((n) => n.name === "data")?.count).toBe(3);
        expect(unwrapSecrets(find(regs, "kubernetes:core/v1:Secret", "edge-prometheus-grafana-admin").inputs)).toMatchObject({ stringData: { "admin-password": "grafana-literal" } });
    });

    it("makes its own StorageClass for the facts' provisioner, retaining volumes as asked", () => {
        expect(find(regs, "kubernetes:storage.k8s.io/v1:StorageClass", "edge-storage-class").inputs).toMatchObject({
            metadata: { name: "mara-volumes" },
            provisioner: "ebs.csi.aws.com",
            reclaimPolicy: "Retain",
        });
    });

    it("gives Prometheus its arguments under its one name", () => {
        expect(JSON.stringify(find(regs, "kubernetes:helm.sh/v3:Release", "edge-prometheus-release").inputs!.values)).toContain('"storage":"30Gi"');
    });

    it("protects the stateful add-ons and only those", () => {
        expect(find(regs, "mara:observability:Logstore", "edge-logstore").protect).toBe(true);
        expect(find(regs, "mara:observability:Prometheus", "edge-prometheus").protect).toBe(true);
        expect(find(regs, "mara:addons:CertManager", "edge-cert-manager").protect).toBe(false);
    });
});

describe("two platforms in one stack", () => {
    let regs: Registration[];

    beforeAll(async () => {
        ({ registrations: regs } = await installMocks({ engineUrns: true }));
        // On two clusters, as two platforms sharing a stack would be (the add-ons' namespaces are fixed names).
        // Blue under the arguments' deprecated names, which the Platform still reads (CHANGELOG.md, 0.2.0 "Deprecated").
        new Platform(
            "blue",
            {
                cluster: EXISTING_CLUSTER_PLATFORM,
                metrics: { storageSize: "40Gi" },
                tracing: { collectorVariant: "debug" },
                certificates: { acme: { email: "old@example.com" } },
                metallb: { addresses: ["10.0.0.0/28"] },
                image: { imageName: "registry.example.com/old/nginx-ingress:5.5.4" },
                ingress: { replicas: 2 },
            },
            {
                providers: [testProvider("blue")],
            },
        );
        new Platform(
            "green",
            {
                cluster: EXISTING_CLUSTER_PLATFORM,
                storage: { className: "fast" },
                metrics: { storageSize: "40Gi" },
                prometheus: { storageSize: "50Gi" },
                tracing: { collectorVariant: "debug" },
                observability: { collectorVariant: "full" },
                certificates: { acme: { email: "old@example.com" } },
                certManager: { acme: { email: "new@example.com" } },
                metallb: { addresses: ["10.0.0.0/28"] },
                metalLb: { addresses: ["10.0.1.0/28"] },
                image: { imageName: "registry.example.com/old/nginx-ingress:5.5.4" },
                ingress: { replicas: 2, serviceType: "NodePort", fqdn: "green.example.com" },
                ingressController: { replicas: 3, image: { imageName: "registry.example.com/new/nginx-ingress:5.5.3" } },
            },
            { providers: [testProvider("green")] },
        );
        await settle();
    }, 300_000);

    it("register every resource under its own URN", () => {
        const urns = regs.map((r) => r.urn);
        expect(urns.every((u) => u !== undefined)).toBe(true);
        expect(new Set(urns).size).toBe(urns.length);
        expect(find(regs, "mara:platform:Secrets", "blue-secrets").urn).toBe("urn:pulumi:dev::mara::mara:platform:Platform$mara:platform:Secrets::blue-secrets");
        expect(find(regs, "mara:platform:Secrets", "green-secrets")).toBeDefined();
    });

    it("read the deprecated argument names as the new ones, and the new ones win", () => {
        const storage = (platform: string) => JSON.stringify(find(regs, "kubernetes:helm.sh/v3:Release", `${platform}-prometheus-release`).inputs!.values).match(/"storage":"(\d+Gi)"/g);
        expect(storage("blue")).toContain('"storage":"40Gi"');
        expect(storage("green")).toContain('"storage":"50Gi"');
        expect(storage("green")).not.toContain('"storage":"40Gi"');
        const variant = (platform: string) => JSON.stringify(find(regs, "kubernetes:opentelemetry.io/v1beta1:OpenTelemetryCollector", `${platform}-observability-collector`).inputs);
        // debug logs every span (verbosity detailed); full adds the Zipkin receiver.
        expect(variant("blue")).toContain('"verbosity":"detailed"');
        expect(variant("green")).toContain('"zipkin"');
        const acmeEmail = (platform: string) =>
            ofType(regs, "kubernetes:cert-manager.io/v1:ClusterIssuer")
                .filter((r) => r.name.startsWith(`${platform}-`))
                .map((r) => (r.inputs!.spec as { acme?: { email: string } }).acme?.email)
                .filter((e) => e !== undefined);
        expect(acmeEmail("blue")).toEqual(["old@example.com"]);
        expect(acmeEmail("green")).toEqual(["new@example.com"]);
        const pool = (platform: string) => ofType(regs, "kubernetes:metallb.io/v1beta1:IPAddressPool").filter((r) => r.name.startsWith(`${platform}-`)).map((r) => (r.inputs!.spec as { addresses: string[] }).addresses);
        expect(pool("blue")).toEqual([["10.0.0.0/28"]]);
        expect(pool("green")).toEqual([["10.0.1.0/28"]]);
        // image and ingress, deprecated for ingressController (and its image): member by member, the new name wins.
        const controller = (platform: string) => (find(regs, "kubernetes:helm.sh/v3:Release", `${platform}-ingress-controller-release`).inputs!.values as { controller: unknown }).controller;
        expect(controller("blue")).toMatchObject({ image: { repository: "registry.example.com/old/nginx-ingress", tag: "5.5.4" }, replicaCount: 2 });
        expect(controller("green")).toMatchObject({ image: { repository: "registry.example.com/new/nginx-ingress", tag: "5.5.3" }, replicaCount: 3 });
        expect((find(regs, "kubernetes:core/v1:Service", "green-ingress-controller-service").inputs!.spec as { type: string }).type).toBe("NodePort");
    });

    it("use the StorageClass they are given, and create none without a provisioner", () => {
        expect(ofType(regs, "kubernetes:storage.k8s.io/v1:StorageClass")).toEqual([]);
        const greenStore = find(regs, "kubernetes:elasticsearch.k8s.elastic.co/v1:Elasticsearch", "green-logstore-elasticsearch").inputs!.spec;
        expect(JSON.stringify(greenStore)).toContain('"storageClassName":"fast"');
        expect(JSON.stringify(find(regs, "kubernetes:elasticsearch.k8s.elastic.co/v1:Elasticsearch", "blue-logstore-elasticsearch").inputs!.spec)).not.toContain("storageClassName");
    });
});

describe("the log add-ons' arguments under their 0.1.0 names", () => {
    let regs: Registration[];
    const mirror = (version: string) => ({ ...CHARTS.logagent, version, repositoryUrl: "https://charts.example.com/fluent" });

    beforeAll(async () => {
        ({ registrations: regs } = await installMocks());
        // `logs.store` and `logs.agent`, deprecated for `logstore` and `logAgent`, still reach the add-ons.
        new Platform("old", { cluster: EXISTING_CLUSTER_PLATFORM, logs: { store: { storageSize: "20Gi", replicas: { data: 2 } }, agent: { chart: mirror("0.50.0") } } }, { providers: [testProvider("old")] });
        // Given both, the add-on's own name wins, key by key.
        new Platform(
            "both",
            {
                cluster: EXISTING_CLUSTER_PLATFORM,
                logs: { store: { storageSize: "20Gi", replicas: { data: 2 } }, agent: { chart: mirror("0.50.0") } },
                logstore: { replicas: { data: 3 } },
                logAgent: { chart: mirror("0.51.0") },
            },
            { providers: [testProvider("both")] },
        );
        await settle();
    }, 300_000);

    const nodeSets = (platform: string) =>
        (find(regs, "kubernetes:elasticsearch.k8s.elastic.co/v1:Elasticsearch", `${platform}-logstore-elasticsearch`).inputs!.spec as {
            nodeSets: { name: string; count: number; volumeClaimTemplates: { spec: { resources: { requests: { storage: string } } } }[] }[];
        }).nodeSets;
    const agentRelease = (platform: string) => find(regs, "kubernetes:helm.sh/v3:Release", `${platform}-log-agent-release`).inputs;

    it("reach the log store and the log agent", () => {
        const data = nodeSets("old").find((n) => n.name === "data")!;
        expect(data.count).toBe(2);
        expect(data.volumeClaimTemplates[0]!.spec.resources.requests.storage).toBe("20Gi");
        expect(agentRelease("old")).toMatchObject({ version: "0.50.0", repositoryOpts: { repo: "https://charts.example.com/fluent" } });
    });

    it("yield to logstore and logAgent where both are given", () => {
        const data = nodeSets("both").find((n) => n.name === "data")!;
        // replicas is one argument: the new name's object replaces the old one's, as a spread of arguments does.
        expect(data.count).toBe(3);
        expect(data.volumeClaimTemplates[0]!.spec.resources.requests.storage).toBe("20Gi");
        expect(agentRelease("both")).toMatchObject({ version: "0.51.0" });
    });
});

describe("a user's add-on on the Platform", () => {
    it("is created after the platform's own, as its child, and given the platform's outputs under each add-on's one name (the deprecated metrics names are the same objects)", async () => {
        await installMocks();
        let given: PlatformContext | undefined;
        const platform = new Platform(
            "ctx",
            {
                cluster: EXISTING_CLUSTER_PLATFORM,
                addOns: [{ name: "probe", create: (context, opts) => ((given = context), new pulumi.ComponentResource("test:addons:Probe", "ctx-probe", {}, opts)) }],
            },
            { providers: [testProvider()] },
        );
        await settle();
        expect(given).toBeDefined();
        expect(given!.prometheus).toBe(platform.prometheus);
        expect(given!.metrics).toBe(platform.prometheus);
        expect(given!.prometheusNamespace).toBe(platform.prometheus.namespace);
        expect(given!.metricsNamespace).toBe(given!.prometheusNamespace);
        expect(given!.certManager).toBe(platform.certManager);
        expect(given!.ingressController).toBe(platform.ingressController);
        expect(Object.keys(platform.addOns)).toEqual(["probe"]);
    }, 300_000);
});

describe("the Platform's table of units", () => {
    it("says which unit must come first when one is created before an add-on it is created from", () => {
        expect(() => createdBefore({}, "logstore", "logAgent")).toThrow("the Platform's logAgent is created from its logstore, which components/platformUnits.ts must list first");
    });
});
