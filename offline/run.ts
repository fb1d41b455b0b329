/**
 * Runs the real program offline, as a first `pulumi preview` would, with no CLI, cloud or credentials:
 * Pulumi's mock monitor answers every registration, and a thin wrapper records what the engine would be
 * told — type, name, parent, provider and dependencies — which the mocks alone do not keep.
 *
 * Modelled on the test helper, but product code: no assertions, lookups answered by the same simulated
 * cloud the tests and benchmarks use (an unknown one gets an empty placeholder instead of failing), and
 * log messages captured rather than printed.
 */
import * as pulumi from "@pulumi/pulumi";
import type { RawConfig } from "../config";
import { answerCalls, useLinearStructs, waitForRegistrations } from "./mockRuntime";
import { invokeAnswer } from "./simulatedCloud";
import { withShortStackTraces } from "./stackTraces";

/** One resource the program registered. */
export interface RecordedResource {
    readonly type: string;
    readonly name: string;
    /** URN; assigned when the mock monitor answers. */
    urn: string;
    /** Parent URN; "" at the top level (mocks create no root stack). */
    readonly parent: string;
    /** A custom resource (managed by a provider) rather than a component. */
    readonly custom: boolean;
    /** A component implemented by its provider package (e.g. eks:index:Cluster); its children are not seen here. */
    readonly remote: boolean;
    /** Provider URN for custom resources, "" for a default provider. */
    readonly provider: string;
    /** URNs this resource waits for: explicit dependsOn and inputs taken from other resources. */
    readonly dependencies: readonly string[];
    /** Its inputs as the engine receives them; values unknown on a first preview are `pulumi.isUnknown`. */
    readonly inputs?: Record<string, unknown>;
}

/** Options of {@link runOffline}. */
export interface OfflineOptions {
    /**
     * Run as a first `pulumi preview` (computed outputs unknown, the default), or as `pulumi up` with the computed
     * outputs {@link OfflineOptions.state} gives.
     */
    readonly preview?: boolean;
    /** Computed outputs of a resource beyond its inputs, for a run that is not a preview. */
    readonly state?: (args: pulumi.runtime.MockResourceArgs, region: string) => Record<string, unknown>;
    /** Answers to lookups; the simulated cloud's by default. Undefined for a lookup it does not know. */
    readonly invoke?: (args: pulumi.runtime.MockCallArgs, region: string) => Record<string, unknown> | undefined;
}

/** A message the program logged. */
export interface LoggedMessage {
    readonly severity: "info" | "warn" | "error";
    readonly message: string;
}

/** What an offline run saw. */
export interface OfflineRun {
    readonly resources: RecordedResource[];
    readonly logs: LoggedMessage[];
    /** Invokes that had no placeholder answer (answered with an empty result). */
    readonly unansweredInvokes: string[];
    /** What the program threw, if it failed. */
    readonly error?: unknown;
}

/**
 * Runs `program` under mocks with the given config and records every registration: as a first `pulumi preview`
 * (dry run, computed outputs unknown) by default, or as `pulumi up` with the computed outputs `opts.state` gives.
 * The program's own exception is returned, not thrown, with what it registered before.
 *
 * @param projectDir - the project directory: the Pulumi CLI starts the program there, so relative paths in the
 *   configuration (a kubeconfig, a source checkout) name the same files here as under `pulumi up`.
 * @param opts - preview or not, and the computed outputs and lookup answers of a run that is not a preview.
 */
