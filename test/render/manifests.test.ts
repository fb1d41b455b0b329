/**
 * `mara render` on every infra fixture: the manifests it writes are what Kubernetes 1.35 accepts (built-in objects
 * against its schema, custom resources against the CRDs in the output, ExternalSecrets against the External Secrets
 * Operator's v1 API), laid out as Kustomize folders with Argo CD sync waves, byte-identical across two renders, and
 * free of every secret value the program or a chart had. Renders run one after another (the program runs under
 * Pulumi's process-wide mocks) and each fixture is rendered once for all its checks. `--from-stack` and
 * `--secrets=omit` are checked through the command (test/cli/render.test.ts), which renders anyway.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { parse } from "yaml";
import { afterAll, describe, expect, it } from "vitest";
import program from "../../index";
import { validateConfig } from "../../config";
import { isMap, type KubeObject } from "../../contracts/kubeObject";
import { isWrappedSecret } from "../../offline/wrappedSecrets";
import { PLACEHOLDER_PATTERN } from "../../render/deployValues";
import { ARGO_HOOK } from "../../render/hooks";
import { SYNC_WAVE } from "../../render/layout";
import { RELOADER_SECRETS } from "../../render/podRestarts";
import { checkSync } from "../../render/sync/check";
import { ObjectIndex, syncObjectsOf } from "../../render/sync/objects";
import { bandOf, WAVES } from "../../render/waves";
import { SECRETS_REVISION_ANNOTATION } from "../../components/passwordRotation";
import { writeOutputDir } from "../../render/outputDir";
import { renderPlatform, RenderResult } from "../../render/render";
import { SecretHandling } from "../../render/secrets";
import { fixture, FIXTURES } from "../support/config";
import { builtInModel, builtInProblems } from "./kubernetesSchema";
import { crdSchemaValidator } from "./tier";

/** Secret config values the fixtures' encrypted keys stand for (as the render tier sets them). */
const SECRETS = {
    "mara:grafanaAdminPassword": "grafana-pw-Zq81",
    "mara:siriusAccountsPassword": "accounts-pw-Xk27",
    "digitalocean:token": "do-token-Pf93",
    "linode:token": "linode-token-Hy45",
    "sirius:accounts_pwd": "accounts-pw-Xk27",
    "linode:harbor_password": "harbor-pw-Lm62",
};
const EXTERNAL: SecretHandling = { mode: "external", store: "mara", storeKind: "ClusterSecretStore", provider: "vault", remoteKeyPrefix: "mara/" };
/** The same secret keys with other values: nothing written may change with them. */
const OTHER_SECRETS = Object.fromEntries(Object.entries(SECRETS).map(([k, v]) => [k, `${v}-rotated-Qe58`]));
const INFRA_FIXTURES = fs
    .readdirSync(FIXTURES)
    .map((f) => /^Pulumi\.(.+)\.yaml$/.exec(f)?.[1])
    .filter((f): f is string => f !== undefined)
    .sort();
/** The deploy-time values each fixture cannot know before `pulumi up`. */
const PLACEHOLDERS: Record<string, string[]> = {
    "canonical-aws": ["kicImageDigest", "loadBalancerHostname", "registryRepository"],
    "minimal-aws": ["kicImageDigest", "loadBalancerHostname", "registryRepository"],
    "mara-aws": ["kicImageDigest", "loadBalancerHostname", "registryRepository"],
    "mara-do": ["kicImageDigest", "registryEndpoint"],
    "mara-kubeconfig": [],
    "mara-lke": [],
};

interface Rendered {
    result: RenderResult;
    /** Every secret value the run had: secret inputs of any resource, and each Secret's values, chart-made ones included. */
    secretValues: Set<string>;
}

let queue: Promise<unknown> = Promise.resolve();
/** Renders one after another: the program runs under process-wide mocks. */
function serial<T>(fn: () => Promise<T>): Promise<T> {
    const next = queue.then(fn, fn);
    queue = next.catch(() => undefined);
    return next;
}

function stringsIn(v: unknown, out: Set<string>): void {
    if (typeof v === "string") out.add(v);
    else if (Array.isArray(v)) v.forEach((x) => stringsIn(x, out));
    else if (isMap(v)) Object.values(v).forEach((x) => stringsIn(x, out));
}

function secretStrings(v: unknown, out: Set<string>): void {
    if (isWrappedSecret(v)) stringsIn((v as { value: unknown }).value, out);
    else if (Array.isArray(v)) v.forEach((x) => secretStrings(x, out));
    else if (isMap(v)) Object.values(v).forEach((x) => secretStrings(x, out));
}

