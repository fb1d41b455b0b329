/**
 * Pulumi mocks for tests of programs built on the platform: every registration is recorded with what the SDK's own
 * mock monitor does not hand to `newResource` (parent, provider, providers map, dependencies, protect and
 * retain-on-delete), and each resource and data-source lookup is answered by the simulated cloud `mara plan` runs
 * on (offline/simulatedCloud.ts): an EKS cluster's kubeconfig, a Helm release's status, a load balancer's address, a
 * generated password. An invoke nobody answers fails the test, so a new cloud lookup cannot slip in unnoticed.
 *
 * In preview mode the mocks behave like a first `pulumi preview` on an empty stack: custom resources get no ID and
 * none of their computed outputs, so everything derived from them (kubeconfig, repository URL, subnet IDs) is unknown.
 */
import * as pulumi from "@pulumi/pulumi";
import { answerCalls, useLinearStructs, waitForRegistrations } from "../offline/mockRuntime";
import { computedState, invokeAnswer } from "../offline/simulatedCloud";

/** One registered resource, as the engine would see it. */
export interface Registration {
    /** The type token, such as `kubernetes:helm.sh/v3:Release`. */
    type: string;
    /** The resource's name. */
    name: string;
    /** Its URN, once the mock monitor answered. */
    urn?: string;
    /** The parent's URN; "" for a top-level resource. */
    parent: string;
    /** Whether it is a custom resource (a provider's) rather than a component. */
    custom: boolean;
    /** Provider reference `<urn>::<id>`; "" means a default provider. */
    provider: string;
    /** Provider references by package, as sent for components (remote components use these). */
    providers: Record<string, string>;
    /** Explicit and implicit dependencies (URNs). */
    dependencies: string[];
    /** The dependencies of each input property (URNs), by property name. */
    propertyDependencies: Record<string, string[]>;
    /** Inputs as the mock received them (secrets still wrapped; see `unwrapSecrets`). */
    inputs?: Record<string, unknown>;
    /** True for `Resource.get` reads of existing resources. */
    read?: boolean;
    /** Whether `pulumi destroy` must leave it alone (`protect`, set on it or inherited from its parent). */
    protect?: boolean;
    /** Whether deleting it from the stack leaves the object in the cluster (`retainOnDelete`). */
    retainOnDelete?: boolean;
    /** Whether a replacement deletes it before creating the new one (`deleteBeforeReplace`). */
    deleteBeforeReplace?: boolean;
    /** The URNs this resource also answers to (its aliases, and those inherited from its parents); only with `engineUrns`. */
    aliases?: string[];
}

/** Options of {@link installMocks}. */
export interface MockOptions {
    /** Run as a first `pulumi preview` (dry run): no IDs, computed outputs unknown. Default false. */
    preview?: boolean;
    /** Configuration values `namespace:key` → string, replacing any earlier configuration. Default none. */
    config?: Record<string, string>;
    /** Keys of `config` that were stored encrypted (`pulumi config set --secret`); the program reads them as secrets. */
    secretKeys?: string[];
    /** The project's name, as in Pulumi.yaml. Default "mara". */
    project?: string;
    /** The stack's name. Default "dev". */
    stack?: string;
    /**
     * Outputs of your own resource types, or other outputs than the simulated cloud's for one of its types: return
     * the computed outputs for `args` (merged over its inputs and the simulated cloud's), or undefined to leave it to
     * the simulated cloud. Not called in preview mode, where computed outputs are unknown.
     */
    outputs?: (args: pulumi.runtime.MockResourceArgs) => Record<string, unknown> | undefined;
    /** Answers to data-source lookups the simulated cloud does not know (or other answers): undefined to leave it to it. */
    invokes?: (args: pulumi.runtime.MockCallArgs) => Record<string, unknown> | undefined;
    /**
     * Give every resource the URN the engine would: the parent's whole type chain, not only the parent's own type as
     * the SDK's mock monitor does. And have the SDK resolve aliases to URNs itself (as it does for an engine without
     * alias specs, with the engine's rules for aliases inherited from parents), so `aliases` lists what a real update
     * would match old resources against. Default false.
     */
    engineUrns?: boolean;
}

