/**
 * Pulumi ESC as the render's secret store (`--secret-store-provider pulumi`, render/escPaths.ts and escStore.ts):
 * each key is read at a Pulumi property path that reads back, by Pulumi's own grammar, as exactly the prefix, the
 * namespace, the Secret and the key; the prefix and the environment are held to the rules of Pulumi and of the
 * External Secrets Operator's provider at their boundaries; the stores the render writes are what ESO's
 * `external-secrets.io/v1` API takes (`@kubernetes-models/external-secrets`, generated from ESO's CRDs), and name the
 * token's Secret as the provider reads it.
 */
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { ESC_DEFAULT_PREFIX, escEntryPath, escKeyPath, escPrefixProblem, parseEscEnvironment, parsePropertyPath } from "../../render/escPaths";
import { ESC_STORE_FOLDER, escStoreFiles, escStoreObjects, tokenSecretCommands } from "../../render/escStore";
import type { KubeObject } from "../../contracts/kubeObject";
import { repositorySecretFiles } from "../../render/repositorySecret";
import { externalSecretFor, remoteKeyProblem, SecretHandling, secretListFile, withoutSecretValues } from "../../render/secrets";

const esc = { organization: "acme", project: "platform", environment: "prod" };
const cluster = {
    mode: "external",
    store: "mara",
    storeKind: "ClusterSecretStore",
    provider: "pulumi",
    remoteKeyPrefix: ESC_DEFAULT_PREFIX,
    esc: { ...esc, token: { namespace: "external-secrets", name: "pulumi-access-token", key: "PULUMI_ACCESS_TOKEN" } },
} as const satisfies SecretHandling;
const namespaced = { ...cluster, storeKind: "SecretStore", esc: { ...esc, token: { name: "pulumi-access-token", key: "PULUMI_ACCESS_TOKEN" } } } as const satisfies SecretHandling;

async function esoProblems(o: KubeObject): Promise<string | undefined> {
    const models = {
        ExternalSecret: (await import("@kubernetes-models/external-secrets/external-secrets.io/v1/ExternalSecret")).ExternalSecret,
        ClusterSecretStore: (await import("@kubernetes-models/external-secrets/external-secrets.io/v1/ClusterSecretStore")).ClusterSecretStore,
        SecretStore: (await import("@kubernetes-models/external-secrets/external-secrets.io/v1/SecretStore")).SecretStore,
    };
    expect(o.apiVersion).toBe("external-secrets.io/v1");
    try {
        new models[o.kind as keyof typeof models](o as never).validate();
        return undefined;
    } catch (e) {
        return (e as Error).message;
    }
}

describe("Pulumi's property paths (a model of pulumi/pulumi ParsePropertyPath)", () => {
    it("reads the examples Pulumi documents beside the grammar as Pulumi does", () => {
        expect(parsePropertyPath("root")).toEqual(["root"]);
        expect(parsePropertyPath("root.nested")).toEqual(["root", "nested"]);
        expect(parsePropertyPath('root["double"].nest')).toEqual(["root", "double", "nest"]);
        expect(parsePropertyPath("root.array[100]")).toEqual(["root", "array", 100]);
        expect(parsePropertyPath('root["key with \\"escaped\\" quotes"]')).toEqual(["root", 'key with "escaped" quotes']);
        expect(parsePropertyPath('root["key with a ."]')).toEqual(["root", "key with a ."]);
        expect(parsePropertyPath('["root key with a ."][100]')).toEqual(["root key with a .", 100]);
        expect(parsePropertyPath("root.array[*].field")).toEqual(["root", "array", "*", "field"]);
        expect(() => parsePropertyPath('root["open')).toThrow("missing closing quote in property name");
        expect(() => parsePropertyPath('root["x"')).toThrow("missing closing bracket in property access");
        expect(() => parsePropertyPath("root[x]")).toThrow("invalid array index");
    });

    it("a plain segment splits at its dots, which is why the render quotes every name after the prefix", () => {
        expect(parsePropertyPath("mara.bos.jwt-key.jwtRS256.key")).toEqual(["mara", "bos", "jwt-key", "jwtRS256", "key"]);
        expect(parsePropertyPath(escKeyPath("mara", "bos", "jwt-key", "jwtRS256.key"))).toEqual(["mara", "bos", "jwt-key", "jwtRS256.key"]);
        expect(parsePropertyPath(escKeyPath("platform.mara", "bos", "tls.cert", ".dockerconfigjson"))).toEqual(["platform", "mara", "bos", "tls.cert", ".dockerconfigjson"]);
        expect(escEntryPath("mara", "bos", "jwt-key")).toBe('mara["bos"]["jwt-key"]');
    });
});

