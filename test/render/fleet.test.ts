/**
 * Fleets (`mara:gitopsFleet` with `mara:gitopsArgoCd: external`, docs/gitops.md#fleets-one-hub-many-clusters): the
 * ApplicationSet a hub's render writes to `argocd/fleet/`.
 *
 * - It is what Argo CD's API takes: valid against the ApplicationSet CRD of the pinned argo-cd chart, rendered by Helm
 *   from the vendored archive (unknown fields as errors).
 * - It does what a fleet needs, in the sync model's replay of Argo CD's ApplicationSet controller
 *   (render/sync/clusterGenerator.ts, after argo-cd applicationset/generators/cluster.go): cluster Secrets as the
 *   stacks output them, two of the fleet and others beside them, give one Application per cluster of the fleet, each
 *   syncing the render's folder to that cluster's API server; none for the others, nor for the hub itself.
 * - Nothing a cluster says is parsed as a template, and the template's own literals print as written; what would stop
 *   the controller (a missing key under missingkey=error) or refuse an Application (two names alike) is shown to.
 * - A whole render of a hub stack in a fleet writes it outside the root Application's folder, syncs as one folder in
 *   the sync model, and (with its Secrets from Pulumi ESC) writes ExternalSecrets and stores ESO's v1 API takes, every
 *   key at a property path that reads back as its Secret and key.
 */
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import program from "../../index";
import { validateConfig, type RawConfig } from "../../config";
import type { KubeObject } from "../../contracts/kubeObject";
import { parsePropertyPath } from "../../render/escPaths";
import { renderPlatform } from "../../render/render";
import { fleetFiles } from "../../render/fleet";
import { checkSyncObjects } from "../../render/sync/check";
import { generateFromClusters, sanitizeName, selects } from "../../render/sync/clusterGenerator";
import { executeGoTemplate, GoTemplateError, GoTemplateUnsupported, missingKeyOption } from "../../render/sync/goTemplate";
import { syncObjectsOf } from "../../render/sync/objects";
import { FLEET_FOLDER, fleetApplicationSet, goTemplateLiteral } from "../../components/argoCd/applicationSet";
import { ARGOCD_NAMESPACE, ARGOCD_RELEASE, GitSource } from "../../components/argoCd/applications";
import { ClusterFacts, clusterSecretManifest } from "../../components/argoCd/clusterSecret";
import { CHARTS } from "../../contracts";
import { fixture } from "../support/config";
import { parseManifest, vendoredChart } from "../support/charts";
import { helmTemplate } from "../support/helm";
import { crdSchemaValidator } from "./tier";

const SOURCE: GitSource = { repoUrl: "https://git.example.com/org/platform-config.git", revision: "main", path: "deploy/prod" };

/** A cluster Secret as a stack of the fleet outputs it (argocd_cluster_secret), with the API server given. */
const clusterSecret = (clusterName: string, server: string, more: Partial<ClusterFacts> = {}) =>
    clusterSecretManifest({ clusterName, infraType: "aws", region: "us-east-1", apiServer: server, source: SOURCE, fleet: "prod", ...more }, "hub") as KubeObject;

let crds: Promise<(o: KubeObject) => string[] | undefined> | undefined;
/** The pinned argo-cd chart's CRDs, as Helm renders them from the vendored archive. */
function argoCrdCheck(): Promise<(o: KubeObject) => string[] | undefined> {
    crds ??= (async () => {
        const chartPath = vendoredChart(CHARTS.argoCd.chart, CHARTS.argoCd.version);
        expect(chartPath, "test/charts has the argo-cd archive").toBeDefined();
        const r = await helmTemplate({ release: ARGOCD_RELEASE, namespace: ARGOCD_NAMESPACE, chartPath: chartPath!, values: {}, kubeVersion: "1.35", includeCrds: true });
        if (!r.ok) throw new Error(r.error);
        return crdSchemaValidator(parseManifest(r.manifest).filter((o) => o.kind === "CustomResourceDefinition") as KubeObject[]);
    })();
    return crds;
}