function render(name: string, secrets: Record<string, string> = SECRETS): Promise<Rendered> {
    return serial(async () => {
        const raw = fixture(name, { secrets });
        const config = validateConfig(raw).config!;
        const secretValues = new Set<string>(Object.values(secrets));
        const result = await renderPlatform({
            raw,
            config,
            program,
            secrets: EXTERNAL,
            observe: ({ resources, objects }) => {
                for (const r of resources) secretStrings(r.inputs, secretValues);
                for (const o of objects.filter((x) => x.object.kind === "Secret")) {
                    stringsIn(o.object.stringData, secretValues);
                    const data = new Set<string>();
                    stringsIn(o.object.data, data);
                    for (const b64 of data) secretValues.add(Buffer.from(b64, "base64").toString("utf8"));
                }
            },
        });
        return { result, secretValues };
    });
}

const cache = new Map<string, Promise<Rendered>>();
const rendered = (name: string) => {
    if (!cache.has(name)) cache.set(name, render(name));
    return cache.get(name)!;
};

const made: string[] = [];
afterAll(() => made.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
function written(files: Map<string, string>): string {
    const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "mara-render-")), "out");
    made.push(path.dirname(dir));
    writeOutputDir(dir, files, "test\n");
    return dir;
}

/** Every file under a folder, relative path to bytes. */
function readTree(dir: string, rel = ""): Map<string, Buffer> {
    const out = new Map<string, Buffer>();
    for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
        const p = path.join(rel, e.name);
        if (e.isDirectory()) readTree(dir, p).forEach((v, k) => out.set(k, v));
        else out.set(p, fs.readFileSync(path.join(dir, p)));
    }
    return out;
}

const parsed = new WeakMap<Map<string, string>, { file: string; object: KubeObject }[]>();
/** The objects of a render, parsed once per render. */
function objectFiles(files: Map<string, string>): { file: string; object: KubeObject }[] {
    let hit = parsed.get(files);
    if (!hit) {
        hit = [...files].filter(([f]) => f.includes("/") && f.endsWith(".yaml") && !f.endsWith("/kustomization.yaml")).map(([f, text]) => ({ file: f, object: parse(text) as KubeObject }));
        parsed.set(files, hit);
    }
    return hit;
}

/** What Kubernetes and the operators' APIs would refuse, file by file. */
async function schemaProblems(files: Map<string, string>): Promise<string[]> {
    const { ExternalSecret } = await import("@kubernetes-models/external-secrets/external-secrets.io/v1/ExternalSecret");
    const objects = objectFiles(files);
    const crdCheck = crdSchemaValidator(objects.map((o) => o.object).filter((o) => o.kind === "CustomResourceDefinition"));
    const problems: string[] = [];
    for (const { file, object } of objects) {
        if (object.apiVersion === "external-secrets.io/v1" && object.kind === "ExternalSecret") {
            try {
                new ExternalSecret(object as never).validate();
            } catch (e) {
                problems.push(`${file}: ${(e as Error).message}`);
            }
            continue;
        }
        const crd = crdCheck(object);
        if (crd) problems.push(...crd.map((p) => `${file}: ${p}`));
        else if (builtInModel(object.apiVersion, object.kind)) problems.push(...builtInProblems(object as KubeObject & Record<string, unknown>).map((p) => `${file}: ${p}`));
        else problems.push(`${file}: ${object.apiVersion} ${object.kind} is neither built into Kubernetes nor defined by a CRD in the output`);
    }
    return problems;
}

