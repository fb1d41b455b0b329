/**
 * The pieces of Pulumi's internal runtime that mock runs here need and the public mocks API does not offer:
 * answering component method calls, knowing when the program has finished registering, and building the mock
 * monitor's protobuf Structs in linear time. Shared by the offline plan, the test helpers and the benchmarks so
 * the SDK internals they rely on are named in one place (and break in one place when the SDK changes).
 */
import { createRequire } from "module";
import * as pulumi from "@pulumi/pulumi";

// google-protobuf as the SDK loads it: the same module instance, whose builders the SDK's messages call, wherever
// the package manager put it (this package does not depend on it; @pulumi/pulumi does).
const sdkRequire = createRequire(require.resolve("@pulumi/pulumi"));
// eslint-disable-next-line @typescript-eslint/no-require-imports
const provproto = require("@pulumi/pulumi/proto/provider_pb");
const structproto = sdkRequire("google-protobuf/google/protobuf/struct_pb");
// eslint-disable-next-line @typescript-eslint/no-require-imports
const settings: { waitForRPCs(): Promise<void> } = require("@pulumi/pulumi/runtime/settings");

/** The part of `pulumi.runtime.Mocks` that answers a call. */
type CallAnswerer = Pick<pulumi.runtime.Mocks, "call">;

/**
 * Makes the installed mock monitor answer component method calls from `mocks.call`; the SDK's
 * MockMonitor has no `call` of its own, so a component method would otherwise never resolve.
 */
export function answerCalls(monitor: { call?: unknown }, mocks: CallAnswerer): void {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    monitor.call = async (req: any, cb: (err: unknown, resp: unknown) => void) => {
        try {
            const inputs = pulumi.runtime.deserializeProperties(req.getArgs());
            const result = await mocks.call({ token: req.getTok(), provider: req.getProvider(), inputs });
            const resp = new provproto.CallResponse();
            resp.setReturn(structproto.Struct.fromJavaScript(await pulumi.runtime.serializeProperties("call", { result })));
            cb(null, resp);
        } catch (e) {
            cb(e, undefined);
        }
    };
}

/** Waits until every registration and invoke the program started has been answered. */
export function waitForRegistrations(): Promise<void> {
    return settings.waitForRPCs();
}

const jspb: { typeOf(value: unknown): string } = sdkRequire("google-protobuf");

/**
 * The data array of a `google.protobuf.Value`: jspb keeps field number n of a message without a message id at
 * index n - 1 (protocolbuffers/protobuf, js/message.js, `jspb.Message.initialize` and `getIndex_`), and struct.proto
 * numbers the kinds null_value 1, number_value 2, string_value 3, bool_value 4, struct_value 5, list_value 6. The
 * kind is decided by the library's own `goog.typeOf`, as `Value.fromJavaScript` decides it.
 */
function valueData(value: unknown): unknown[] {
    const data: unknown[] = [];
    switch (jspb.typeOf(value)) {
        case "string":
            data[2] = value;
            break;
        case "number":
            data[1] = value;
            break;
        case "boolean":
            data[3] = value;
            break;
        case "null":
            data[0] = 0; // NullValue.NULL_VALUE
            break;
        case "array":
            data[5] = listData(value as unknown[]);
            break;
        case "object":
            data[4] = structData(value as object);
            break;
        default:
            throw new Error("Unexpected struct type.");
    }
    return data;
}

/**
 * A `Struct`'s data: its map field (number 1) as [key, value data] entries, for the keys `for...in` yields, in the
 * order `jspb.Map` keeps them once it has been written (sorted; js/map.js, `toArray`). The library converts a value
 * under `__proto__` (and throws as it would for any key) but its map, a plain object indexed by key, never holds it.
 */
function structData(object: object): unknown[] {
    const entries: [string, unknown[]][] = [];
    for (const key in object) {
        const data = valueData((object as Record<string, unknown>)[key]);
        if (key !== "__proto__") entries.push([key, data]);
    }
    return [entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))];
}

/** A `ListValue`'s data: its repeated field (number 1). */
function listData(array: unknown[]): unknown[] {
    const values: unknown[] = [];
    for (let i = 0; i < array.length; i++) values.push(valueData(array[i]));
    return [values];
}

/** The library's own builders, kept on the linear ones (a module loaded again in the same process sees them there). */
const LIBRARY = Symbol.for("mara.protobufStructBuilders");

/** google-protobuf's own `fromJavaScript` builders, as they were before {@link useLinearStructs}. */
export interface StructBuilders {
    readonly Struct: (object: object) => unknown;
    readonly Value: (value: unknown) => unknown;
    readonly ListValue: (array: unknown[]) => unknown;
}

/**
 * Makes google-protobuf's `Struct`, `Value` and `ListValue.fromJavaScript` build each message from its data array
 * in one pass. The library's own builds bottom-up with setters, and every setter of a message field copies out the
 * whole subtree below it (`setWrapperField` calls the child's `toArray`, which syncs every nested map): time grows
 * with the size of an object times its depth. A CRD's schema is deep, and the program registers a few hundred
 * kilobytes of them; under the mock monitor, which builds a Struct for every request and every answer, that was
 * most of a program run's time (about a second per kube-prometheus-stack CRD set, against tens of milliseconds).
 * The messages are the same: same fields, same serialized bytes (test/program/linearStructs.test.ts compares them
 * with the library's on every Struct a whole program run builds). Only mock runs use it: the real engine's language
 * host never loads this module.
 */
export function useLinearStructs(): void {
    if (structproto.Struct.fromJavaScript[LIBRARY]) return;
    const library: StructBuilders = { Struct: structproto.Struct.fromJavaScript, Value: structproto.Value.fromJavaScript, ListValue: structproto.ListValue.fromJavaScript };
    structproto.Struct.fromJavaScript = Object.assign((object: object) => new structproto.Struct(structData(object)), { [LIBRARY]: library });
    structproto.Value.fromJavaScript = Object.assign((value: unknown) => new structproto.Value(valueData(value)), { [LIBRARY]: library });
    structproto.ListValue.fromJavaScript = Object.assign((array: unknown[]) => new structproto.ListValue(listData(array)), { [LIBRARY]: library });
}

/**
 * Runs `build` with google-protobuf's own builders in place (they call each other through the classes, so all three
 * are swapped), for the test that compares them with the linear ones. `build` must be synchronous.
 */
export function withLibraryStructs<T>(build: () => T): T {
    const linearBuilders: StructBuilders = { Struct: structproto.Struct.fromJavaScript, Value: structproto.Value.fromJavaScript, ListValue: structproto.ListValue.fromJavaScript };
    const library: StructBuilders | undefined = structproto.Struct.fromJavaScript[LIBRARY];
    if (!library) return build();
    const use = (b: StructBuilders) => {
        structproto.Struct.fromJavaScript = b.Struct;
        structproto.Value.fromJavaScript = b.Value;
        structproto.ListValue.fromJavaScript = b.ListValue;
    };
    use(library);
    try {
        return build();
    } finally {
        use(linearBuilders);
    }
}
