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
import { CHARTS, ChartId } from "../../contracts";

const ROOT = path.join(__dirname, "..", "..");
const DOCS = path.join(ROOT, "docs");
const read = (file: string) => fs.readFileSync(file, "utf8");

/** Component pages; each documents `components/<page>.ts` (or a unit's `components/<page>/component.ts`), class `<Page>` and interface `<Page>Args`. */
const PAGES = [
    "vpc", "eks", "ecr", "doks", "docr", "dnsRecord", "lke", "kubeconfig", "clusterDrain", "secrets", "ingressControllerImage",
    "ingressController", "certManager", "logstore", "logAgent", "prometheus", "observability", "application", "platform",
    "volumeRetention", "admissionPolicies", "argoCd", "pulumiOperator",
];
/** Components that live in a unit named after another: the IngressControllerImage is the ingress controller's image. */
const IN_UNIT: Readonly<Record<string, string>> = { ingressControllerImage: "ingressController/image.ts" };
/** The drain and the retention step have no outputs: their work is what they do at destroy. */
const NO_OUTPUTS = new Set(["clusterDrain", "volumeRetention"]);
const COMPONENTS = Object.fromEntries(
    PAGES.map((page) => {
        const cls = page[0]!.toUpperCase() + page.slice(1);
        // An add-on unit's component is its folder's component.ts (docs/design.md, "Add-on units").
        const file = IN_UNIT[page] ?? (fs.existsSync(path.join(ROOT, "components", page, "component.ts")) ? `${page}/component.ts` : `${page}.ts`);
        return [page, { file, cls, args: `${cls}Args`, noOutputs: NO_OUTPUTS.has(page) }];
    }),
);

/** Provider pages and the key groups of config/keys.ts they document. */
const PROVIDERS: Record<string, string> = { aws: "AWS", digitalocean: "DigitalOcean", linode: "Linode", kubeconfig: "Existing cluster" };

const HEADINGS = ["## Usage", "## Configuration", "## Outputs", "## How to check it worked", "## Destroy notes"];

