/**
 * The mock runs build google-protobuf's Structs in one pass (offline/mockRuntime.ts, `useLinearStructs`) instead of with
 * the library's setters, whose time grows with an object's size times its depth. The messages must be the same as the
 * library's: the same serialized bytes, the same object back, the same error for what a Struct cannot hold. Shown on
 * the edges of every kind a Value has, on the CRDs the program registers, and on every Struct a whole program run
 * builds, request and answer.
 */
import * as fs from "fs";
import * as path from "path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { useLinearStructs, withLibraryStructs } from "../../offline/mockRuntime";
import { withClusterAddOns } from "../support/clusterAddOns";
import { fixture } from "../support/config";
import { runProgram } from "../support/program";

interface Message {
    serializeBinary(): Uint8Array;
    toObject(): unknown;
    toJavaScript(): unknown;
}
type Builder = (value: never) => Message;

// eslint-disable-next-line @typescript-eslint/no-require-imports
const structproto = require("google-protobuf/google/protobuf/struct_pb") as Record<"Struct" | "Value" | "ListValue", { fromJavaScript: Builder }>;
const CRDS = path.join(__dirname, "..", "..", "components", "crds");

/** The message the linear builder makes and the one the library makes, as bytes and as what they read back as. */
function both(kind: "Struct" | "Value" | "ListValue", value: unknown) {
    const build = (): Message => (structproto[kind].fromJavaScript as (v: unknown) => Message)(value);
    const linear = build();
    const library = withLibraryStructs(build);
    return { linear, library };
}

function expectSame(kind: "Struct" | "Value" | "ListValue", value: unknown, label: string): void {
    const { linear, library } = both(kind, value);
    expect(Buffer.from(linear.serializeBinary()).equals(Buffer.from(library.serializeBinary())), label).toBe(true);
    expect(linear.toObject(), label).toEqual(library.toObject());
    expect(linear.toJavaScript(), label).toEqual(library.toJavaScript());
}

/** What the library does with `value`: its message's bytes, or the error it throws. */
function outcome(kind: "Struct" | "Value" | "ListValue", value: unknown, library: boolean): string {
    const build = () => Buffer.from((structproto[kind].fromJavaScript as (v: unknown) => Message)(value).serializeBinary()).toString("hex");
    try {
        return library ? withLibraryStructs(build) : build();
    } catch (e) {
        return `throws ${(e as Error).message}`;
    }
}

beforeAll(() => useLinearStructs());

