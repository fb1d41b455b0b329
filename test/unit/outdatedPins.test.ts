/**
 * What `mara outdated` checks is what the program pins: built from the catalogue, the key table's
 * defaults and the component constants, equal to what a stack without overrides validates to, and
 * following a stack's overrides (MARA's keys included). A scan of the sources catches an image pinned in
 * a component that the list does not know.
 */
import * as fs from "fs";
import * as path from "path";
import * as ts from "typescript";
import { describe, expect, it } from "vitest";
import { validateApplicationArgs } from "../../components/application";
import { CONTRIB_COLLECTOR_IMAGE } from "../../components/observability";
import { KIBANA_SETUP_IMAGE } from "../../components/logstore/kibanaSetup";
import { MaraConfig, validateConfig } from "../../config";
import { CHART_IDS, CHARTS, DEFAULTS } from "../../contracts";
import { CHART_SETTINGS, defaultPinSettings, Pin, pinsOf, stackPinSettings } from "../../cli/outdated/pins";
import { aws, fixture } from "../support/config";

const ROOT = path.join(__dirname, "..", "..");

function valid(raw: ReturnType<typeof aws>): MaraConfig {
    const r = validateConfig(raw);
    expect(r.problems).toEqual([]);
    return r.config!;
}

const reference = (p: Pin) => `${p.name}:${p.pinned}`;

describe("the pins", () => {
    const pins = pinsOf(defaultPinSettings());

    it("are every chart of the catalogue, at its version and repository", () => {
        const charts = pins.filter((p) => p.kind === "chart");
        expect(charts.map((p) => [p.name, p.pinned, p.source])).toEqual(
            CHART_IDS.map((id) => [CHARTS[id].chart, CHARTS[id].version, { type: CHARTS[id].repositoryUrl.startsWith("oci://") ? "oci-chart" : "helm-index", repositoryUrl: CHARTS[id].repositoryUrl, chart: CHARTS[id].chart }]),
        );
        expect(charts.find((p) => p.name === "nginx-ingress")?.setBy).toBe("mara:ingressChartVersion");
    });

    it("are every image the program runs by default: the controller, nine Bank of Sirius images, Elasticsearch, Kibana, the collector, the Kibana setup Job, the NFS provisioner", () => {
        expect(pins.filter((p) => p.kind === "image").map(reference)).toEqual([
            DEFAULTS.ingressControllerImage.imageName,
            ...["frontend", "userservice", "contacts", "balancereader", "ledgerwriter", "transactionhistory", "accounts-db", "ledger-db", "loadgenerator"].map(
                (s) => `ghcr.io/nginxinc/bos-${s}:v1.3.0`,
            ),
            "docker.elastic.co/elasticsearch/elasticsearch:9.5.0",
            "docker.elastic.co/kibana/kibana:9.5.0",
            CONTRIB_COLLECTOR_IMAGE,
            KIBANA_SETUP_IMAGE,
            "registry.k8s.io/sig-storage/nfs-subdir-external-provisioner:v4.0.2",
        ]);
        expect(pins.find((p) => p.name === "nginx/nginx-ingress")?.source).toEqual({ type: "registry", registry: "docker.io", repository: "nginx/nginx-ingress" });
    });

    it("equal what a stack without overrides validates to", () => {
        expect(stackPinSettings(valid(fixture("minimal-aws")))).toEqual(defaultPinSettings());
    });

    it("read each chart from its own place in the configuration", () => {
        const cfg = valid(aws());
        for (const id of CHART_IDS) expect(CHART_SETTINGS[id](cfg).chart, id).toBe(CHARTS[id].chart);
    });

    it("match the components' own defaults, so library users' pins are checked too", () => {
        const app = validateApplicationArgs({ hostname: "h", clusterIssuer: "i", accountsDb: { password: "p" }, ledgerDb: { password: "p" }, demoLogin: { username: "u", password: "p" } });
        const settings = defaultPinSettings();
        expect([app.imageRegistry, app.imageTag]).toEqual([settings.application.imageRegistry, settings.application.imageTag]);
        expect(DEFAULTS.logstore.version).toBe(settings.elasticVersion);
    });
});

