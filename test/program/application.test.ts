/**
 * Bank of Sirius as the whole AWS program registers it: nine workloads, secrets only in Secrets,
 * persistent databases, TLS through cert-manager, locked-down database access, deterministic inputs.
 */
import * as pulumi from "@pulumi/pulumi";
import { beforeAll, describe, expect, it } from "vitest";
import { aws, fixture } from "../support/config";
import { validateKubernetesObjects } from "../support/k8s";
import { find, isWrappedSecret, ofType, promiseOf, Registration, unwrapSecrets } from "../support/mocks";
import { ProgramRun, runProgram } from "../support/program";

const SECRETS = { "mara:grafanaAdminPassword": "grafana-secret-from-config", "mara:siriusAccountsPassword": "accounts-secret-from-config" };
const WORKLOADS = ["frontend", "userservice", "contacts", "balancereader", "ledgerwriter", "transactionhistory", "accounts-db", "ledger-db", "loadgenerator"];

type Container = { name: string; image: string; env?: { name: string; value?: string; valueFrom?: Record<string, { name: string; key: string }> }[] };
type PodTemplate = { spec: { template: { spec: { containers: Container[] } } } };
const containers = (r: Registration) => (r.inputs as unknown as PodTemplate).spec.template.spec.containers;
const workloadRegs = (regs: Registration[]) => [...ofType(regs, "kubernetes:apps/v1:Deployment"), ...ofType(regs, "kubernetes:apps/v1:StatefulSet")];