/** What {@link installMocks} records while the program runs. */
export interface RecordedMocks {
    /** Every resource registered or read, in the order the program registered them. */
    readonly registrations: Registration[];
    /** Every data-source lookup (invoke) and component method call, as asked. */
    readonly calls: pulumi.runtime.MockCallArgs[];
}

/** Region of the explicit AWS provider a registration or invoke used, read from the provider's inputs. */
function regionOf(providerRef: string | undefined, regs: readonly Registration[]): string {
    const urn = providerRef?.split("::").slice(0, -1).join("::");
    const provider = regs.find((r) => r.urn === urn);
    return (provider?.inputs?.region as string | undefined) ?? "us-east-1";
}

/** What each option of {@link MockOptions} must be, for callers without TypeScript's checks. */
const OPTION_RULES: Readonly<Record<keyof MockOptions, { allowed: string; ok(v: unknown): boolean }>> = {
    preview: { allowed: "true or false", ok: (v) => typeof v === "boolean" },
    engineUrns: { allowed: "true or false", ok: (v) => typeof v === "boolean" },
    project: { allowed: "a non-empty string", ok: (v) => typeof v === "string" && v.length > 0 },
    stack: { allowed: "a non-empty string", ok: (v) => typeof v === "string" && v.length > 0 },
    config: {
        allowed: "an object of `namespace:key` → string, as `pulumi config` stores every value",
        ok: (v) => !!v && typeof v === "object" && !Array.isArray(v) && Object.values(v).every((x) => typeof x === "string"),
    },
    secretKeys: { allowed: "a list of configuration keys (strings)", ok: (v) => Array.isArray(v) && v.every((x) => typeof x === "string") },
    outputs: { allowed: "a function", ok: (v) => typeof v === "function" },
    invokes: { allowed: "a function", ok: (v) => typeof v === "function" },
};

/** What a value is, for a message: its kind, never the value itself (a configuration value may be a secret). */
const kindOf = (v: unknown): string => (Array.isArray(v) ? "a list" : v === null ? "null" : typeof v === "object" ? "an object of another shape" : `a ${typeof v}`);

/** Refuses options the mocks would otherwise ignore or misread (a misspelt name, a string for a flag), naming the option and what it takes. */
function checkOptions(o: unknown): asserts o is MockOptions {
    const names = Object.keys(OPTION_RULES).join(", ");
    if (typeof o !== "object" || o === null || Array.isArray(o)) throw new TypeError(`installMocks: the options must be an object (${names}); got ${kindOf(o)}.`);
    for (const [name, value] of Object.entries(o)) {
        const rule = (OPTION_RULES as Record<string, { allowed: string; ok(v: unknown): boolean } | undefined>)[name];
        if (!rule) throw new TypeError(`installMocks: there is no option "${name}"; the options are ${names}.`);
        if (value !== undefined && !rule.ok(value)) throw new TypeError(`installMocks: option "${name}" must be ${rule.allowed}; got ${kindOf(value)}.`);
    }
}

/**
 * Installs recording mocks, with the options' configuration; call it before the program or component under test is
 * constructed, and {@link settle} before reading what it registered.
 */