describe("mara render: every infra fixture, as Kubernetes would take it", () => {
    it("covers every fixture stack file", () => {
        expect(INFRA_FIXTURES).toEqual(["canonical-aws", "mara-aws", "mara-do", "mara-kubeconfig", "mara-lke", "minimal-aws"]);
        expect(Object.keys(PLACEHOLDERS).sort()).toEqual(INFRA_FIXTURES);
    });

    for (const name of INFRA_FIXTURES) {
        describe(name, () => {
            it("every file is valid: built-in objects for Kubernetes 1.35, custom resources against their CRDs, ExternalSecrets against ESO's v1 API", async () => {
                const { result } = await rendered(name);
                const objects = objectFiles(result.files);
                // The whole platform: charts and typed objects, not a handful of files.
                expect(objects.length).toBeGreaterThan(250);
                expect(await schemaProblems(result.files)).toEqual([]);
            }, 180_000);

            it("one folder per component, a kustomization.yaml at each level listing exactly its files, namespaced objects with their namespace", async () => {
                const { result } = await rendered(name);
                const folders = [...new Set([...result.files.keys()].filter((f) => f.includes("/")).map((f) => f.split("/")[0]!))].sort();
                expect(folders).toEqual(expect.arrayContaining(["bank-of-sirius", "platform-cert-manager", "platform-ingress-controller", "platform-logstore", "platform-prometheus"]));
                expect(parse(result.files.get("kustomization.yaml")!)).toEqual({ apiVersion: "kustomize.config.k8s.io/v1beta1", kind: "Kustomization", resources: folders });
                for (const folder of folders) {
                    const inFolder = [...result.files.keys()].filter((f) => f.startsWith(`${folder}/`) && f !== `${folder}/kustomization.yaml`).map((f) => f.slice(folder.length + 1));
                    expect(parse(result.files.get(`${folder}/kustomization.yaml`)!).resources).toEqual(inFolder.sort());
                }
                for (const { file, object } of objectFiles(result.files)) {
                    const clusterScoped = ["Namespace", "ClusterRole", "ClusterRoleBinding", "CustomResourceDefinition", "StorageClass", "IngressClass", "ClusterIssuer", "MutatingWebhookConfiguration", "ValidatingWebhookConfiguration"].includes(object.kind);
                    expect(object.metadata?.namespace === undefined, `${file} namespace`).toBe(clusterScoped);
                }
            }, 180_000);

            it("a first Argo CD sync completes (the sync model): every object applied once what it needs exists, every wave healthy", async () => {
                const { result } = await rendered(name);
                expect(checkSync(result.files)).toEqual([]);
            }, 180_000);

            it("sync waves: each kind in its band or later, CRDs and Namespaces first; Helm hooks as Argo CD hooks in the Sync or PostSync phase", async () => {
                const { result } = await rendered(name);
                const objects = syncObjectsOf(result.files);
                const index = new ObjectIndex(objects);
                for (const o of objects) {
                    const annotations = o.object.metadata?.annotations ?? {};
                    // Argo CD runs a PreSync hook before any Namespace exists, and ignores a Helm hook's annotations where its own are present.
                    expect(Object.keys(annotations).filter((k) => k.startsWith("helm.sh/hook")), o.file).toEqual([]);
                    if (annotations[ARGO_HOOK] !== undefined) {
                        expect(["Sync", "PostSync"], o.file).toContain(annotations[ARGO_HOOK]);
                        expect(o.object.kind, o.file).toBe("Job");
                        if (annotations[ARGO_HOOK] === "PostSync") continue;
                    }
                    const wave = Number(annotations[SYNC_WAVE]);
                    expect(Number.isInteger(wave), `${o.file} has a wave`).toBe(true);
                    if (o.object.kind === "CustomResourceDefinition") expect(wave, o.file).toBe(WAVES.crd);
                    else if (o.object.kind === "Namespace") expect(wave, o.file).toBe(WAVES.namespace);
                    else expect(wave, o.file).toBeGreaterThanOrEqual(bandOf(o, index));
                }
                // The program applies the ingress controller's and Prometheus' CRDs itself (skipCrds): each is written once.
                expect([...result.files.keys()].filter((f) => f.endsWith("customresourcedefinition-servicemonitors.monitoring.coreos.com.yaml"))).toEqual(["platform-prometheus/customresourcedefinition-servicemonitors.monitoring.coreos.com.yaml"]);
            }, 180_000);

            it("no secret value, plain or base64, appears anywhere under the output folder", async () => {
                const { result, secretValues } = await rendered(name);
                const dir = written(result.files);
                const text = [...readTree(dir)].map(([f, bytes]) => `${f}\n${bytes.toString("utf8")}`).join("\n");
                // Values this short are names (a user name, a key), not secrets; every generated or configured secret is longer.
                const values = [...secretValues].filter((v) => v.length >= 12);
                expect(values.length).toBeGreaterThan(5);
                const leaked = values.flatMap((v) => [v, Buffer.from(v).toString("base64")]).filter((v) => text.includes(v));
                expect(leaked.map((v) => v.slice(0, 40))).toEqual([]);
                // No Secret with data is written: each is an ExternalSecret, and the store's keys are listed.
                expect(objectFiles(result.files).filter((o) => o.object.kind === "Secret" && (o.object.data || o.object.stringData))).toEqual([]);
                expect(result.secrets.length).toBeGreaterThan(5);
                for (const s of result.secrets) expect(result.files.get("secret-keys.txt")).toContain(`${s.remoteKey}\t${s.namespace}/${s.secret}\t${s.key}\n`);
                // Each key is a property of one entry per Secret (a Vault KV read without a property returns the whole entry as JSON).
                for (const { file, object } of objectFiles(result.files).filter((o) => o.object.kind === "ExternalSecret")) {
                    const data = (object.spec as { data: { secretKey: string; remoteRef: { key: string; property?: string } }[] }).data;
                    for (const d of data) expect(d.remoteRef, file).toEqual({ key: `mara/${object.metadata!.namespace}/${object.metadata!.name}`, property: d.secretKey });
                }
            }, 180_000);

            it("deploy-time values are placeholders exactly where the cloud decides them, and listed", async () => {
                const { result } = await rendered(name);
                expect(result.placeholders.map((p) => p.key)).toEqual(PLACEHOLDERS[name]);
                const withPlaceholder = [...result.files].filter(([, t]) => PLACEHOLDER_PATTERN.test(t)).map(([f]) => f).sort();
                expect(withPlaceholder).toEqual([...new Set(result.placeholders.flatMap((p) => p.files))].sort());
                // Nothing the simulated cloud invents (account, endpoints, generated names) reaches a manifest.
                const all = [...result.files.values()].join("\n");
                for (const invented of ["123456789012", "EXAMPLE.gr7", "a1b2c3-123.elb", "203.0.113.10", "x7k2p9", "generated-", "MOCK-PRIVATE"]) expect(all).not.toContain(invented);
            }, 180_000);
        });
    }
});

