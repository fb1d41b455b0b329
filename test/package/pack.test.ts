/**
 * The published package, as a consumer gets it: `npm pack` (whose prepack runs the build), then the tarball
 * installed into a fresh project next to nothing else, then that project type-checked and loaded. This is the
 * only test that sees dist/, the `exports` map and the declaration files; the others run the sources.
 *
 * It takes about 25 s (pack ~8 s, install ~9 s from the npm cache that `npm ci` filled, type-check ~5 s),
 * so it runs in the normal suite; set SKIP_PACK_TEST=1 to leave it out while iterating locally.
 */
import { spawnSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHART_IDS } from "../../contracts";
import { nestedNpmEnv } from "../support/npmEnv";

const ROOT = path.join(__dirname, "..", "..");
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8"));
const TSC = path.join(ROOT, "node_modules", "typescript", "bin", "tsc");

/** What `npm pack --json` (and `--dry-run --json`) reports for one package. */
interface PackReport {
    filename: string;
    files: { path: string; size: number }[];
}

/** Runs a command; throws with its output when it fails. Returns stdout and the seconds it took. */
function run(command: string, args: string[], cwd: string): { stdout: string; seconds: number } {
    const start = Date.now();
    const r = spawnSync(command, args, {
        cwd,
        env: nestedNpmEnv(),
        encoding: "utf8",
        maxBuffer: 64 * 1024 * 1024,
        // npm is npm.cmd on Windows, which only a shell runs.
        shell: process.platform === "win32" && command === "npm",
    });
    if (r.status !== 0) {
        throw new Error(`${command} ${args.join(" ")} failed (${r.status ?? r.signal}) in ${cwd}:\n${r.stdout}\n${r.stderr}`);
    }
    return { stdout: r.stdout, seconds: (Date.now() - start) / 1000 };
}

/** A consumer using each entry point; `@ts-expect-error` lines fail the check if the types were lost to `any`. */
const CONSUMER = `import * as pulumi from "@pulumi/pulumi";
import { CertManager, CHARTS, DEFAULTS, Eks, type EksArgs, IngressController, Kubeconfig, Platform, type PlatformArgs, REMOTE_BUILD_CONTEXT, Vpc } from "mara-platform";
import { loadConfig, type MaraConfig } from "mara-platform/config";
import { createInfrastructure, EKS_PLATFORM, type ClusterInfrastructure } from "mara-platform/providers";
import { applicationArgsFromPlatform, platformArgsFromConfig, siriusArgsFromPlatform } from "mara-platform/program";
import { Application, type ApplicationArgs, SIRIUS_CONFIG, siriusWorkloads } from "mara-platform";
import { admissionPolicies, kubernetesFixtures, type AdmissionMode, type KubeObject } from "mara-platform/policy";
import { find, installMocks, promiseOf, settle, type Registration } from "mara-platform/testing";
// @ts-expect-error only the package's entry points are public, not its files
import { Eks as NotExported } from "mara-platform/dist/components/eks";

export const args: EksArgs = { clusterName: "c", vpcId: "vpc-1", publicSubnetIds: ["a", "b"], privateSubnetIds: ["c", "d"] };
// @ts-expect-error clusterName is required
export const incomplete: EksArgs = { vpcId: "vpc-1", publicSubnetIds: [], privateSubnetIds: [] };
export function build(): pulumi.Output<string> {
    const eks = new Eks("eks", args);
    new Kubeconfig("kc", { kubeconfig: eks.kubeconfig, clusterName: eks.clusterName, waitFor: [eks] });
    return eks.kubeconfig;
}
export const used = [CertManager, IngressController, Vpc, Platform, CHARTS.certManager.version, DEFAULTS.ingressControllerImage.imageName, DEFAULTS.kicImage.imageName, EKS_PLATFORM.containerLogPath, NotExported];
export const literal: PlatformArgs = { cluster: EKS_PLATFORM, ingress: { replicas: 2 } };
// The groups and members each add-on unit declares in its folder reach a consumer through the package's types.
export const groups: PlatformArgs = {
    cluster: EKS_PLATFORM,
    certManager: {},
    logstore: { storageSize: "10Gi" },
    prometheus: {},
    metalLb: { addresses: ["192.0.2.240-192.0.2.250"] },
    storage: { nfsStorage: { server: "nfs.example.org", path: "/exports/mara" } },
};
// @ts-expect-error how a unit is created on the Platform is the package's own, not an export
export { CERT_MANAGER_UNIT } from "mara-platform";
// @ts-expect-error a misspelt group is refused, not typed as anything
export const misspelt: PlatformArgs = { cluster: EKS_PLATFORM, certManagr: {} };
export const members = (p: Platform): [CertManager, IngressController] => [p.certManager, p.ingressController];
// @ts-expect-error a member no unit declares does not exist
export const noSuchMember = (p: Platform) => p.certManagr;
// @ts-expect-error the facts about the cluster are required
export const withoutFacts: PlatformArgs = { ingress: { replicas: 2 } };
export const entryPoints: [() => MaraConfig, (c: MaraConfig) => ClusterInfrastructure, (c: MaraConfig, i: ClusterInfrastructure) => PlatformArgs] = [loadConfig, createInfrastructure, platformArgsFromConfig];
export const remoteContext: string = REMOTE_BUILD_CONTEXT;
// The application under its one name, and a consumer written against 0.1.0's names (the mapping, the configuration's
// section, the builders the package's index exported from its old folder components/sirius/) still compiles.
export const appMappings: ((...a: Parameters<typeof applicationArgsFromPlatform>) => ApplicationArgs)[] = [applicationArgsFromPlatform, siriusArgsFromPlatform];
export const appSections = (c: MaraConfig): MaraConfig["application"][] => [c.application, c.sirius];
export const app: [typeof Application, string, number] = [Application, SIRIUS_CONFIG.jwtSecret, siriusWorkloads("statsd").length];
export const mode: AdmissionMode = "deny";
export const policies: KubeObject[] = admissionPolicies({ mode, config: { "ingress-tls": "advisory" } });
export const failing: readonly KubeObject[] = kubernetesFixtures()[0]!.fail;
// @ts-expect-error the mode is one of audit, warn, deny
export const wrongMode: AdmissionMode = "strict";
// A consumer's mock test: the package's mocks, the registrations typed.
export async function mockTest(): Promise<[Registration, string]> {
    const { registrations } = await installMocks({ project: "consumer", stack: "test", config: { "consumer:x": "1" } });
    const cm = new CertManager("cm", {});
    await settle();
    return [find(registrations, "kubernetes:helm.sh/v3:Release", "cm-release"), await promiseOf(cm.namespace)];
}
// @ts-expect-error the options are typed
export const badOptions = () => installMocks({ preview: "yes" });
`;