export async function runOffline(raw: RawConfig, program: () => unknown, projectDir?: string, opts: OfflineOptions = {}): Promise<OfflineRun> {
    const preview = opts.preview ?? true;
    const resources: RecordedResource[] = [];
    const logs: LoggedMessage[] = [];
    const unansweredInvokes: string[] = [];
    const region = raw.values["aws:region"] ?? raw.env.AWS_REGION ?? raw.env.AWS_DEFAULT_REGION ?? "us-east-1";

    const mocks: pulumi.runtime.Mocks = {
        // A first preview knows no IDs and no computed outputs: return the inputs and leave the rest unknown.
        newResource: (args) => {
            if (preview) return { id: undefined as unknown as string, state: { ...args.inputs } };
            return { id: args.custom ? `${args.name}-id` : (undefined as unknown as string), state: { ...args.inputs, ...opts.state?.(args, region) } };
        },
        call: (args) => {
            const answer = (opts.invoke ?? invokeAnswer)(args, region);
            if (answer) return answer;
            if (!unansweredInvokes.includes(args.token)) unansweredInvokes.push(args.token);
            return {};
        },
    };
    useLinearStructs();
    pulumi.runtime.setAllConfig({ ...raw.values }, [...raw.secretKeys]);
    await pulumi.runtime.setMocks(mocks, raw.project, raw.stack, preview);
    recordRegistrations(resources, mocks);

    const restoreLog = captureLog(logs);
    const restoreEnv = overlayEnv(raw.env);
    const restoreCwd = enter(projectDir);
    let error: unknown;
    try {
        await withShortStackTraces(async () => {
            try {
                program();
            } catch (e) {
                error = e;
            }
            try {
                await waitForRegistrations();
            } catch (e) {
                if (error === undefined) error = e;
            }
        });
    } finally {
        restoreCwd();
        restoreEnv();
        restoreLog();
    }
    return { resources, logs, unansweredInvokes, error };
}

/** Wraps the mock monitor so each registration's parent, provider and dependencies are kept. */
function recordRegistrations(resources: RecordedResource[], mocks: pulumi.runtime.Mocks): void {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const monitor: any = pulumi.runtime.getMonitor();
    const register = monitor.registerResource.bind(monitor);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    monitor.registerResource = (req: any, cb: any) => {
        const dependencies = new Set<string>(req.getDependenciesList());
        // eslint-disable-next-line @typescript-eslint/no-explicit-any
        req.getPropertydependenciesMap().forEach((v: any) => v.getUrnsList().forEach((u: string) => dependencies.add(u)));
        const r: RecordedResource = {
            type: req.getType(),
            name: req.getName(),
            urn: "",
            parent: req.getParent(),
            custom: req.getCustom(),
            remote: req.getRemote(),
            provider: providerUrn(req.getProvider()),
            dependencies: [...dependencies],
            inputs: pulumi.runtime.deserializeProperties(req.getObject()) as Record<string, unknown>,
        };
        resources.push(r);
        // eslint-disable-next-line @typescript-eslint/no-explicit-any
        return register(req, (err: any, resp: any) => {
            if (resp) r.urn = resp.getUrn();
            cb(err, resp);
        });
    };
    answerCalls(monitor, mocks);
}

/** A provider reference is `<urn>::<id>`; the ID is unknown in preview, the URN is what identifies it. */
function providerUrn(ref: string): string {
    const i = ref.lastIndexOf("::");
    return ref.startsWith("urn:") && i > 0 ? ref.slice(0, i) : ref;
}

type LogFn = (msg: string) => Promise<void>;

/** Keeps the program's log messages (without an engine the SDK would print them to the console). */
function captureLog(logs: LoggedMessage[]): () => void {
    const log = pulumi.log as unknown as Record<"debug" | LoggedMessage["severity"], LogFn>;
    const saved = { ...log };
    for (const severity of ["debug", "info", "warn", "error"] as const) {
        log[severity] = (message: string) => {
            // The SDK logs every RPC at debug level; only the program's own messages are worth keeping.
            if (severity !== "debug") logs.push({ severity, message });
            return Promise.resolve();
        };
    }
    return () => Object.assign(log, saved);
}

/**
 * The program reads some settings from the environment (AWS_REGION, tokens); make it see the same
 * environment validation saw, and put the process environment back afterwards.
 */
function overlayEnv(env: Readonly<Record<string, string | undefined>>): () => void {
    if (env === process.env) return () => undefined;
    const saved = { ...process.env };
    for (const [k, v] of Object.entries(env)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
    }
    return () => {
        for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
        Object.assign(process.env, saved);
    };
}

/** Makes `dir` the working directory for the run, as the Pulumi CLI does; returns how to go back. */
function enter(dir: string | undefined): () => void {
    const before = process.cwd();
    if (dir === undefined || dir === before) return () => undefined;
    process.chdir(dir);
    return () => process.chdir(before);
}
