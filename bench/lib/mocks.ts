/**
 * The benchmark's Pulumi mocks. Like the SDK's MockMonitor, which it wraps, they answer every
 * registration from a table of computed outputs; in addition each registration:
 *
 * - is recorded with what the engine would see (parent, provider, dependencies per property),
 * - may be held at a gate first (used to force MARA's one-project-after-another order),
 * - answers only after its simulated creation time (bench/lib/durations.ts), scaled to milliseconds.
 *
 * The SDK sends a registration as soon as the resource's inputs, dependencies, parent and provider
 * are known, and resolves its outputs when the answer comes back; so answering late is all it takes
 * for the SDK's own concurrency to decide how long the whole deployment takes.
 */
import { performance } from "perf_hooks";
import * as pulumi from "@pulumi/pulumi";
import { simulatedDuration } from "./durations";
import { answerCalls, waitForRegistrations } from "../../offline/mockRuntime";
import { computedState, invokeAnswer } from "../../offline/simulatedCloud";

/** One registration as the engine would see it, with its simulated timing. */
export interface BenchRegistration {
    readonly urn: string;
    readonly type: string;
    readonly name: string;
    /** Parent URN ("" for none). */
    readonly parent: string;
    readonly custom: boolean;
    /** A multi-language component (e.g. eks:index:Cluster): created by its provider plugin. */
    readonly remote: boolean;
    /** URN of the provider a custom resource uses ("" for a default provider). */
    readonly provider: string;
    /** Provider URNs by package, as sent for components. */
    readonly providers: Record<string, string>;
    /** URNs this registration waited for (explicit and through inputs). */
    readonly dependencies: string[];
    /** The same, per input property ("" for none). */
    readonly propertyDependencies: Record<string, string[]>;
    /** Inputs as received (only when inputs are recorded). */
    inputs?: Record<string, unknown>;
    /** Simulated creation time in minutes (0 for components and providers). */
    minutes: number;
    /** Whether the duration came from a fallback rule rather than a named one. */
    fallback?: boolean;
    /** Milliseconds since the run started: when the SDK sent the registration... */
    requestedMs: number;
    /** ...when it passed the gate and its simulated work started... */
    startedMs: number;
    /** ...and when the answer was returned. */
    finishedMs: number;
}

/** Options of {@link installBenchMocks}. */
export interface BenchMockOptions {
    /** Config values `ns:key` → string. */
    config: Record<string, string>;
    /** Keys of `config` that were stored encrypted. */
    secretKeys?: string[];
    project?: string;
    stack?: string;
    /** Wall milliseconds per simulated minute; 0 answers at once (program cost runs). */
    msPerMinute: number;
    /**
     * Record inputs: "all", "durations" (only for the types whose duration depends on them: Helm
     * releases by chart, Services by type) or "none". Default: "durations" when msPerMinute > 0.
     */
    recordInputs?: "all" | "durations" | "none";
    /** Awaited before a registration's simulated work starts, e.g. MARA's project barrier. */
    gate?: (reg: BenchRegistration) => Promise<void> | void;
    /** Called when a registration has been answered. */
    onFinish?: (reg: BenchRegistration) => void;
}

/** A running set of bench mocks. */
export interface BenchMocks {
    /** Every registration, in the order the SDK sent them. */
    readonly registrations: BenchRegistration[];
    /** Warnings the program logged (configuration warnings). */
    readonly warnings: string[];
    /** Milliseconds since the mocks were installed. */
    now(): number;
}

/** The URN the SDK's MockMonitor gives a registration (same algorithm, so gates can key on it). */
export function mockUrn(stack: string, project: string, parent: string, type: string, name: string): string {
    let qualified = type;
    if (parent) qualified = `${parent.split("::")[2]!.split("$").pop()}$${type}`;
    return `urn:pulumi:${stack}::${project}::${qualified}::${name}`;
}

/** Strips the `::<id>` of a provider reference. */
export const providerUrn = (ref: string) => (ref ? ref.split("::").slice(0, -1).join("::") : "");