describe("linear Structs: the library's message, built in one pass", () => {
    it("patches the google-protobuf the Pulumi SDK uses, and leaves the library's builders reachable", () => {
        const sdkDir = path.dirname(require.resolve("@pulumi/pulumi/package.json"));
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        expect(require(require.resolve("google-protobuf/google/protobuf/struct_pb", { paths: [sdkDir] }))).toBe(structproto);
        const linear = structproto.Struct.fromJavaScript;
        useLinearStructs();
        expect(structproto.Struct.fromJavaScript, "a second call changes nothing").toBe(linear);
        expect(withLibraryStructs(() => structproto.Struct.fromJavaScript)).not.toBe(linear);
        expect(structproto.Struct.fromJavaScript).toBe(linear);
    });

    it("gives the same bytes and values on the edges of every kind", () => {
        const deep: Record<string, unknown> = {};
        let node = deep;
        for (let i = 0; i < 60; i++) node = (node[`level${i}`] = { list: [i, `${i}`, i % 2 === 0, null] }) as Record<string, unknown>;
        const inherited = Object.create({ inheritedKey: "from the prototype" }) as Record<string, unknown>;
        inherited.own = 1;
        const values: Record<string, unknown> = {
            "empty object": {},
            "empty string": { a: "" },
            zero: { a: 0 },
            "negative zero": { a: -0 },
            "not a number": { a: NaN },
            infinities: { a: Infinity, b: -Infinity },
            "largest and smallest doubles": { a: Number.MAX_VALUE, b: Number.MIN_VALUE, c: Number.MAX_SAFE_INTEGER + 2 },
            booleans: { t: true, f: false },
            null: { a: null },
            "empty lists": { a: [], b: [[]], c: [{}], d: [[], [[]]] },
            "lists of every kind": { a: ["x", 1, true, null, { b: [] }, [2]] },
            "unicode keys and values": { "ü": "ß", "\u{1F600}": "\u{1F600}", lone: "\ud800", "": "empty key" },
            "keys that look like indices, in any order": { 10: "a", 2: "b", x: "c", 1: "d" },
            "keys named like Object's own": JSON.parse('{"__proto__": {"a": 1}, "constructor": "c", "toString": "t", "hasOwnProperty": 1}') as unknown,
            "a key inherited from the prototype": inherited,
            "sixty levels deep": deep,
            "a long string": { a: "x".repeat(100_000) },
            "a Date (an object without enumerable keys)": { a: new Date(0) },
        };
        for (const [label, value] of Object.entries(values)) {
            expectSame("Struct", value, label);
            expectSame("Value", value, `${label}, as a Value`);
            expectSame("ListValue", [value, value], `${label}, in a list`);
        }
        for (const scalar of ["s", "", 0, -0, 1.5, NaN, true, false, null]) expectSame("Value", scalar, `the Value ${String(scalar)}`);
        // Struct.fromJavaScript walks whatever it is given with for...in: a string's indices, nothing of null.
        expectSame("Struct", "ab", "a string as a Struct");
        expectSame("Struct", null, "null as a Struct");
    });

    it("refuses what a Struct cannot hold with the library's error", () => {
        const refused: Record<string, unknown> = {
            undefined: { a: undefined },
            "undefined in a list": [1, undefined],
            "a function": { f: () => 1 },
            "a symbol": { s: Symbol("s") },
            "a bigint": { n: 10n },
        };
        for (const [label, value] of Object.entries(refused)) {
            for (const kind of ["Struct", "Value", "ListValue"] as const) {
                const input = kind === "ListValue" ? [value] : value;
                const library = outcome(kind, input, true);
                expect(library, `${label} (${kind})`).toMatch(/^throws /);
                expect(outcome(kind, input, false), `${label} (${kind})`).toBe(library);
            }
        }
    });

    it("gives the same bytes for the CRDs the program registers", () => {
        const files = fs.readdirSync(CRDS).filter((f) => f.endsWith(".json"));
        expect(files.length).toBeGreaterThan(0);
        for (const f of files) {
            const crds = JSON.parse(fs.readFileSync(path.join(CRDS, f), "utf8")) as unknown;
            expectSame("Struct", { crds }, f);
        }
    }, 120_000);
});

describe("linear Structs in a whole program run", () => {
    const spy = vi.spyOn(structproto.Struct, "fromJavaScript");
    let built: { value: unknown; message: Message }[] = [];
    let error: unknown;
    beforeAll(async () => {
        // The stack with the most objects of its own: an existing cluster with MetalLB, NFS and every add-on's CRDs.
        const run = await runProgram(withClusterAddOns(fixture("mara-kubeconfig", { secrets: { "mara:grafanaAdminPassword": "grafana-pw", "sirius:accounts_pwd": "accounts-pw" } }), { bgp: true }));
        error = run.error;
        built = spy.mock.calls.map((call, i) => ({ value: call[0], message: spy.mock.results[i]!.value as Message }));
        spy.mockRestore();
    }, 300_000);
    afterAll(() => spy.mockRestore());

    it("builds every request's and every answer's Struct as the library would", () => {
        expect(error).toBeUndefined();
        // Every registration sends its inputs and gets its state back: hundreds of Structs, CRDs among them.
        expect(built.length).toBeGreaterThan(300);
        const library = structproto.Struct.fromJavaScript;
        let differing = 0;
        for (const { value, message } of built) {
            const expected = withLibraryStructs(() => library(value as never));
            if (!Buffer.from(message.serializeBinary()).equals(Buffer.from(expected.serializeBinary()))) differing++;
        }
        expect(differing).toBe(0);
        expect(built.some(({ value }) => JSON.stringify(value).includes('"kind":"CustomResourceDefinition"'))).toBe(true);
    }, 300_000);
});