describe("Bank of Sirius on AWS", () => {
    let run: ProgramRun;
    let regs: Registration[];

    beforeAll(async () => {
        run = await runProgram(fixture("canonical-aws", { secrets: SECRETS }));
        regs = run.registrations;
        expect(run.error).toBeUndefined();
    }, 300_000);

    it("registers the Application with the nine workloads and their Services in namespace bos", () => {
        expect(ofType(regs, "mara:app:Application")).toHaveLength(1);
        expect(workloadRegs(regs).map((r) => (r.inputs!.metadata as { name: string }).name).sort()).toEqual([...WORKLOADS].sort());
        expect(ofType(regs, "kubernetes:apps/v1:StatefulSet").map((r) => r.name).sort()).toEqual(["bank-of-sirius-accounts-db", "bank-of-sirius-ledger-db"]);
        for (const w of WORKLOADS) expect(find(regs, "kubernetes:core/v1:Service", `bank-of-sirius-${w}-service`).inputs!.metadata).toMatchObject({ name: w, namespace: "bos" });
    });

    it("runs the upstream images with probes and resource requests and limits", () => {
        for (const r of workloadRegs(regs)) {
            const [c] = containers(r) as (Container & { resources: { requests: unknown; limits: unknown }; readinessProbe?: unknown })[];
            expect(c!.image).toMatch(/^ghcr\.io\/nginxinc\/bos-[a-z-]+:v1\.3\.0$/);
            expect(c!.resources.requests, r.name).toBeDefined();
            expect(c!.resources.limits, r.name).toBeDefined();
            if (!r.name.endsWith("loadgenerator")) expect(c!.readinessProbe, r.name).toBeDefined();
        }
    });

    it("keeps every secret out of ConfigMaps and literal environment values", () => {
        const secretValues = [...Object.values(SECRETS), "generated-secrets-", "MOCK-PRIVATE"];
        const plain: string[] = [];
        for (const cm of ofType(regs, "kubernetes:core/v1:ConfigMap")) plain.push(JSON.stringify(unwrapSecrets(cm.inputs!.data)));
        for (const r of workloadRegs(regs)) for (const c of containers(r)) for (const e of c.env ?? []) if (e.value !== undefined) plain.push(e.value);
        for (const text of plain) for (const s of secretValues) expect(text).not.toContain(s);
        for (const secret of ofType(regs, "kubernetes:core/v1:Secret").filter((r) => r.name.startsWith("bank-of-sirius"))) {
            expect(isWrappedSecret(secret.inputs!.stringData), secret.name).toBe(true);
        }
    });

    it("reads database passwords and the demo login through secretKeyRef", () => {
        const env = (workload: string) => containers(find(regs, "kubernetes:apps/v1:Deployment", `bank-of-sirius-${workload}`))[0]!.env!;
        expect(env("userservice").find((e) => e.name === "ACCOUNTS_DB_URI")!.valueFrom).toEqual({ secretKeyRef: { name: "accounts-db-credentials", key: "ACCOUNTS_DB_URI" } });
        expect(env("ledgerwriter").find((e) => e.name === "SPRING_DATASOURCE_PASSWORD")!.valueFrom).toEqual({ secretKeyRef: { name: "ledger-db-credentials", key: "SPRING_DATASOURCE_PASSWORD" } });
        expect(env("frontend").find((e) => e.name === "DEFAULT_PASSWORD")!.valueFrom).toEqual({ secretKeyRef: { name: "demo-login", key: "DEMO_LOGIN_PASSWORD" } });
        const accountsSecret = unwrapSecrets(find(regs, "kubernetes:core/v1:Secret", "bank-of-sirius-accounts-db-credentials").inputs!.stringData);
        expect(accountsSecret).toEqual({
            POSTGRES_PASSWORD: "accounts-secret-from-config",
            ACCOUNTS_DB_URI: "postgresql://admin:accounts-secret-from-config@accounts-db:5432/postgresdb",
        });
    });

    it("stores the JWT key pair from a tls.PrivateKey in the jwt-key Secret", () => {
        expect(find(regs, "tls:index/privateKey:PrivateKey", "bank-of-sirius-jwt").inputs).toMatchObject({ algorithm: "RSA", rsaBits: 2048 });
        const jwt = unwrapSecrets(find(regs, "kubernetes:core/v1:Secret", "bank-of-sirius-jwt-key").inputs!.stringData) as Record<string, string>;
        expect(jwt["jwtRS256.key"]).toContain("MOCK-PRIVATE-bank-of-sirius-jwt");
        expect(jwt["jwtRS256.key.pub"]).toContain("MOCK-PUBLIC-bank-of-sirius-jwt");
    });

    it("keeps both databases on persistent volumes", () => {
        for (const db of ["accounts-db", "ledger-db"]) {
            const sts = find(regs, "kubernetes:apps/v1:StatefulSet", `bank-of-sirius-${db}`).inputs as unknown as {
                spec: { volumeClaimTemplates: unknown[]; template: { spec: { volumes: { name: string; emptyDir?: unknown }[]; containers: { volumeMounts: unknown[] }[] } } };
            };
            expect(sts.spec.volumeClaimTemplates).toEqual([
                { metadata: { name: "data" }, spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } }, storageClassName: "mara-volumes" } },
            ]);
            expect(sts.spec.template.spec.containers[0]!.volumeMounts).toContainEqual({ name: "data", mountPath: "/var/lib/postgresql/data", subPath: "postgres" });
            // The only scratch volume is the Postgres socket directory the credentials container shares.
            expect(sts.spec.template.spec.volumes.filter((v) => v.emptyDir).map((v) => v.name)).toEqual(["postgres-socket"]);
        }
    });

    it("applies each database's StatefulSet as a field manager of its own name, with force, and each Deployment as one of its own, without force", () => {
        // A run after one killed during the create takes the StatefulSet over (components/ownership/fieldManager.ts).
        for (const db of ["accounts-db", "ledger-db"]) {
            expect((find(regs, "kubernetes:apps/v1:StatefulSet", `bank-of-sirius-${db}`).inputs!.metadata as { annotations: unknown }).annotations).toEqual({
                "pulumi.com/patchFieldManager": `mara-bank-of-sirius-${db}`,
                "pulumi.com/patchForce": "true",
            });
        }
        const deployments = ofType(regs, "kubernetes:apps/v1:Deployment");
        expect(deployments.length).toBeGreaterThan(0);
        for (const d of deployments) {
            expect((d.inputs!.metadata as { annotations?: object }).annotations, d.name).toEqual({ "pulumi.com/patchFieldManager": `mara-${d.name}` });
        }
    });

    it("serves HTTPS on the load balancer's host name with a certificate from the self-signed ClusterIssuer", async () => {
        const ingress = find(regs, "kubernetes:networking.k8s.io/v1:Ingress", "bank-of-sirius-ingress").inputs as unknown as {
            metadata: { annotations: Record<string, string> };
            spec: { ingressClassName: string; tls: unknown[]; rules: { host: string }[] };
        };
        expect(ingress.metadata.annotations).toEqual({ "cert-manager.io/cluster-issuer": "selfsigned-issuer" });
        expect(ingress.spec.ingressClassName).toBe("nginx");
        expect(ingress.spec.tls).toEqual([{ hosts: ["a1b2c3-123.elb.us-east-1.amazonaws.com"], secretName: "sirius-secret" }]);
        expect(ingress.spec.rules[0]!.host).toBe("a1b2c3-123.elb.us-east-1.amazonaws.com");
        expect(await promiseOf(run.outputs!.application_url as pulumi.Output<string>)).toBe("https://a1b2c3-123.elb.us-east-1.amazonaws.com");
        const issuer = find(regs, "kubernetes:cert-manager.io/v1:ClusterIssuer", "platform-cert-manager-selfsigned");
        expect(find(regs, "kubernetes:networking.k8s.io/v1:Ingress", "bank-of-sirius-ingress").dependencies).toContain(issuer.urn);
    });

    it("lets only each database's clients reach it", () => {
        const from = (db: string) =>
            (find(regs, "kubernetes:networking.k8s.io/v1:NetworkPolicy", `bank-of-sirius-${db}-policy`).inputs!.spec as {
                podSelector: unknown;
                ingress: { from: { podSelector: { matchLabels: Record<string, string> } }[] }[];
            });
        expect(from("accounts-db").podSelector).toEqual({ matchLabels: { app: "accounts-db" } });
        expect(from("accounts-db").ingress[0]!.from.map((f) => f.podSelector.matchLabels.app).filter(Boolean)).toEqual(["userservice", "contacts"]);
        expect(from("ledger-db").ingress[0]!.from.map((f) => f.podSelector.matchLabels.app).filter(Boolean)).toEqual(["balancereader", "ledgerwriter", "transactionhistory"]);
    });

    it("sends traces to the collector, Python metrics to statsd, and monitors the databases", () => {
        const tracing = unwrapSecrets(find(regs, "kubernetes:core/v1:ConfigMap", "bank-of-sirius-tracing").inputs!.data);
        expect(tracing).toEqual({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://simplest-collector.observability.svc.cluster.local:9978", ENABLE_TRACING: "true", ENABLE_METRICS: "true" });
        const frontendEnv = containers(find(regs, "kubernetes:apps/v1:Deployment", "bank-of-sirius-frontend"))[0]!.env!;
        expect(frontendEnv.find((e) => e.name === "STATSD_HOST")!.value).toBe("statsd-prometheus-statsd-exporter.prometheus.svc.cluster.local:9125");
        const exporter = find(regs, "kubernetes:helm.sh/v3:Release", "bank-of-sirius-accountsdbmon");
        expect(exporter.inputs!.values).toMatchObject({
            config: { datasource: { host: "accounts-db", user: "admin", database: "postgresdb", passwordSecret: { name: "accounts-db-credentials", key: "POSTGRES_PASSWORD" } } },
            serviceMonitor: { enabled: true },
        });
        // dependsOn a local component waits for its children: here the release that installs the ServiceMonitor CRD.
        expect(exporter.dependencies).toContain(find(regs, "kubernetes:helm.sh/v3:Release", "platform-prometheus-release").urn);
    });

    it("passes Kubernetes schema validation for every application object", () => {
        const { checked, errors } = validateKubernetesObjects(regs.filter((r) => r.name.startsWith("bank-of-sirius")));
        expect(errors).toEqual([]);
        expect(checked.filter((c) => c.startsWith("Deployment/") || c.startsWith("StatefulSet/"))).toHaveLength(9);
        expect(checked).toEqual(expect.arrayContaining(["NetworkPolicy/bank-of-sirius-accounts-db-policy", "Ingress/bank-of-sirius-ingress"]));
    });

    it("registers identical inputs when run twice with the same config", async () => {
        const again = await runProgram(fixture("canonical-aws", { secrets: SECRETS }));
        const snapshot = (r: ProgramRun) =>
            r.registrations
                .map((x) => JSON.stringify({ type: x.type, name: x.name, inputs: unwrapSecrets(x.inputs) }))
                .sort();
        expect(snapshot(again)).toEqual(snapshot(run));
        expect(snapshot(again).length).toBeGreaterThan(100);
    }, 120_000);
});

