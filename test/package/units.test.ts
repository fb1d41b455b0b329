/**
 * The add-on units (components/<unit>/, docs/design.md "Layers"): each folder is one add-on under one name — its
 * component class, its docs page and its index — and every key it declares is registered in the key table, the
 * one line outside the folder that makes validation, Pulumi.yaml and the configuration reference read it — and its
 * keys are one section of that reference, as its settings are one section of the validated configuration, named as
 * the unit is.
 */
import * as fs from "fs";
import * as path from "path";
import { describe, expect, it } from "vitest";
import { KEYS, KeySpec, validateConfig } from "../../config";
import { PLATFORM_UNITS } from "../../components/platformUnits";
import { CHARTS, DEFAULTS } from "../../contracts";
import { fixture, TEST_TODAY } from "../support/config";

const ROOT = path.join(__dirname, "..", "..");
const UNITS = fs.readdirSync(path.join(ROOT, "components")).filter((d) => fs.existsSync(path.join(ROOT, "components", d, "component.ts")));
const isSpec = (v: unknown): v is KeySpec<unknown> => typeof v === "object" && v !== null && "key" in v && "type" in v && "group" in v;
/**
 * The keys of a unit that sit in a section other than its own, and why: the ingress controller's Service type is read
 * only on an existing cluster, whose section says what such a stack must set.
 */
const KEYS_IN_ANOTHER_SECTION: Readonly<Record<string, string>> = { "mara:ingressServiceType": "Existing cluster" };
/** The reference's sections that belong to the platform or to a cloud, never to one add-on. */
const SHARED_SECTIONS: readonly string[] = ["Platform", "AWS", "DigitalOcean", "Linode", "Existing cluster", "Charts", "Alerts", "GitOps", "Tear down"];
/** Each unit's section, filled by its case below, so the last case can check that no two units share one. */
const sections = new Map<string, string>();
/** A validated configuration with every section set (an existing cluster's stack, where MetalLB and NFS storage may run). */
const CONFIG = validateConfig({ ...fixture("mara-kubeconfig"), today: TEST_TODAY }).config as unknown as Record<string, unknown>;

