/**
 * docs/library.md's test example runs as written: its code, taken from the page, with its imports of the package
 * pointed at the sources they are compiled from (the package test runs the same calls against the installed package).
 * A renamed export or a changed default of `mara-platform/testing` fails here, not in a reader's project.
 */
import * as fs from "fs";
import * as path from "path";
import { transform } from "sucrase";
import { describe, expect, it } from "vitest";

const ROOT = path.join(__dirname, "..", "..");
/** The package's entry points a documented example may import, and the sources they are built from. */
const ENTRY_POINTS: Record<string, string> = {
    "mara-platform": "components",
    "mara-platform/config": "config",
    "mara-platform/providers": "providers",
    "mara-platform/program": "program",
    "mara-platform/testing": "testing",
};

/** The first TypeScript block of the page's section `heading`. */
function example(heading: string): string {
    const page = fs.readFileSync(path.join(ROOT, "docs", "library.md"), "utf8");
    const section = page.slice(page.indexOf(`\n## ${heading}\n`));
    const block = /```ts\n([\s\S]*?)```/.exec(section);
    if (!block) throw new Error(`docs/library.md has no TypeScript block under "## ${heading}"`);
    return block[1]!;
}

/** The example's tests: its code run with `it` collecting them and the package's entry points served from the sources. */
function exampleTests(code: string): [string, () => Promise<void>][] {
    const tests: [string, () => Promise<void>][] = [];
    const { code: js } = transform(code, { transforms: ["typescript", "imports"] });
    const load = (id: string): unknown => {
        if (id === "vitest") return { expect, it: (name: string, fn: () => Promise<void>) => tests.push([name, fn]) };
        const source = ENTRY_POINTS[id];
        if (source === undefined) throw new Error(`the example imports ${id}, which is not one of the package's entry points`);
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        return require(path.join(ROOT, source));
    };
    new Function("require", js)(load);
    return tests;
}

describe("docs/library.md, Testing your program", () => {
    const tests = exampleTests(example("Testing your program"));
    it("has a test", () => expect(tests.length).toBeGreaterThan(0));
    for (const [name, fn] of tests) it(`runs as written: ${name}`, fn);
});
