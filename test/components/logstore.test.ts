import * as random from "@pulumi/random";
import { beforeAll, describe, expect, it } from "vitest";
import { elasticsearchSpec, LOG_WRITER_ROLE, Logstore, LogstoreReplicas, validateLogstoreArgs } from "../../components";
import { KIBANA_SETUP_IMAGE, KIBANA_SETUP_SCRIPT, kibanaSavedObjects } from "../../components/logstore/kibanaSetup";
import { ACCESS_LOG_FIELDS } from "../../components/logFormats";
import { CHARTS } from "../../contracts";
import { k8sProviderRef, testProvider, validateKubernetesObjects } from "../support/k8s";
import { find, installMocks, isWrappedSecret, ofType, promiseOf, Registration, settle, unwrapSecrets, plainStrings } from "../support/mocks";

const RELEASE = "kubernetes:helm.sh/v3:Release";
const SECRET = "kubernetes:core/v1:Secret";
const ELASTICSEARCH = "kubernetes:elasticsearch.k8s.elastic.co/v1:Elasticsearch";
const KIBANA = "kubernetes:kibana.k8s.elastic.co/v1:Kibana";

interface NodeSet {
    name: string;
    count: number;
    config: Record<string, unknown>;
    volumeClaimTemplates: { metadata: { name: string }; spec: { resources: { requests: { storage: string } }; storageClassName?: string } }[];
}
interface Spec {
    version: string;
    http: unknown;
    auth?: unknown;
    nodeSets: NodeSet[];
}

const ALL: Required<LogstoreReplicas> = { master: 3, data: 2, ingest: 1, coordinating: 1 };
const spec = (replicas = ALL, storageClassName?: string, auth: Record<string, unknown> = {}) =>
    elasticsearchSpec("9.5.0", replicas, "50Gi", storageClassName, auth) as unknown as Spec;
const nodeSet = (s: Spec, name: string) => s.nodeSets.find((n) => n.name === name)!;

describe("elasticsearchSpec", () => {
    it("builds one node set per role with its count and node roles; coordinating-only nodes have none", () => {
        const s = spec();
        expect(s.version).toBe("9.5.0");
        expect(s.nodeSets.map((n) => [n.name, n.count, n.config["node.roles"]])).toEqual([
            ["master", 3, ["master"]],
            ["data", 2, ["data"]],
            ["ingest", 1, ["ingest"]],
            ["coordinating", 1, []],
        ]);
    });

    it("omits the ingest and coordinating node sets when their count is 0", () => {
        expect(spec({ master: 1, data: 1, ingest: 0, coordinating: 0 }).nodeSets.map((n) => n.name)).toEqual(["master", "data"]);
        expect(spec({ master: 1, data: 1, ingest: 2, coordinating: 0 }).nodeSets.map((n) => n.name)).toEqual(["master", "data", "ingest"]);
    });

    it("turns memory-mapped storage off on every node, so no node needs a vm.max_map_count change", () => {
        for (const n of spec().nodeSets) expect(n.config["node.store.allow_mmap"], n.name).toBe(false);
    });

    it("gives the data nodes a volume of the requested size, every claim named elasticsearch-data as ECK expects", () => {
        expect(nodeSet(spec(), "data").volumeClaimTemplates[0]!.spec.resources.requests.storage).toBe("50Gi");
        for (const n of spec().nodeSets) expect(n.volumeClaimTemplates.map((c) => c.metadata.name), n.name).toEqual(["elasticsearch-data"]);
    });

    it("sets the StorageClass on every claim only when one is given", () => {
        for (const n of spec(ALL, "gp3").nodeSets) expect(n.volumeClaimTemplates[0]!.spec.storageClassName, n.name).toBe("gp3");
        for (const n of spec().nodeSets) expect(n.volumeClaimTemplates[0]!.spec, n.name).not.toHaveProperty("storageClassName");
    });

    it("serves plain HTTP inside the cluster: ECK's self-signed certificate is disabled", () => {
        expect(spec().http).toEqual({ tls: { selfSignedCertificate: { disabled: true } } });
    });

    it("adds the auth section only when one is given", () => {
        const auth = { roles: [{ secretName: "r" }], fileRealm: [{ secretName: "u" }] };
        expect(spec(ALL, undefined, auth).auth).toEqual(auth);
        expect(spec()).not.toHaveProperty("auth");
    });
});