/** URNs of the resource references inside a serialized input value. */
function resourceReferences(value: unknown, out: string[] = []): string[] {
    if (Array.isArray(value)) value.forEach((v) => resourceReferences(v, out));
    else if (value && typeof value === "object") {
        const v = value as Record<string, unknown>;
        if (v[pulumi.runtime.specialSigKey] === pulumi.runtime.specialResourceSig && typeof v.urn === "string") out.push(v.urn);
        else Object.values(v).forEach((x) => resourceReferences(x, out));
    }
    return out;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Installs the mocks; construct the program afterwards and await {@link settle}. */
export async function installBenchMocks(o: BenchMockOptions): Promise<BenchMocks> {
    const project = o.project ?? "mara";
    const stack = o.stack ?? "bench";
    const recordInputs = o.recordInputs ?? (o.msPerMinute > 0 ? "durations" : "none");
    const inputsMatter = (type: string) => type === "kubernetes:helm.sh/v3:Release" || type === "kubernetes:core/v1:Service";
    const registrations: BenchRegistration[] = [];
    const warnings: string[] = [];
    const t0 = performance.now();
    const now = () => performance.now() - t0;
    // The simulated cloud answers in the stack's region, as the tests' mocks do.
    const region = o.config["aws:region"] ?? "us-east-1";

    const mocks: pulumi.runtime.Mocks = {
        newResource(args) {
            const id = args.custom ? `${args.name}-id` : undefined;
            return { id: id as string, state: { ...args.inputs, ...computedState(args, region) } };
        },
        call(args) {
            const answer = invokeAnswer(args, region);
            if (!answer) throw new Error(`the simulated cloud cannot answer ${args.token}; add it to offline/simulatedCloud.ts`);
            return answer;
        },
    };
    pulumi.runtime.setAllConfig(o.config, o.secretKeys);
    await pulumi.runtime.setMocks(mocks, project, stack, false);
    // Configuration warnings go to the report, not to the console.
    (pulumi.log as { warn: (msg: string) => Promise<void> }).warn = (msg: string) => {
        warnings.push(msg);
        return Promise.resolve();
    };

    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const monitor: any = pulumi.runtime.getMonitor();
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const wrap = (original: (req: any, cb: any) => unknown, read: boolean) => (req: any, cb: any) => {
        const requestedMs = now();
        const propertyDependencies: Record<string, string[]> = {};
        const providers: Record<string, string> = {};
        if (!read) {
            // eslint-disable-next-line @typescript-eslint/no-explicit-any
            req.getPropertydependenciesMap().forEach((v: any, k: string) => (propertyDependencies[k] = v.getUrnsList()));
            req.getProvidersMap().forEach((v: string, k: string) => (providers[k] = providerUrn(v)));
            // The SDK leaves resource references out of a remote component's dependencies (it does wait
            // for them, to serialize their URN): e.g. eks.ManagedNodeGroup's `cluster`. Record them too.
            if (req.getRemote()) {
                const object = req.getObject()?.toJavaScript() ?? {};
                for (const [k, v] of Object.entries(object)) {
                    const refs = resourceReferences(v);
                    if (refs.length) propertyDependencies[k] = [...new Set([...(propertyDependencies[k] ?? []), ...refs])];
                }
            }
        }
        const type: string = req.getType();
        const parent: string = req.getParent();
        const reg: BenchRegistration = {
            urn: mockUrn(stack, project, parent, type, req.getName()),
            type,
            name: req.getName(),
            parent,
            custom: read ? true : req.getCustom(),
            remote: read ? false : req.getRemote(),
            provider: providerUrn(req.getProvider()),
            providers,
            dependencies: req.getDependenciesList(),
            propertyDependencies,
            minutes: 0,
            requestedMs,
            startedMs: requestedMs,
            finishedMs: requestedMs,
        };
        if (recordInputs === "all" || (recordInputs === "durations" && inputsMatter(type))) {
            reg.inputs = pulumi.runtime.deserializeProperties(read ? req.getProperties() : req.getObject());
        }
        const d = simulatedDuration(reg);
        reg.minutes = d.minutes;
        if (d.fallback) reg.fallback = true;
        registrations.push(reg);
        const run = async () => {
            if (o.gate) await o.gate(reg);
            reg.startedMs = now();
            const ms = reg.minutes * o.msPerMinute;
            if (ms > 0) await sleep(ms);
            // eslint-disable-next-line @typescript-eslint/no-explicit-any
            return original(req, (err: any, resp: any) => {
                reg.finishedMs = now();
                o.onFinish?.(reg);
                cb(err, resp);
            });
        };
        run().catch((e) => cb(e, undefined));
    };
    monitor.registerResource = wrap(monitor.registerResource.bind(monitor), false);
    monitor.readResource = wrap(monitor.readResource.bind(monitor), true);
    answerCalls(monitor, mocks);
    return { registrations, warnings, now };
}

/** Waits until every registration and invoke the program started has been answered. */
export function settle(): Promise<void> {
    return waitForRegistrations();
}