describe("add-on units", () => {
    it("are the folders the pilot moved", () => {
        expect(UNITS).toEqual(expect.arrayContaining(["certManager", "metalLb", "logstore", "logAgent", "prometheus", "observability", "nfsStorage", "argoCd", "pulumiOperator", "admissionPolicies", "ingressController", "application"]));
    });

    for (const unit of UNITS) {
        const dir = path.join(ROOT, "components", unit);
        const cls = unit[0]!.toUpperCase() + unit.slice(1);

        it(`${unit}: one name for the folder, the component class, the index and the docs page`, async () => {
            const component = (await import(path.join(dir, "component.ts"))) as Record<string, unknown>;
            expect(typeof component[cls], `components/${unit}/component.ts exports ${cls}`).toBe("function");
            expect(fs.readFileSync(path.join(dir, "index.ts"), "utf8")).toContain('export * from "./component";');
            const page = fs.readFileSync(path.join(ROOT, "docs", "components", `${unit}.md`), "utf8");
            expect(page).toContain(`../../components/${unit}/`);
        });

        // Tests stay in their tiers and are named after the unit (docs/design.md, "Add-on units"): its mock tests are
        // test/components/<unit>.test.ts, so `ls test/*/<unit>.test.ts` finds every tier's tests of it in one hop.
        it(`${unit}: its tests are named after it, its mock tests in test/components/${unit}.test.ts`, () => {
            expect(fs.existsSync(path.join(ROOT, "test", "components", `${unit}.test.ts`)), `test/components/${unit}.test.ts`).toBe(true);
        });

        it(`${unit}: every key it declares is the key table's own entry, and its data is the catalogue's`, async () => {
            const keys = (await import(path.join(dir, "keys.ts"))) as Record<string, Record<string, unknown>>;
            const declared = Object.values(keys).flatMap((table) => Object.entries(table).filter(([, v]) => isSpec(v)));
            expect(declared.length).toBeGreaterThan(0);
            for (const [id, spec] of declared) expect((KEYS as Record<string, unknown>)[id], `${(spec as KeySpec<unknown>).key} in config/keys.ts`).toBe(spec);
        });

        it(`${unit}: its keys are one section of the configuration reference, and its settings the configuration's section ${unit}`, async () => {
            const keys = (await import(path.join(dir, "keys.ts"))) as Record<string, Record<string, unknown>>;
            const specs = Object.values(keys).flatMap((table) => Object.values(table).filter(isSpec));
            const groups = new Set(specs.filter((s) => !(s.key in KEYS_IN_ANOTHER_SECTION)).map((s) => s.group));
            expect([...groups], `the sections of components/${unit}/keys.ts's keys`).toHaveLength(1);
            const [section] = [...groups] as [string];
            expect(SHARED_SECTIONS, `${unit}'s keys are in a section of their own, not the platform's "${section}"`).not.toContain(section);
            sections.set(unit, section);
            for (const s of specs) if (s.key in KEYS_IN_ANOTHER_SECTION) expect(s.group).toBe(KEYS_IN_ANOTHER_SECTION[s.key]);
            expect(CONFIG, "the fixture validates").toBeDefined();
            expect(Object.keys(CONFIG), `MaraConfig.${unit}`).toContain(unit);
        });

        // A unit may have no chart (its defaults.ts then holds only its defaults) or no defaults either (then no
        // defaults.ts): what it has is checked, and what its component reads from the catalogue must be its own data.
        it(`${unit}: its chart pin and defaults are the catalogue's entries, taken from its defaults.ts`, async () => {
            const source = fs.readFileSync(path.join(dir, "component.ts"), "utf8");
            const charts = [...new Set([...source.matchAll(/\bCHARTS\.(\w+)/g)].map((m) => m[1]! as keyof typeof CHARTS))];
            const hasDefaults = unit in DEFAULTS;
            const file = path.join(dir, "defaults.ts");
            if (!fs.existsSync(file)) {
                expect(charts, `components/${unit}/defaults.ts holds the pin of every chart its component installs`).toEqual([]);
                expect(hasDefaults, `components/${unit}/defaults.ts holds DEFAULTS.${unit}`).toBe(false);
                return;
            }
            const data = Object.values((await import(file)) as Record<string, unknown>);
            expect(data.length, `components/${unit}/defaults.ts exports its data`).toBeGreaterThan(0);
            for (const id of charts) expect(data.includes(CHARTS[id]), `the chart pin CHARTS.${id} that ${unit} installs is its defaults.ts's`).toBe(true);
            if (hasDefaults) expect(data.includes((DEFAULTS as Record<string, unknown>)[unit]), `DEFAULTS.${unit} is its defaults.ts's`).toBe(true);
        });
    }

    it("every unit with a place on the Platform is in the Platform's table once, and the table holds nothing else", async () => {
        const listed = [...PLATFORM_UNITS.cluster, ...PLATFORM_UNITS.addOns, ...PLATFORM_UNITS.guards];
        const declared: unknown[] = [];
        for (const unit of UNITS.filter((u) => fs.existsSync(path.join(ROOT, "components", u, "platformUnit.ts")))) {
            const exported = Object.entries((await import(path.join(ROOT, "components", unit, "platformUnit.ts"))) as Record<string, unknown>).filter(([k]) => k.endsWith("_UNIT"));
            expect(exported.map(([k]) => k), `components/${unit}/platformUnit.ts exports one unit`).toHaveLength(1);
            expect(listed.filter((u) => u === exported[0]![1]), `${unit} in components/platformUnits.ts`).toHaveLength(1);
            declared.push(exported[0]![1]);
        }
        expect(declared.length).toBeGreaterThanOrEqual(9);
        expect(listed.filter((u) => !declared.includes(u))).toEqual([]);
    });

    it("no two units share a section of the configuration reference", () => {
        const byUnit = [...sections.entries()];
        expect(byUnit.length, "every unit's section was read").toBe(UNITS.length);
        for (const [unit, section] of byUnit) expect(byUnit.filter(([, s]) => s === section).map(([u]) => u), `the section "${section}"`).toEqual([unit]);
    });
});