describe("validateLogstoreArgs", () => {
    it("defaults every role to one node and keeps the counts given", () => {
        expect(validateLogstoreArgs({})).toEqual({ master: 1, data: 1, ingest: 1, coordinating: 1 });
        expect(validateLogstoreArgs({ replicas: { master: 3, ingest: 0 } })).toEqual({ master: 3, data: 1, ingest: 0, coordinating: 1 });
        expect(validateLogstoreArgs({ replicas: { coordinating: 0 }, storageSize: "1.5Ti" })).toEqual({ master: 1, data: 1, ingest: 1, coordinating: 0 });
    });

    it.each([
        [{ replicas: { ingest: -1 } }, "Logstore: replicas.ingest must be a whole number of at least 0; got -1."],
        [{ replicas: { coordinating: -2 } }, "Logstore: replicas.coordinating must be a whole number of at least 0; got -2."],
        [{ replicas: { master: 0 } }, "Logstore: replicas.master must be a whole number of at least 1; got 0."],
        [{ replicas: { data: 0 } }, "Logstore: replicas.data must be a whole number of at least 1; got 0."],
        [{ replicas: { data: 1.5 } }, "Logstore: replicas.data must be a whole number of at least 1; got 1.5."],
        [{ storageSize: "10GB" }, 'Logstore: storageSize "10GB" is not a positive volume size in Mi, Gi or Ti, such as 10Gi.'],
        [{ storageSize: "10" }, 'Logstore: storageSize "10" is not a positive volume size in Mi, Gi or Ti, such as 10Gi.'],
    ])("rejects %j", (args, message) => {
        expect(() => validateLogstoreArgs(args)).toThrow(new Error(message));
    });

    it("fails in the constructor before creating anything", async () => {
        const { registrations } = await installMocks();
        expect(() => new Logstore("bad", { replicas: { master: 0 } })).toThrow(new Error("Logstore: replicas.master must be a whole number of at least 1; got 0."));
        await settle();
        expect(registrations.filter((r) => r.custom)).toEqual([]);
    });
});