describe("the fleet's ApplicationSet against Argo CD's CRD (argo-cd chart, vendored)", () => {
    it("is valid, with a revision that holds '{{' too; and the check refuses what the CRD refuses", async () => {
        const check = await argoCrdCheck();
        const appSet = fleetApplicationSet("prod", "aws", SOURCE) as unknown as KubeObject;
        expect(check(appSet)).toEqual([]);
        expect(check(fleetApplicationSet("eu-1", "kubeconfig", { ...SOURCE, revision: "feature/{{.name}}" }) as unknown as KubeObject)).toEqual([]);
        // A field the CRD does not have, and a generator of the wrong shape, are refused: the check is real.
        const unknown = structuredClone(appSet) as unknown as { spec: Record<string, unknown> };
        unknown.spec.goTemplateOptionz = ["missingkey=error"];
        expect(check(unknown as unknown as KubeObject)?.join("; ")).toMatch(/goTemplateOptionz|additional/);
        const wrong = structuredClone(appSet) as unknown as { spec: { generators: unknown } };
        wrong.spec.generators = { clusters: {} };
        expect(check(wrong as unknown as KubeObject)!.length).toBeGreaterThan(0);
    }, 120_000);
});

describe("the fleet's ApplicationSet in the sync model's replay of Argo CD's cluster generator", () => {
    const appSet = fleetApplicationSet("prod", "aws", SOURCE) as unknown as KubeObject;

    it("makes one Application per cluster of the fleet, each syncing the render to its own API server; none for other clusters or the hub", () => {
        const hub = {
            secrets: [
                clusterSecret("prod-us", "https://10.0.0.1:6443"),
                clusterSecret("prod-eu", "https://10.0.1.1:6443", { region: "eu-west-1" }),
                clusterSecret("staging", "https://10.0.2.1:6443", { fleet: "staging" }),
                clusterSecret("no-fleet", "https://10.0.3.1:6443", { fleet: undefined }),
                clusterSecret("prod-on-linode", "https://10.0.4.1:6443", { infraType: "linode", region: "us-east" }),
                // Argo CD's repository Secret in the same namespace is no cluster.
                { apiVersion: "v1", kind: "Secret", metadata: { name: "mara-repository", namespace: "argocd", labels: { "argocd.argoproj.io/secret-type": "repository", "mara.nginx.com/fleet": "prod" } }, stringData: { url: SOURCE.repoUrl } },
            ],
        };
        const result = generateFromClusters(appSet, hub);
        if ("error" in result) throw new Error(result.error);
        expect(result.refused).toEqual([]);
        expect(result.applications.map((a) => [a.metadata!.name, (a.spec as { destination: { server: string } }).destination.server])).toEqual([
            ["mara-prod-eu", "https://10.0.1.1:6443"],
            ["mara-prod-us", "https://10.0.0.1:6443"],
        ]);
        for (const app of result.applications) {
            expect(app.metadata).toMatchObject({ namespace: "argocd", labels: { "app.kubernetes.io/part-of": "mara", "mara.nginx.com/fleet": "prod" } });
            // preserveResourcesOnDeletion: leaving the fleet deletes the Application, not the platform.
            expect((app.metadata as { finalizers?: string[] }).finalizers).toBeUndefined();
            expect((app.spec as { source: unknown }).source).toEqual({ repoURL: SOURCE.repoUrl, targetRevision: "main", path: "deploy/prod" });
            expect((app.spec as { destination: unknown }).destination).toEqual({ server: expect.stringMatching(/^https:\/\/10\.0\.[01]\.1:6443$/) });
        }
        // Without the fleet's Secrets: nothing, and never the hub's own cluster (its selector is never empty).
        expect(generateFromClusters(appSet, { secrets: hub.secrets.slice(2) })).toEqual({ applications: [], refused: [] });
        const anyCluster = generateFromClusters({ ...appSet, spec: { ...(appSet.spec as object), generators: [{ clusters: {} }] } }, { secrets: [] });
        expect("applications" in anyCluster && anyCluster.applications.map((a) => (a.spec as { destination: { server: string } }).destination.server)).toEqual(["https://kubernetes.default.svc"]);
    });

    it("a cluster's name or labels are never read as a template: names with '{{', quotes and capitals become names, the template's own literals print as written", () => {
        const hostile = fleetApplicationSet("prod", "aws", { ...SOURCE, revision: "feature/{{.name}}}}{{{", path: "deploy/{{ .server }}" }) as unknown as KubeObject;
        const result = generateFromClusters(hostile, {
            secrets: [
                clusterSecret('{{ .server }}"x', "https://10.0.0.1:6443"),
                clusterSecret("Prod_EU {{", "https://10.0.1.1:6443", { region: "{{ .name }}" }),
                { ...clusterSecret("plain", "https://10.0.2.1:6443"), metadata: { ...clusterSecret("plain", "x").metadata!, annotations: undefined, name: "mara-cluster-plain" } },
            ],
        });
        if ("error" in result) throw new Error(result.error);
        expect(result.refused).toEqual([]);
        expect(result.applications.map((a) => a.metadata!.name).sort()).toEqual(["mara-plain", "mara-prod-eu", "mara-server----x"]);
        for (const app of result.applications) expect((app.spec as { source: unknown }).source).toMatchObject({ targetRevision: "feature/{{.name}}}}{{{", path: "deploy/{{ .server }}" });
    });

    it("two clusters whose names normalize alike: Argo CD refuses both Applications (its errors are kept by name), the rest go on", () => {
        const result = generateFromClusters(appSet, { secrets: [clusterSecret("Prod", "https://10.0.0.1:6443"), clusterSecret("prod", "https://10.0.1.1:6443"), clusterSecret("other", "https://10.0.2.1:6443")] });
        if ("error" in result) throw new Error(result.error);
        expect(result.applications.map((a) => a.metadata!.name)).toEqual(["mara-other"]);
        expect(result.refused).toEqual([
            { name: "mara-prod", reason: "ApplicationSet mara-prod contains applications with duplicate name: mara-prod" },
            { name: "mara-prod", reason: "ApplicationSet mara-prod contains applications with duplicate name: mara-prod" },
        ]);
        // A name that normalizes to nothing leaves "mara-", which the API server refuses: that Application alone.
        const empty = generateFromClusters(appSet, { secrets: [clusterSecret("___", "https://10.0.0.1:6443"), clusterSecret("ok", "https://10.0.1.1:6443")] });
        expect(empty).toEqual({ applications: [expect.objectContaining({ metadata: expect.objectContaining({ name: "mara-ok" }) })], refused: [{ name: "mara-", reason: 'the API server refuses the name "mara-": a DNS-1123 subdomain is required' }] });
        // SanitizeName trims only the ends: "b {{ .server }}" keeps a label that ends with '-' ("mara-b----.server").
        const inner = generateFromClusters(appSet, { secrets: [clusterSecret("b {{ .server }}", "https://10.0.0.1:6443")] });
        expect(inner).toEqual({ applications: [], refused: [{ name: "mara-b----.server", reason: 'the API server refuses the name "mara-b----.server": a DNS-1123 subdomain is required' }] });
    });

    it("why the template reads only what every cluster has: under missingkey=error a key one Secret lacks stops the whole ApplicationSet", () => {
        const reading = structuredClone(appSet) as unknown as { spec: { template: { spec: { source: { targetRevision: string } } } } };
        reading.spec.template.spec.source.targetRevision = "{{ .metadata.annotations.revision }}";
        const secrets = [clusterSecret("a", "https://10.0.0.1:6443"), clusterSecret("b", "https://10.0.1.1:6443")];
        expect(generateFromClusters(reading as unknown as KubeObject, { secrets })).toEqual({ error: 'failed to execute go template: map has no entry for key "revision"' });
    });
});

