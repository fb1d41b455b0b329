/**
 * The module layering of docs/design.md: which top-level module may import which. Read from the sources'
 * import and require statements, so an arrow running the wrong way (a component importing config, bench
 * importing the tests) fails here rather than in review.
 */
import * as fs from "fs";
import * as path from "path";
import { describe, expect, it } from "vitest";
import { files, imports, ROOT } from "./imports";

const MODULES = ["contracts", "config", "policy", "components", "providers", "program", "index.ts", "host", "offline", "testing", "render", "cli", "tools", "bench", "test"] as const;
type Module = (typeof MODULES)[number];

/** What each module may import from the package (itself always). */
const ALLOWED: Readonly<Record<Exclude<Module, "test">, readonly Module[]>> = {
    contracts: [],
    config: ["contracts"],
    // The guardrails' rules: the pack and the admission policies both come from them, so they depend on no component.
    policy: ["contracts"],
    // AdmissionPolicies applies the rules' admission policies.
    components: ["contracts", "policy"],
    providers: ["contracts", "config", "components"],
    program: ["contracts", "config", "components", "providers"],
    "index.ts": ["contracts", "config", "components", "providers", "program"],
    // What the commands and the render both do on the machine: a bounded child process, JSON read from it, the
    // folders they write (their shown paths are config's).
    host: ["contracts", "config"],
    // The offline runner: the real program under Pulumi's mocks, answered by the simulated cloud.
    offline: ["contracts", "config"],
    // The mocks the npm package offers for users' tests (`mara-platform/testing`): the simulated cloud and the mock
    // runtime of offline/, and nothing of the commands.
    testing: ["contracts", "config", "offline"],
    // The GitOps render and its Argo CD sync model: it runs the program offline, and builds the Argo CD objects
    // from the Argo CD unit's own builders (components/argoCd/), which the component applies too.
    render: ["contracts", "config", "components", "host", "offline"],
    cli: ["contracts", "config", "policy", "components", "providers", "program", "index.ts", "host", "offline", "render"],
    // refresh-charts.ts and chartCrds.ts find Helm and the vendored charts with the render's module; the Backstage
    // template is generated from `mara init`'s questions and stack-name rule (cli/).
    tools: ["contracts", "config", "render", "cli"],
    bench: ["contracts", "config", "components", "providers", "program", "index.ts", "offline", "cli"],
};

/**
 * An add-on unit is a folder under components/ with its component (component.ts) beside its configuration half:
 * its keys, its settings and rules, and its mapping onto the component's arguments. Those three files may import
 * config/ (their machinery), and config/ and program/ import them; the component never does. Its defaults and
 * chart pin (defaults.ts) are data, importing nothing, so the catalogue in contracts/ can take them from the unit.
 */
const UNIT_CONFIG_FILES = ["keys.ts", "settings.ts", "args.ts"] as const;
const UNIT_DATA_FILE = "defaults.ts";
const UNITS = fs.readdirSync(path.join(ROOT, "components")).filter((d) => fs.existsSync(path.join(ROOT, "components", d, "component.ts")));
const unitFile = (rel: string): { unit: string; file: string } | undefined => {
    const [top, unit, file, ...rest] = rel.split(/[\\/]/);
    return top === "components" && unit !== undefined && file !== undefined && rest.length === 0 && UNITS.includes(unit) ? { unit, file } : undefined;
};
const isUnitConfig = (rel: string) => (UNIT_CONFIG_FILES as readonly string[]).includes(unitFile(rel)?.file ?? "");
const isUnitData = (rel: string) => unitFile(rel)?.file === UNIT_DATA_FILE;
/** Where a relative import from `file` lands, relative to the root. */
const landing = (file: string, spec: string) => {
    const rel = path.relative(ROOT, path.resolve(ROOT, path.dirname(file), spec));
    return rel.endsWith(".ts") ? rel : `${rel}.ts`;
};

/** The package module a relative import from `file` lands in; undefined for packages and files outside. */
function target(file: string, spec: string): Module | undefined {
    if (!spec.startsWith(".")) return undefined;
    const resolved = path.relative(ROOT, path.resolve(ROOT, path.dirname(file), spec)).split(path.sep);
    const top = resolved[0] === "index" ? "index.ts" : resolved[0];
    return (MODULES as readonly string[]).includes(top!) ? (top as Module) : undefined;
}