/** Loads each entry point with plain Node.js and reports what a consumer would rely on at run time. */
const SMOKE = `const fs = require("fs");
const lib = require("mara-platform");
const config = require("mara-platform/config");
const providers = require("mara-platform/providers");
const program = require("mara-platform/program");
const policy = require("mara-platform/policy");
const testing = require("mara-platform/testing");
const packDir = require("path").dirname(require.resolve("mara-platform/policy/pack/PulumiPolicy.yaml"));
let deep = "importable";
try { require("mara-platform/dist/components/eks"); } catch (e) { deep = e.code; }
const remoteContext = lib.REMOTE_BUILD_CONTEXT;
(async () => {
// A component under the package's mocks, run by plain Node.js from dist/: what a consumer's unit test does.
const { registrations } = await testing.installMocks({ project: "consumer", stack: "test" });
const cm = new lib.CertManager("cm", {});
await testing.settle();
// Its ownership guard's provider as Pulumi serialized it, loaded as Pulumi's dynamic-provider host loads it (here, in the
// consumer's project): the modules it needs of the package are named through the package's exports.
const serialized = testing.find(registrations, "pulumi-nodejs:dynamic:Resource", "cm-ownership").inputs.__provider;
const sdkRequire = require("module").createRequire(require.resolve("@pulumi/pulumi"));
const provider = sdkRequire("require-from-string")(serialized).handler();
const mocked = {
    release: testing.find(registrations, "kubernetes:helm.sh/v3:Release", "cm-release").inputs.chart,
    namespace: await testing.promiseOf(cm.namespace),
    // The entry point each of its requires of the package goes through.
    requires: [...new Set(serialized.split('require("mara-platform/').slice(1).map((r) => r.split("/")[0]))],
    guard: ["create", "diff", "update"].filter((m) => typeof provider[m] === "function"),
};
console.log(JSON.stringify({
    components: ["Vpc", "Eks", "Ecr", "Kubeconfig", "Secrets", "IngressControllerImage", "IngressController", "CertManager", "Logstore", "LogAgent", "Prometheus", "Observability", "Application", "Platform"].filter((c) => typeof lib[c] === "function"),
    charts: Object.keys(lib.CHARTS).length,
    configKeys: Object.keys(config.KEYS).length > 50,
    program: typeof program.platformArgsFromConfig,
    application: [typeof program.applicationArgsFromPlatform, program.siriusArgsFromPlatform === program.applicationArgsFromPlatform, typeof lib.siriusWorkloads],
    infraTypes: Object.keys(providers.INFRASTRUCTURE),
    remoteContext: fs.existsSync(require("path").join(remoteContext, "README.md")) ? remoteContext.split(require("path").sep).join("/") : "missing",
    deep,
    admissionObjects: policy.admissionPolicies({ mode: "warn" }).length === 2 * policy.KUBERNETES_RULES.length,
    fixtures: policy.kubernetesFixtures().every((f) => f.pass.length > 0 && f.fail.length > 0),
    pack: fs.readdirSync(packDir).filter((f) => !f.endsWith(".map") && !f.endsWith(".d.ts")).sort(),
    packVersion: require(require("path").join(packDir, "package.json")).version,
    mocked,
}));
})().catch((e) => { console.error(e); process.exit(1); });
`;