describe("the model's parts, at the rules of their sources", () => {
    it("SanitizeName (argo-cd applicationset/utils/template_functions.go): lower case, [-a-z0-9.], 253 at most, ends trimmed", () => {
        expect(sanitizeName("my_cluster")).toBe("my-cluster");
        expect(sanitizeName("Prod EU/1")).toBe("prod-eu-1");
        expect(sanitizeName("--a.b--")).toBe("a.b");
        expect(sanitizeName("é")).toBe("");
        expect(sanitizeName("a".repeat(300))).toHaveLength(253);
        expect(sanitizeName(`${"a".repeat(252)}-b`)).toBe("a".repeat(252));
    });

    it("label selectors (apimachinery LabelSelectorAsSelector): matchLabels, In, NotIn, Exists, DoesNotExist; an empty In is refused", () => {
        const labels = { fleet: "prod", tier: "gold" };
        expect(selects({ matchLabels: { fleet: "prod" } }, labels)).toBe(true);
        expect(selects({ matchLabels: { fleet: "Prod" } }, labels)).toBe(false);
        expect(selects({ matchExpressions: [{ key: "tier", operator: "In", values: ["gold", "silver"] }] }, labels)).toBe(true);
        expect(selects({ matchExpressions: [{ key: "tier", operator: "NotIn", values: ["gold"] }] }, labels)).toBe(false);
        expect(selects({ matchExpressions: [{ key: "zone", operator: "DoesNotExist" }] }, labels)).toBe(true);
        expect(selects({ matchExpressions: [{ key: "zone", operator: "Exists" }] }, labels)).toBe(false);
        expect(() => selects({ matchExpressions: [{ key: "tier", operator: "In", values: [] }] }, labels)).toThrow("values set can't be empty");
    });

    it("Go templates: fields of maps, string constants, missingkey; forms outside the model throw instead of passing", () => {
        const data = { name: "a", metadata: { labels: { x: "1" } } };
        expect(executeGoTemplate("mara-{{ .name }}-{{.metadata.labels.x}}", data, "error")).toBe("mara-a-1");
        expect(executeGoTemplate('{{"{{"}} and {{ `}}` }}', data, "error")).toBe("{{ and }}");
        expect(() => executeGoTemplate("{{ .nope }}", data, "error")).toThrow(GoTemplateError);
        expect(executeGoTemplate("{{ .nope }}", data, "default")).toBe("<no value>");
        expect(() => executeGoTemplate("{{ .name.x }}", data, "error")).toThrow("can't evaluate field x");
        expect(() => executeGoTemplate("{{ .name", data, "error")).toThrow("unclosed action");
        expect(() => executeGoTemplate("{{ index .metadata.labels \"x\" }}", data, "error")).toThrow(GoTemplateUnsupported);
        expect(() => executeGoTemplate("{{ .name | upper }}", data, "error")).toThrow(GoTemplateUnsupported);
        expect(missingKeyOption(["missingkey=error"])).toBe("error");
        expect(() => missingKeyOption(["missingkey=oops"])).toThrow("unrecognized option");
    });

    it("the ApplicationSet's file reads the same in YAML 1.1 (kubectl's) for a fleet named like a boolean or a date", () => {
        for (const fleet of ["on", "no", "2001-12-14", "1"]) {
            const text = fleetFiles({ fleet, infraType: "aws", clusterName: "c", source: SOURCE }, "").get(`${FLEET_FOLDER}/applicationset-mara-${fleet}.yaml`)!;
            const read = parse(text, { version: "1.1" }) as { spec: { generators: { clusters: { selector: { matchLabels: Record<string, unknown> } } }[] } };
            expect(read.spec.generators[0]!.clusters.selector.matchLabels["mara.nginx.com/fleet"], fleet).toBe(fleet);
        }
    });

    it("a literal written with goTemplateLiteral prints as itself, whatever braces it holds", () => {
        const pieces = ["{", "}", "{{", "}}", '"', "`", "a", ".name", " ", "-"];
        let seed = 7;
        const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
        for (let i = 0; i < 2000; i++) {
            const text = Array.from({ length: next() % 12 }, () => pieces[next() % pieces.length]).join("");
            expect(executeGoTemplate(goTemplateLiteral(text), { name: "x" }, "error"), JSON.stringify(text)).toBe(text);
        }
    });
});

