/**
 * The docs in docs/ ship in the npm package; they must not drift from the code. Each component page keeps
 * the common headings and names every argument and every output the component's code declares; each
 * provider page names every configuration key of its group in config/keys.ts.
 */
import * as fs from "fs";
import * as path from "path";
import * as ts from "typescript";
import { describe, expect, it } from "vitest";
import { KEYS, KeySpec } from "../../config";

const ROOT = path.join(__dirname, "..", "..");
const DOCS = path.join(ROOT, "docs");
const read = (file: string) => fs.readFileSync(file, "utf8");

/** Component pages: page name → source file, class and arguments interface. */
const COMPONENTS: Record<string, { file: string; cls: string; args: string; noOutputs?: boolean }> = {
    vpc: { file: "vpc.ts", cls: "Vpc", args: "VpcArgs" },
    eks: { file: "eks.ts", cls: "Eks", args: "EksArgs" },
    ecr: { file: "ecr.ts", cls: "Ecr", args: "EcrArgs" },
    doks: { file: "doks.ts", cls: "Doks", args: "DoksArgs" },
    docr: { file: "docr.ts", cls: "Docr", args: "DocrArgs" },
    dnsRecord: { file: "dnsRecord.ts", cls: "DnsRecord", args: "DnsRecordArgs" },
    lke: { file: "lke.ts", cls: "Lke", args: "LkeArgs" },
    kubeconfig: { file: "kubeconfig.ts", cls: "Kubeconfig", args: "KubeconfigArgs" },
    // The drain has no outputs: its work is its delete step.
    clusterDrain: { file: "clusterDrain.ts", cls: "ClusterDrain", args: "ClusterDrainArgs", noOutputs: true },
    secrets: { file: "secrets.ts", cls: "Secrets", args: "SecretsArgs" },
    kicImage: { file: "kicImage.ts", cls: "KicImage", args: "KicImageArgs" },
    ingressController: { file: "ingressController.ts", cls: "IngressController", args: "IngressControllerArgs" },
    certManager: { file: "certManager.ts", cls: "CertManager", args: "CertManagerArgs" },
    logstore: { file: "logstore.ts", cls: "Logstore", args: "LogstoreArgs" },
    logAgent: { file: "logAgent.ts", cls: "LogAgent", args: "LogAgentArgs" },
    prometheus: { file: "prometheus.ts", cls: "Prometheus", args: "PrometheusArgs" },
    observability: { file: "observability.ts", cls: "Observability", args: "ObservabilityArgs" },
    application: { file: "application.ts", cls: "Application", args: "ApplicationArgs" },
    platform: { file: "platform.ts", cls: "Platform", args: "PlatformArgs" },
    volumeRetention: { file: "volumeRetention.ts", cls: "VolumeRetention", args: "VolumeRetentionArgs", noOutputs: true },
};

/** Provider pages and the key groups of config/keys.ts they document. */
const PROVIDERS: Record<string, string> = { aws: "AWS", digitalocean: "DigitalOcean", linode: "Linode", kubeconfig: "Existing cluster" };

const HEADINGS = ["## Usage", "## Configuration", "## Outputs", "## How to check it worked", "## Destroy notes"];

/** Property names of an interface and the public readonly fields of a class, read from the source. */
function declared(file: string, cls: string, args: string): { args: string[]; outputs: string[] } {
    const src = ts.createSourceFile(file, read(path.join(ROOT, "components", file)), ts.ScriptTarget.ES2022, true);
    const out = { args: [] as string[], outputs: [] as string[] };
    for (const st of src.statements) {
        if (ts.isInterfaceDeclaration(st) && st.name.text === args) {
            out.args = st.members.filter(ts.isPropertySignature).map((m) => m.name.getText(src));
        }
        if (ts.isClassDeclaration(st) && st.name?.text === cls) {
            out.outputs = st.members
                .filter(ts.isPropertyDeclaration)
                .filter((m) => (ts.getCombinedModifierFlags(m) & ts.ModifierFlags.Public) !== 0)
                .map((m) => m.name.getText(src));
        }
    }
    return out;
}

describe("component docs", () => {
    const index = read(path.join(DOCS, "README.md"));

    for (const [page, c] of Object.entries(COMPONENTS)) {
        it(`${c.cls}: linked from the index, common headings, every argument and output`, () => {
            expect(index).toContain(`(components/${page}.md)`);
            const text = read(path.join(DOCS, "components", `${page}.md`));
            const positions = HEADINGS.map((h) => text.indexOf(`\n${h}\n`));
            expect(positions.every((p) => p > 0), `headings of ${page}.md`).toBe(true);
            expect([...positions].sort((a, b) => a - b)).toEqual(positions);

            const { args, outputs } = declared(c.file, c.cls, c.args);
            expect(args.length, `${c.args} not found`).toBeGreaterThan(0);
            if (!c.noOutputs) expect(outputs.length, `${c.cls} not found`).toBeGreaterThan(0);
            const section = (from: string, to: string) => text.slice(text.indexOf(`\n${from}\n`), text.indexOf(`\n${to}\n`));
            const configuration = section("## Configuration", "## Outputs");
            const outputsSection = section("## Outputs", "## How to check it worked");
            for (const a of args) expect(configuration, `argument ${a} in ${page}.md`).toContain(`\`${a}`);
            for (const o of outputs) expect(outputsSection, `output ${o} in ${page}.md`).toContain(`\`${o}\``);
        });
    }
});

describe("provider docs", () => {
    const index = read(path.join(DOCS, "README.md"));

    for (const [page, group] of Object.entries(PROVIDERS)) {
        it(`${page}.md names every ${group} key`, () => {
            expect(index).toContain(`(providers/${page}.md)`);
            const text = read(path.join(DOCS, "providers", `${page}.md`));
            const keys = (Object.values(KEYS) as KeySpec<unknown>[]).filter((k) => k.group === group);
            expect(keys.length).toBeGreaterThan(0);
            // Linode's MARA Harbor keys are accepted but unused; the page names them by their MARA names.
            for (const k of keys) {
                const names = [k.key, ...k.legacy.map((l) => l.key)];
                expect(names.some((n) => text.includes(`\`${n}\``)), `${k.key} in ${page}.md`).toBe(true);
            }
        });
    }
});
