/**
 * The two pieces of Pulumi's internal runtime that every mock run here needs and the public mocks API
 * does not offer: answering component method calls, and knowing when the program has finished
 * registering. Shared by the offline plan, the test helpers and the benchmarks so the SDK internals they
 * rely on are named in one place (and break in one place when the SDK changes).
 */
import * as pulumi from "@pulumi/pulumi";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const provproto = require("@pulumi/pulumi/proto/provider_pb");
// eslint-disable-next-line @typescript-eslint/no-require-imports
const structproto = require("google-protobuf/google/protobuf/struct_pb");
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