describe("mara render: determinism", () => {
    it("two renders of a stack are byte-identical, written folder and all, even with every secret value changed", async () => {
        const first = (await rendered("canonical-aws")).result;
        // Other secret values: nothing written (a pod annotation, a file name, a digest) may be derived from them.
        const second = (await render("canonical-aws", OTHER_SECRETS)).result;
        expect([...second.files.keys()]).toEqual([...first.files.keys()]);
        const a = readTree(written(first.files));
        const b = readTree(written(second.files));
        expect([...b.keys()].sort()).toEqual([...a.keys()].sort());
        for (const [file, bytes] of a) expect(b.get(file)!.equals(bytes), file).toBe(true);
    }, 180_000);
});

describe("mara render: what Argo CD and its readers need beyond the schemas", () => {
    it("every file reads the same to a YAML 1.1 reader (kubectl, Argo CD) as to a YAML 1.2 one: on, off, NO and the like are quoted", async () => {
        const { result } = await rendered("mara-lke");
        const differ = [...result.files].filter(([f]) => f.endsWith(".yaml")).filter(([, text]) => JSON.stringify(parse(text, { version: "1.1" })) !== JSON.stringify(parse(text)));
        expect(differ.map(([f]) => f)).toEqual([]);
        // The NGINX App Protect DoS CRD's enums are the strings on and off.
        expect(result.files.get("platform-ingress-controller/customresourcedefinition-apdospolicies.appprotectdos.f5.com.yaml")).toContain('- "on"\n');
    }, 180_000);

    it("no pod carries a revision derived from its Secrets; each workload that reads Secrets names them for Reloader", async () => {
        const { result } = await rendered("mara-lke");
        const all = [...result.files.values()].join("\n");
        expect(all).not.toContain(SECRETS_REVISION_ANNOTATION);
        const frontend = parse(result.files.get("bank-of-sirius/deployment-frontend.yaml")!) as KubeObject;
        expect(frontend.metadata!.annotations![RELOADER_SECRETS]).toBe("demo-login,jwt-key");
    }, 180_000);

    it("under Argo CD's label tracking exactly the ServiceMonitors that select by app.kubernetes.io/instance break; annotation tracking breaks nothing", async () => {
        const { result } = await rendered("mara-lke");
        expect(checkSync(result.files, { tracking: "annotation" })).toEqual([]);
        const label = checkSync(result.files, { tracking: "label" });
        expect(label.every((p) => p.rule === "tracking" && /^ServiceMonitor /.test(p.message))).toBe(true);
        expect(label.map((p) => p.file.split("/").at(-1))).toEqual([
            "servicemonitor-accountsdbmon.yaml",
            "servicemonitor-ledgerdbmon.yaml",
            "servicemonitor-nginx-ingress.yaml",
            "servicemonitor-prometheus-grafana.yaml",
            "servicemonitor-prometheus-kube-state-metrics.yaml",
            "servicemonitor-prometheus-prometheus-node-exporter.yaml",
            "servicemonitor-statsd-prometheus-statsd-exporter-metrics.yaml",
        ]);
    }, 180_000);

    it("what waits for an operator's work comes in the wave after the custom resource it comes from, or with it", async () => {
        const { result } = await rendered("minimal-aws");
        const wave = (file: string) => Number((parse(result.files.get(file)!) as KubeObject).metadata!.annotations![SYNC_WAVE]);
        // The OpenTelemetry operator mounts the Secret its chart's Certificate makes; the collector passes its Fail webhooks.
        expect(wave("platform-observability/deployment-opentelemetry-operator.yaml")).toBeGreaterThanOrEqual(wave("platform-observability/certificate-opentelemetry-operator-serving-cert.yaml"));
        expect(wave("platform-observability/opentelemetrycollector-simplest.yaml")).toBeGreaterThan(wave("platform-observability/deployment-opentelemetry-operator.yaml"));
        // The Kibana setup Job reads the password ECK makes from the Elasticsearch resource.
        expect(wave("platform-logstore/job-kibana-setup.yaml")).toBeGreaterThanOrEqual(wave("platform-logstore/elasticsearch-elastic.yaml"));
    }, 180_000);
});