describe("the remote key prefix: a property path of plain names", () => {
    it("takes names of Pulumi's grammar joined by dots, and refuses what would read back otherwise", () => {
        for (const ok of ["mara", "_x", "$x", "platform.mara", "a1.b_2.$c", "x".repeat(500)]) expect(escPrefixProblem(ok), ok).toBeUndefined();
        expect(escPrefixProblem("")).toBe("is empty");
        expect(escPrefixProblem("mara.")).toBe("has an empty name (a leading, trailing or doubled '.')");
        expect(escPrefixProblem(".mara")).toBe("has an empty name (a leading, trailing or doubled '.')");
        expect(escPrefixProblem("a..b")).toBe("has an empty name (a leading, trailing or doubled '.')");
        expect(escPrefixProblem("mara/")).toContain(`has the name "mara/", which Pulumi's property path grammar does not read as one plain name`);
        expect(escPrefixProblem("1mara")).toContain(`"1mara"`);
        expect(escPrefixProblem('mara["x"]')).toContain("does not read as one plain name");
        expect(escPrefixProblem("ma ra")).toContain("does not read as one plain name");
        expect(escPrefixProblem("maгa")).toContain("does not read as one plain name");
        expect(escPrefixProblem("imports")).toBe("starts with imports, which esc env set writes to the environment's imports, not its values");
        expect(escPrefixProblem("imports.mara")).toContain("starts with imports");
        expect(escPrefixProblem("mara.imports")).toBeUndefined();
    });
});

describe("the ESC environment: <organization>/<project>/<environment>", () => {
    it("takes the names esc and Pulumi allow, and refuses the rest with the reason", () => {
        expect(parseEscEnvironment("acme/platform/prod")).toEqual({ ok: true, value: esc });
        expect(parseEscEnvironment("Acme_1/my.project/prod-eu_2")).toEqual({ ok: true, value: { organization: "Acme_1", project: "my.project", environment: "prod-eu_2" } });
        const reason = (ref: string) => {
            const r = parseEscEnvironment(ref);
            return r.ok ? undefined : r.reason;
        };
        expect(reason("acme/prod")).toContain(`names no project: the External Secrets Operator's store needs the organization, the project and the environment (esc's <org>/<env> means the project "default": write <org>/default/<env>)`);
        expect(reason("prod")).toContain("names no project");
        expect(reason("acme/platform/prod/x")).toBe("has 4 parts separated by '/', not three");
        expect(reason("acme//prod")).toBe("has an empty project");
        expect(reason("acme/platform/prod@3")).toContain("names a version of the environment");
        expect(reason("acme/platform/prod:stable")).toContain("names a version of the environment");
        expect(reason("acme/plat form/prod")).toBe(`has the project "plat form", with characters a Pulumi ESC name does not hold`);
        expect(reason("acme/../prod")).toBe(`has the project "..", which would name another path of the ESC API`);
        expect(reason("./platform/prod")).toContain("which would name another path");
        expect(reason("acme/platform/pröd")).toContain("with characters a Pulumi ESC name does not hold");
        expect(reason("acme/platform/prod\n")).toContain("with characters a Pulumi ESC name does not hold");
    });
});

