import { describe, expect, it } from "vitest";
import {
    databasePolicySpec,
    DEMO_LOGIN_SCRIPT,
    podSpecFor,
    postgresExporterValues,
    siriusWorkloads,
    validateApplicationArgs,
    workloadLabels,
} from "../../components";

const workloads = siriusWorkloads("statsd.example");
const byName = (name: string) => workloads.find((w) => w.name === name)!;
const base = { hostname: "bank.example.com", clusterIssuer: "selfsigned-issuer", accountsDb: { password: "a" }, ledgerDb: { password: "l" }, demoLogin: { username: "u", password: "p" } };

describe("Bank of Sirius workloads", () => {
    it("are the nine upstream services, two of them databases", () => {
        expect(workloads.map((w) => w.name)).toEqual(["frontend", "userservice", "contacts", "balancereader", "ledgerwriter", "transactionhistory", "accounts-db", "ledger-db", "loadgenerator"]);
        expect(workloads.filter((w) => w.kind === "StatefulSet").map((w) => w.name)).toEqual(["accounts-db", "ledger-db"]);
    });

    it("never carry a password as a literal value", () => {
        for (const w of workloads) {
            for (const [name, source] of Object.entries(w.env)) {
                if (/PASSWORD|_URI$/.test(name)) expect("secret" in source, `${w.name} ${name}`).toBe(true);
            }
        }
    });

    it("mount the JWT private key only where tokens are signed", () => {
        type Volume = { name: string; secret?: { items: { path: string }[] } };
        const items = (name: string) => (podSpecFor(byName(name), "img").volumes as Volume[]).find((v) => v.name === "jwt");
        expect(items("userservice")!.secret!.items.map((i) => i.path)).toEqual(["publickey", "privatekey"]);
        expect(items("frontend")!.secret!.items.map((i) => i.path)).toEqual(["publickey"]);
        expect(items("accounts-db")).toBeUndefined();
    });

    it("give the accounts database the demo-login init script, executable, next to the image's own", () => {
        const spec = podSpecFor(byName("accounts-db"), "img") as { containers: { volumeMounts: unknown[] }[]; volumes: unknown[] };
        expect(spec.containers[0]!.volumeMounts).toContainEqual({ name: "demo-login", mountPath: "/docker-entrypoint-initdb.d/2-demo-login.sh", subPath: "2-demo-login.sh", readOnly: true });
        expect(spec.volumes).toContainEqual({ name: "demo-login", configMap: { name: "accounts-db-demo-login", defaultMode: 0o755 } });
        expect(DEMO_LOGIN_SCRIPT).toContain("UPDATE users SET passhash = convert_to(crypt(:'password', gen_salt('bf', 12)), 'UTF8') WHERE username = :'login';");
        // The password comes from the container's environment (a Secret), never from the ConfigMap itself.
        expect(DEMO_LOGIN_SCRIPT).toContain('-v login="$DEMO_LOGIN_USERNAME" -v password="$DEMO_LOGIN_PASSWORD"');
    });

    it("label database clients so the NetworkPolicies can admit exactly them", () => {
        expect(workloadLabels(byName("contacts"))).toMatchObject({ app: "contacts", "accounts-db-client": "true" });
        expect(workloadLabels(byName("frontend"))).not.toHaveProperty("accounts-db-client");
        const policy = databasePolicySpec("ledger-db", workloads);
        expect(policy.podSelector).toEqual({ matchLabels: { app: "ledger-db" } });
        expect(policy.ingress).toEqual([
            {
                from: [
                    { podSelector: { matchLabels: { app: "balancereader", "ledger-db-client": "true" } } },
                    { podSelector: { matchLabels: { app: "ledgerwriter", "ledger-db-client": "true" } } },
                    { podSelector: { matchLabels: { app: "transactionhistory", "ledger-db-client": "true" } } },
                    { podSelector: { matchLabels: { "ledger-db-client": "true", "app.kubernetes.io/component": "postgres-exporter" } } },
                ],
                ports: [{ port: 5432, protocol: "TCP" }],
            },
        ]);
    });

    it("point the exporters at their database with the password from its Secret", () => {
        expect(postgresExporterValues("ledgerdbmon", "ledger-db", { database: "ledger", user: "bank", password: "x" }, "ledger-db-credentials", false)).toEqual({
            fullnameOverride: "ledgerdbmon",
            podLabels: { "ledger-db-client": "true", "app.kubernetes.io/component": "postgres-exporter" },
            config: { datasource: { host: "ledger-db", user: "bank", database: "ledger", port: "5432", sslmode: "disable", passwordSecret: { name: "ledger-db-credentials", key: "POSTGRES_PASSWORD" } } },
            serviceMonitor: { enabled: false },
            resources: { requests: { cpu: "10m", memory: "32Mi" }, limits: { memory: "128Mi" } },
        });
    });
});

describe("Application argument checks", () => {
    it("applies MARA's defaults", () => {
        expect(validateApplicationArgs(base)).toMatchObject({
            namespace: "bos",
            routing: "ingress",
            imageRegistry: "ghcr.io/nginxinc",
            imageTag: "v1.3.0",
            dbStorageSize: "1Gi",
            statsdHost: "statsd-prometheus-statsd-exporter.prometheus.svc.cluster.local",
            accountsDb: { database: "postgresdb", user: "admin" },
        });
    });

    it.each([
        [{ namespace: "Bank" }, 'Application: namespace "Bank" is not a name of lower-case letters, digits and \'-\' (at most 63 characters, starting and ending with a letter or digit).'],
        [{ dbStorageSize: "1GB" }, 'Application: dbStorageSize "1GB" is not a positive volume size in Mi, Gi or Ti, such as 10Gi.'],
        [{ accountsDb: { password: "a", user: "Admin" } }, 'Application: accountsDb.user "Admin" is not a PostgreSQL identifier: lower-case letters, digits and \'_\', at most 63 characters.'],
        [{ routing: "gateway" as "ingress" }, 'Application: routing "gateway" is not "ingress" or "virtualserver".'],
    ])("rejects %j", (override, message) => {
        expect(() => validateApplicationArgs({ ...base, ...override })).toThrow(message);
    });
});
