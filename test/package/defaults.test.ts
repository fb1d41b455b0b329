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
/** Where an entry of the table is documented, when not as `<Component>Args.<key>` in components/<component>.ts. */
const DOCUMENTED_AS: Partial<Record<`${Component}.${string}`, { iface: string; member: string }>> = {
    "certManager.acmeServer": { iface: "AcmeIssuerArgs", member: "server" },
    "prometheus.scrapeInterval": { iface: "ScrapeTarget", member: "interval" },
    "application.database": { iface: "DatabaseArgs", member: "database" },
    "application.user": { iface: "DatabaseArgs", member: "user" },
    "platform.retainVolumes": { iface: "PlatformStorageArgs", member: "retainVolumes" },
    "logstore.replicas": { iface: "LogstoreReplicas", member: "master" },
};

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
for (const f of fs.readdirSync(path.join(ROOT, "components")).filter((f) => f.endsWith(".ts"))) {
    for (const [k, v] of memberDocs(`components/${f}`)) DOCS.set(k, v);
}

/** How a default appears in prose: `value` in backticks, or a bare number or boolean. */
const stated = (value: unknown) => (typeof value === "string" ? `\`${value}\`` : String(value));
const pascal = (s: string) => s[0]!.toUpperCase() + s.slice(1);

const ENTRIES = (Object.entries(DEFAULTS) as [Component, Record<string, unknown>][]).flatMap(([component, values]) =>
    Object.entries(values).map(([key, value]) => ({ component, key, value })),
);

describe("the defaults table", () => {
    it.each(ENTRIES.map((e) => [`${e.component}.${e.key}`, e] as const))("%s is the default the argument's TSDoc states", (_, e) => {
        const where = DOCUMENTED_AS[`${e.component}.${e.key}`] ?? { iface: `${pascal(e.component)}Args`, member: e.key };
        const doc = DOCS.get(`${where.iface}.${where.member}`);
        expect(doc, `${where.iface}.${where.member} not found`).toBeDefined();
        const value = typeof e.value === "object" ? Object.values(e.value as object)[0] : e.value;
        expect(doc, `${where.iface}.${where.member}`).toMatch(new RegExp(`[Dd]efault:? ${escape(stated(value))}|${escape(stated(value))} \\(default\\)`));
    });

    it("holds every default an argument's TSDoc states", () => {
        const values = new Set(ENTRIES.flatMap((e) => (typeof e.value === "object" ? Object.values(e.value as object) : [e.value])).map(stated));
        const strays: string[] = [];
        for (const [member, doc] of DOCS) {
            for (const m of doc.matchAll(/Default:? (`[^`]+`|\d+|true|false)(?=[.;, )]|$)/g)) if (!values.has(m[1]!)) strays.push(`${member}: ${m[1]}`);
        }
        expect(strays).toEqual([]);
    });
});

function escape(text: string): string {
    return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