describe("ExternalSecrets that read from Pulumi ESC", () => {
    const pull = { apiVersion: "v1", kind: "Secret", type: "kubernetes.io/dockerconfigjson", metadata: { name: "pull.secret" }, data: { ".dockerconfigjson": "e30=", "tls.crt": "eA==" } };

    it("read each key at its whole property path, with no property (the provider reads the key alone), and ESO's v1 API takes them", async () => {
        const es = externalSecretFor(pull, "bos", cluster);
        const data = (es.spec as { data: { secretKey: string; remoteRef: Record<string, string> }[] }).data;
        expect(data).toEqual([
            { secretKey: ".dockerconfigjson", remoteRef: { key: 'mara["bos"]["pull.secret"][".dockerconfigjson"]' } },
            { secretKey: "tls.crt", remoteRef: { key: 'mara["bos"]["pull.secret"]["tls.crt"]' } },
        ]);
        for (const d of data) expect(parsePropertyPath(d.remoteRef.key!)).toEqual(["mara", "bos", "pull.secret", d.secretKey]);
        expect(await esoProblems(es)).toBeUndefined();
    });

    it("list each entry by its path in secret-keys.txt, and say which environment and how a key is read", () => {
        const placed = { object: { ...pull, metadata: { name: "pull", namespace: "bos" } }, component: "c", source: "test", custom: false };
        const { entries } = withoutSecretValues([placed], cluster);
        expect(entries.map((e) => e.remoteKey)).toEqual(['mara["bos"]["pull"]', 'mara["bos"]["pull"]']);
        const list = secretListFile(entries, cluster);
        expect(list.text).toContain('(pulumi: the Pulumi ESC environment acme/platform/prod) must hold');
        expect(list.text).toContain('which the ExternalSecret reads at <remote key>["<key>"]');
        expect(list.text).toContain('mara["bos"]["pull"]\tbos/pull\t.dockerconfigjson\n');
        // A path that would not read back as names is refused, never written.
        expect(remoteKeyProblem("pulumi", 'mara["bos"]["pull"]')).toBeUndefined();
        expect(remoteKeyProblem("pulumi", 'mara["bos"][0]')).toContain("is not a property path of names Pulumi reads back as written");
        expect(remoteKeyProblem("pulumi", 'mara["bos')).toContain("is not a property path of names");
    });
});