describe("mara render of a hub stack in a fleet", () => {
    const rendered = (async () => {
        const base = fixture("minimal-aws");
        const values = {
            ...base.values,
            "mara:delivery": "gitops",
            "mara:gitopsArgoCd": "external",
            "mara:gitopsFleet": "prod",
            "mara:gitopsRepoUrl": SOURCE.repoUrl,
            "mara:gitopsPath": SOURCE.path,
            "mara:fqdn": "mara.example.com",
        };
        const raw: RawConfig = { ...base, values };
        const config = validateConfig(raw).config!;
        const esc = { organization: "acme", project: "platform", environment: "prod", token: { namespace: "external-secrets", name: "pulumi-access-token", key: "PULUMI_ACCESS_TOKEN" } };
        return { config, result: await renderPlatform({ raw, config, program, secrets: { mode: "external", store: "mara", storeKind: "ClusterSecretStore", provider: "pulumi", remoteKeyPrefix: "mara", esc } }) };
    })();

    it("writes the fleet's ApplicationSet to argocd/fleet/, outside the root Application's folder, for this stack's infrastructure type; the folder syncs as one", async () => {
        const { config, result } = await rendered;
        const file = `${FLEET_FOLDER}/applicationset-mara-prod.yaml`;
        expect(parse(result.files.get(`${FLEET_FOLDER}/kustomization.yaml`)!).resources).toEqual(["applicationset-mara-prod.yaml"]);
        expect(parse(result.files.get(file)!)).toEqual(JSON.parse(JSON.stringify(fleetApplicationSet("prod", "aws", SOURCE))));
        expect(parse(result.files.get("argocd/kustomization.yaml")!).resources.filter((r: string) => !r.startsWith("application-"))).toEqual([]);
        expect(parse(result.files.get("kustomization.yaml")!).resources).not.toContain("argocd");
        // The generated Applications sync the whole folder: every object in its own wave, as one sync.
        expect(checkSyncObjects(syncObjectsOf(result.files))).toEqual([]);
        // This stack's own cluster Secret, as the program outputs it, is one the ApplicationSet selects.
        const own = clusterSecretManifest({ clusterName: config.clusterName, infraType: "aws", region: "us-east-1", apiServer: "https://198.51.100.7", source: SOURCE, fleet: "prod" }, "hub") as KubeObject;
        const generated = generateFromClusters(parse(result.files.get(file)!) as KubeObject, { secrets: [own] });
        expect("applications" in generated && generated.applications.map((a) => (a.spec as { destination: unknown }).destination)).toEqual([{ server: "https://198.51.100.7" }]);
        expect((await argoCrdCheck())(parse(result.files.get(file)!) as KubeObject)).toEqual([]);
    }, 240_000);

    it("its Secrets from Pulumi ESC: every ExternalSecret and store is what ESO's v1 API takes, every key at a path that reads back as its Secret and key", async () => {
        const { result } = await rendered;
        const { ExternalSecret } = await import("@kubernetes-models/external-secrets/external-secrets.io/v1/ExternalSecret");
        const { ClusterSecretStore } = await import("@kubernetes-models/external-secrets/external-secrets.io/v1/ClusterSecretStore");
        const eso = [...result.files].filter(([f]) => f.endsWith(".yaml") && !f.endsWith("kustomization.yaml")).map(([f, t]) => ({ f, o: parse(t) as KubeObject })).filter(({ o }) => o?.apiVersion === "external-secrets.io/v1");
        const externalSecrets = eso.filter(({ o }) => o.kind === "ExternalSecret");
        expect(externalSecrets.length).toBeGreaterThan(8);
        for (const { f, o } of externalSecrets) {
            expect(() => new ExternalSecret(o as never).validate(), f).not.toThrow();
            for (const d of (o.spec as { data: { secretKey: string; remoteRef: { key: string; property?: string } }[] }).data) {
                expect(d.remoteRef.property, f).toBeUndefined();
                expect(parsePropertyPath(d.remoteRef.key), f).toEqual(["mara", o.metadata!.namespace, (o.spec as { target: { name: string } }).target.name, d.secretKey]);
            }
        }
        // The store, for the components (secret-store/) and where Argo CD runs (argocd/repository/): one object, alike.
        const stores = eso.filter(({ o }) => o.kind === "ClusterSecretStore");
        expect(stores.map(({ f }) => f).sort()).toEqual(["argocd/repository/clustersecretstore-mara.yaml", "secret-store/clustersecretstore-mara.yaml"]);
        expect(stores[0]!.o).toEqual(stores[1]!.o);
        expect(() => new ClusterSecretStore(stores[0]!.o as never).validate()).not.toThrow();
        expect(parse(result.files.get("secret-store/kustomization.yaml")!).resources).toEqual(["clustersecretstore-mara.yaml"]);
        // Applied by hand before the sync, never by it.
        expect(syncObjectsOf(result.files).filter((o) => o.file.startsWith("secret-store/"))).toEqual([]);
        for (const s of result.secrets) expect(result.files.get("secret-keys.txt")).toContain(`${s.remoteKey}\t${s.namespace}/${s.secret}\t${s.key}\n`);
    }, 240_000);
});
