/**
 * One source for each default: the table in contracts/defaults.ts. The TSDoc of each component argument
 * and the argument's row on its docs page state the same value as the table, and no argument documents
 * a default the table does not hold (a literal written into a component instead of read from the table).
 */
import * as fs from "fs";
import * as path from "path";
import * as ts from "typescript";
import { describe, expect, it } from "vitest";
import { DEFAULTS } from "../../contracts";

const ROOT = path.join(__dirname, "..", "..");
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), "utf8");

type Component = keyof typeof DEFAULTS;
/** One default: `key` is the argument, or `argument.field` inside an object-valued one. */
interface Entry {
    readonly component: Component;
    readonly key: string;
    readonly value: unknown;
}

const ENTRIES: Entry[] = (Object.entries(DEFAULTS) as [Component, Record<string, unknown>][]).flatMap(([component, values]) =>
    Object.entries(values).flatMap(([key, value]) =>
        value !== null && typeof value === "object"
            ? Object.entries(value).map(([field, v]) => ({ component, key: `${key}.${field}`, value: v }))
            : [{ component, key, value }],
    ),
);

/** Where an entry's TSDoc is, when not `<Component>Args.<key>` (a field's: `<Component><Key>.<field>`). */
const DOCUMENTED_AS: Readonly<Record<string, string>> = {
    "certManager.acmeServer": "AcmeIssuerArgs.server",
    "prometheus.scrapeInterval": "ScrapeTarget.interval",
    "application.database": "DatabaseArgs.database",
    "application.user": "DatabaseArgs.user",
    "platform.retainVolumes": "PlatformStorageArgs.retainVolumes",
    "platform.admissionScope": "PlatformAdmissionPoliciesArgs.scope",
    "prometheus.alerting.criticalRepeatInterval": "AlertingArgs.criticalRepeatInterval",
    "prometheus.alerting.warningRepeatInterval": "AlertingArgs.warningRepeatInterval",
    "prometheus.alerting.emailRequireTls": "EmailReceiverArgs.requireTls",
};

/** The row of an entry on its component's docs page, when not the entry's own key. */
const DOCS_ROW: Readonly<Record<string, string>> = {
    "certManager.acmeServer": "acme.server",
    "application.database": "accountsDb",
    "application.user": "accountsDb",
    "platform.retainVolumes": "storage",
    "platform.admissionScope": "admissionPolicies",
    "prometheus.scrapeInterval": "ingressControllerMetrics",
    "prometheus.alerting.criticalRepeatInterval": "alerting",
    "prometheus.alerting.warningRepeatInterval": "alerting",
    "prometheus.alerting.emailRequireTls": "alerting",
};

const pascal = (s: string) => s[0]!.toUpperCase() + s.slice(1);

/** The component an entry of the table is named for, where the table also keeps an earlier name (`kicImage`, deprecated, until 1.0.0). */
const COMPONENT_OF: Readonly<Record<string, string>> = { kicImage: "ingressControllerImage" };
const componentOf = (e: Entry) => COMPONENT_OF[e.component] ?? e.component;

function tsdocMember(e: Entry): string {
    const documented = DOCUMENTED_AS[`${e.component}.${e.key}`];
    if (documented) return documented;
    const [arg, field] = e.key.split(".");
    return field ? `${pascal(componentOf(e))}${pascal(arg!)}.${field}` : `${pascal(componentOf(e))}Args.${arg}`;
}

/** The doc comment of every property of every interface in a file, by `Interface.member`. */
function memberDocs(file: string): Map<string, string> {
    const src = ts.createSourceFile(file, read(file), ts.ScriptTarget.ES2022, true);
    const out = new Map<string, string>();
    for (const st of src.statements) {
        if (!ts.isInterfaceDeclaration(st)) continue;
        for (const m of st.members) {
            if (!ts.isPropertySignature(m)) continue;
            const doc = ts.getJSDocCommentsAndTags(m).map((d) => d.getText(src)).join(" ").replace(/\s*\*\s*/g, " ");
            out.set(`${st.name.text}.${m.name.getText(src)}`, doc);
        }
    }
    return out;
}

const DOCS = new Map<string, string>();
// The components, the add-on units' folders (components/<unit>/), the alerting arguments the Prometheus component
// takes (components/alerts/); the Application's arguments sit beside its builders (components/application/componentArgs.ts).
const UNIT_DIRS = fs.readdirSync(path.join(ROOT, "components")).filter((d) => fs.existsSync(path.join(ROOT, "components", d, "component.ts"))).map((d) => `components/${d}`);
for (const dir of ["components", ...UNIT_DIRS, "components/alerts"]) {
    for (const f of fs.readdirSync(path.join(ROOT, dir)).filter((f) => f.endsWith(".ts"))) {
        for (const [k, v] of memberDocs(`${dir}/${f}`)) DOCS.set(k, v);
    }
}

/** How a default appears in prose: `value` in backticks, or a bare number or boolean. */
const stated = (value: unknown) => (typeof value === "string" ? `\`${value}\`` : String(value));
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The cells after the first of the row for `arg` in a docs page's argument table. */
function docsRow(page: string, arg: string): string | undefined {
    const row = read(`docs/components/${page}.md`)
        .split("\n")
        .find((l) => l.startsWith(`| \`${arg}\` |`));
    return row?.split(" | ").slice(1).join(" | ");
}

const CASES = ENTRIES.map((e) => [`${e.component}.${e.key}`, e] as const);

describe("the defaults table", () => {
    it.each(CASES)("%s is the default the argument's TSDoc states", (_, e) => {
        const member = tsdocMember(e);
        const doc = DOCS.get(member);
        expect(doc, `${member} not found`).toBeDefined();
        expect(doc, member).toMatch(new RegExp(`[Dd]efault:? ${escape(stated(e.value))}|${escape(stated(e.value))} \\(default\\)`));
    });

    it.each(CASES)("%s is the default the component's docs page states", (id, e) => {
        const row = DOCS_ROW[id] ?? e.key;
        const cells = docsRow(componentOf(e), row);
        expect(cells, `docs/components/${componentOf(e)}.md has no row for ${row}`).toBeDefined();
        expect(cells).toContain(stated(e.value));
    });

    it("holds every default an argument's TSDoc states", () => {
        const values = new Set(ENTRIES.map((e) => stated(e.value)));
        const strays: string[] = [];
        for (const [member, doc] of DOCS) {
            for (const m of doc.matchAll(/Default:? (`[^`]+`|\d+|true|false)(?=[.;, )]|$)/g)) if (!values.has(m[1]!)) strays.push(`${member}: ${m[1]}`);
        }
        expect(strays).toEqual([]);
    });
});
