/**
 * The two entry points of this repository stay apart: package.json describes the npm library (dist/), and
 * Pulumi.yaml names the program (index.ts). Fast checks of the manifests; test/package/pack.test.ts builds,
 * packs and installs the real thing.
 */
import * as fs from "fs";
import * as path from "path";
import * as ts from "typescript";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";

const ROOT = path.join(__dirname, "..", "..");
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8"));
const rel = (file: string) => path.relative(ROOT, file).split(path.sep).join("/");

/** The source files `npm run build` compiles, as tsc itself reads tsconfig.build.json. */
function buildSources(): string[] {
    const parsed = ts.getParsedCommandLineOfConfigFile(path.join(ROOT, "tsconfig.build.json"), {}, {
        ...ts.sys,
        onUnRecoverableConfigFileDiagnostic: (d) => {
            throw new Error(ts.flattenDiagnosticMessageText(d.messageText, "\n"));
        },
    });
    expect(parsed!.errors).toEqual([]);
    return parsed!.fileNames.map(rel);
}

describe("entry points", () => {
    it("Pulumi.yaml runs the program in index.ts, whatever package.json says", () => {
        // Without `main`, Pulumi's Node.js runtime would take package.json `exports` — the library — as the program.
        const project = parse(fs.readFileSync(path.join(ROOT, "Pulumi.yaml"), "utf8"));
        expect(project.main).toBe("index.ts");
        expect(fs.existsSync(path.join(ROOT, project.main))).toBe(true);
    });

    it("package.json points main, types and exports at the compiled library", () => {
        expect(pkg.main).toBe("dist/components/index.js");
        expect(pkg.types).toBe("dist/components/index.d.ts");
        expect(pkg.exports["."]).toEqual({
            types: "./dist/components/index.d.ts",
            require: "./dist/components/index.js",
            default: "./dist/components/index.js",
        });
        for (const sub of ["config", "providers", "program"]) {
            expect(pkg.exports[`./${sub}`]).toEqual({ types: `./dist/${sub}/index.d.ts`, require: `./dist/${sub}/index.js`, default: `./dist/${sub}/index.js` });
        }
        expect(pkg.exports["./package.json"]).toBe("./package.json");
    });

    it("every exported file is compiled from a source the build includes", () => {
        const sources = buildSources();
        const targets = Object.values(pkg.exports as Record<string, string | Record<string, string>>)
            .flatMap((t) => (typeof t === "string" ? [t] : Object.values(t)))
            .filter((t) => t.startsWith("./dist/") && /\.(js|d\.ts)$/.test(t));
        // Data files exported as they are (the policy pack's PulumiPolicy.yaml) are copied by the build script.
        for (const target of targets) {
            const source = target.replace(/^\.\/dist\//, "").replace(/\.d\.ts$|\.js$/, ".ts");
            expect(sources, target).toContain(source);
        }
    });

    it("builds the library only: no program, CLI, tests or examples", () => {
        const sources = buildSources();
        expect(sources.length).toBeGreaterThan(20);
        // testing/ is the mocks for consumers' tests; the two modules of offline/ it imports come in through the import.
        for (const file of sources) expect(file).toMatch(/^(components|contracts|providers|config|program|policy|testing)\//);
    });

    it("packs dist and the docs, builds before packing, and keeps the Node.js requirement", () => {
        expect(pkg.files).toEqual(["dist", "README.md", "CHANGELOG.md", "docs"]);
        expect(pkg.scripts.prepack).toBe("npm run build");
        expect(pkg.scripts.build).toContain("tsc -p tsconfig.build.json");
        // IngressControllerImage reads its Dockerfile from next to the compiled module.
        expect(pkg.scripts.build).toContain("cpSync('components/docker','dist/components/docker'");
        // The Prometheus and IngressController components read their charts' CRDs, and the dashboards, the same way.
        expect(pkg.scripts.build).toContain("cpSync('components/crds','dist/components/crds'");
        expect(pkg.scripts.build).toContain("cpSync('components/dashboards','dist/components/dashboards'");
        // Node 24 LTS is the target and 22 the oldest line still maintained; 22.22.2 and 24.15.0 are the floors
        // the prompt library (@inquirer/prompts 8) declares, the highest of any runtime dependency.
        expect(pkg.engines.node).toBe("^22.22.2 || >=24.15.0");
    });
});