describe("Logstore with a log writer", () => {
    const PASSWORD = "log-writer-secret-pw";
    let regs: Registration[];
    let store: Logstore;
    let provider: string;
    let upstream: random.RandomPassword;

    beforeAll(async () => {
        ({ registrations: regs } = await installMocks());
        const k8s = testProvider();
        upstream = new random.RandomPassword("upstream", { length: 16 });
        store = new Logstore(
            "logstore",
            { logWriterPassword: PASSWORD, storageSize: "50Gi", storageClassName: "gp3", replicas: { master: 3, ingest: 0 } },
            { providers: [k8s], dependsOn: [upstream] },
        );
        await settle();
        provider = await k8sProviderRef(k8s);
    });

    it("installs the ECK operator from the catalogue with its CRDs into the logstore namespace", () => {
        expect(find(regs, "kubernetes:core/v1:Namespace", "logstore-ns").inputs!.metadata).toMatchObject({ name: "logstore" });
        expect(find(regs, RELEASE, "logstore-operator").inputs).toMatchObject({
            name: "eck-operator",
            namespace: "logstore",
            chart: CHARTS.logstore.chart,
            version: CHARTS.logstore.version,
            repositoryOpts: { repo: CHARTS.logstore.repositoryUrl },
            values: { installCRDs: true },
        });
    });

    it("defines the log writer's role in a roles Secret", () => {
        const roles = find(regs, SECRET, "logstore-roles");
        expect(roles.inputs!.metadata).toEqual({ name: "logstore-roles", namespace: "logstore" });
        expect(unwrapSecrets(roles.inputs!.stringData)).toEqual({ "roles.yml": LOG_WRITER_ROLE });
    });

    it("creates the log-writer user in a basic-auth Secret, its password secret-wrapped", () => {
        const user = find(regs, SECRET, "logstore-log-writer");
        expect(user.inputs).toMatchObject({ type: "kubernetes.io/basic-auth", metadata: { name: "logstore-log-writer", namespace: "logstore" } });
        expect(isWrappedSecret(user.inputs!.stringData)).toBe(true);
        expect(unwrapSecrets(user.inputs!.stringData)).toEqual({ username: "log-writer", password: PASSWORD, roles: "mara_log_writer" });
    });

    it("never puts the log writer's password in plain text into any registration", () => {
        for (const r of regs.filter((x) => x.inputs)) {
            for (const s of plainStrings(r.inputs)) expect(s, `${r.type} ${r.name}`).not.toContain(PASSWORD);
        }
    });

    it("creates the Elasticsearch cluster with the file realm and roles of those Secrets, after the operator and both Secrets", () => {
        const es = find(regs, ELASTICSEARCH, "logstore-elasticsearch");
        expect(es.inputs).toMatchObject({ apiVersion: "elasticsearch.k8s.elastic.co/v1", kind: "Elasticsearch", metadata: { name: "elastic", namespace: "logstore" } });
        const auth = { roles: [{ secretName: "logstore-roles" }], fileRealm: [{ secretName: "logstore-log-writer" }] };
        expect(es.inputs!.spec).toEqual(elasticsearchSpec("9.5.0", { master: 3, data: 1, ingest: 0, coordinating: 1 }, "50Gi", "gp3", auth));
        for (const dep of [find(regs, RELEASE, "logstore-operator"), find(regs, SECRET, "logstore-roles"), find(regs, SECRET, "logstore-log-writer")]) {
            expect(es.dependencies, dep.name).toContain(dep.urn);
        }
    });

    it("creates one Kibana instance for that cluster, after the operator", () => {
        const kibana = find(regs, KIBANA, "logstore-kibana");
        expect(kibana.inputs).toMatchObject({
            apiVersion: "kibana.k8s.elastic.co/v1",
            kind: "Kibana",
            metadata: { namespace: "logstore" },
            spec: { version: "9.5.0", count: 1, elasticsearchRef: { name: "elastic" } },
        });
        expect(kibana.dependencies).toContain(find(regs, RELEASE, "logstore-operator").urn);
    });

    it("exports the in-cluster addresses, the admin Secret's name and the log writer user", async () => {
        expect(await promiseOf(store.namespace)).toBe("logstore");
        expect(await promiseOf(store.elasticsearchHost)).toBe("elastic-es-http.logstore.svc.cluster.local");
        expect(await promiseOf(store.elasticsearchUrl)).toBe("http://elastic-es-http.logstore.svc.cluster.local:9200");
        expect(await promiseOf(store.kibanaUrl)).toBe("http://kibana-kb-http.logstore.svc.cluster.local:5601");
        expect(await promiseOf(store.adminSecretName)).toBe("elastic-es-elastic-user");
        expect(await promiseOf(store.logWriterUser!)).toBe("log-writer");
    });

    it("creates its namespace only after what the component was told to depend on", async () => {
        expect(find(regs, "kubernetes:core/v1:Namespace", "logstore-ns").dependencies).toContain(await promiseOf(upstream.urn));
    });

    it("puts everything on the cluster's provider and passes schema validation", () => {
        const objects = regs.filter((x) => x.type.startsWith("kubernetes:"));
        // Namespace, release, two Secrets, Elasticsearch, Kibana, and the Kibana setup's ConfigMap and Job.
        expect(objects).toHaveLength(8);
        for (const r of objects) expect(r.provider, r.name).toBe(provider);
        const { checked, errors } = validateKubernetesObjects(regs);
        expect(errors).toEqual([]);
        expect(checked).toEqual(
            expect.arrayContaining(["Namespace/logstore-ns", "Secret/logstore-roles", "Secret/logstore-log-writer", "ConfigMap/logstore-kibana-setup-files", "Job/logstore-kibana-setup"]),
        );
    });

    describe("the Kibana setup Job", () => {
        const JOB = "kubernetes:batch/v1:Job";
        const job = () => unwrapSecrets(find(regs, JOB, "logstore-kibana-setup").inputs) as {
            metadata: { name?: string; namespace: string };
            spec: { activeDeadlineSeconds: number; template: { spec: { containers: { image: string; env: { name: string; value?: string; valueFrom?: unknown }[] }[]; volumes: { configMap?: { name: string } }[] } } };
        };

        it("runs after Kibana in the dependency graph, in the log store's namespace", () => {
            const r = find(regs, JOB, "logstore-kibana-setup");
            expect(r.dependencies).toContain(find(regs, KIBANA, "logstore-kibana").urn);
            expect(job().metadata.namespace).toBe("logstore");
        });

        it("reads the elastic password only through a secretKeyRef to ECK's Secret; every other value is plain", () => {
            const env = job().spec.template.spec.containers[0]!.env;
            expect(env.find((e) => e.name === "ELASTIC_PASSWORD")).toEqual({ name: "ELASTIC_PASSWORD", valueFrom: { secretKeyRef: { name: "elastic-es-elastic-user", key: "elastic" } } });
            expect(env.filter((e) => e.value !== undefined).map((e) => e.name).sort()).toEqual(["KIBANA_URL", "WAIT_SECONDS"]);
            expect(env.find((e) => e.name === "KIBANA_URL")!.value).toBe("http://kibana-kb-http.logstore.svc.cluster.local:5601");
        });

        it("mounts a ConfigMap of the saved objects and the script, which holds no credential", () => {
            const files = find(regs, "kubernetes:core/v1:ConfigMap", "logstore-kibana-setup-files");
            const data = unwrapSecrets(files.inputs!.data) as Record<string, string>;
            expect(Object.keys(data).sort()).toEqual(["objects.ndjson", "setup.sh"]);
            expect(data["objects.ndjson"]).toBe(kibanaSavedObjects("kubernetes-*", ACCESS_LOG_FIELDS));
            expect(data["setup.sh"]).toBe(KIBANA_SETUP_SCRIPT);
            expect(JSON.stringify(files.inputs)).not.toContain(PASSWORD);
            // Named, not left to Pulumi's random suffix: found by name, and written by `mara render` with a name.
            expect((files.inputs!.metadata as { name?: string }).name).toBe("kibana-setup-files");
            expect(job().metadata.name).toBe("kibana-setup");
            expect(job().spec.template.spec.volumes).toContainEqual({ name: "setup", configMap: { name: "kibana-setup-files" } });
            expect(job().spec.template.spec.containers[0]!.image).toBe(KIBANA_SETUP_IMAGE);
        });

        it("gives up after its wait plus retries, before Pulumi's own timeout", () => {
            expect(job().spec.activeDeadlineSeconds).toBe(1500);
        });
    });
});