/** Property names of an interface and the public readonly fields of a class, read from the source. */
function declared(file: string, cls: string, args: string): { args: string[]; outputs: string[] } {
    const src = ts.createSourceFile(file, read(path.join(ROOT, "components", file)), ts.ScriptTarget.ES2022, true);
    const out = { args: [] as string[], outputs: [] as string[] };
    // A component may keep its arguments beside its builders and re-export them (application/component.ts from componentArgs.ts).
    const reexported = src.statements.find(
        (st): st is ts.ImportDeclaration =>
            ts.isImportDeclaration(st) && ts.isStringLiteral(st.moduleSpecifier) && !!st.importClause?.namedBindings && ts.isNamedImports(st.importClause.namedBindings) && st.importClause.namedBindings.elements.some((e) => e.name.text === args),
    );
    if (reexported) out.args = declared(path.join(path.dirname(file), `${(reexported.moduleSpecifier as ts.StringLiteral).text}.ts`), "", args).args;
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
    // The component table is the README's; docs/README.md points there.
    const index = read(path.join(ROOT, "README.md"));

    for (const [page, c] of Object.entries(COMPONENTS)) {
        it(`${c.cls}: linked from the README's table, common headings, every argument and output`, () => {
            expect(index).toContain(`(docs/components/${page}.md)`);
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

        it(`${page}.md states each key's default as the key table does`, () => {
            const text = read(path.join(DOCS, "providers", `${page}.md`));
            const specs = new Map((Object.values(KEYS) as KeySpec<unknown>[]).map((k) => [k.key, k]));
            let checked = 0;
            for (const row of text.split("\n").filter((l) => /^\| `[a-z]+:\w+` \|/.test(l))) {
                const [key, , def] = row.split(" | ").map((c) => c.replace(/^\| /, ""));
                const spec = specs.get(key!.replace(/`/g, ""));
                if (spec?.default === undefined) continue;
                expect(def, `${spec.key} in ${page}.md`).toContain(`\`${spec.type.render(spec.default)}\``);
                checked++;
            }
            if (page !== "kubeconfig") expect(checked).toBeGreaterThan(0);
        });
    }
});

describe("the README", () => {
    const readme = read(path.join(ROOT, "README.md"));

    it("is short, with the front door's sections", () => {
        expect(readme.split("\n").length).toBeLessThanOrEqual(200);
        const headings = readme.split("\n").filter((l) => l.startsWith("## "));
        expect(headings).toEqual(["## Quick start (offline)", "## Deploy to AWS", "## Other clouds", "## Tear down", "## Components", "## Layout", "## Tests"]);
        for (const command of ["npm ci", "npx mara plan --config-file test/fixtures/Pulumi.minimal-aws.yaml", "npm test", ". .toolchain/activate"]) {
            expect(readme).toContain(command);
        }
    });

    it("shows the plan graph `mara plan` draws for the minimal stack (docs/plan.mmd, checked against the program)", () => {
        const block = /```mermaid\n([\s\S]*?)```/.exec(readme)?.[1];
        expect(block).toBe(read(path.join(DOCS, "plan.mmd")));
    });

    it("says nothing that a page in docs/ also says", () => {
        const prose = (text: string) =>
            text
                .replace(/```[\s\S]*?```/g, "")
                .split(/\n\s*\n/)
                .map((p) => p.replace(/\s+/g, " ").trim())
                .filter((p) => p.length > 0);
        const docs = fs.readdirSync(DOCS, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".md")).map((f) => read(path.join(DOCS, f)).replace(/\s+/g, " "));
        // Sentences of the README's paragraphs and table rows, long enough to be more than a name or a link.
        const sentences = prose(readme).flatMap((p) => p.split(/(?<=[.!?])\s+(?=[A-Z`*[(])|\s\|\s/)).filter((s) => s.length >= 50);
        expect(sentences.length).toBeGreaterThan(30);
        const repeated = sentences.filter((s) => docs.some((d) => d.includes(s)));
        expect(repeated).toEqual([]);
    });
});

describe("links in the README and docs/", () => {
    const pages = ["README.md", ...fs.readdirSync(DOCS, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`), "examples/eks-ingress/README.md"];
    const slug = (heading: string) =>
        heading
            .trim()
            .toLowerCase()
            .replace(/[^\w\- ]/g, "")
            .replace(/ /g, "-");
    const anchors = (file: string) => new Set(read(path.join(ROOT, file)).split("\n").filter((l) => /^#+ /.test(l)).map((l) => slug(l.replace(/^#+ /, ""))));

    for (const page of pages) {
        it(`${page}: every relative link names a file that exists, and a heading it has`, () => {
            const text = read(path.join(ROOT, page)).replace(/```[\s\S]*?```/g, "");
            const broken: string[] = [];
            for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
                if (/^[a-z]+:/.test(target!)) continue;
                const [file, anchor] = target!.split("#");
                const resolved = file ? path.relative(ROOT, path.resolve(ROOT, path.dirname(page), file)) : page;
                if (!fs.existsSync(path.join(ROOT, resolved))) broken.push(target!);
                else if (anchor && resolved.endsWith(".md") && !anchors(resolved).has(anchor)) broken.push(target!);
            }
            expect(broken).toEqual([]);
        });
    }
});

describe("chart versions in the docs", () => {
    it("are the catalogue's, on every component page that names one", () => {
        let checked = 0;
        for (const page of fs.readdirSync(path.join(DOCS, "components"))) {
            const text = read(path.join(DOCS, "components", page));
            for (const [, id, chart, version, timeout] of text.matchAll(/`CHARTS\.(\w+)` \(`([^`]+)` ([^,\n()]+),(?: [^,\n()]+,)? (\d+) s\)/g)) {
                const entry = CHARTS[id as ChartId];
                expect(entry, `${page}: CHARTS.${id}`).toBeDefined();
                expect([chart, version, Number(timeout)], `${page}: CHARTS.${id}`).toEqual([entry.chart, entry.version, entry.timeoutSeconds]);
                checked++;
            }
        }
        expect(checked).toBeGreaterThanOrEqual(7);
    });

    it("are the catalogue's in docs/charts.md", () => {
        const rows = read(path.join(DOCS, "charts.md")).split("\n").filter((l) => l.startsWith("| "));
        for (const entry of Object.values(CHARTS)) {
            const row = rows.find((r) => r.includes(`\`${entry.chart}\``));
            expect(row, entry.chart).toBeDefined();
            expect(row!.split(" | ")[2], entry.chart).toBe(entry.version);
        }
    });
});