/**
 * The arrows an add-on unit adds: its configuration half imports config/, config/ imports the unit's keys and
 * settings (never its component), and contracts/ imports only the unit's data.
 */
function unitException(file: string, spec: string, to: Module): boolean {
    const lands = landing(file, spec);
    if (isUnitConfig(file) && to === "config") return true;
    if (file.startsWith("config") && to === "components") return isUnitConfig(lands) && !lands.endsWith("args.ts");
    if (file.startsWith("contracts") && to === "components") return isUnitData(lands);
    return false;
}

describe("module layering", () => {
    for (const [module, allowed] of Object.entries(ALLOWED) as [Exclude<Module, "test">, readonly Module[]][]) {
        it(`${module} imports only ${allowed.length ? allowed.join(", ") : "itself"}`, () => {
            const wrong = files(module).flatMap((f) =>
                imports(f)
                    .map((spec) => ({ spec, to: target(f, spec) }))
                    .filter(({ spec, to }) => to !== undefined && to !== module && !allowed.includes(to) && !unitException(f, spec, to))
                    .map(({ spec }) => `${f}: ${spec}`),
            );
            expect(wrong).toEqual([]);
        });
    }

    it("an add-on unit's component never reaches its configuration half, and its data imports nothing", () => {
        expect(UNITS).toContain("certManager");
        const wrong = files("components").flatMap((f) =>
            imports(f)
                .filter((spec) => spec.startsWith("."))
                .filter((spec) => (isUnitData(f) ? true : !isUnitConfig(f) && isUnitConfig(landing(f, spec))))
                .map((spec) => `${f}: ${spec}`),
        );
        expect(wrong).toEqual([]);
        for (const unit of UNITS) expect(fs.existsSync(path.join(ROOT, "components", unit, "index.ts")), `components/${unit}/index.ts`).toBe(true);
    });

    it("checks every top-level folder of sources (the examples are packages of their own, dist/ is the build's output)", () => {
        const skipped = ["node_modules", "examples", "dist"];
        const tops = fs.readdirSync(ROOT).filter((e) => !skipped.includes(e) && !e.startsWith(".") && files(e).some((f) => f.endsWith(".ts")));
        expect(tops.filter((e) => !(MODULES as readonly string[]).includes(e))).toEqual([]);
    });

    it("cli/ is the command layer: its root holds the command table alone, every other file a folder of its concern", () => {
        expect(fs.readdirSync(path.join(ROOT, "cli")).filter((e) => e.endsWith(".ts"))).toEqual(["mara.ts"]);
    });

    it("every command is reached the same way: its registration's action requires cli/commands/<its implementation>, nothing else of the CLI", () => {
        const registrations = fs.readdirSync(path.join(ROOT, "cli", "register")).filter((e) => e.endsWith(".ts"));
        expect(registrations.length).toBeGreaterThan(10);
        for (const file of registrations) {
            const required = [...fs.readFileSync(path.join(ROOT, "cli", "register", file), "utf8").matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1]!);
            expect(required.filter((r) => !/^\.\.\/commands\/\w+$/.test(r)), `cli/register/${file}`).toEqual([]);
            for (const r of required) expect(fs.existsSync(path.join(ROOT, "cli", "register", `${r}.ts`)), `${r} from cli/register/${file}`).toBe(true);
        }
    });

    it("sees the imports it checks (a component imports contracts, a provider imports a component)", () => {
        expect(imports("components/platform.ts").map((s) => target("components/platform.ts", s))).toContain("contracts");
        expect(imports("providers/aws.ts").map((s) => target("providers/aws.ts", s))).toContain("components");
        expect(imports("providers/factory.ts")).toEqual(expect.arrayContaining(["./aws", "./kubeconfig"]));
        expect(imports("render/render.ts").map((s) => target("render/render.ts", s))).toEqual(expect.arrayContaining(["offline", "config"]));
        expect(imports("cli/commands/render.ts").map((s) => target("cli/commands/render.ts", s))).toEqual(expect.arrayContaining(["render", "host"]));
    });
});