describe("Logstore without a log writer", () => {
    let regs: Registration[];
    let store: Logstore;

    beforeAll(async () => {
        ({ registrations: regs } = await installMocks());
        store = new Logstore("logstore", { version: "9.1.0" }, { providers: [testProvider()] });
        await settle();
    });

    it("creates no Secrets, no auth section and no log writer user", () => {
        expect(ofType(regs, SECRET)).toEqual([]);
        expect(find(regs, ELASTICSEARCH, "logstore-elasticsearch").inputs!.spec).not.toHaveProperty("auth");
        expect(store.logWriterUser).toBeUndefined();
    });

    it("imports the Kibana objects unless told not to", async () => {
        expect(ofType(regs, "kubernetes:batch/v1:Job").map((r) => r.name)).toEqual(["logstore-kibana-setup"]);
        const { registrations } = await installMocks();
        new Logstore("bare", { kibanaObjects: false }, { providers: [testProvider()] });
        await settle();
        expect(ofType(registrations, "kubernetes:batch/v1:Job")).toEqual([]);
        expect(ofType(registrations, "kubernetes:core/v1:ConfigMap")).toEqual([]);
    });

    it("uses the version given for both Elasticsearch and Kibana, with default node sets and volume size", () => {
        expect(find(regs, ELASTICSEARCH, "logstore-elasticsearch").inputs!.spec).toEqual(
            elasticsearchSpec("9.1.0", { master: 1, data: 1, ingest: 1, coordinating: 1 }, "10Gi", undefined, {}),
        );
        expect(find(regs, KIBANA, "logstore-kibana").inputs!.spec).toMatchObject({ version: "9.1.0" });
    });
});