export async function installMocks(o: MockOptions = {}): Promise<RecordedMocks> {
    checkOptions(o);
    const registrations: Registration[] = [];
    const calls: pulumi.runtime.MockCallArgs[] = [];
    const preview = o.preview ?? false;
    const mocks: pulumi.runtime.Mocks = {
        newResource(args) {
            const state = preview ? { ...args.inputs } : { ...args.inputs, ...computedState(args, regionOf(args.provider, registrations)), ...o.outputs?.(args) };
            const reg = registrations.find((r) => r.type === args.type && r.name === args.name && r.inputs === undefined);
            if (reg) reg.inputs = args.inputs;
            // A first preview knows no IDs; an empty ID is what the engine sends for "unknown".
            const id = args.custom && !preview ? `${args.name}-id` : undefined;
            return { id: id as string, state };
        },
        call(args) {
            calls.push(args);
            const answer = o.invokes?.(args) ?? invokeAnswer(args, regionOf(args.provider, registrations));
            if (!answer) {
                throw new Error(
                    `No mock answer for invoke ${args.token}: the simulated cloud (mara-platform's offline/simulatedCloud.ts) does not know it. ` +
                        "Answer it with installMocks({ invokes }).",
                );
            }
            return answer;
        },
    };
    // The platform registers megabytes of CRD schemas; the SDK's own protobuf builders take time that grows with depth.
    useLinearStructs();
    pulumi.runtime.setAllConfig(o.config ?? {}, o.secretKeys);
    await pulumi.runtime.setMocks(mocks, o.project ?? "mara", o.stack ?? "dev", preview);

    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const monitor: any = pulumi.runtime.getMonitor();
    if (o.engineUrns) useEngineUrns(monitor);
    const register = monitor.registerResource.bind(monitor);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    monitor.registerResource = (req: any, cb: any) => {
        const propertyDependencies: Record<string, string[]> = {};
        // eslint-disable-next-line @typescript-eslint/no-explicit-any
        req.getPropertydependenciesMap().forEach((v: any, k: string) => (propertyDependencies[k] = v.getUrnsList()));
        const providers: Record<string, string> = {};
        req.getProvidersMap().forEach((v: string, k: string) => (providers[k] = v));
        const reg: Registration = {
            type: req.getType(),
            name: req.getName(),
            parent: req.getParent(),
            custom: req.getCustom(),
            provider: req.getProvider(),
            providers,
            dependencies: req.getDependenciesList(),
            propertyDependencies,
            protect: req.getProtect() === true,
            retainOnDelete: req.getRetainondelete() === true,
            deleteBeforeReplace: req.getDeletebeforereplace() === true,
            // Without alias specs the SDK sends the aliases as URNs (`aliasURNs`).
            ...(o.engineUrns ? { aliases: req.getAliasurnsList() } : {}),
        };
        registrations.push(reg);
        // eslint-disable-next-line @typescript-eslint/no-explicit-any
        return register(req, (err: any, resp: any) => {
            if (resp) reg.urn = resp.getUrn();
            cb(err, resp);
        });
    };
    const read = monitor.readResource.bind(monitor);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    monitor.readResource = (req: any, cb: any) => {
        const reg: Registration = {
            type: req.getType(),
            name: req.getName(),
            parent: req.getParent(),
            custom: true,
            provider: req.getProvider(),
            providers: {},
            dependencies: req.getDependenciesList(),
            propertyDependencies: {},
            read: true,
        };
        registrations.push(reg);
        // eslint-disable-next-line @typescript-eslint/no-explicit-any
        return read(req, (err: any, resp: any) => {
            if (resp) reg.urn = resp.getUrn();
            cb(err, resp);
        });
    };
    answerCalls(monitor, mocks);
    return { registrations, calls };
}

/** See {@link MockOptions.engineUrns}. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function useEngineUrns(monitor: any): void {
    const project = pulumi.getProject();
    const stack = pulumi.getStack();
    // urn:pulumi:<stack>::<project>::<parent's qualified type>$<type>::<name>; top-level resources have the Stack as
    // parent, whose type the engine leaves out (the mocks create no Stack).
    monitor.newUrn = (parent: string, type: string, name: string) =>
        `urn:pulumi:${stack}::${project}::${parent ? `${parent.split("::")[2]}$` : ""}${type}::${name}`;
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    (require("@pulumi/pulumi/runtime/state") as { getStore(): { supportsAliasSpecs: boolean } }).getStore().supportsAliasSpecs = false;
}

/** Waits until every registration and invoke the program started has been answered. */
export async function settle(): Promise<void> {
    await waitForRegistrations();
}

/** Resolves an Output's value; only for known values (it never resolves for unknown ones in preview). */
export function promiseOf<T>(output: pulumi.Output<T>): Promise<T> {
    return new Promise((resolve) => output.apply((v) => resolve(v)));
}

/** The registrations of one type. */
export const ofType = (regs: readonly Registration[], type: string): Registration[] => regs.filter((r) => r.type === type);

/** The single registration with this type and name; throws, listing what was registered, when there is none. */
export function find(regs: readonly Registration[], type: string, name: string): Registration {
    const r = regs.find((x) => x.type === type && x.name === name);
    if (!r) throw new Error(`no ${type} named ${name}; registered: ${regs.map((x) => `${x.type}::${x.name}`).join(", ")}`);
    return r;
}

/** How the resources that use an explicit provider refer to it: `<urn>::<id>`, as in their `provider` and `providers`. */
export const providerRef = (provider: Registration): string => `${provider.urn}::${provider.name}-id`;