describe.skipIf(process.env.SKIP_PACK_TEST === "1")("the npm package", () => {
    let tmp: string;
    let consumer: string;
    let report: PackReport;
    const timings: Record<string, number> = {};

    beforeAll(() => {
        tmp = fs.mkdtempSync(path.join(os.tmpdir(), "mara-pack-"));
        // One real pack (prepack builds dist/); its --json report is the same file list `npm pack --dry-run --json` gives.
        const pack = run("npm", ["pack", "--json", "--pack-destination", tmp], ROOT);
        timings.pack = pack.seconds;
        report = (JSON.parse(pack.stdout) as PackReport[])[0]!;

        consumer = path.join(tmp, "consumer");
        fs.mkdirSync(consumer);
        fs.writeFileSync(path.join(consumer, "package.json"), JSON.stringify({ name: "consumer", version: "0.0.0", private: true }, null, 2));
        // The tarball's pinned @pulumi dependencies come from the npm cache `npm ci` filled. Install scripts are
        // skipped: @pulumi/kubernetes's would try `pulumi plugin install`, which needs the network and a CLI.
        timings.install = run(
            "npm",
            [
                "install",
                path.join(tmp, report.filename),
                `@types/node@${pkg.devDependencies["@types/node"]}`,
                "--no-audit",
                "--no-fund",
                "--prefer-offline",
                "--ignore-scripts",
                "--save-exact",
            ],
            consumer,
        ).seconds;
    }, 300_000);

    afterAll(() => {
        console.log(`pack test timings (s): ${JSON.stringify(timings)}`);
        if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
        // Removing the installed consumer (its node_modules: tens of thousands of files) passed the 60 s hook default
        // at a load average of 23 to 29.
    }, 300_000);

    it("contains the compiled library with declarations and maps, IngressControllerImage's remote build context, the README, the changelog and the docs", () => {
        const files = report.files.map((f) => f.path);
        for (const file of [
            "package.json",
            "README.md",
            "CHANGELOG.md",
            "docs/README.md",
            "dist/components/index.js",
            "dist/components/index.d.ts",
            "dist/components/index.d.ts.map",
            "dist/components/index.js.map",
            "dist/config/index.js",
            "dist/config/index.d.ts",
            "dist/contracts/index.js",
            "dist/contracts/index.d.ts",
            "dist/program/index.js",
            "dist/program/index.d.ts",
            "dist/providers/index.js",
            "dist/providers/index.d.ts",
            "dist/components/docker/README.md",
            // The CRDs of the charts' crds/ directories, which the components apply (components/chartCrds.ts).
            "dist/components/crds/kube-prometheus-stack-88.5.3.json",
            "dist/components/crds/nginx-ingress-2.6.4.json",
            // The Grafana dashboards the components provision (components/grafanaDashboards.ts).
            "dist/components/dashboards/nginx-ingress-controller.json",
            "dist/components/dashboards/bank-of-sirius.json",
            // The policy pack, run by path: pulumi preview --policy-pack node_modules/mara-platform/dist/policy/pack
            // The mocks for consumers' tests, with the simulated cloud they answer from.
            "dist/testing/index.js",
            "dist/testing/index.d.ts",
            "dist/offline/simulatedCloud.js",
            "dist/policy/index.js",
            "dist/policy/pack/index.js",
            "dist/policy/pack/PulumiPolicy.yaml",
            "dist/policy/pack/package.json",
        ]) {
            expect(files).toContain(file);
        }
        for (const js of files.filter((f) => f.endsWith(".js") && f.startsWith("dist/"))) {
            const stem = js.slice(0, -".js".length);
            expect(files, js).toEqual(expect.arrayContaining([`${js}.map`, `${stem}.d.ts`, `${stem}.d.ts.map`]));
        }
    });

    it("contains nothing else: no tests, sources, examples, program or CLI", () => {
        // npm always packs the files package.json names in `bin`, whatever `files` says.
        const binFiles = Object.values<string>(pkg.bin ?? {}).map((b) => b.replace(/^\.\//, ""));
        for (const file of report.files.map((f) => f.path)) {
            const allowed = file === "package.json" || file === "README.md" || file === "CHANGELOG.md" || file.startsWith("docs/") || file.startsWith("dist/") || binFiles.includes(file);
            expect(allowed, file).toBe(true);
            expect(file).not.toMatch(/(^|\/)(test|tests|__tests__|fixtures|examples|cli)\//);
            expect(file).not.toMatch(/\.test\.|\.spec\./);
            expect(file).not.toMatch(/(?<!\.d)\.ts$/);
        }
    });

    it("type-checks a consumer of the components, config, providers, program, policy and testing entry points, and both examples with their tests", () => {
        fs.writeFileSync(path.join(consumer, "consumer.ts"), CONSUMER);
        // Both examples as they are (a Platform from literals; an add-on of your own), now against the installed package
        // instead of the sources their vitest configs alias.
        const files = ["eks-ingress", "external-dns"].flatMap((name) => {
            const example = path.join(ROOT, "examples", name);
            return ["index.ts", ...fs.readdirSync(path.join(example, "test")).filter((f) => f.endsWith(".ts")).map((f) => `test/${f}`)].map((f) => {
                fs.mkdirSync(path.dirname(path.join(consumer, "examples", name, f)), { recursive: true });
                fs.copyFileSync(path.join(example, f), path.join(consumer, "examples", name, f));
                return `examples/${name}/${f}`;
            });
        });
        fs.writeFileSync(
            path.join(consumer, "tsconfig.json"),
            JSON.stringify({
                compilerOptions: {
                    strict: true,
                    target: "ES2022",
                    module: "nodenext",
                    moduleResolution: "nodenext",
                    esModuleInterop: true,
                    skipLibCheck: true,
                    noEmit: true,
                    types: ["node"],
                    // The examples' tests import vitest, which the consumer does not install: take the repository's types.
                    paths: { vitest: [path.join(ROOT, "node_modules", "vitest")] },
                },
                files: ["consumer.ts", ...files],
            }),
        );
        timings.typecheck = run(process.execPath, [TSC, "-p", consumer], consumer).seconds;
    }, 120_000);

    it("loads every entry point with Node.js, runs a component under the package's mocks, and finds IngressControllerImage's remote build context inside the package", () => {
        const { stdout, seconds } = run(process.execPath, ["-e", SMOKE], consumer);
        timings.load = seconds;
        expect(JSON.parse(stdout)).toEqual({
            components: ["Vpc", "Eks", "Ecr", "Kubeconfig", "Secrets", "IngressControllerImage", "IngressController", "CertManager", "Logstore", "LogAgent", "Prometheus", "Observability", "Application", "Platform"],
            // The installed package's catalogue is the sources' one.
            charts: CHART_IDS.length,
            configKeys: true,
            program: "function",
            // The application's mapping, its name before 0.2.0 the same function, and a builder from the package's index.
            application: ["function", true, "function"],
            infraTypes: ["aws", "digitalocean", "linode", "kubeconfig"],
            // Relative to the project, so the image's inputs are the same wherever the project is checked out.
            remoteContext: "node_modules/mara-platform/dist/components/docker",
            deep: "ERR_PACKAGE_PATH_NOT_EXPORTED",
            admissionObjects: true,
            fixtures: true,
            // @pulumi/policy reads the pack's version from the package.json in the directory Pulumi runs it in.
            pack: ["PulumiPolicy.yaml", "index.js", "package.json"],
            packVersion: pkg.version,
            // Pulumi's closure serializer names a module of the package only through its exports: "internal/*" (package.json).
            mocked: { release: "cert-manager", namespace: "cert-manager", requires: ["internal"], guard: ["create", "diff", "update"] },
        });
    }, 60_000);
});