describe("the stores the render writes", () => {
    it("a ClusterSecretStore with the environment and the token's Secret by reference, namespace included, which ESO's v1 API takes", async () => {
        const [store, ...more] = escStoreObjects(cluster, ["bos", "prometheus"]);
        expect(more).toEqual([]);
        expect(store).toEqual({
            apiVersion: "external-secrets.io/v1",
            kind: "ClusterSecretStore",
            metadata: { name: "mara", labels: { "app.kubernetes.io/part-of": "mara" } },
            spec: { provider: { pulumi: { organization: "acme", project: "platform", environment: "prod", accessToken: { secretRef: { name: "pulumi-access-token", namespace: "external-secrets", key: "PULUMI_ACCESS_TOKEN" } } } } },
        });
        expect(await esoProblems(store!)).toBeUndefined();
        // ESO's API refuses a store without its environment: the check is real.
        const broken = structuredClone(store!) as unknown as { spec: { provider: { pulumi: Record<string, unknown> } } };
        delete broken.spec.provider.pulumi.environment;
        expect(await esoProblems(broken as unknown as KubeObject)).toContain("environment");
    });

    it("SecretStores: one in each namespace that has ExternalSecrets, each reading the token's Secret of its own namespace", async () => {
        const stores = escStoreObjects(namespaced, ["prometheus", "bos", "bos"]);
        expect(stores.map((s) => `${s.kind} ${s.metadata!.namespace}/${s.metadata!.name}`)).toEqual(["SecretStore bos/mara", "SecretStore prometheus/mara"]);
        for (const s of stores) {
            expect((s.spec as { provider: { pulumi: { accessToken: { secretRef: Record<string, string> } } } }).provider.pulumi.accessToken.secretRef).toEqual({ name: "pulumi-access-token", key: "PULUMI_ACCESS_TOKEN" });
            expect(await esoProblems(s)).toBeUndefined();
        }
        expect(tokenSecretCommands(namespaced, ["prometheus", "bos"])).toEqual([
            "kubectl create secret generic pulumi-access-token -n bos --from-literal=PULUMI_ACCESS_TOKEN=<Pulumi access token>",
            "kubectl create secret generic pulumi-access-token -n prometheus --from-literal=PULUMI_ACCESS_TOKEN=<Pulumi access token>",
        ]);
        expect(tokenSecretCommands(cluster, ["bos"])).toEqual(["kubectl create secret generic pulumi-access-token -n external-secrets --from-literal=PULUMI_ACCESS_TOKEN=<Pulumi access token>"]);
    });

    it("go to secret-store/ with a kustomization listing exactly them, and say how to create the token's Secret first", () => {
        const files = escStoreFiles(namespaced, ["bos", "prometheus"], "# h\n");
        expect([...files.keys()].sort()).toEqual([`${ESC_STORE_FOLDER}/kustomization.yaml`, `${ESC_STORE_FOLDER}/secretstore-bos-mara.yaml`, `${ESC_STORE_FOLDER}/secretstore-prometheus-mara.yaml`]);
        expect(parse(files.get(`${ESC_STORE_FOLDER}/kustomization.yaml`)!).resources).toEqual(["secretstore-bos-mara.yaml", "secretstore-prometheus-mara.yaml"]);
        const text = files.get(`${ESC_STORE_FOLDER}/secretstore-bos-mara.yaml`)!;
        expect(text).toContain("from the Pulumi ESC environment acme/platform/prod");
        expect(text).toContain("#   kubectl create secret generic pulumi-access-token -n bos --from-literal=PULUMI_ACCESS_TOKEN=<Pulumi access token>");
        expect(text).toContain("once the namespaces exist");
    });

    it("Argo CD's repository Secret brings the store it reads from where Argo CD runs (a hub's included): argocd's SecretStore, or the ClusterSecretStore", async () => {
        const withStore = repositorySecretFiles("https://git.example.com/o/r.git", namespaced, "");
        expect([...withStore.files.keys()].sort()).toEqual(["argocd/repository/externalsecret-mara-repository.yaml", "argocd/repository/kustomization.yaml", "argocd/repository/secretstore-argocd-mara.yaml"]);
        expect(parse(withStore.files.get("argocd/repository/kustomization.yaml")!).resources).toEqual(["secretstore-argocd-mara.yaml", "externalsecret-mara-repository.yaml"]);
        const es = parse(withStore.files.get("argocd/repository/externalsecret-mara-repository.yaml")!) as KubeObject;
        expect((es.spec as { data: unknown[] }).data).toEqual([
            { secretKey: "username", remoteRef: { key: 'mara["argocd"]["mara-repository"]["username"]' } },
            { secretKey: "password", remoteRef: { key: 'mara["argocd"]["mara-repository"]["password"]' } },
        ]);
        expect(await esoProblems(es)).toBeUndefined();
        expect(await esoProblems(parse(withStore.files.get("argocd/repository/secretstore-argocd-mara.yaml")!) as KubeObject)).toBeUndefined();
        expect([...repositorySecretFiles("git@git.example.com:o/r.git", cluster, "").files.keys()].sort()).toEqual([
            "argocd/repository/clustersecretstore-mara.yaml",
            "argocd/repository/externalsecret-mara-repository.yaml",
            "argocd/repository/kustomization.yaml",
        ]);
    });
});