describe("Bank of Sirius options", () => {
    it("routes through an NGINX VirtualServer with cert-manager TLS when configured", async () => {
        const run = await runProgram(aws({ "mara:siriusRouting": "virtualserver", "sirius:hostname": "bank.example.com" }));
        expect(ofType(run.registrations, "kubernetes:networking.k8s.io/v1:Ingress")).toEqual([]);
        const vs = find(run.registrations, "kubernetes:k8s.nginx.org/v1:VirtualServer", "bank-of-sirius-virtualserver");
        expect(vs.inputs!.spec).toEqual({
            host: "bank.example.com",
            ingressClassName: "nginx",
            tls: { secret: "sirius-secret", "cert-manager": { "cluster-issuer": "selfsigned-issuer" } },
            upstreams: [{ name: "frontend", service: "frontend", port: 80 }],
            routes: [{ path: "/", action: { pass: "frontend" } }],
        });
        expect(vs.dependencies).toContain(find(run.registrations, "kubernetes:helm.sh/v3:Release", "platform-ingress-controller-release").urn);
    }, 120_000);

    it("uses the ACME issuer and the configured host name when asked", async () => {
        const run = await runProgram(aws({ "sirius:cert_type": "http01", "sirius:cert_email": "ops@example.com", "kic-helm:fqdn": "mara.example.com" }));
        const ingress = find(run.registrations, "kubernetes:networking.k8s.io/v1:Ingress", "bank-of-sirius-ingress").inputs as unknown as {
            metadata: { annotations: Record<string, string> };
            spec: { rules: { host: string }[] };
        };
        expect(ingress.metadata.annotations["cert-manager.io/cluster-issuer"]).toBe("letsencrypt");
        expect(ingress.spec.rules[0]!.host).toBe("mara.example.com");
    }, 120_000);

    it("honours MARA's database keys", async () => {
        const run = await runProgram(aws({ "sirius:accounts_db": "accounts", "sirius:accounts_admin": "bank", "sirius:ledger_db": "ledger" }));
        expect(find(run.registrations, "kubernetes:core/v1:ConfigMap", "bank-of-sirius-accounts-db").inputs!.data).toEqual({ POSTGRES_DB: "accounts", POSTGRES_USER: "bank" });
        expect((find(run.registrations, "kubernetes:core/v1:ConfigMap", "bank-of-sirius-ledger-db").inputs!.data as Record<string, string>).SPRING_DATASOURCE_URL).toBe(
            "jdbc:postgresql://ledger-db:5432/ledger",
        );
    }, 120_000);
});