describe("a stack's pins", () => {
    it("follow its overrides, MARA's keys included", () => {
        const cfg = valid(
            aws({
                "prometheus:chart_version": "88.6.0",
                "mara:prometheusHelmRepoUrl": "https://mirror.example.com/prometheus",
                "mara:certManagerHelmRepoUrl": "oci://registry.example.com/charts",
                "kic:image_name": "registry.example.com:5000/nginx/nginx-ingress:5.5.3-ubi",
                "mara:siriusImageRegistry": "mirror.example.com/bos",
                "mara:siriusImageTag": "v1.2.0",
                "mara:logstoreVersion": "8.19.3",
            }),
        );
        const pins = pinsOf(stackPinSettings(cfg));
        const pin = (name: string) => pins.find((p) => p.name === name)!;
        expect(pin("kube-prometheus-stack").pinned).toBe("88.6.0");
        expect(pin("kube-prometheus-stack").source).toMatchObject({ type: "helm-index", repositoryUrl: "https://mirror.example.com/prometheus" });
        // The statsd chart shares the key of MARA's section only through MARA's key; the canonical key is per chart.
        expect(pin("prometheus-statsd-exporter").source).toMatchObject({ repositoryUrl: CHARTS.statsd.repositoryUrl });
        expect(pin("cert-manager").source).toEqual({ type: "oci-chart", repositoryUrl: "oci://registry.example.com/charts", chart: "cert-manager" });
        expect(pin("registry.example.com:5000/nginx/nginx-ingress")).toMatchObject({ pinned: "5.5.3-ubi", source: { registry: "registry.example.com:5000" } });
        expect(pin("mirror.example.com/bos/bos-frontend")).toMatchObject({ pinned: "v1.2.0", setBy: "mara:siriusImageTag" });
        expect(pin("docker.elastic.co/kibana/kibana").pinned).toBe("8.19.3");
    });

    it("skip what cannot have a newer version: a digest, and a controller built from source", () => {
        const digest = pinsOf(stackPinSettings(valid(aws({ "mara:ingressImageName": `nginx/nginx-ingress@sha256:${"a".repeat(64)}` }))));
        expect(digest.find((p) => p.name === "nginx/nginx-ingress")?.source).toEqual({ type: "none", reason: "pinned by digest; digests have no newer versions" });

        // A checkout, as validation sees it: a directory with build/Dockerfile.
        const checkout = "/src/kubernetes-ingress";
        const files = { directories: [checkout], files: { [`${checkout}/build/Dockerfile`]: "FROM scratch\n" } };
        const source = pinsOf(stackPinSettings(valid(aws({ "mara:ingressImageOrigin": "source", "mara:ingressSrcUrl": checkout }, files))));
        const kic = source.find((p) => p.kind === "image" && p.usedBy === "NGINX Ingress Controller")!;
        expect(kic).toMatchObject({ pinned: checkout, setBy: "mara:ingressSrcUrl", source: { type: "none" } });
    });
});

describe("no image pin hides in the sources", () => {
    /** String literals in components/, config/ and contracts/ that are image references with a version tag. */
    function imageLiterals(): string[] {
        const found: string[] = [];
        const image = /^([a-z0-9.-]+(:\d+)?\/)?[a-z0-9._-]+(\/[a-z0-9._-]+)+:v?\d[\w.-]*$/;
        for (const dir of ["components", "config", "contracts"]) {
            for (const file of fs.readdirSync(path.join(ROOT, dir), { recursive: true }) as string[]) {
                if (!file.endsWith(".ts")) continue;
                const src = ts.createSourceFile(file, fs.readFileSync(path.join(ROOT, dir, file), "utf8"), ts.ScriptTarget.ES2022, true);
                const visit = (node: ts.Node): void => {
                    if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && image.test(node.text)) found.push(node.text);
                    ts.forEachChild(node, visit);
                };
                visit(src);
            }
        }
        return found;
    }

    it("every image reference written in components/, config/ or contracts/ is a pin `mara outdated` checks", () => {
        const literals = imageLiterals();
        // The scan must see the two pins written as whole references; otherwise it is looking in the wrong place.
        expect(literals).toEqual(expect.arrayContaining([DEFAULTS.ingressControllerImage.imageName, CONTRIB_COLLECTOR_IMAGE]));
        const checked = new Set(pinsOf(defaultPinSettings()).map(reference));
        for (const l of literals) expect(checked.has(l), `${l} is pinned in the source but not checked by mara outdated (cli/outdated/pins.ts)`).toBe(true);
    }, 120_000);
});
