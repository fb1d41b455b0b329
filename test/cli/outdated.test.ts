/**
 * `mara outdated` end to end, against Helm repositories and registries served on the loopback address
 * (never the real network): the table and JSON, one unreachable source that does not stop the others,
 * the documented exit codes, a stack's own pins, and a command that stays out of `mara --help`'s way.
 */
import { execFile } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { afterEach, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { defaultPinSettings, pinsOf } from "../../cli/outdated/pins";
import { runMara } from "./support/io";
import { FixtureRepository, SourcesServer, startSourcesServer, unreachableOrigin } from "./support/sourcesServer";

const ROOT = path.join(__dirname, "..", "..");
const PINS = pinsOf(defaultPinSettings());

/** What each source lists, by chart or image name; pins left out list only their pinned version. */
type Listing = Record<string, readonly string[] | FixtureRepository>;

/** Registry path prefixes on the fixture server. */
const REGISTRY_PREFIX: Record<string, string> = { "docker.io": "/hub", "ghcr.io": "/ghcr", "docker.elastic.co": "/elastic", "registry.k8s.io": "/k8s" };

function indexYaml(charts: Record<string, readonly string[]>): string {
    const entries = Object.fromEntries(
        Object.entries(charts).map(([name, versions]) => [
            name,
            versions.map((version) => ({ apiVersion: "v2", name, version, urls: [`https://example.com/${name}-${version}.tgz`], digest: "0".repeat(64) })),
        ]),
    );
    return stringify({ apiVersion: "v1", entries, generated: "2026-11-01T00:00:00Z" });
}

let server: SourcesServer | undefined;
afterEach(async () => {
    await server?.close();
    server = undefined;
});

/**
 * Serves every default pin's source: charts in index.yaml files under /h/<host>/…, images behind the
 * token dance under a prefix per registry; `down` hosts point at a port where nothing listens, `hang`
 * hosts never answer, `omit` charts are missing from their index. Returns the MARA_OUTDATED_ENDPOINTS value that routes the real hosts there.
 */
async function serve(listing: Listing, opts: { down?: string[]; hang?: string[]; omit?: string[] } = {}): Promise<string> {
    const files: Record<string, string> = {};
    const registries: Record<string, Record<string, FixtureRepository>> = {};
    const byIndex = new Map<string, Record<string, readonly string[]>>();
    for (const pin of PINS) {
        const listed = listing[pin.name] ?? [pin.pinned];
        if (pin.source.type === "helm-index") {
            const charts = byIndex.get(pin.source.repositoryUrl) ?? {};
            if (!opts.omit?.includes(pin.name)) charts[pin.source.chart] = listed as readonly string[];
            byIndex.set(pin.source.repositoryUrl, charts);
        } else if (pin.source.type === "oci-chart") {
            // A chart in an OCI registry: its versions are the tags of <registry>/<path>/<chart>.
            const u = new URL(pin.source.repositoryUrl.replace(/^oci:/, "https:"));
            const prefix = REGISTRY_PREFIX[u.host]!;
            const repository = `${u.pathname.replace(/^\/|\/$/g, "")}/${pin.source.chart}`;
            registries[prefix] = { ...registries[prefix], [repository]: Array.isArray(listed) ? { tags: listed } : (listed as FixtureRepository) };
        } else if (pin.source.type === "registry") {
            const prefix = REGISTRY_PREFIX[pin.source.registry]!;
            registries[prefix] = { ...registries[prefix], [pin.source.repository]: Array.isArray(listed) ? { tags: listed } : (listed as FixtureRepository) };
        }
    }
    const hosts = new Set<string>();
    for (const [repositoryUrl, charts] of byIndex) {
        const u = new URL(repositoryUrl);
        hosts.add(u.host);
        files[`/h/${u.host}${u.pathname.replace(/\/$/, "")}/index.yaml`] = indexYaml(charts);
    }
    const hang = Object.keys(files).filter((f) => opts.hang?.some((h) => f.startsWith(`/h/${h}/`)));
    server = await startSourcesServer({ files, registries, hang });
    const dead = await unreachableOrigin();
    const endpoints = [...hosts].map((h) => `${h}=${opts.down?.includes(h) ? dead : `${server!.origin}/h/${h}`}`);
    for (const [registry, prefix] of Object.entries(REGISTRY_PREFIX)) endpoints.push(`${registry}=${server.origin}${prefix}`);
    return endpoints.join(",");
}

/** The mixed case: newer majors, minors and patches, current pins, and cert-manager's repository down. */
const MIXED: Listing = {
    "nginx-ingress": ["2.6.3", "2.6.4", "2.7.0-rc.1"],
    "kube-prometheus-stack": ["88.5.3", "88.6.0", "89.0.1"],
    "prometheus-statsd-exporter": ["1.0.0", "1.0.1"],
    "prometheus-postgres-exporter": ["8.2.0", "9.0.0-beta.1"],
    "fluent-bit": ["0.58.1", "0.59.0"],
    "opentelemetry-operator": ["0.121.0", "0.123.0"],
    "nginx/nginx-ingress": ["5.5.3", "5.5.4", "5.5.4-ubi", "5.6.0-ubi", "edge", "latest", "5.6"],
    "ghcr.io/nginxinc/bos-frontend": { tags: ["v1.2.0", "v1.3.0", "latest", "sha-1a2b3c4", "v1.3.1"], pageSize: 2 },
    "docker.elastic.co/elasticsearch/elasticsearch": ["9.5.0", "9.5.1", "9.5.1-amd64", "10.0.0"],
    "ghcr.io/open-telemetry/opentelemetry-collector-releases/opentelemetry-collector-contrib": ["0.158.0", "0.159.0"],
};

/** A table row, columns separated by runs of spaces. */
const row = (...cells: string[]) => new RegExp(`^${cells.map((c) => c.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")).join(" +")}$`, "m");

describe("mara outdated", () => {
    it("prints the table against the fixtures, reports the unreachable source and still checks the others (exit 5)", async () => {
        const endpoints = await serve(MIXED, { down: ["charts.jetstack.io"] });
        const r = await runMara(["outdated"], { env: { MARA_OUTDATED_ENDPOINTS: endpoints } });

        expect(r.code).toBe(5);
        expect(r.stdout).toMatch(/^Pins of the program's defaults/);
        expect(r.stdout).toMatch(row("KIND", "NAME", "PINNED", "NEWEST SAME MAJOR", "NEWEST", "STATUS"));
        expect(r.stdout).toMatch(row("chart", "nginx-ingress", "2.6.4", "2.6.4", "2.6.4", "current"));
        expect(r.stdout).toMatch(row("chart", "cert-manager", "v1.21.1", "-", "-", "not checked (see errors)"));
        expect(r.stdout).toMatch(row("chart", "kube-prometheus-stack", "88.5.3", "88.6.0", "89.0.1", "newer major"));
        expect(r.stdout).toMatch(row("chart", "prometheus-statsd-exporter", "1.0.0", "1.0.1", "1.0.1", "newer patch"));
        expect(r.stdout).toMatch(row("chart", "prometheus-postgres-exporter", "8.2.0", "8.2.0", "8.2.0", "current"));
        expect(r.stdout).toMatch(row("chart", "fluent-bit", "0.58.1", "0.59.0", "0.59.0", "newer minor"));
        // A chart in an OCI registry, read from its tags.
        expect(r.stdout).toMatch(row("chart", "pulumi-kubernetes-operator", "2.9.0", "2.9.0", "2.9.0", "current"));
        expect(r.stdout).toMatch(row("image", "nginx/nginx-ingress", "5.5.4", "5.5.4", "5.5.4", "current"));
        expect(r.stdout).toMatch(row("image", "ghcr.io/nginxinc/bos-frontend", "v1.3.0", "v1.3.1", "v1.3.1", "newer patch"));
        expect(r.stdout).toMatch(row("image", "ghcr.io/nginxinc/bos-ledger-db", "v1.3.0", "v1.3.0", "v1.3.0", "current"));
        expect(r.stdout).toMatch(row("image", "docker.elastic.co/elasticsearch/elasticsearch", "9.5.0", "9.5.1", "10.0.0", "newer major"));
        expect(r.stdout).toMatch(row("image", "docker.elastic.co/kibana/kibana", "9.5.0", "9.5.0", "9.5.0", "current"));
        expect(r.stdout).toContain("opentelemetry-operator 0.122.0: 0.122.0 is not listed by the source (removed, mistyped, or a mirror that is behind)");
        expect(r.stdout).toContain("Where each newer pin is set (docs/upgrading.md has the procedure):\n  kube-prometheus-stack: mara:prometheusChartVersion\n");
        expect(r.stdout).toContain("27 pins: 7 outdated (2 with a newer major), 1 not checked, 19 current, 0 skipped.");

        expect(r.stderr).toMatch(
            /^error: 1 source could not be checked; its pins are marked "not checked":\n {2}cert-manager \(Helm repository https:\/\/charts\.jetstack\.io\): connection refused \(ECONNREFUSED\) \[GET http:\/\/127\.0\.0\.1:\d+\/index\.yaml\]\n$/,
        );
        // Each source once, however many pins share it: three charts come from prometheus-community's index.
        const indexRequests = server!.requests.filter((q) => q.path.endsWith("/index.yaml"));
        expect(indexRequests.map((q) => q.path).sort()).toEqual([...new Set(indexRequests.map((q) => q.path))].sort());
        expect(indexRequests).toHaveLength(8);
        // Every tag list was read with the anonymous token, after one unauthenticated try.
        const tagLists = server!.requests.filter((q) => q.path.includes("/tags/list"));
        // Fifteen image repositories and one OCI chart; bos-frontend's list takes two more pages.
        expect(tagLists.filter((q) => q.authorization === undefined)).toHaveLength(16);
        expect(tagLists.filter((q) => q.authorization?.startsWith("Bearer anon:"))).toHaveLength(16 + 2);
    });

    it("prints the same findings as JSON for scripts", async () => {
        const endpoints = await serve(MIXED, { down: ["charts.jetstack.io"] });
        const r = await runMara(["outdated", "--json"], { env: { MARA_OUTDATED_ENDPOINTS: endpoints } });
        expect(r.code).toBe(5);
        const doc = JSON.parse(r.stdout) as {
            pins: { from: string };
            results: { name: string; status: string; pinned: string; latest: string | null; latestInMajor: string | null; newerMajor: boolean | null; update: string | null; setBy: string; source: { url: string } | null; note: string | null }[];
            failures: { source: string; url: string; message: string; pins: string[] }[];
            summary: Record<string, number>;
            exitCode: number;
        };
        expect(doc.pins).toEqual({ from: "defaults" });
        expect(doc.exitCode).toBe(5);
        expect(doc.summary).toEqual({ current: 19, outdated: 7, newerMajor: 2, unchecked: 1, skipped: 0 });
        const byName = Object.fromEntries(doc.results.map((x) => [x.name, x]));
        expect(byName["kube-prometheus-stack"]).toMatchObject({ status: "outdated", pinned: "88.5.3", latest: "89.0.1", latestInMajor: "88.6.0", update: "major", newerMajor: true, setBy: "mara:prometheusChartVersion" });
        expect(byName["kube-prometheus-stack"]!.source!.url).toBe("https://prometheus-community.github.io/helm-charts/index.yaml");
        expect(byName["cert-manager"]).toMatchObject({ status: "unchecked", latest: null, newerMajor: null });
        expect(byName["cert-manager"]!.note).toMatch(/^connection refused \(ECONNREFUSED\) \(http:\/\/127\.0\.0\.1:\d+\/index\.yaml\)$/);
        expect(doc.failures).toEqual([{ source: "Helm repository https://charts.jetstack.io", url: expect.stringMatching(/\/index\.yaml$/), message: "connection refused (ECONNREFUSED)", pins: ["cert-manager"] }]);
    });

    it("exits 0 when every pin is the newest, and 4 when something is newer but every source answered", async () => {
        let endpoints = await serve({ "nginx-ingress": ["2.6.0", "2.6.4"], "nginx/nginx-ingress": ["5.5.4", "5.6.0-ubi", "latest"] });
        const current = await runMara(["outdated"], { env: { MARA_OUTDATED_ENDPOINTS: endpoints } });
        expect(current.stderr).toBe("");
        expect(current.stdout).toContain("27 pins: 0 outdated (0 with a newer major), 0 not checked, 27 current, 0 skipped.");
        expect(current.code).toBe(0);
        await server!.close();

        // The boundary: one patch release past one pin is enough.
        endpoints = await serve({ "eck-operator": ["3.5.0", "3.5.1"] });
        const outdated = await runMara(["outdated"], { env: { MARA_OUTDATED_ENDPOINTS: endpoints } });
        expect(outdated.stdout).toMatch(row("chart", "eck-operator", "3.5.0", "3.5.1", "3.5.1", "newer patch"));
        expect(outdated.code).toBe(4);
    });

    it("gives up on a source that does not answer within --timeout, and checks the rest", async () => {
        const endpoints = await serve({}, { hang: ["fluent.github.io"] });
        // That source never answers: the run ends only through its timeout, which the message names.
        const r = await runMara(["outdated", "--timeout", "1"], { env: { MARA_OUTDATED_ENDPOINTS: endpoints } });
        expect(r.code).toBe(5);
        expect(r.stderr).toMatch(/fluent-bit \(Helm repository https:\/\/fluent\.github\.io\/helm-charts\): no answer within 1 s \(raise it with --timeout\)/);
        expect(r.stdout).toContain("27 pins: 0 outdated (0 with a newer major), 1 not checked, 26 current, 0 skipped.");
    });

    it("reports a chart its repository's index does not have, without failing the index's other charts", async () => {
        const endpoints = await serve({}, { omit: ["prometheus-statsd-exporter"] });
        const r = await runMara(["outdated"], { env: { MARA_OUTDATED_ENDPOINTS: endpoints } });
        expect(r.code).toBe(5);
        expect(r.stdout).toMatch(row("chart", "kube-prometheus-stack", "88.5.3", "88.5.3", "88.5.3", "current"));
        expect(r.stdout).toMatch(row("chart", "prometheus-statsd-exporter", "1.0.0", "-", "-", "not checked (see errors)"));
        expect(r.stderr).toContain(
            "  prometheus-statsd-exporter (Helm repository https://prometheus-community.github.io/helm-charts): " +
                "the index at https://prometheus-community.github.io/helm-charts/index.yaml lists no chart named prometheus-statsd-exporter (it lists 2) " +
                "[GET https://prometheus-community.github.io/helm-charts/index.yaml]",
        );
    });

    it("checks a stack's own pins: versions and mirrors from its configuration, MARA's keys included", async () => {
        const endpoints = await serve({ "nginx-ingress": ["2.6.4", "2.7.0", "2.7.1"] });
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mara-outdated-"));
        fs.writeFileSync(
            path.join(dir, "Pulumi.ci.yaml"),
            stringify({ config: { "kubernetes:infra_type": "aws", "aws:region": "us-east-1", "kic-helm:chart_version": "2.6.4", "mara:siriusImageTag": "v1.2.0" } }),
        );
        try {
            const r = await runMara(["outdated", "--stack", "ci"], { cwd: dir, env: { MARA_OUTDATED_ENDPOINTS: endpoints } });
            expect(r.stdout).toMatch(/^Pins of stack "ci" \(Pulumi\.ci\.yaml\)\.$/m);
            expect(r.stdout).toMatch(row("chart", "nginx-ingress", "2.6.4", "2.7.1", "2.7.1", "newer minor"));
            // The stack pins v1.2.0, which the fixture registry does not list (it lists only the default v1.3.0).
            expect(r.stdout).toMatch(row("image", "ghcr.io/nginxinc/bos-frontend", "v1.2.0", "v1.3.0", "v1.3.0", "newer minor"));
            expect(r.code).toBe(4);
        } finally {
            fs.rmSync(dir, { recursive: true, force: true });
        }
    });

    it("checks nothing when the stack's configuration is invalid (exit 1), and names the problem", async () => {
        const endpoints = await serve({});
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mara-outdated-"));
        fs.writeFileSync(path.join(dir, "Pulumi.bad.yaml"), stringify({ config: { "kubernetes:infra_type": "aws", "aws:region": "us-east-1", "mara:ingressChartVersion": "latest" } }));
        try {
            const r = await runMara(["outdated", "--config-file", "Pulumi.bad.yaml"], { cwd: dir, env: { MARA_OUTDATED_ENDPOINTS: endpoints } });
            expect(r.code).toBe(1);
            expect(r.stderr).toContain("configuration problem");
            expect(r.stderr).toContain("mara:ingressChartVersion");
            expect(r.stdout).toBe("");
            expect(server!.requests).toEqual([]);
        } finally {
            fs.rmSync(dir, { recursive: true, force: true });
        }
    });

    it("rejects a bad command line or a malformed MARA_OUTDATED_ENDPOINTS with exit 2, before any request", async () => {
        expect((await runMara(["outdated", "--timeout", "0"])).code).toBe(2);
        expect((await runMara(["outdated", "--timeout", "601"])).code).toBe(2);
        const missing = await runMara(["outdated", "--stack", "nope"], { cwd: os.tmpdir() });
        expect(missing).toMatchObject({ code: 2, stdout: "" });
        expect(missing.stderr).toContain("mara: stack file ./Pulumi.nope.yaml does not exist");
        const bad = await runMara(["outdated"], { env: { MARA_OUTDATED_ENDPOINTS: "ghcr.io" } });
        expect(bad).toMatchObject({ code: 2, stdout: "" });
        expect(bad.stderr).toContain('mara: MARA_OUTDATED_ENDPOINTS entry "ghcr.io" is not host=base-url');
    });

    it("documents its pins, sources and exit codes in --help", async () => {
        const r = await runMara(["outdated", "--help"]);
        expect(r.code).toBe(0);
        for (const text of ["--json", "--timeout <seconds>", "--stack <name>", "--config-file <path>", "MARA_OUTDATED_ENDPOINTS"]) expect(r.stdout).toContain(text);
        expect(r.stdout).toMatch(/^ {2}0 {2}no pin has a newer version/m);
        expect(r.stdout).toMatch(/^ {2}4 {2}a newer version exists/m);
        expect(r.stdout).toMatch(/^ {2}5 {2}at least one source could not be checked/m);
        expect((await runMara(["--help"])).stdout).toMatch(/^ {2}outdated \[options\] +list each pinned chart and image/m);
    });
});

describe("the mara executable", () => {
    it("runs `mara outdated` in its own process and exits with its code", async () => {
        const endpoints = await serve(MIXED, { down: ["charts.jetstack.io"] });
        const r = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
            execFile(process.execPath, ["bin/mara.js", "outdated"], { cwd: ROOT, env: { ...process.env, MARA_OUTDATED_ENDPOINTS: endpoints } }, (err, stdout, stderr) =>
                resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
            );
        });
        expect(r.code, r.stderr).toBe(5);
        expect(r.stdout).toMatch(row("chart", "kube-prometheus-stack", "88.5.3", "88.6.0", "89.0.1", "newer major"));
        expect(r.stderr).toContain("cert-manager (Helm repository https://charts.jetstack.io): connection refused (ECONNREFUSED)");
    });

    it("does not load the command's work, or its YAML and SemVer libraries, until it runs", async () => {
        const script = [
            `require(${JSON.stringify(path.join(ROOT, "node_modules", "sucrase", "register", "ts"))});`,
            `require(${JSON.stringify(path.join(ROOT, "cli", "register", "outdated.ts"))});`,
            `console.log(JSON.stringify(Object.keys(require.cache)));`,
        ].join("\n");
        // Node's ExecFileException is an Error; its type, built with Omit, no longer says so.
        const loaded = await new Promise<string[]>((resolve, reject) =>
            execFile(process.execPath, ["-e", script], { cwd: ROOT }, (err, stdout) => (err ? reject(err as Error) : resolve(JSON.parse(stdout) as string[]))),
        );
        expect(loaded.some((f) => f.includes(`${path.sep}register${path.sep}outdated.ts`))).toBe(true);
        expect(loaded.filter((f) => /[\\/](outdated[\\/]|js-yaml|semver|@pulumi)/.test(f))).toEqual([]);
    });
});
